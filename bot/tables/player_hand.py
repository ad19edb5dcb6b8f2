"""`PlayerHand`: what one seated player may see of the hand in progress (send it ephemeral).

Every derived fact is the engine's (`SeatView`): whose turn, the legal actions and the bet
range, the best point. The cogs read these fields and never re-derive a rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Action, Event, Hand, SeatView
from bot.tables.updates import TableState


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """One player's private view, with the tokens (`hand_no`, `turn`) a button carries."""

    table_id: int
    hand_no: int
    turn: int
    seat: int
    #: the engine's typed view for this seat (what `bot.render.from_view` draws)
    seat_view: SeatView
    #: the events this seat may see (its own deals included): what a CPU player's model reads
    events: tuple[Event, ...]

    @classmethod
    def of(cls, hand: Hand, seat: int, table_id: int, hand_no: int, turn: int) -> PlayerHand:
        """The private view of `seat` in `hand`."""
        return cls(table_id, hand_no, turn, seat, hand.seat_view(seat),
                   tuple(hand.events_for(seat)))

    @property
    def my_turn(self) -> bool:
        """Whether this player is to act now."""
        return self.seat_view.phase != "over" and self.seat_view.your_turn

    @property
    def actions(self) -> tuple[Action, ...]:
        """The legal engine actions (Bet/Raise as representatives; empty off turn)."""
        return self.seat_view.legal if self.my_turn else ()

    @property
    def bet_range(self) -> tuple[int, int] | None:
        """(lowest, highest) amount to bet or raise to, on the player's turn; else None."""
        return self.seat_view.bet_range if self.my_turn else None

    @property
    def phase(self) -> str:
        """The engine phase of the hand."""
        return self.seat_view.phase

    @property
    def to_call(self) -> int:
        """What the player would put in to call (0 outside a betting round)."""
        betting = self.seat_view.betting
        return (betting.to_call or 0) if betting is not None else 0


@dataclass(frozen=True, slots=True)
class PracticeTable:
    """A member's practice table as they see it: the public snapshot and their own view of
    the hand (None before the first deal); what `TableService.practice` answers."""

    state: TableState
    hand: PlayerHand | None

    @property
    def table_id(self) -> int:
        """The table id (the practice buttons carry it)."""
        return self.state.table_id

    @property
    def in_hand(self) -> bool:
        """Whether a hand is being played (not over)."""
        return self.state.phase is not None and self.state.phase != "over"
