"""What the store keeps about one member of a server, and forgetting them (docs/privacy.md).

Forgetting a member rewrites every row of that server that names them so that it names an
anonymous placeholder instead: a small positive id (1, 2, ... per server, below any Discord
id, which is a snowflake far above `FORGOTTEN_IDS_END`), shown as "anon-1", "anon-2"... The
rows stay, so the books still balance and other players' hands, replays and statistics still
read: the ledger's rows, the hands' results and event logs, ratings and frozen standings,
tournament entries. The member's chips go back to the server's bank (one ledger row from the
placeholder to the mint), their own choices go (their `/fair word`, their ping setting), and
the words recorded in closed tables' hands stay, under the placeholder: they are part of the
proof every player of those tables may check (docs/fairness.md).

A member seated at an open table (a practice table too) or entered in a tournament not over
is refused (`ForgetRefused`): those rows belong to a game in play, which its process holds in
memory. One transaction, written once for both databases (`bot.store.sql`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.store.driver import Driver
from bot.store.errors import StoreError
from bot.store.ledger import BALANCE, MINT_ACCOUNT, USER, Account, Tx
from bot.store.sql import Body, Statement

#: placeholder ids are 1 .. FORGOTTEN_IDS_END - 1 (a Discord id is at least 2**22 * 1000)
FORGOTTEN_IDS_END = 1 << 22
#: the ledger reason of a forgotten member's chips going back to the server's bank
REASON_FORGET = "forget"


def is_forgotten(user: int) -> bool:
    """Whether `user` is the placeholder of a forgotten member."""
    return 0 < user < FORGOTTEN_IDS_END


def forgotten_name(user: int) -> str:
    """The name shown for a placeholder: "anon-1" (the same in every language)."""
    return f"anon-{user}"


class ForgetRefused(StoreError):
    """The member is at an open table or in a tournament not over: forget them afterwards."""

    def __init__(self, reason: str) -> None:
        self.reason = reason  # "seated" or "tournament"
        super().__init__(f"forget_refused_{reason}")


@dataclass(frozen=True, slots=True)
class MemberData:
    """What the store keeps about one member on one server (`/privacy`)."""

    balance: int | None  # None: no account
    ledger_rows: int  # chip movements to or from them
    hands: int  # finished hands they played
    rated_seasons: int  # seasons with a rating of theirs
    tournaments: int  # tournaments they entered
    word: bool  # a `/fair word` is set
    pings_off: bool  # they turned turn pings off

    @property
    def anything(self) -> bool:
        return self.balance is not None or self.word or self.pings_off or self.ledger_rows > 0


@dataclass(frozen=True, slots=True)
class Forgotten:
    """The outcome of forgetting a member: their placeholder and the chips returned."""

    placeholder: int
    chips_returned: int


ABOUT = """
SELECT (SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?),
       (SELECT COUNT(*) FROM ledger WHERE guild_id = ?
           AND ((src_kind = 'user' AND src_id = ?) OR (dst_kind = 'user' AND dst_id = ?))),
       (SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND user_id = ?),
       (SELECT COUNT(*) FROM tournament_entries e JOIN tournaments t ON t.id = e.tournament_id
           WHERE t.guild_id = ? AND e.user_id = ?),
       (SELECT COUNT(*) FROM fair_words WHERE guild_id = ? AND user_id = ?),
       (SELECT COUNT(*) FROM pings_off WHERE guild_id = ? AND user_id = ?)
"""
HANDS = "SELECT COUNT(*) FROM hands h WHERE h.guild_id = ? AND {played}"
SEATED = "SELECT id FROM tables WHERE guild_id = ? AND status != 'closed' AND {seated}"
IN_TOURNAMENT = (
    "SELECT t.id FROM tournament_entries e JOIN tournaments t ON t.id = e.tournament_id"
    " WHERE t.guild_id = ? AND e.user_id = ? AND t.status IN ('open', 'running')"
)
NEXT_PLACEHOLDER = (
    "SELECT CAST(COALESCE(MAX(user_id), 0) + 1 AS BIGINT) FROM accounts"
    f" WHERE guild_id = ? AND user_id > 0 AND user_id < {FORGOTTEN_IDS_END}"
)
EMPTY_ACCOUNT = "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, 0, ?)"
#: the integer columns naming a member: (table, column, extra condition), each of one server
ID_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("accounts", "user_id", ""),
    ("ledger", "src_id", " AND src_kind = 'user'"),
    ("ledger", "dst_id", " AND dst_kind = 'user'"),
    ("ledger", '"by"', ""),
    ("servers", "updated_by", ""),
    ("stakes_changes", '"by"', ""),
    ("player_stats", "user_id", ""),
    ("ratings", "user_id", ""),
    ("rating_history", "user_id", ""),
    ("season_standings", "user_id", ""),
)
#: the text columns (JSON, or a grant's note) that may hold a member's id, by table
TEXT_COLUMNS: dict[str, tuple[str, ...]] = {
    "tables": ("seats", "state", "meta"),
    "hands": ("events", "result", "pots_won", "closes", "biggest_pot", "words"),
    "tournaments": ("state",),
    "ledger": ("note",),
}
#: the member's own settings, deleted
DELETED = ("fair_words", "pings_off")
ENTRIES = (
    "UPDATE tournament_entries SET user_id = ?, lang = NULL WHERE user_id = ?"
    " AND tournament_id IN (SELECT id FROM tournaments WHERE guild_id = ?)"
)


def _replace_id(text: str, user: int, placeholder: int) -> str:
    """`text` with every whole number `user` written as `placeholder` (JSON stays JSON)."""
    return re.sub(rf"(?<![0-9]){user}(?![0-9])", str(placeholder), text)


def _rewrite_text(tx: Tx, table: str, columns: tuple[str, ...], guild: int, user: int,
                  placeholder: int) -> Body[None]:
    """Rewrite the rows of `table` on this server whose `columns` mention `user`."""
    pattern = f"%{user}%"
    where = " OR ".join(f"{c} LIKE ?" for c in columns)
    rows = yield Statement(
        f"SELECT id, {', '.join(columns)} FROM {table} WHERE guild_id = ? AND ({where})"
        + tx.dialect.lock(),
        (guild, *[pattern] * len(columns)),
    )
    sets = ", ".join(f"{c} = ?" for c in columns)
    updates = []
    for row in rows:
        values = [None if v is None else _replace_id(str(v), user, placeholder) for v in row[1:]]
        updates.append((*values, row[0]))
    if updates:
        yield Statement(f"UPDATE {table} SET {sets} WHERE id = ?", updates, many=True)


def forget_body(tx: Tx, guild: int, user: int) -> Body[Forgotten]:
    """The transaction: refuse a member in a game in play, else put a placeholder in every row
    of this server that names them, return their chips to the bank, delete their settings."""
    seated = SEATED.format(seated=tx.dialect.json_array_has.format(column="seats"))
    if (yield Statement(seated, (guild, user))):
        raise ForgetRefused("seated")
    if (yield Statement(IN_TOURNAMENT, (guild, user))):
        raise ForgetRefused("tournament")
    placeholder = int((yield Statement(NEXT_PLACEHOLDER, (guild,)))[0][0])
    account = yield Statement(BALANCE, (guild, user))
    balance = int(account[0][0]) if account else 0
    if not account:  # the placeholder gets an (empty) account all the same: it is taken
        yield Statement(EMPTY_ACCOUNT, (guild, placeholder, tx.now))
    for table, column, condition in ID_COLUMNS:
        yield Statement(
            f"UPDATE {table} SET {column} = ? WHERE guild_id = ? AND {column} = ?{condition}",
            (placeholder, guild, user),
        )
    yield Statement(ENTRIES, (placeholder, user, guild))
    for table, columns in TEXT_COLUMNS.items():
        yield from _rewrite_text(tx, table, columns, guild, user, placeholder)
    for table in DELETED:
        yield Statement(f"DELETE FROM {table} WHERE guild_id = ? AND user_id = ?", (guild, user))
    if balance:
        yield from tx.add_to_user(guild, placeholder, -balance)
        tx.record(guild, Account(USER, placeholder), MINT_ACCOUNT, balance, REASON_FORGET)
    return Forgotten(placeholder, balance)


class PrivacyMixin(Driver):
    """What is kept about a member, and forgetting them (both databases)."""

    async def member_data(self, guild: int, user: int) -> MemberData:
        """What this server's rows hold about `user` (`/privacy`)."""
        (row,) = await self.query(ABOUT, (guild, user, guild, user, user, *(guild, user) * 4))
        played = self.dialect.json_has_key.format(column="h.result")
        (hands,) = await self.query(HANDS.format(played=played), (guild, str(user)))
        return MemberData(
            balance=None if row[0] is None else int(row[0]), ledger_rows=int(row[1]),
            hands=int(hands[0]), rated_seasons=int(row[2]), tournaments=int(row[3]),
            word=bool(row[4]), pings_off=bool(row[5]),
        )

    async def forget_member(self, guild: int, user: int) -> Forgotten:
        """Forget `user` on this server in one transaction (see the module docstring);
        `ForgetRefused` while they are at an open table or in a tournament not over."""
        return await self._transaction(lambda tx: forget_body(tx, guild, user))
