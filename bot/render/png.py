"""PNG encoding with fixed settings, so the same image always gives the same bytes.

Pillow's PNG encoder tries the five row filters on every row (adaptive filtering) whatever
the compress level; on our flat-coloured images that costs about three times the compression
itself and saves ~4% of the size (measured: 25 ms vs 7 ms for a 792 x 480 hand). So RGB
images are written here as a plain PNG: filter 0 on every row, one zlib stream at a fixed
level, and only the IHDR, IDAT and IEND chunks (no time or metadata). `encode_png_pillow` is
the Pillow path, kept for comparison (benchmark) and for other modes.

`encode_png_palette` is the table image as it is uploaded to Discord at every change: the same
picture reduced to at most 256 colours (flat fills and anti-aliased text need far fewer), a
third of the bytes of the RGB PNG (measured on the 800 x 600 table: ~14 KB against ~39 KB, in
~30 ms), which is what keeps a busy bot's uploads small (issue 18).
"""

from __future__ import annotations

import struct
import zlib
from io import BytesIO

from PIL import Image

from bot.render.theme import PNG_COMPRESS_LEVEL

#: Colours of a palette PNG, and its zlib level: 8 makes a table image ~10% smaller than 6
#: (about 14 KB instead of 16 KB) for ~3 ms more per upload; 9 saves only ~2% more than 8
#: at three times 8's encoding time.
PALETTE_COLOURS = 256
PALETTE_COMPRESS_LEVEL = 8

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def encode_png(image: Image.Image) -> bytes:
    """The image as PNG bytes: 8-bit RGB, unfiltered rows, zlib at `PNG_COMPRESS_LEVEL`."""
    if image.mode != "RGB":
        image = image.convert("RGB")
    width, height = image.size
    raw = image.tobytes()
    stride = width * 3
    rows = b"".join(b"\x00" + raw[i : i + stride] for i in range(0, len(raw), stride))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"".join((
        SIGNATURE,
        _chunk(b"IHDR", header),
        _chunk(b"IDAT", zlib.compress(rows, PNG_COMPRESS_LEVEL)),
        _chunk(b"IEND", b""),
    ))


def encode_png_pillow(image: Image.Image) -> bytes:
    """The image as PNG bytes through Pillow (`optimize=False`, the same compress level)."""
    buffer = BytesIO()
    image.save(buffer, "PNG", optimize=False, compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()


def encode_png_palette(image: Image.Image) -> bytes:
    """The image as a palette PNG: at most `PALETTE_COLOURS` colours (fast octree, no
    dithering, so flat areas stay flat), the same image always giving the same bytes."""
    if image.mode != "RGB":
        image = image.convert("RGB")
    reduced = image.quantize(
        colors=PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    buffer = BytesIO()
    reduced.save(buffer, "PNG", optimize=False, compress_level=PALETTE_COMPRESS_LEVEL)
    return buffer.getvalue()
