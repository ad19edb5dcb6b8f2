"""The plain values the store takes and returns (no SQL here)."""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine.rules import Rules
from bot.fairness.secret import Commitment, TableSecret

#: a ledger reason is a short lowercase identifier (ante, bet, pot, card_payment, ...)
REASON_RE = re.compile(r"[a-z][a-z_]{0,31}")

#: reasons the store itself writes
REASON_START = "start"  # the starting balance of a new account (minted)
REASON_DAILY = "daily"  # a daily claim (minted)
REASON_GRANT = "grant"  # an admin grant (minted)
REASON_REMOVE = "remove"  # an admin removal (burned)
REASON_GIVE = "give"  # a member's gift to another member (user to user)
REASON_BUY_IN = "buy_in"  # a tournament entry (user to the tournament's pool)
REASON_BUY_IN_REFUND = "buy_in_refund"  # an entry withdrawn or a tournament cancelled
REASON_PRIZE = "prize"  # a tournament's pool paid to a winner
TOURNAMENT_STATUSES: tuple[str, ...] = ("open", "running", "finished", "cancelled")
#: reasons the table service uses on `Move`s (any identifier matching REASON_RE is accepted)
TABLE_REASONS: tuple[str, ...] = (
    "ante",
    "bet",
    "pot",
    "card_payment",
    "special",
    "refund",
    "carry",
)

TABLE_STATUSES: tuple[str, ...] = ("lobby", "playing", "closed")
LEADERBOARDS: tuple[str, ...] = ("balance", "net", "closes")


class Unset(enum.Enum):
    """The type of `UNSET`: "leave this field as it is" in `save_table`."""

    UNSET = 0


UNSET = Unset.UNSET


@dataclass(frozen=True, slots=True)
class Move:
    """A chip movement between a seated user and the table's escrow.

    `amount > 0`: from the user's account into the escrow (ante, bet);
    `amount < 0`: from the escrow back to the user (pot, card payment, refund...).
    """

    user: int
    amount: int
    reason: str
    hand_no: int | None = None


@dataclass(slots=True)
class HandRecord:
    """A finished hand: its event log (JSON text), seed and per-user results."""

    hand_no: int
    seed: int | None
    events: str
    result: dict[int, int]
    pots_won: dict[int, int] = field(default_factory=dict)
    closes: dict[int, int] = field(default_factory=dict)
    biggest_pot: dict[int, int] = field(default_factory=dict)
    #: the players' new ratings after this hand, stored in the same transaction as the hand
    #: (each history point names the hand)
    ratings: tuple[RatingUpdate, ...] = ()
    #: the season those ratings were computed in: if another season started meanwhile they
    #: are not written (they would carry the old season's skill into the new one)
    ratings_season: int | None = None
    #: whether `result` is server chips, added to the players' net winnings (False at a
    #: tournament table: its chips are tournament chips, only the prizes are winnings)
    counts_net: bool = True
    #: the words of the seats dealt in, in seat order, as (user, word) (docs/fairness.md)
    words: tuple[tuple[int, str], ...] = ()


@dataclass(slots=True)
class TableRow:
    """One table as stored. `seats` are user ids (CPU seats negative); `state` is engine JSON."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    status: str
    seats: list[int]
    dealer: int | None
    settings: dict[str, Any]
    state: str | None
    meta: dict[str, Any]
    version: int
    deadline: float | None
    created_at: float
    updated_at: float
    escrow: int = 0
    #: the fair-deal secret (masked repr; None before schema 10), its public commitment,
    #: and whether the secret is revealed (the table closed): docs/fairness.md
    secret: TableSecret | None = None
    commitment: Commitment | None = None
    revealed: bool = False

    @property
    def ante(self) -> int:
        """The table's ante (R-4), from its settings."""
        return int(self.settings["ante"])

    def rules(self, players: int) -> Rules:
        """The engine's settings of a hand of `players` at this table: the stakes and variants
        it was opened with (`settings`, the JSON column) and the players dealt in."""
        return Rules(**{**self.settings, "players": players})


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """Per-server settings (stakes and variants are separate: `Store.get_stakes`)."""

    starting_balance: int = 1000
    daily_amount: int = 200
    daily_cooldown: float = 72000.0
    language: str | None = None
    turn_timeout: float | None = None
    #: the server's own economy (issue 20); None: the bot's default name / emoji, no cap, no
    #: daily limit. The cap stops /daily and /give from taking a balance above it; table
    #: winnings and admin grants are never capped.
    currency_name: str | None = None
    currency_emoji: str | None = None
    balance_cap: int | None = None
    daily_min_age: float = 0.0  # seconds a member must have been in the server for /daily
    give_enabled: bool = False
    give_daily_limit: int | None = None  # chips one member may give in 24 hours
    #: who may open a tournament: False = managers only, True = any member
    tournaments_open: bool = False
    #: seconds between the end of a hand and the next deal at a timed table (None: the
    #: bot's default, `bot.tables.limits.DEFAULT_HAND_PAUSE`)
    hand_pause: float | None = None


@dataclass(frozen=True, slots=True)
class DailyClaim:
    """The outcome of a daily claim: chips received, new balance, next claim time (epoch s)."""

    amount: int
    balance: int
    next_at: float


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """One leaderboard line: 1-based rank, user, the ranked value and the user's balance."""

    rank: int
    user_id: int
    value: int
    balance: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A user's statistics on one server."""

    hands: int
    pots_won: int
    closes: int
    net: int
    biggest_pot: int
    balance: int


@dataclass(frozen=True, slots=True)
class Lease:
    """Who holds a table (a process's owner name) and until when (epoch seconds).

    `acquire_lease` returns the lease as it stands after the attempt: `granted` says whether
    the caller holds it now; if not, `owner` and `expires_at` are the current holder's.
    """

    table_id: int
    owner: str
    expires_at: float
    granted: bool


@dataclass(frozen=True, slots=True)
class GiveResult:
    """A gift made: the amount, both new balances, and what the giver may still give in the
    24 hours ending now (None: no daily limit)."""

    amount: int
    giver_balance: int
    receiver_balance: int
    left_today: int | None


@dataclass(frozen=True, slots=True)
class RatingUpdate:
    """A player's new rating after a hand (computed by `bot.ratings`), and the chips they won
    or lost in it (added to their season winnings)."""

    user: int
    mu: float
    sigma: float
    hands: int
    winnings: int = 0


@dataclass(frozen=True, slots=True)
class StoredRating:
    """A player's rating in the current season, with their hands and net winnings in it."""

    mu: float
    sigma: float
    hands: int
    winnings: int


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One line of a rating board (1-based rank; ranked by `mu - 3 sigma`)."""

    rank: int
    user_id: int
    mu: float
    sigma: float
    hands: int
    winnings: int


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating after one hand (for the trend)."""

    at: float
    mu: float
    sigma: float
    hand_id: int | None


@dataclass(frozen=True, slots=True)
class Season:
    """A season of a server: number, name, start (None: since the beginning) and end (None:
    in progress)."""

    id: int
    name: str | None
    started_at: float | None
    ended_at: float | None


@dataclass(frozen=True, slots=True)
class TournamentSave:
    """A running tournament's new state JSON, written with a table save (`save_table`'s
    `tournament`): the hand, its eliminations and the level land in one transaction, and the
    languages the seated entrants speak now (kept with their entries: "it"/"en")."""

    id: int
    state: str
    languages: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TableSave:
    """One change of a table, written by `save_table` in ONE transaction: the fields to change
    (a field left `UNSET` stays as it is), the chip moves, the finished hand's record and the
    running tournament's new state. Built once by the table session; both stores take it.

    `expected_version` is the version the writer read: the save applies only if it is still
    the table's version (optimistic concurrency), and sets it to one more."""

    expected_version: int
    status: str | Unset = UNSET
    seats: Sequence[int] | Unset = UNSET
    #: the dealer's index in `seats` (None: no hand dealt)
    dealer: int | Unset | None = UNSET
    #: the hand's engine state (JSON text)
    state: str | Unset | None = UNSET
    meta: Mapping[str, Any] | Unset = UNSET
    #: when the turn clock runs out (the clock's seconds), None: no running clock
    deadline: float | Unset | None = UNSET
    message_id: int | Unset | None = UNSET
    moves: Sequence[Move] = ()
    hand: HandRecord | None = None
    tournament: TournamentSave | None = None


@dataclass(slots=True)
class TournamentRow:
    """One tournament as stored: its entrants (user ids, in the order they registered), the
    chips in its pool (every buy-in until it is paid out or refunded), its own state JSON."""

    id: int
    guild_id: int
    channel_id: int
    table_id: int | None
    state: str | None
    status: str
    buy_in: int
    max_players: int
    pool: int
    version: int
    created_at: float
    updated_at: float
    entrants: list[int] = field(default_factory=list)
    #: the language ("it"/"en") each entrant registered in, where known (its table speaks it)
    languages: dict[int, str] = field(default_factory=dict)
    #: what the tournament cog posted (`note_tournament_posts`): the registration message's
    #: channel and id, the channel or thread of its table, whether the results are posted
    message_channel_id: int | None = None
    message_id: int | None = None
    table_channel_id: int | None = None
    results_posted: bool = False
