"""Text alternatives of the hand and table images (for screen readers), in the snapshot's language.

They name every card ("Asso di Coppe (1c)") and keep names exactly as given (no folding).
"""

from __future__ import annotations

from bot.i18n import t
from bot.i18n.cards import cards_text, rank_name, suit_name
from bot.i18n.currency import Currency
from bot.render.hand import sort_hand
from bot.render.shapes import fmt_int, phase_label, status_label
from bot.render.snapshots import HandSnapshot, SeatInfo, TableSnapshot
from bot.render.table import ending_lines, pot_lines


def hand_alt_text(snap: HandSnapshot) -> str:
    """The hand image in words: the cards, the new ones, the best point, whose turn."""
    lang = snap.lang
    phase = phase_label(snap.phase, lang)
    cards = cards_text(sort_hand(tuple(snap.cards), snap.phase), lang)
    if snap.player:
        parts = [t("render.alt.hand", lang, player=snap.player, phase=phase, cards=cards)]
    else:
        parts = [t("render.alt.your_cards", lang, phase=phase, cards=cards)]
    if snap.new_cards:
        parts.append(t("render.alt.new_cards", lang, cards=cards_text(snap.new_cards, lang)))
    if snap.best is not None:
        parts.append(t("render.alt.best_point", lang, value=snap.best.value,
                       suit=suit_name(snap.best.suit, lang),
                       cards=cards_text(snap.best.cards, lang)))
    if snap.your_turn:
        parts.append(t("render.alt.your_turn", lang))
    return " ".join(parts)


def seat_alt_text(
    number: int, seat: SeatInfo, lang: str, currency: Currency | None = None
) -> str:
    """One seat in words (`number` counts from 1), its chips in the server's `currency`."""
    extra = ""
    if seat.dealer:
        extra += t("render.alt.seat_dealer", lang)
    if seat.to_act:
        extra += t("render.alt.seat_to_act", lang)
    if seat.cpu:
        extra += t("render.alt.seat_cpu", lang)
    if seat.bet:
        extra += t("render.alt.seat_bet", lang, amount=fmt_int(seat.bet, lang))
    if seat.shown:
        extra += t("render.alt.seat_shown", lang, cards=cards_text(seat.shown, lang))
    return t("render.alt.seat", lang, seat=number, name=seat.name, currency=currency,
             chips=fmt_int(seat.chips, lang), cards=seat.cards,
             status=status_label(seat.status, lang), extra=extra)


def table_alt_text(snap: TableSnapshot) -> str:
    """The table image in words: phase, pots, every seat, the stoppa sequence and needed rank."""
    lang = snap.lang
    phase = phase_label(snap.phase, lang, snap.deal_no, snap.deals or len(snap.small_pots))
    lines = [t("render.alt.table", lang, title=snap.title or t("render.table_title", lang),
               phase=phase)]
    if snap.hand_no:
        lines.append(t("render.alt.hand_no", lang, number=snap.hand_no))
    pots = pot_lines(snap)
    if pots:
        lines.append(t("render.alt.pots", lang, pots="; ".join(pots)))
    lines.extend(
        seat_alt_text(i + 1, seat, lang, snap.currency) for i, seat in enumerate(snap.seats)
    )
    if snap.phase == "stoppa" or snap.stoppa_table:
        played = [code for play in snap.stoppa_table for code in play]
        if played:
            lines.append(t("render.alt.stoppa", lang, cards=cards_text(played, lang)))
        if snap.needed is not None and 1 <= snap.needed <= 10:
            lines.append(t("render.alt.needed", lang, rank=snap.needed,
                           name=rank_name(snap.needed, lang)))
        elif snap.phase != "over" and not snap.winner:
            lines.append(t("render.alt.open", lang))
    if snap.phase == "over" or snap.winner:  # how the hand ended, as the centre says it
        if snap.proof:
            lines.append(t("table_image.alt_proof", lang, cards=cards_text(snap.proof, lang)))
        lines.extend(f"{line}." for line in ending_lines(snap))
    return "\n".join(lines)
