"""A fast model of the stoppa phase (R-12, R-13) on rank counts, for CPU search.

Suits do not matter in the stoppa, so a hand is a list of 11 counts (index = face value 1..10,
index 0 unused). `play_out` plays a whole stoppa from an open position, with every opening chosen
by a policy and every other play forced, exactly as the engine does: compulsory continuation,
exhausted ranks skipped, the closer being the highest live rank, aces together (and joining an
ace), a full rank together, and the `three_aces_jump` variant.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engine import next_live_rank

Counts = list[int]
#: An opening policy: (seat, hands, live totals) -> the rank the seat opens with.
Policy = Callable[[int, list[Counts], Counts], int]


def counts_of(ranks: list[int] | tuple[int, ...]) -> Counts:
    """Rank counts (index 1..10) of a list of face values."""
    out = [0] * 11
    for r in ranks:
        out[r] += 1
    return out


def live_counts(counts: Counts) -> Counts:
    """Live rank counts in the form the engine's `next_live_rank` reads: index 1..10 as in
    `counts`, and a non-zero sentinel at index 11."""
    return [*counts[:11], 1]


def next_live(total: Counts, rank: int) -> int:
    """The engine's R-12 sequence rule on live counts (see `live_counts`): the lowest live rank
    above `rank`, or 0 when `rank` is the closer."""
    return next_live_rank(total, rank) or 0


def own_run(hand: Counts, total: Counts, rank: int) -> tuple[int, bool]:
    """Cards a seat would shed by opening with `rank` before needing someone else, and whether
    that run reaches the closer (so the seat stays open and keeps the lead).

    It ignores the all-at-once rules for speed except for aces (all of them go).
    """
    shed = hand[1] if rank == 1 else 1
    r = rank
    while True:
        nxt = next_live(total, r)
        if nxt == 0:
            return shed, True
        if not hand[nxt]:
            return shed, False
        shed += 1
        r = nxt


def heuristic_open(seat: int, hands: list[Counts], total: Counts) -> int:
    """A quick opening: a run that closes (keeps the lead) first, longest first; otherwise the
    run that sheds most, lower ranks preferred (low cards and aces are hard to shed later)."""
    hand = hands[seat]
    best_rank, best_score = 0, -1.0
    for r in range(1, 11):
        if not hand[r]:
            continue
        shed, closes = own_run(hand, total, r)
        score = (100.0 if closes else 0.0) + shed * 2.0 + (10 - r) * 0.35
        if score > best_score:
            best_rank, best_score = r, score
    return best_rank


class Shedding:
    """A stoppa in progress on rank counts (`full[r]` = cards of rank r in the used deck)."""

    __slots__ = ("full", "hands", "jump", "sizes", "total")

    def __init__(self, hands: list[Counts], full: Counts, jump: bool = False) -> None:
        self.hands = hands
        self.full = full
        self.jump = jump
        self.total = live_counts([sum(h[r] for h in hands) for r in range(11)])
        self.sizes = [sum(h) for h in hands]

    def _play(self, seat: int, rank: int) -> bool:
        """Play `rank` from `seat` (all aces / a full rank at once); True if the hand is empty."""
        hand = self.hands[seat]
        n = hand[rank] if rank == 1 or hand[rank] == self.full[rank] else 1
        hand[rank] -= n
        self.total[rank] -= n
        self.sizes[seat] -= n
        return self.sizes[seat] == 0

    def play_out(self, seat: int, policy: Policy, first: int = 0, max_steps: int = 10_000) -> int:
        """Play to the close from `seat` being open; returns the closer's seat.

        `first`, when non-zero, is the rank `seat` opens with (the decision being searched);
        later openings come from `policy`.
        """
        hands, total, players = self.hands, self.total, len(self.hands)
        needed = 0  # 0: open
        last_ace = False
        opening = first
        for _ in range(max_steps):
            hand = hands[seat]
            if needed == 0:
                rank = opening or policy(seat, hands, total)
                opening = 0
                if self._play(seat, rank):
                    return seat
                needed = next_live(total, rank)
                last_ace = rank == 1
            # continue while possible
            while needed:
                if last_ace and hand[1]:
                    if self._play(seat, 1):
                        return seat
                    needed = next_live(total, 1)
                    if not needed:
                        break
                if hand[needed]:
                    rank = needed
                    if self._play(seat, rank):
                        return seat
                    needed = next_live(total, rank)
                    last_ace = rank == 1
                    continue
                if self.jump and hand[1] >= 3 and not hand[10]:
                    if self._play(seat, 1):
                        return seat
                    last_ace = True
                    needed = next_live(total, 1)
                    continue
                break
            if needed == 0:
                continue  # closed: the same seat is open
            seat = (seat + 1) % players  # "senza <needed>"
        raise RuntimeError("stoppa did not end")  # pragma: no cover - guarded by max_steps
