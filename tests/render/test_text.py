"""Text on the images: accents and other scripts drawn (DejaVu fallback), names never empty."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw, ImageFont

from bot.render import HandSnapshot, hand_alt_text, text
from bot.render.faces import (
    AILERON,
    DEJAVU,
    DEJAVU_PATH,
    FONT_DIR,
    aileron,
    aileron_codes,
    dejavu,
    dejavu_codes,
)
from bot.render.text import (
    ELLIPSIS,
    PLACEHOLDER,
    fit_text,
    name_text,
    runs,
    safe_text,
    text_mask,
    text_width,
    visual_order,
)

NAMES = ("José", "Zoë", "Łukasz", "Дмитрий", "Νίκος", "Niccolò", "Perché", "Ærøskøbing")


def _glyph(font: ImageFont.FreeTypeFont, ch: str) -> bytes:
    image = Image.new("L", (64, 64), 0)
    ImageDraw.Draw(image).text((8, 8), ch, font=font, fill=255)
    return image.tobytes()


def _same_glyph(font: ImageFont.FreeTypeFont, a: str, b: str) -> bool:
    return _glyph(font, a) == _glyph(font, b)


def test_font_file_and_its_licence_are_shipped() -> None:
    assert DEJAVU_PATH.is_file() and DEJAVU_PATH.stat().st_size > 500_000
    licence = (FONT_DIR / "LICENSE-DejaVu.txt").read_text(encoding="utf-8")
    assert "Bitstream Vera" in licence and "Arev" in licence


def test_accents_and_other_scripts_are_kept_not_folded() -> None:
    for name in NAMES:
        assert safe_text(name) == name
    assert safe_text("Niccolò è qui") == "Niccolò è qui"
    assert safe_text("a — b × 3") == "a — b × 3"
    assert safe_text("  Anna \n  Maria ") == "Anna Maria"


def test_emoji_without_a_glyph_dropped_letters_without_a_glyph_boxed() -> None:
    assert safe_text("Zoë 🎲") == "Zoë"  # no font has the die
    assert safe_text("Marco 😀") == "Marco 😀"  # DejaVu has the smiley
    assert safe_text("山田") == PLACEHOLDER * 2  # no CJK in either font
    assert safe_text("a\u200db\ufe0f\u0007") == "ab"  # joiner, variation selector, control
    assert safe_text("🎲🎲", "?") == "?"
    assert fit_text("🎲🎲", 16, 200) == PLACEHOLDER  # a name never becomes empty
    assert fit_text("", 16, 200) == PLACEHOLDER


def test_names_are_never_empty_in_drawn_labels_and_kept_whole_in_alt_texts() -> None:
    assert name_text("🎲🎲") == PLACEHOLDER and name_text(" Zoë 🎲 ") == "Zoë"
    assert "Zoë 🎲" in hand_alt_text(HandSnapshot(("1c",), player="Zoë 🎲"))


def test_words_use_aileron_only_when_it_has_every_character() -> None:
    assert runs("Alice") == (("Alice", AILERON),)
    assert runs("Perché no") == (("Perché", DEJAVU), (" no", AILERON))
    assert runs("Дмитрий Иванов") == (("Дмитрий Иванов", DEJAVU),)
    assert runs("Punto 37 — Denari") == (("Punto 37 ", AILERON), ("—", DEJAVU),
                                          (" Denari", AILERON))
    assert runs("") == ()


def test_cmap_coverage_matches_what_freetype_draws() -> None:
    for font, codes, missing in ((aileron(24), aileron_codes(), "é"),
                                 (dejavu(24), dejavu_codes(), "山")):
        notdef = missing
        assert ord(missing) not in codes
        for ch in "AzÀéŁДλ😀—□":
            drawn = not _same_glyph(font, ch, notdef)
            assert drawn == (ord(ch) in codes), (font.getname(), ch)


def test_accented_names_are_drawn_with_their_accents() -> None:
    assert runs("José") == (("José", DEJAVU),) and not _same_glyph(dejavu(20), "é", "e")
    assert text_mask("é", 20, "ls")[2] < text_mask("e", 20, "ls")[2]  # the accent is drawn
    assert text_mask("Ł", 20, "ls")[0].getbbox() != text_mask("L", 20, "ls")[0].getbbox()
    for name in NAMES:
        mask = text_mask(name, 18, "lm", True)[0]
        assert mask.getbbox() is not None and text_width(name, 18) > 20


def test_baselines_line_up_across_fonts() -> None:
    # the same anchor puts the baseline of an Aileron word and a DejaVu word at the same y
    for anchor in ("la", "lm", "ls", "ma"):
        a_mask, _, a_top = text_mask("Hx", 20, anchor)
        d_mask, _, d_top = text_mask("Hé", 20, anchor)
        a_base = a_top + aileron(20).getbbox("Hx", anchor="ls")[3] - aileron(20).getbbox(
            "Hx", anchor="ls")[1]
        d_base = d_top + d_mask.getbbox()[3]
        assert abs(a_base - d_base) <= 1, anchor
        assert a_mask.getbbox() is not None


def test_right_to_left_runs_are_reversed_for_the_basic_layout() -> None:
    assert visual_order("abc אבג def") == "abc גבא def"
    assert visual_order("אב גד") == "דג בא"
    assert visual_order("Ann (12)") == "Ann (12)"


def test_right_to_left_text_without_raqm(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    caches = (text.runs, text.text_width, text.text_mask, text.fit_text)
    for cached in caches:
        cached.cache_clear()
    monkeypatch.setattr(text, "_raqm", lambda: False)
    try:
        assert runs("שלום Ann") == ((visual_order("שלום Ann"), DEJAVU),)
        assert text_mask("שלום Ann", 18, "lm")[0].getbbox() is not None
        assert text_width("שלום", 18) > 10
    finally:
        for cached in caches:
            cached.cache_clear()


@settings(deadline=None, max_examples=60)
@given(st.text(max_size=40), st.integers(12, 300))
def test_any_text_is_safe_fits_and_is_never_empty(text: str, width: int) -> None:
    shown = safe_text(text)
    covered = aileron_codes() | dejavu_codes()
    assert all(ord(ch) in covered for ch in shown)
    fitted = fit_text(text, 16, width)
    assert fitted
    if fitted != ELLIPSIS:
        assert text_width(fitted, 16) <= width
