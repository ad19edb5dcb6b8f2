"""The "how the last hand ended" lines of the table message (`TableState.last_hand`).

When a showdown's last declaration ends a hand, the next hand is dealt at once; these lines
keep every declared point, who won each pot, the special hand with its proof, the closer and
the payments on the table message until the next hand's first action.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import t
from bot.i18n.currency import Currency
from bot.tables import HandOver, PotWon, display_name

#: The catalogue name of each special hand (R-11).
SPECIAL_NAMES = {
    "ricchezza": "table.special.ricchezza",
    "misera": "table.special.misera",
    "assi": "table.special.assi",
}


def _pot_line(
    won: PotWon, lang: str, names: Mapping[int, str], currency: Currency | None
) -> str:
    player = display_name(won.user, names)
    if won.pot == "big":
        line = t("handover.won_big", lang, player=player, amount=won.amount, currency=currency)
    else:
        line = t("handover.won_small", lang, player=player, amount=won.amount,
                 deal=(won.deal or 0) + 1, currency=currency)
    if won.reason == "no_bet":
        return t("handover.won_no_bet", lang, line=line)
    if won.reason == "alone":
        return t("handover.won_alone", lang, line=line)
    return line


def hand_over_lines(
    last: HandOver, lang: str, names: Mapping[int, str], currency: Currency | None = None
) -> list[str]:
    """The lines, in the order things happened: points shown and pots won (small pots, then
    the big point), the special hand or the closer, the payments, the carried pot; amounts in
    the server's `currency` (None: the bot's own words)."""
    def name(user: int) -> str:
        return display_name(user, names)

    lines: list[str] = []
    pots = [(p.pot, p.deal) for p in last.points] + [(w.pot, w.deal) for w in last.pots]
    for pot, deal in dict.fromkeys(pots):
        for point in (p for p in last.points if (p.pot, p.deal) == (pot, deal)):
            cards = " ".join(point.cards)
            if point.pot == "big":
                lines.append(t("handover.point_big", lang, player=name(point.user),
                               value=point.value, cards=cards))
            else:
                lines.append(t("handover.point_small", lang, player=name(point.user),
                               value=point.value, cards=cards, deal=(point.deal or 0) + 1))
        lines += [
            _pot_line(w, lang, names, currency) for w in last.pots if (w.pot, w.deal) == (pot, deal)
        ]
    if last.special is not None and last.holder is not None:
        lines.append(t("handover.special", lang, player=name(last.holder),
                       kind=t(SPECIAL_NAMES[last.special], lang),
                       cards=" ".join(last.proof)))
    if last.closer is not None:
        lines.append(t("handover.closer", lang, player=name(last.closer)))
    lines += [
        t("handover.payment", lang, payer=name(p.payer), to=name(p.to), amount=p.amount,
          currency=currency)
        for p in last.payments if p.amount
    ]
    if last.carry:
        lines.append(t("handover.carry", lang, amount=last.carry, currency=currency))
    return lines
