"""Where the cards of the stoppa lie on the table image: none overlaps another, so every rank
stays readable (issue 25: fifteen cards crushed into one row made a 10 read as an ace).

The open sequence (the plays since the last opening) is drawn large, in one row if it fits and
else in two; the cards of the sequences closed before it are drawn small above it, in as many
rows as the room allows (the oldest dropped first when even that is not enough). In R-12's
stoppa ranks rise within a sequence, and an opening follows the closer, the highest live rank,
so a play opens a new sequence when its rank is below the one before, or the same rank again
(a king dumped after a king); only an ace may join the ace just played (`opens_sequence`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: the width of a mini card is this share of its height
CARD_HEIGHT = 1.4
GAP = 3
ROW_GAP = 4
#: widths (px) of the cards of the open sequence: at most, and at least (a rank in 12 px+)
LARGE = (40, 26)
#: widths (px) of the cards of the closed sequences
SMALL = (24, 20)


@dataclass(frozen=True, slots=True)
class PlacedCard:
    """One card of the stoppa at (x, y), `width` px wide."""

    code: str
    x: int
    y: int
    width: int

    @property
    def height(self) -> int:
        return card_height(self.width)

    @property
    def box(self) -> tuple[int, int, int, int]:
        return (self.x, self.y, self.x + self.width, self.y + self.height)


def card_height(width: int) -> int:
    """The height of a mini card `width` px wide (as `sprites.mini_card` draws it)."""
    return round(width * CARD_HEIGHT)


def _rank(code: str) -> int:
    return int(code[:-1])


def opens_sequence(before: Sequence[str], play: Sequence[str]) -> bool:
    """Whether `play` (card codes) starts a new sequence after the play `before` (R-12)."""
    if not before or not play:
        return True
    last, rank = _rank(before[-1]), _rank(play[0])
    return rank < last or (rank == last and rank != 1)


def split_sequences(plays: Sequence[Sequence[str]]) -> list[list[tuple[str, ...]]]:
    """The plays of a stoppa grouped into its sequences, oldest first."""
    out: list[list[tuple[str, ...]]] = []
    previous: Sequence[str] = ()
    for play in plays:
        if not out or opens_sequence(previous, play):
            out.append([])
        out[-1].append(tuple(play))
        previous = play
    return out


def _per_row(width: int, span: int) -> int:
    return max(1, (span + GAP) // (width + GAP))


def _fit(count: int, span: int, widths: tuple[int, int], max_rows: int) -> tuple[int, int]:
    """(width, rows) for `count` cards: the fewest rows, then the widest cards, that fit."""
    high, low = widths
    for rows in range(1, max(1, max_rows) + 1):
        for width in range(high, low - 1, -1):
            if _per_row(width, span) * rows >= count:
                return width, rows
    return low, max(1, max_rows)


def _rows(cards: Sequence[str], width: int, left: int, right: int, top: int) -> list[PlacedCard]:
    """`cards` in centred rows of `width` px cards from `top`, in order."""
    per_row = _per_row(width, right - left)
    out = []
    for start in range(0, len(cards), per_row):
        row = cards[start:start + per_row]
        total = len(row) * (width + GAP) - GAP
        x = (left + right - total) // 2
        y = top + (start // per_row) * (card_height(width) + ROW_GAP)
        out += [PlacedCard(code, x + i * (width + GAP), y, width) for i, code in enumerate(row)]
    return out


def stoppa_layout(before: Sequence[str], sequence: Sequence[str], *, left: int, right: int,
                  top: int, bottom: int) -> tuple[list[PlacedCard], int]:
    """The cards of the closed sequences (`before`, small) and of the open one (`sequence`,
    large) placed between `left` and `right` from `top`, ending above `bottom` where they can;
    returns the cards and the y below the last row."""
    span = right - left
    large_w, large_rows = _fit(len(sequence), span, LARGE, 2) if sequence else (LARGE[0], 0)
    large_h = large_rows * (card_height(large_w) + ROW_GAP)
    placed: list[PlacedCard] = []
    y = top
    if before:
        room = bottom - top - large_h - ROW_GAP
        max_rows = max(1, room // (card_height(SMALL[1]) + ROW_GAP))
        small_w, rows = _fit(len(before), span, SMALL, max_rows)
        keep = _per_row(small_w, span) * rows
        placed += _rows(list(before)[-keep:], small_w, left, right, y)
        y += rows * (card_height(small_w) + ROW_GAP) + ROW_GAP
    if sequence:
        placed += _rows(sequence, large_w, left, right, y)
        y += large_h
    return placed, y
