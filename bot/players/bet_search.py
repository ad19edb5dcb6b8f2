"""The expert's search over its own moves in a betting round (R-8), on sampled hidden cards.

For each move it may make now (pass, call, a bet or raise of a few sizes) the rest of the round
is played out on every sample of the opponents' cards (`estimate.sample_points`, weighted by what
their bets say): each opponent still to answer folds, calls or raises by a model of a reasonable
player (`Responder`: the strength it needs to call grows with the price, a very strong point
raises). When an opponent raises, the seat answers once more, and that answer is chosen for the
whole information set (every sample in which that opponent raised: the seat cannot tell them
apart), so the search never uses a card it cannot see. The value of a move is its expected chips
relative to passing now; the pot goes to the best point among those who stay (`Sample.beaten`).

The work is `len(samples) x moves x opponents`: bounded by counts, never by the clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.players.estimate import Opponent, Sample, call_threshold


@dataclass(frozen=True, slots=True)
class Responder:
    """How the search expects an opponent to answer a bet, from its sampled strength (its
    point's percentile among random points of its size)."""

    tightness: float = 0.3  # strength needed to call a free bet; pot odds add to it
    raise_above: float = 0.88  # strength from which it raises instead of calling
    raise_pot: float = 1.0  # its raise, as a fraction of the pot (at least one cip)
    #: when set, it calls when strength ** power reaches the price (its chance of winning,
    #: read against a bettor's strong range, worth the price); else `call_threshold`
    power: float | None = None

    def answer(self, strength: float, owe: int, pot: int, can_raise: bool) -> str:
        """"fold", "call" or "raise" facing `owe` more chips into `pot`."""
        price = owe / (pot + owe)
        if self.power is not None:
            call_from = price ** (1.0 / self.power)
        else:
            call_from = call_threshold(price, self.tightness)
        if can_raise and strength >= self.raise_above:
            return "raise"
        return "call" if strength >= call_from else "fold"


@dataclass(frozen=True, slots=True)
class Round:
    """The betting round as the searching seat sees it: the pot (base plus every bet), its own
    bet and chips, the level, the stakes' cip and max bet, and the opponents still in, in the
    order they answer after the seat."""

    pot: int
    my_bet: int
    my_chips: int
    level: int
    cip: int
    max_bet: int
    opponents: Sequence[Opponent]


def move_values(
    spot: Round, samples: Sequence[Sample], levels: Sequence[int], responder: Responder
) -> dict[int, float]:
    """Expected chips of bringing the seat's bet to each of `levels` (the current level is a
    call), relative to passing now (worth 0)."""
    return {level: _value(spot, samples, level, responder) for level in levels}


def _value(spot: Round, samples: Sequence[Sample], level: int, responder: Responder) -> float:
    """The expected chips of one move: the samples without a raise add their outcome; each
    opponent's raise is an information set, answered by the seat's better of fold and call."""
    total_w = sum(s.weight for s in samples) or 1.0
    quiet = 0.0
    raised: dict[int, list[float]] = {}  # raiser index -> [fold total, call total]
    for s in samples:
        outcome = _play_out(spot, s, level, responder)
        if isinstance(outcome, float):
            quiet += s.weight * outcome
            continue
        raiser, fold, call = outcome
        sums = raised.setdefault(raiser, [0.0, 0.0])
        sums[0] += s.weight * fold
        sums[1] += s.weight * call
    answered = sum(max(fold, call) for fold, call in raised.values())
    return (quiet + answered) / total_w


def _play_out(
    spot: Round, s: Sample, level: int, responder: Responder
) -> float | tuple[int, float, float]:
    """One sample: the seat's chips when nobody raises, else (raiser, chips if the seat folds
    to the raise, chips if it calls)."""
    cost = level - spot.my_bet
    pot = spot.pot + cost
    put = [0] * len(spot.opponents)  # what each opponent adds from now on
    state = ["in"] * len(spot.opponents)
    raiser = -1
    top = level
    for j, o in enumerate(spot.opponents):
        owe = top - o.bet
        if o.allin or owe <= 0:
            continue
        can_raise = raiser < 0 and top < spot.max_bet and o.bet + owe < spot.max_bet
        answer = responder.answer(s.strength[j], owe, pot, can_raise)
        if answer == "fold":
            state[j] = "out"
            continue
        put[j] = owe
        pot += owe
        if answer == "raise":
            raise_to = min(spot.max_bet, top + max(spot.cip, _round(pot * responder.raise_pot,
                                                                    spot.cip)))
            put[j] += raise_to - top
            pot += raise_to - top
            top = raise_to
            raiser = j
    if raiser < 0:
        return _showdown(spot, s, state, put, cost)
    fold = -float(cost)
    extra = min(top - level, spot.my_chips - cost)
    # the ones who had matched `level` before the raise answer it too (no further raise)
    for j, o in enumerate(spot.opponents):
        owe = top - (o.bet + put[j])
        if j == raiser or state[j] == "out" or o.allin or owe <= 0:
            continue
        if responder.answer(s.strength[j], owe, pot, False) == "call":
            put[j] += owe
            pot += owe
        else:
            state[j] = "out"
    call = _showdown(spot, s, state, put, cost + max(0, extra))
    return raiser, fold, call


def _showdown(spot: Round, s: Sample, state: list[str], put: list[int], cost: int) -> float:
    """The seat's chips (relative to passing now) once the opponents in `state` "in" stay:
    the pot and every chip put in if it beats them all (or nobody stays), else its cost."""
    if all(s.beaten[j] for j, st in enumerate(state) if st == "in"):
        return float(spot.pot + sum(put))
    return -float(cost)


def _round(amount: float, step: int) -> int:
    return max(step, round(amount / step) * step)
