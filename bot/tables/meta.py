"""`TableMeta`: what the service keeps about a table besides the engine state.

It is saved as `TableRow.meta` (JSON) in the same transaction as the hand state and the chip
movements, so that a restart continues exactly where the table was. It is typed in memory
and a dict only at the JSON boundary (`to_dict`, `from_dict`): the last hand's ending is a
`HandOver`, the words `SpokenWord` pairs, the round call a `RoundCall`, the absent players
an `Absence`, a practice table's part a `PracticeMeta`, and a tournament table's a
`TableTournament`, each parsed once when the meta is loaded (rows written before these
types read the same: the JSON keys are unchanged, and keys added since are written only
when set).

`TableTournament` is the tournament's value (`bot.tournaments.record`), which this package
never imports at run time (the imports run one way): the tournament code gives the service
its reader (`TableService(read_tournament=...)`, used by `Shared.read_meta`), and a stored
tournament meta read without one is a kind this service cannot play (`UnknownKind`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from bot.tables.absence import KEYS as ABSENCE_KEYS
from bot.tables.absence import Absence
from bot.tables.cpus import CpuSeats
from bot.tables.errors import UnknownKind
from bot.tables.limits import LAST_EVENTS
from bot.tables.practice_meta import PracticeMeta
from bot.tables.updates import HandOver, TableEvent

if TYPE_CHECKING:
    from bot.store import Move
    from bot.tournaments.record import TableTournament


def _int_keys(data: dict[Any, Any] | None) -> dict[int, Any]:
    return {int(k): v for k, v in (data or {}).items()}


def _shallow(value: Any) -> Any:
    """`value` with a list or dict copied (one level)."""
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    return value


class SpokenWord(NamedTuple):
    """A player's word in a hand's deck (docs/fairness.md): public, kept in seat order."""

    user: int
    word: str


@dataclass(frozen=True, slots=True)
class LastDeal:
    """The hand a stored meta plays or played last: its number, its players (seat order) and
    their words; what `/verify` reads of a closed table of any kind (`bot.tables.fair`),
    without the kind's own part."""

    hand_no: int
    players: tuple[int, ...]
    words: tuple[SpokenWord, ...]

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> LastDeal:
        """The last deal of the stored meta `data` (a `TableMeta.to_dict`)."""
        in_play = HandInPlay.of(data)
        return cls(in_play.hand_no, in_play.players, in_play.words)


#: The meta's JSON keys of the hand in play (`HandInPlay`), stored flat as they always were.
HAND_KEYS = ("hand_no", "turn", "hand_seed", "players", "dealer", "dealer_pos", "paid", "carry",
             "words", "leaving", "sitting_out")


@dataclass(frozen=True, slots=True)
class HandInPlay:
    """The hand in play, or the last one played, and what carries into the next: its number
    and turn (which a click names, so a stale one is refused), its deck's seed, its players
    in engine seat order (engine seat i = `players[i]`), its dealer (and the dealer's index in
    the seats then, to find the next one if they left), the chips each player put into the
    escrow during it (net of what came back) and the big pot carried into it or left for the
    next hand, its players' words (public, docs/fairness.md), who goes at its end (left,
    kicked, timed out twice: their turns default) and who sits it out (could not pay the
    ante). A value: each change returns a new one (stored flat in the meta's JSON, under
    `HAND_KEYS`)."""

    hand_no: int = 0
    turn: int = 0
    hand_seed: int | None = None
    players: tuple[int, ...] = ()
    dealer: int | None = None
    dealer_pos: int = 0
    paid: Mapping[int, int] = field(default_factory=dict)
    carry: int = 0
    words: tuple[SpokenWord, ...] = ()
    leaving: tuple[int, ...] = ()
    sitting_out: tuple[int, ...] = ()

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> HandInPlay:
        """The hand in play of a stored meta `data` (a `TableMeta.to_dict`)."""
        seed, dealer = data.get("hand_seed"), data.get("dealer")
        return cls(
            hand_no=int(data.get("hand_no") or 0),
            turn=int(data.get("turn") or 0),
            hand_seed=None if seed is None else int(seed),
            players=tuple(int(u) for u in data.get("players") or ()),
            dealer=None if dealer is None else int(dealer),
            dealer_pos=int(data.get("dealer_pos") or 0),
            paid={k: int(v) for k, v in _int_keys(data.get("paid")).items()},
            carry=int(data.get("carry") or 0),
            words=tuple(SpokenWord(int(u), str(w)) for u, w in data.get("words") or ()),
            leaving=tuple(int(u) for u in data.get("leaving") or ()),
            sitting_out=tuple(int(u) for u in data.get("sitting_out") or ()),
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON fields of the meta this value is stored in."""
        return {"hand_no": self.hand_no, "turn": self.turn, "hand_seed": self.hand_seed,
                "players": list(self.players), "dealer": self.dealer,
                "dealer_pos": self.dealer_pos, "paid": dict(self.paid), "carry": self.carry,
                "words": [[w.user, w.word] for w in self.words], "leaving": list(self.leaving),
                "sitting_out": list(self.sitting_out)}

    def dealt(self, hand_seed: int | None, players: Sequence[int], dealer: int,
              dealer_pos: int, words: Iterable[SpokenWord], antes: Iterable[Move]) -> HandInPlay:
        """The next hand is dealt to `players` by `dealer` (at `dealer_pos` in the seats), its
        deck from `hand_seed` and `words`, and they paid `antes` (the carry stays)."""
        return replace(self, hand_no=self.hand_no + 1, turn=self.turn + 1, hand_seed=hand_seed,
                       players=tuple(players), dealer=dealer, dealer_pos=dealer_pos,
                       paid=_paid({}, antes), words=tuple(words))

    def stepped(self, moves: Iterable[Move]) -> HandInPlay:
        """One more turn was played, moving `moves` (escrow movements) into what each paid."""
        return replace(self, turn=self.turn + 1, paid=_paid(self.paid, moves))

    def settled(self) -> HandInPlay:
        """The hand is over and its escrow settled: nothing paid is left in it."""
        return replace(self, paid={})

    def carrying(self, carry: int) -> HandInPlay:
        """`carry` chips of the big pot are left (in escrow) for the next hand."""
        return replace(self, carry=carry)

    def leaves(self, user: int) -> HandInPlay:
        """`user` goes at the end of this hand (their turns default until then)."""
        return self if user in self.leaving else replace(self, leaving=(*self.leaving, user))

    def stays(self, user: int) -> HandInPlay:
        """`user` no longer goes at the end of this hand (or left the table)."""
        return replace(self, leaving=tuple(u for u in self.leaving if u != user))

    def gone(self) -> HandInPlay:
        """The leavers went (the hand ended, or the table closed)."""
        return replace(self, leaving=())

    def sat_out(self, users: Iterable[int]) -> HandInPlay:
        """`users` sit the next hand out (they cannot pay its ante)."""
        return replace(self, sitting_out=tuple(users))

    def undealt(self) -> HandInPlay:
        """The table waits for players: nobody is dealt in."""
        return replace(self, players=())

    def eldest(self) -> int | None:
        """The player after the dealer in this hand, or None."""
        if self.dealer is None or self.dealer not in self.players:
            return None
        index = self.players.index(self.dealer)
        return self.players[(index + 1) % len(self.players)]

    def seat_of(self, user: int) -> int | None:
        """The engine seat of `user` in this hand, or None."""
        try:
            return self.players.index(user)
        except ValueError:
            return None


def _paid(paid: Mapping[int, int], moves: Iterable[Move]) -> dict[int, int]:
    """`paid` with `moves` (escrow movements) counted into what each user paid."""
    out = dict(paid)
    for move in moves:
        out[move.user] = out.get(move.user, 0) + move.amount
    return out


@dataclass(frozen=True, slots=True)
class RoundCall:
    """R-14, calling the round: the hands each seated user dealt and who called the round
    (the table closes once everyone dealt as often). A value: each change returns a new one
    (stored flat in the meta's JSON as `deals` and `round_called_by`)."""

    deals: Mapping[int, int] = field(default_factory=dict)
    called_by: int | None = None

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> RoundCall:
        """The round call of a stored meta `data` (a `TableMeta.to_dict`)."""
        called_by = data.get("round_called_by")
        return cls({k: int(v) for k, v in _int_keys(data.get("deals")).items()},
                   None if called_by is None else int(called_by))

    def to_dict(self) -> dict[str, Any]:
        """The JSON fields of the meta this value is stored in."""
        return {"deals": dict(self.deals), "round_called_by": self.called_by}

    def sat(self, user: int, seats: Iterable[int]) -> RoundCall:
        """`user` sits beside `seats`, counted as having dealt as few hands as the fewest."""
        counts = [self.deals.get(u, 0) for u in seats]
        return replace(self, deals={**self.deals, user: min(counts) if counts else 0})

    def dealt(self, dealer: int) -> RoundCall:
        """`dealer` dealt one more hand."""
        return replace(self, deals={**self.deals, dealer: self.deals.get(dealer, 0) + 1})

    def called(self, user: int) -> RoundCall:
        """`user` called the round."""
        return replace(self, called_by=user)

    def without(self, user: int) -> RoundCall:
        """`user` left the table."""
        return replace(self, deals={u: n for u, n in self.deals.items() if u != user})

    def over(self, able: Iterable[int], hand_no: int) -> bool:
        """Whether a called round is over: no hand dealt yet, or each of `able` dealt as often."""
        return self.called_by is not None and (
            not hand_no or len({self.deals.get(u, 0) for u in able}) <= 1
        )


#: Reads the tournament part of a stored meta (`bot.tournaments.record.TableTournament.
#: from_dict`), given by the tournament code (see the module docstring).
TournamentReader = Callable[[Mapping[str, Any]], "TableTournament"]


def _tournament(data: Any, read: TournamentReader | None) -> TableTournament | None:
    """The stored tournament of a meta, read by the tournament code's `read` (None at any
    other table; `UnknownKind` when this service was given no reader)."""
    if data is None:
        return None
    if read is None:
        raise UnknownKind("a tournament table needs the tournament code")
    return read(data)


@dataclass
class TableMeta:
    """Service bookkeeping of one table (JSON-able through `to_dict`/`from_dict`).

    Which facts belong to which kind: every table has the hand in play (`in_play`: who plays
    it, who goes at its end, what is paid and carried), its CPU seats (`cpus`), the last
    events and hand, the pause (`deal_at`) and the seats' languages; the channel's tables
    (cash, tournament) also the absent players (`absence`) and `own_thread`; only a cash
    table calls the round (`round`) and sits out who cannot pay the ante
    (`in_play.sitting_out`); a tournament table's own part is `tournament`, a practice
    table's `practice` (None elsewhere).
    """

    seed: int
    started: bool = False
    #: the hand in play (or the last one played): its players, who goes at its end, who sits
    #: it out, what each paid and the big pot it carries
    in_play: HandInPlay = field(default_factory=HandInPlay)
    #: hands dealt by each seated user and who called the round (R-14)
    round: RoundCall = field(default_factory=RoundCall)
    #: the CPU seats: each one's level and own seed (stored flat, under the keys it always had)
    cpus: CpuSeats = field(default_factory=CpuSeats)
    #: the last public events, newest last
    last_events: list[TableEvent] = field(default_factory=list)
    #: absent players: timeouts in a row, who is sat out, who left a tournament table, and
    #: the table's rule of absent players (stored flat, under the keys it always had)
    absence: Absence = field(default_factory=Absence)
    #: the table's channel is a thread the bot opened for it (archived when it closes)
    own_thread: bool = False
    #: how the last hand ended, shown until a human's first decision in the next hand (then
    #: None: `moved_on`)
    last_hand: HandOver | None = None
    #: when the next hand is dealt (the service clock's epoch seconds) while the table pauses
    #: after a hand (the server's pause), None otherwise: kept so that a restart deals then
    deal_at: float | None = None
    #: the language ("it"/"en") each seated human sat in (their Discord's): the table speaks
    #: its players' language after a restart too; dropped when they leave or it closes
    languages: dict[int, str] = field(default_factory=dict)
    #: the tournament this table plays (`bot.tournaments.table_policy`), None at any other
    tournament: TableTournament | None = None
    #: a practice table's setup and practice chips (`bot.tables.policies.practice`), None at
    #: any other table
    practice: PracticeMeta | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (int keys become strings in JSON; `from_dict` converts back)."""
        flat: dict[str, Any] = {}
        for name in _FIELDS:
            if name in ("in_play", "round", "absence", "cpus"):
                flat.update(getattr(self, name).to_dict())
            else:
                flat[name] = _shallow(getattr(self, name))
        out = {key: flat.pop(key) for key in _KEY_ORDER} | flat
        out["last_events"] = [e.to_dict() for e in self.last_events]
        for name in ("last_hand", "tournament", "practice"):
            value = out[name]
            out[name] = None if value is None else value.to_dict()
        for name in _OMITTED_UNSET:  # newer keys: a row without them reads the same
            if out[name] is None or out[name] == {}:
                del out[name]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any],
                  read_tournament: TournamentReader | None = None) -> TableMeta:
        """Rebuild from `to_dict()` output (after a JSON round trip), a tournament's part by
        `read_tournament`. Raises on bad data."""
        flat = (*HAND_KEYS, "deals", "round_called_by", "cpus", "cpu_seeds", "next_cpu",
                *ABSENCE_KEYS)
        meta = cls(**{k: copy.deepcopy(v) for k, v in data.items() if k not in flat})
        meta.in_play = HandInPlay.of(data)
        meta.round = RoundCall.of(data)
        meta.absence = Absence.of(data)
        meta.cpus = CpuSeats.of(data)
        meta.last_hand = None if data.get("last_hand") is None else HandOver.from_dict(
            data["last_hand"]
        )
        meta.tournament = _tournament(data.get("tournament"), read_tournament)
        meta.last_events = [TableEvent.from_dict(e) for e in data.get("last_events") or ()]
        meta.practice = None if data.get("practice") is None else PracticeMeta.from_dict(
            data["practice"]
        )
        meta.seed = int(meta.seed)
        meta.deal_at = None if meta.deal_at is None else float(meta.deal_at)
        meta.languages = {k: str(v) for k, v in _int_keys(meta.languages).items()}
        return meta

    def copy(self) -> TableMeta:
        """A copy to work on before a commit: containers copied one level deep (event dicts
        are shared: never mutated; the typed values are frozen)."""
        return TableMeta(**{name: _shallow(getattr(self, name)) for name in _FIELDS})

    def seat_cpu(self, user: int, level: str, seed: int) -> None:
        """Seat CPU `user` of `level` with its own `seed` (drawn as it sits, at every kind of
        table, and kept in the meta: the CPU plays with it after any restart)."""
        self.cpus = self.cpus.seated(user, level, seed)

    def sat_in(self, user: int, lang: str | None) -> None:
        """Human `user` sits (or plays on) speaking `lang` ("it"/"en"; None: not known,
        nothing changed)."""
        if lang is not None:
            self.languages[user] = lang

    def forget(self, user: int) -> None:
        """Drop what the table keeps about `user`, who leaves it (CPU level and seed,
        timeouts, deals, absence, language)."""
        self.languages.pop(user, None)
        self.cpus = self.cpus.without(user)
        self.round = self.round.without(user)
        self.absence = self.absence.without(user)
        self.in_play = self.in_play.stays(user)

    def moved_on(self) -> None:
        """A human's turn was played (their decision, or their time ran out): the table has
        moved on and the last hand's ending is no longer shown."""
        self.last_hand = None

    def remember(self, events: Sequence[TableEvent]) -> None:
        """Keep `events` among the last public ones (at most `LAST_EVENTS`, newest last)."""
        if events:
            self.last_events = (self.last_events + list(events))[-LAST_EVENTS:]


_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(TableMeta))
#: the JSON keys in the order the code before the typed values wrote them (rows read the same)
_KEY_ORDER: tuple[str, ...] = (
    "seed", "started", "hand_no", "turn", "hand_seed", "players", "dealer", "dealer_pos", "paid",
    "carry", "deals", "round_called_by", "cpus", "cpu_seeds", "next_cpu", "words", "leaving",
    "sitting_out", "last_events",
)
#: keys added after rows were stored, written only when set (older rows, and the code
#: before them, read the same JSON)
_OMITTED_UNSET: tuple[str, ...] = ("deal_at", "languages")
