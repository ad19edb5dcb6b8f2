"""Text alternatives for screen readers, and the leaderboard text, in the snapshot's language."""

from __future__ import annotations

from dataclasses import replace

from bot.render import hand_alt_text, leaderboard_text, table_alt_text
from bot.render.text import fit_text, text_width
from tests.render.samples import (
    HAND_3,
    HAND_13,
    LEADERBOARD,
    TABLE_BETTING,
    TABLE_SHOWDOWN,
    TABLE_STOPPA,
)


def test_hand_alt_text_names_cards_and_best_point() -> None:
    text = hand_alt_text(HAND_3)
    assert "Sette di Denari (7d)" in text and "Asso di Coppe (1c)" in text
    assert "39" in text and "Denari" in text and "Niccolò" in text and "Tocca a te" in text
    english = hand_alt_text(replace(HAND_3, lang="en"))
    assert "Seven of Coins (7d)" in english and "Coins" in english and english != text
    assert all(code in hand_alt_text(HAND_13) for code in HAND_13.cards)


def test_table_alt_text_lists_every_seat_unfolded() -> None:
    text = table_alt_text(TABLE_BETTING)
    for seat in TABLE_BETTING.seats:
        assert seat.name in text  # emoji and CJK kept for screen readers
    assert "Punto piccolo 2/4" in text and "all-in" in text and "passed" in text
    assert len(text.splitlines()) >= len(TABLE_BETTING.seats) + 2


def test_R9_table_alt_text_shows_declared_cards() -> None:
    text = table_alt_text(TABLE_SHOWDOWN)
    assert "Sette di Denari (7d)" in text and "mazziere" in text and "fuori" in text


def test_R12_table_alt_text_stoppa_needed_rank() -> None:
    text = table_alt_text(TABLE_STOPPA)
    assert "Ace of Swords (1s)" in text and "Four" in text
    italian = table_alt_text(replace(TABLE_STOPPA, lang="it"))
    assert "senza 4" in italian and "Quattro" in italian
    opened = table_alt_text(replace(TABLE_STOPPA, needed=None))
    assert "any card" in opened


def test_leaderboard_text_has_a_line_per_row() -> None:
    text = leaderboard_text(LEADERBOARD)
    lines = text.splitlines()
    assert len(lines) == len(LEADERBOARD.rows) + 1
    assert "Zoë 🎲" in text and "+12,500" in lines[1] and "-300" in lines[4]
    italian = leaderboard_text(replace(LEADERBOARD, lang="it", by="balance"))
    assert "12.500" in italian and "fiches" in italian
    assert "nessun giocatore" in leaderboard_text(replace(LEADERBOARD, rows=(), lang="it"))


def test_fit_text_fits() -> None:
    name = "Bartholomew the Magnificent of Somewhere Very Far Away"
    cut = fit_text(name, 16, 120)
    assert cut.endswith("…") and text_width(cut, 16) <= 120
    assert fit_text("Ann", 16, 120) == "Ann"
