"""Texts of the fair deal (docs/fairness.md) on Discord: the commitment on the table message
and in each private hand reply, the revealed secret at the close, and `/verify`'s report.

Only the snapshot's `commitment` and `revealed_secret` are read here: the secret reaches a
text only once the store marked the table revealed (its close).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.fairness import Verification, public_word
from bot.i18n import t
from bot.store.hand_rows import StoredHand
from bot.tables.updates import TableState


def fair_field(state: TableState, lang: str) -> str | None:
    """The "Fair deal" field of the table message: the commitment, then the secret once
    revealed (None for a table opened before the fair deal)."""
    if state.commitment is None:
        return None
    lines = [t("fairness.table.commitment", lang, table=state.table_id,
               commitment=state.commitment)]
    if state.revealed_secret is not None:
        lines.append(t("fairness.table.revealed", lang, table=state.table_id,
                       secret=state.revealed_secret))
    return "\n".join(lines)


def hand_line(state: TableState | None, lang: str) -> str | None:
    """The commitment line of a private hand reply (None without a commitment)."""
    if state is None or state.commitment is None:
        return None
    return t("fairness.table.hand", lang, commitment=state.commitment, table=state.table_id)


def words_text(words: Sequence[tuple[int, str]], lang: str) -> str:
    """The words of a hand as shown: plain text (no markdown, no mention), in seat order."""
    if not words:
        return t("fairness.answer.no_words", lang)
    return ", ".join(f'"{public_word(w)}"' for _, w in words)


def hand_report(hand_no: int, words: Sequence[tuple[int, str]], check: Verification,
                lang: str, *, aborted: bool = False) -> str:
    """One hand's line of `/verify` (a hand the close interrupted says so)."""
    if check.ok:
        line = t("fairness.answer.hand_ok", lang, hand=hand_no, words=words_text(words, lang))
    else:
        line = t("fairness.answer.hand_bad", lang, hand=hand_no, count=len(check.mismatches),
                 words=words_text(words, lang))
    return f"{line} {t('fairness.answer.aborted', lang)}" if aborted else line


def file_line(hand_no: int, words: Sequence[tuple[int, str]], players: int,
              check: Verification, lang: str) -> str:
    """One hand of the attached file: its words, players and whole deck (plain words)."""
    status = t("fairness.answer.status_ok" if check.ok else "fairness.answer.status_bad", lang)
    shown = ", ".join(f'"{w}"' for _, w in words) or t("fairness.answer.no_words", lang)
    return t("fairness.answer.file_hand", lang, hand=hand_no, words=shown, players=players,
             deck=" ".join(c.code for c in check.deck), status=status)


def replay_lines(hand: StoredHand, lang: str) -> list[str]:
    """The fair deal of a stored hand, under its replay: its words and commitment, and the
    table's secret once the table closed (then the hidden cards are recomputable)."""
    if hand.commitment is None:
        return []
    lines = [t("fairness.history.hand", lang, table=hand.table_id, hand=hand.hand_no,
               words=words_text(hand.words, lang), commitment=hand.commitment)]
    if hand.revealed_secret is not None:
        lines.append(t("fairness.table.revealed", lang, table=hand.table_id,
                       secret=hand.revealed_secret))
    return lines
