"""The final standings image (bot/render/standings.py): a real PNG with a row per finisher,
in the reader's language and the server's currency."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.standings import (
    ROW,
    StandingRow,
    StandingsSnapshot,
    render_standings,
    standings_image,
    standings_text,
)

ROWS = (
    StandingRow(3, "Carla", 0, 9),
    StandingRow(1, "Anna", 866, 14),
    StandingRow(4, "CPU 4 (Easy)", 0, 5),
    StandingRow(2, "Bruno", 466, 14),
)


def snapshot(lang: str = "en", rows: tuple[StandingRow, ...] = ROWS, **kw: object
             ) -> StandingsSnapshot:
    return StandingsSnapshot(rows=rows, number=7, pool=1332, hands=14, lang=lang, **kw)  # type: ignore[arg-type]


def test_the_image_is_a_png_with_one_row_per_finisher() -> None:
    png = render_standings(snapshot())
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width == 640
    three = standings_image(snapshot(rows=ROWS[:3]))
    assert image.height - three.height == ROW  # one more finisher, one more row


def test_the_text_lists_places_in_order_with_prizes_and_hands() -> None:
    lines = standings_text(snapshot()).splitlines()
    assert lines[0] == (
        "Tournament #7: final standings. Prize pool 1,332 chips · 4 players · 14 hands."
    )
    assert lines[1] == "1. Anna: 866 chips, won in hand 14"
    assert lines[2] == "2. Bruno: 466 chips, out in hand 14"
    assert lines[3] == "3. Carla: –, out in hand 9"
    assert lines[4] == "4. CPU 4 (Easy): –, out in hand 5"


def test_italian_and_a_server_currency() -> None:
    text = standings_text(snapshot("it", currency_name="moneta/monete", currency_emoji="🪙"))
    assert "Montepremi 🪙 1.332 monete" in text
    assert "1. Anna: 🪙 866 monete, vince alla mano 14" in text
    assert "3. Carla: –, fuori alla mano 9" in text
    # the image's fonts draw no emoji: the image says the currency's word only
    assert render_standings(snapshot("it", currency_name="moneta/monete", currency_emoji="🪙"))


def test_the_same_snapshot_gives_the_same_bytes() -> None:
    assert render_standings(snapshot()) == render_standings(snapshot())
    assert render_standings(snapshot()) != render_standings(snapshot("it"))
