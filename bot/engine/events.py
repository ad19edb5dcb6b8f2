"""The event log of a hand: what happened, in order, one small class per kind.

A reader asks what happened with ``isinstance`` (or ``match``) and reads named, typed fields:
``Won.amount``, ``Paid.to``, ``SmallPointBegan.deal``. The JSON form (``to_dict`` /
``Event.from_dict``) is the one the hand records, the replays and the fairness proofs have
always stored: ``{"kind", "seat", "data"}`` with the same kinds and keys (ante, deal, phase,
pass, bet, call, raise, allin, declare, concede, win, special, play, senza, close, payment,
carry, refund), so old rows read back unchanged.

Why plain slotted classes: a hand makes about a hundred and twenty events, and an ``__init__``
over ``__slots__`` is the cheapest constructor that keeps the fields named (a ``NamedTuple``
costs a third more, a frozen dataclass twice as much). The fields are not enforced read-only;
nothing writes them after the engine made them, and the tests compare logs by value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, NamedTuple


class Event:
    """One thing that happened; ``seat`` is the seat concerned, or None (a phase, a carry).

    ``kind`` is the name the JSON form carries; ``private`` events may be shown only to
    ``seat`` (the cards dealt to them).
    """

    __slots__ = ("seat",)
    kind: ClassVar[str]
    private: ClassVar[bool] = False
    #: the JSON keys of ``data``, in the order the engine always wrote them; each names a
    #: field of the same name unless ``_renamed`` says otherwise
    _keys: ClassVar[tuple[str, ...]] = ()
    _renamed: ClassVar[Mapping[str, str]] = {}
    #: keys written from a class attribute (a phase's name), never read back into a field
    _fixed: ClassVar[frozenset[str]] = frozenset()
    #: keys left out of the JSON when their value is None (as the engine always did)
    _optional: ClassVar[frozenset[str]] = frozenset()

    seat: int | None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) may see this event."""
        return not self.private or (seat is not None and seat == self.seat)

    def data(self) -> dict[str, Any]:
        """The details of the JSON form, JSON-able (tuples become lists)."""
        renamed, optional = self._renamed, self._optional
        data = {}
        for key in self._keys:
            value = getattr(self, renamed.get(key, key))
            if value is not None or key not in optional:
                data[key] = _json(value)
        return data

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"kind", "seat", "data"}``."""
        return {"kind": self.kind, "seat": self.seat, "data": self.data()}

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> Event:
        """Inverse of ``to_dict``; ValueError for a kind or a phase no engine ever wrote."""
        data = d.get("data") or {}
        kind = d["kind"]
        if kind == "phase":
            cls: type[Event] | None = _PHASES.get(data.get("phase"))
        else:
            cls = _KINDS.get(kind)
        if cls is None:
            raise ValueError(f"unknown event {kind!r}")
        return cls._from_data(d.get("seat"), data)

    @classmethod
    def _from_data(cls, seat: int | None, data: Mapping[str, Any]) -> Event:
        renamed = cls._renamed
        values = {renamed.get(key, key): _tuple(data[key]) for key in cls._keys
                  if key in data and key not in cls._fixed}
        return cls._build(seat, values)

    @classmethod
    def _build(cls, seat: int | None, values: Mapping[str, Any]) -> Event:
        return cls(seat, **values)  # type: ignore[call-arg]

    def _fields(self) -> tuple[Any, ...]:
        return (self.seat, *(getattr(self, name) for name in self._field_names()))

    def _field_names(self) -> tuple[str, ...]:
        return tuple(self._renamed.get(key, key) for key in self._keys if key not in self._fixed)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return type(self) is type(other) and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # compared by value, like the dicts they were

    def __reduce__(self) -> tuple[Callable[..., Event], tuple[Any, ...]]:
        return (_rebuild, (type(self), self.seat, dict(zip(self._field_names(), self._fields()[1:],
                                                           strict=True))))

    def __repr__(self) -> str:
        parts = [f"seat={self.seat!r}"] if self.seat is not None else []
        parts += [f"{name}={getattr(self, name)!r}" for name in self._field_names()]
        return f"{type(self).__name__}({', '.join(parts)})"


def _rebuild(cls: type[Event], seat: int | None, values: Mapping[str, Any]) -> Event:
    return cls._build(seat, values)


def _json(value: Any) -> Any:
    if isinstance(value, Due):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


def _tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


# --------------------------------------------------------------------------- setting up


class Anted(Event):
    """``seat`` put its ante in (R-4)."""

    __slots__ = ("amount",)
    seat: int
    kind = "ante"
    _keys = ("amount",)

    def __init__(self, seat: int, amount: int) -> None:
        self.seat = seat
        self.amount = amount


class Carried(Event):
    """An unclaimed big pot carried (R-10): ``into`` "big" (this hand's) or "next"."""

    __slots__ = ("amount", "into")
    kind = "carry"
    _keys = ("amount", "into")

    def __init__(self, seat: None, amount: int, into: str) -> None:
        self.seat = None
        self.amount = amount
        self.into = into


class Dealt(Event):
    """The ``cards`` (codes) ``seat`` received at deal number ``deal``: private to ``seat``."""

    __slots__ = ("cards", "deal")
    seat: int
    kind = "deal"
    private = True
    _keys = ("cards", "deal")

    def __init__(self, seat: int, cards: tuple[str, ...], deal: int) -> None:
        self.seat = seat
        self.cards = cards
        self.deal = deal


# --------------------------------------------------------------------------- phases


class PhaseBegan(Event):
    """A phase of the hand began; its JSON kind is "phase" with ``data["phase"]``."""

    __slots__ = ()
    kind = "phase"
    phase: ClassVar[str]
    _keys: ClassVar[tuple[str, ...]] = ("phase",)
    _fixed = frozenset({"phase"})


class SmallPointBegan(PhaseBegan):
    """Deal number ``deal`` (from 0) of ``cards`` cards each, and its small point (R-5)."""

    __slots__ = ("cards", "deal")
    phase = "small_point"
    _keys = ("phase", "deal", "cards")

    def __init__(self, seat: None, deal: int, cards: int) -> None:
        self.seat = None
        self.deal = deal
        self.cards = cards


class ShowdownBegan(PhaseBegan):
    """A showdown for ``pot`` ("small" of ``deal``, or "big"), seats showing in ``order``."""

    __slots__ = ("deal", "order", "pot")
    phase = "showdown"
    _keys = ("phase", "pot", "deal", "order")

    def __init__(self, seat: None, pot: str, deal: int | None, order: tuple[int, ...]) -> None:
        self.seat = None
        self.pot = pot
        self.deal = deal
        self.order = order


class BigPointBegan(PhaseBegan):
    """The betting on the big point (R-6) began."""

    __slots__ = ()
    phase = "big_point"

    def __init__(self, seat: None = None) -> None:
        self.seat = None


class StoppaBegan(PhaseBegan):
    """The stoppa (R-12) began."""

    __slots__ = ()
    phase = "stoppa"

    def __init__(self, seat: None = None) -> None:
        self.seat = None


class HandEnded(PhaseBegan):
    """The hand is over; ``result`` is each seat's gain or loss."""

    __slots__ = ("result",)
    phase = "over"
    _keys = ("phase", "result")

    def __init__(self, seat: None, result: tuple[int, ...]) -> None:
        self.seat = None
        self.result = result


# --------------------------------------------------------------------------- betting


class Passed(Event):
    """``seat`` passed; ``forced``: the table passed for it (no chips, or all-in)."""

    __slots__ = ("forced",)
    seat: int
    kind = "pass"
    _keys = ("forced",)

    def __init__(self, seat: int, forced: bool) -> None:
        self.seat = seat
        self.forced = forced


class Wager(Event):
    """``seat`` put ``amount`` in, its bet now ``level``: a bet, call, raise or all-in."""

    __slots__ = ("amount", "level")
    seat: int
    _keys = ("amount", "level")

    def __init__(self, seat: int, amount: int, level: int) -> None:
        self.seat = seat
        self.amount = amount
        self.level = level


class BetMade(Wager):
    """The first bet of a round."""

    __slots__ = ()
    kind = "bet"


class Raised(Wager):
    """A raise over the bet."""

    __slots__ = ()
    kind = "raise"


class Called(Wager):
    """A call of the bet."""

    __slots__ = ()
    kind = "call"


class WentAllIn(Wager):
    """``seat`` put its last chips in (after its bet, call or raise event)."""

    __slots__ = ()
    kind = "allin"


# --------------------------------------------------------------------------- showdowns


class Declared(Event):
    """``seat`` showed a point: its ``cards`` (codes), their ``value`` and ``count``."""

    __slots__ = ("cards", "count", "value")
    seat: int
    kind = "declare"
    _keys = ("cards", "value", "count")

    def __init__(self, seat: int, cards: tuple[str, ...], value: int, count: int) -> None:
        self.seat = seat
        self.cards = cards
        self.value = value
        self.count = count


class Conceded(Event):
    """``seat`` gave up the showdown without showing."""

    __slots__ = ()
    seat: int
    kind = "concede"

    def __init__(self, seat: int) -> None:
        self.seat = seat


class Won(Event):
    """``seat`` took ``amount`` from ``pot`` ("small" of ``deal``, or "big"); ``shown``: at a
    showdown; ``reason`` without one: "no_bet" (the taker) or "alone"."""

    __slots__ = ("amount", "deal", "pot", "reason", "shown")
    seat: int
    kind = "win"
    _keys = ("pot", "deal", "amount", "shown", "reason")
    _optional = frozenset({"reason"})

    def __init__(self, seat: int, pot: str, deal: int | None, amount: int, shown: bool,
                 reason: str | None = None) -> None:
        self.seat = seat
        self.pot = pot
        self.deal = deal
        self.amount = amount
        self.shown = shown
        self.reason = reason


# --------------------------------------------------------------------------- the end


class Due(NamedTuple):
    """What a special hand's holder is owed by one player (``amount``, after the cap)."""

    payer: int
    to: int
    amount: int

    def to_dict(self) -> dict[str, int]:
        return {"from": self.payer, "to": self.to, "amount": self.amount}


class SpecialHand(Event):
    """``seat`` holds the special hand ``name`` (R-11: "assi", "ricchezza", ...); ``cards``
    its whole hand (codes; the table shows only the proof), ``payments`` what each owes."""

    __slots__ = ("cards", "name", "payments")
    seat: int
    kind = "special"
    _keys = ("kind", "cards", "payments")
    _renamed: ClassVar[Mapping[str, str]] = {"kind": "name"}

    def __init__(self, seat: int, name: str, cards: tuple[str, ...],
                 payments: tuple[Due, ...]) -> None:
        self.seat = seat
        self.name = name
        self.cards = cards
        self.payments = payments

    @classmethod
    def _build(cls, seat: int | None, values: Mapping[str, Any]) -> Event:
        payments = tuple(
            p if isinstance(p, Due) else Due(p["from"], p["to"], p["amount"])
            for p in values.get("payments", ())
        )
        return cls(seat, **{**values, "payments": payments})  # type: ignore[arg-type]


class Played(Event):
    """``seat`` played ``cards`` (codes) at the stoppa; ``forced``: the table played them."""

    __slots__ = ("cards", "forced")
    seat: int
    kind = "play"
    _keys = ("cards", "forced")

    def __init__(self, seat: int, cards: tuple[str, ...], forced: bool) -> None:
        self.seat = seat
        self.cards = cards
        self.forced = forced


class Senza(Event):
    """``seat`` cannot follow: the rank ``needed`` is missing ("senza", R-12)."""

    __slots__ = ("needed",)
    seat: int
    kind = "senza"
    _keys = ("needed",)

    def __init__(self, seat: int, needed: int) -> None:
        self.seat = seat
        self.needed = needed


class Closed(Event):
    """``seat`` played its last card and closed the stoppa."""

    __slots__ = ()
    seat: int
    kind = "close"

    def __init__(self, seat: int) -> None:
        self.seat = seat


class Paid(Event):
    """``seat`` paid ``amount`` to ``to`` (it owed ``owed`` for ``cards`` cards left, R-13)."""

    __slots__ = ("amount", "cards", "owed", "to")
    seat: int
    kind = "payment"
    _keys = ("from", "to", "amount", "owed", "cards")
    _renamed: ClassVar[Mapping[str, str]] = {"from": "seat"}

    def __init__(self, seat: int, to: int, amount: int, owed: int, cards: int) -> None:
        self.seat = seat
        self.to = to
        self.amount = amount
        self.owed = owed
        self.cards = cards

    def _field_names(self) -> tuple[str, ...]:
        return ("to", "amount", "owed", "cards")

    @classmethod
    def _build(cls, seat: int | None, values: Mapping[str, Any]) -> Event:
        fields = dict(values)
        payer = fields.pop("seat", seat)
        return cls(payer, **fields)


class Refunded(Event):
    """``seat`` got ``amount`` back (kept for hand records of older versions)."""

    __slots__ = ("amount",)
    seat: int
    kind = "refund"
    _keys = ("amount",)

    def __init__(self, seat: int, amount: int) -> None:
        self.seat = seat
        self.amount = amount


_KINDS: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (Anted, Carried, Dealt, Passed, BetMade, Raised, Called, WentAllIn, Declared,
                Conceded, Won, SpecialHand, Played, Senza, Closed, Paid, Refunded)
}
_PHASES: dict[Any, type[Event]] = {
    cls.phase: cls
    for cls in (SmallPointBegan, ShowdownBegan, BigPointBegan, StoppaBegan, HandEnded)
}
