"""The two fonts of the images and which characters each one draws.

Aileron (bundled with Pillow, `ImageFont.load_default`) is the house font but covers little
beyond ASCII; DejaVu Sans (shipped in `bot/render/fonts/`, Bitstream Vera / Arev licence, see
`fonts/LICENSE-DejaVu.txt`) covers Latin with accents, Greek, Cyrillic, Hebrew, Arabic and many
symbols, but no CJK and no colour emoji. Coverage is read from each font's own `cmap` table, so
it is exact for the files in use. Both fonts use Pillow's BASIC layout on every machine, so the
same text gives the same pixels whether or not libraqm is installed (right-to-left text is the
one exception: see `text.py`).
"""

from __future__ import annotations

import struct
from functools import cache
from io import BytesIO
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).with_name("fonts")
DEJAVU_PATH = FONT_DIR / "DejaVuSans.ttf"  # i18n: not user-facing
#: DejaVu is drawn a little smaller so its capitals match Aileron's (73 vs 70 units at 100 px)
DEJAVU_SCALE = 0.96
AILERON, DEJAVU = 0, 1


def _table_offsets(data: bytes) -> dict[bytes, int]:
    count = struct.unpack_from(">H", data, 4)[0]
    offsets = {}
    for i in range(count):
        tag, _checksum, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        offsets[tag] = offset
    return offsets


def _format4(data: bytes, at: int) -> set[int]:
    seg_x2 = struct.unpack_from(">H", data, at + 6)[0]
    segs = seg_x2 // 2
    ends_at = at + 14
    starts_at = ends_at + seg_x2 + 2
    deltas_at = starts_at + seg_x2
    ranges_at = deltas_at + seg_x2
    codes = set()
    for i in range(segs):
        end = struct.unpack_from(">H", data, ends_at + 2 * i)[0]
        start = struct.unpack_from(">H", data, starts_at + 2 * i)[0]
        delta = struct.unpack_from(">h", data, deltas_at + 2 * i)[0]
        range_offset = struct.unpack_from(">H", data, ranges_at + 2 * i)[0]
        for code in range(start, min(end, 0xFFFE) + 1):
            if range_offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                where = ranges_at + 2 * i + range_offset + 2 * (code - start)
                glyph = struct.unpack_from(">H", data, where)[0]
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                codes.add(code)
    return codes


def _format12(data: bytes, at: int) -> set[int]:
    groups = struct.unpack_from(">I", data, at + 12)[0]
    codes: set[int] = set()
    for i in range(groups):
        start, end, glyph = struct.unpack_from(">III", data, at + 16 + 12 * i)
        codes.update(range(start + (glyph == 0), end + 1))
    return codes


def cmap_codes(data: bytes) -> frozenset[int]:
    """The code points a TrueType/OpenType font maps to a real glyph (its Unicode cmap)."""
    base = _table_offsets(data)[b"cmap"]
    count = struct.unpack_from(">H", data, base + 2)[0]
    found: dict[int, int] = {}
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, base + 4 + 8 * i)
        fmt = struct.unpack_from(">H", data, base + offset)[0]
        if (platform, encoding) in ((3, 10), (0, 4), (3, 1), (0, 3)) and fmt in (4, 12):
            found.setdefault(fmt, base + offset)
    if 12 in found:
        return frozenset(_format12(data, found[12]))
    if 4 in found:
        return frozenset(_format4(data, found[4]))
    raise ValueError("font has no Unicode cmap of format 4 or 12")


@cache
def aileron(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled Aileron at `size` px (cached; FreeType fonts are read-only)."""
    return ImageFont.truetype(BytesIO(_aileron_bytes()), size,
                              layout_engine=ImageFont.Layout.BASIC)


@cache
def _aileron_bytes() -> bytes:
    loaded = ImageFont.load_default(size=20)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # pragma: no cover - no FreeType
        raise RuntimeError("Pillow was built without FreeType; the renderer needs it")
    return loaded.font_bytes


@cache
def dejavu(size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans for a line of nominal `size` px (scaled to match Aileron's capitals)."""
    return ImageFont.truetype(str(DEJAVU_PATH), max(1, round(size * DEJAVU_SCALE)),
                              layout_engine=ImageFont.Layout.BASIC)


def face(which: int, size: int) -> ImageFont.FreeTypeFont:
    """The font `which` (AILERON or DEJAVU) at nominal `size`."""
    return dejavu(size) if which == DEJAVU else aileron(size)


@cache
def aileron_codes() -> frozenset[int]:
    """Code points Aileron draws."""
    return cmap_codes(_aileron_bytes())


@cache
def dejavu_codes() -> frozenset[int]:
    """Code points DejaVu Sans draws."""
    return cmap_codes(DEJAVU_PATH.read_bytes())
