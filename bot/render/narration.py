"""The event log of a hand as lines of text, in the reader's language.

The demo, `python -m bot play` and the lesson (`python -m bot learn`, `/learn`) narrate a hand
the same way: one line per event a player would notice, a player's stoppa plays grouped into
one turn ("Anna: 5-6-7-8 senza 9").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.engine import events as ev
from bot.engine.events import Event
from bot.i18n import t
from bot.i18n.numbers import format_number


class Narrator:
    """Turns engine events into log lines; stoppa plays are grouped into turns."""

    def __init__(self, names: list[str], lang: str, *, show_deals: bool | int = True) -> None:
        self.names = names
        self.lang = lang
        #: True: every deal; an int: only that seat's deals; False: none
        self.show_deals = show_deals
        self.eldest = 0
        self._turn_seat: int | None = None
        self._turn: list[str] = []

    def _t(self, key: str, **params: Any) -> str:
        return t(f"demo.{key}", self.lang, **params)

    def _pot(self, pot: str, deal: int | None) -> str:
        if pot == "big":
            return self._t("pot_big")
        return self._t("pot_small", number=(deal or 0) + 1)

    def _flush(self, ending: str | None = None) -> list[str]:
        if self._turn_seat is None:
            return []
        plays = "-".join(self._turn)
        if ending:
            plays = f"{plays} {ending}" if plays else ending
        line = self._t("turn", player=self.names[self._turn_seat], plays=plays)
        self._turn_seat, self._turn = None, []
        return [line]

    def flush(self) -> list[str]:
        """The line of the stoppa turn in progress, if any (e.g. a player's forced plays,
        before that player chooses what to open with); the turn goes on in a new line."""
        return self._flush()

    def lines(self, events: Iterable[Event]) -> list[str]:
        """The log lines of `events` (call again with the next events; the stoppa turn in
        progress is kept until its "senza" or close)."""
        out: list[str] = []
        for event in events:
            out.extend(self._line(event))
        return out

    def _line(self, e: Event) -> list[str]:
        if isinstance(e, ev.Played | ev.Senza | ev.Closed):
            return self._stoppa_turn(e)
        out = self._flush()
        if isinstance(e, ev.PhaseBegan):
            out.extend(self._phase(e))
        elif isinstance(e, ev.Dealt):
            if self.show_deals is True or (
                self.show_deals is not False and self.show_deals == e.seat
            ):
                out.append(self._t("deal", player=self.names[e.seat], cards=" ".join(e.cards)))
        else:
            out.extend(self._move(e))
        return out

    def _stoppa_turn(self, e: ev.Played | ev.Senza | ev.Closed) -> list[str]:
        out = self._flush() if self._turn_seat not in (None, e.seat) else []
        self._turn_seat = e.seat
        if isinstance(e, ev.Played):
            self._turn.extend(str(int(c[:-1])) for c in e.cards)
            return out
        if isinstance(e, ev.Senza):
            return out + self._flush(self._t("senza", rank=e.needed))
        return out + self._flush(self._t("close"))

    def _phase(self, e: ev.PhaseBegan) -> list[str]:
        if isinstance(e, ev.SmallPointBegan):
            key = "small_point_one" if e.cards == 1 else "small_point"
            return [self._t(key, number=e.deal + 1, cards=e.cards)]
        if isinstance(e, ev.BigPointBegan):
            return [self._t("big_point")]
        if isinstance(e, ev.ShowdownBegan):
            order = ", ".join(self.names[s] for s in e.order)
            return [self._t("showdown", pot=self._pot(e.pot, e.deal), players=order)]
        if isinstance(e, ev.StoppaBegan):
            return [self._t("stoppa", player=self.names[self.eldest])]
        return []

    def _move(self, e: Event) -> list[str]:
        """The line of a player's move, a pot, a payment or a carry (none for an ante)."""
        who = self.names[e.seat] if e.seat is not None else ""
        if isinstance(e, ev.BetMade | ev.Called):
            return [self._t(e.kind, player=who, amount=e.amount)]
        if isinstance(e, ev.Raised):
            return [self._t("raise", player=who, level=e.level)]
        if isinstance(e, ev.WentAllIn):
            return [self._t("allin", player=who, amount=e.amount, level=e.level)]
        if isinstance(e, ev.Passed):
            return [self._t("pass_forced" if e.forced else "pass", player=who)]
        if isinstance(e, ev.Conceded):
            return [self._t("concede", player=who)]
        if isinstance(e, ev.Refunded):
            return [self._t("refund", player=who, amount=e.amount)]
        if isinstance(e, ev.Declared):
            return [self._t("declare", player=who, value=e.value, cards=" ".join(e.cards))]
        if isinstance(e, ev.Won):
            key = {"no_bet": "win_no_bet", "alone": "win_alone"}.get(e.reason or "", "win")
            return [self._t(key, player=who, pot=self._pot(e.pot, e.deal), amount=e.amount)]
        if isinstance(e, ev.Paid):
            return [self._t(payment_key(e), player=who, amount=e.amount, owed=e.owed,
                            to=self.names[e.to], cards=e.cards)]
        if isinstance(e, ev.SpecialHand):
            return [self._t(f"special_{e.name}", player=who)]
        if isinstance(e, ev.Carried):
            return [self._t("carry_next" if e.into == "next" else "carry", amount=e.amount)]
        return []


def payment_key(e: ev.Paid) -> str:
    """The message of a payment: in full, short of what was owed, or nothing (R-13: never
    more than the chips the payer has)."""
    if e.amount >= e.owed:
        return "payment"
    return "payment_short" if e.amount else "payment_none"


def results_text(result: Sequence[int], names: Sequence[str], lang: str) -> str:
    """ "Anna +120, Bruno -60, ..." for a hand's result."""
    return ", ".join(
        t("demo.result", lang, player=names[s], delta=format_number(r, lang, sign=True))
        for s, r in enumerate(result)
    )


def hand_over_text(hand_no: int, result: Sequence[int], names: Sequence[str], lang: str) -> str:
    """The line that ends a hand: its number and every player's net chips."""
    return t("demo.hand_over", lang, hand_no=hand_no, results=results_text(result, names, lang))
