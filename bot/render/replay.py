"""The animated replay of a finished hand: the frames of `replay_frames` drawn and encoded.

Each frame is the public table image (`table_image`, the same picture players see during a
game) over a strip with the caption and a row of cards: the viewer's own hand in a private
replay, or the proof of a special hand. Frames are encoded as one animated image with Pillow's
`save_all`. Lossless WebP is the default: on our flat-coloured frames it is half the size of
a 128-colour GIF with no palette loss, at a similar CPU cost (see `bench/bench_replay.py`), and
Discord animates both.
Pure and synchronous: call it through `asyncio.to_thread`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence
from functools import cache
from io import BytesIO
from pathlib import Path

from PIL import Image, ImageDraw

from bot.engine.events import Event
from bot.i18n import t
from bot.render.replay_frames import ReplayFrame, ReplaySetup, replay_frames
from bot.render.sprites import flat
from bot.render.table import HEIGHT, WIDTH, table_image
from bot.render.text import draw_text
from bot.render.theme import GOLD, INK, MUTED, PANEL

STRIP = 104
MINI = 30
FORMATS = ("webp", "gif")
#: WebP settings: lossless (text and card faces stay exact) at the lowest effort that still
#: compresses: method 1, quality 0 (method 0 writes nearly raw frames, ten times bigger;
#: more effort costs 50-150% more CPU for at most a quarter off the size); no key frames after
#: the first (kmax 0: each frame is stored as the rectangle that changed, which halves the
#: encoding time and trims the size; a looping replay never needs to seek)
WEBP_METHOD = 1
WEBP_QUALITY = 0
WEBP_KEYFRAMES = {"kmin": 0, "kmax": 0}


@cache
def _strip_background() -> Image.Image:
    image = Image.new("RGB", (WIDTH, STRIP), PANEL)
    ImageDraw.Draw(image).line((0, 0, WIDTH, 0), fill=GOLD, width=2)
    return image


def frame_image(frame: ReplayFrame) -> Image.Image:
    """One frame as an RGB image: the table above, the caption and a row of cards below."""
    table = frame.table
    lang = table.lang
    image = Image.new("RGB", (WIDTH, HEIGHT + STRIP))
    image.paste(table_image(table), (0, 0))
    image.paste(_strip_background(), (0, HEIGHT))
    draw = ImageDraw.Draw(image)
    y = HEIGHT + 10
    draw_text(draw, (16, y), frame.caption, 19, INK, bold=True, max_width=WIDTH - 32)
    if frame.proof:
        label, cards = t("history.replay.cards_of", lang, player=frame.proof_of), frame.proof
    elif frame.own:
        label, cards = t("history.replay.your_cards", lang), frame.own
    else:
        label, cards = "", ()
    row = HEIGHT + 46
    x = 16
    if label:
        x += draw_text(draw, (x, row + 21), label, 15, MUTED, anchor="lm", max_width=180) + 12
    for code in cards:
        if x + MINI > WIDTH - 8:
            break
        image.paste(flat("mini", code, MINI, PANEL), (x, row))
        x += MINI + 4
    note = t("history.replay.net_note", lang)
    draw_text(draw, (WIDTH - 12, HEIGHT + STRIP - 8), note, 12, MUTED, anchor="rd")
    return image


def encode_animation(images: Sequence[Image.Image], durations: Sequence[int],
                     fmt: str = "webp") -> bytes:
    """`images` as one looping animation (`fmt` "webp" or "gif"), each shown its duration."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown replay format {fmt!r}; choose one of {FORMATS}")
    if not images:
        raise ValueError("an animation needs at least one frame")
    buffer = BytesIO()
    first, rest = images[0], list(images[1:])
    if fmt == "webp":
        first.save(buffer, "WEBP", save_all=True, append_images=rest, duration=list(durations),
                   loop=0, lossless=True, quality=WEBP_QUALITY, method=WEBP_METHOD,
                   **WEBP_KEYFRAMES)
    else:
        # one shared palette keeps the GIF small and the colours steady from frame to frame
        palette = first.quantize(colors=128, method=Image.Quantize.MEDIANCUT)
        frames = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in images]
        frames[0].save(buffer, "GIF", save_all=True, append_images=frames[1:],
                       duration=list(durations), loop=0, optimize=False, disposal=1)
    return buffer.getvalue()


def render_replay(frames: Sequence[ReplayFrame], fmt: str = "webp") -> bytes:
    """The replay as an animated WebP (default) or GIF."""
    images = [frame_image(f) for f in frames]
    return encode_animation(images, [f.duration for f in frames], fmt)


def write_replay(path: Path, events: Sequence[Event], names: Sequence[str], hand_no: int = 0,
                 lang: str = "en") -> Path:
    """Write the public replay of a finished hand to `path` (WebP); returns the path."""
    setup = ReplaySetup(tuple(events), tuple(names), hand_no=hand_no, lang=lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(render_replay(replay_frames(setup), "webp"))
    return path


class ReplayCache:
    """The last rendered replays, keyed by (hand, viewer perspective, language, format).

    Bounded by count and by bytes; the least recently used replay goes first. A finished hand
    never changes, so an entry is never stale.
    """

    def __init__(self, max_items: int = 32, max_bytes: int = 64 * 1024 * 1024) -> None:
        self.max_items = max_items
        self.max_bytes = max_bytes
        self._items: OrderedDict[Hashable, bytes] = OrderedDict()
        self._bytes = 0
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> bytes | None:
        """The cached bytes of `key` (marked as recently used), or None."""
        data = self._items.get(key)
        if data is None:
            self.misses += 1
            return None
        self.hits += 1
        self._items.move_to_end(key)
        return data

    def put(self, key: Hashable, data: bytes) -> None:
        """Keep `data` for `key`, dropping the least recently used entries over the bounds."""
        old = self._items.pop(key, None)
        if old is not None:
            self._bytes -= len(old)
        if len(data) > self.max_bytes:
            return
        self._items[key] = data
        self._bytes += len(data)
        while len(self._items) > self.max_items or self._bytes > self.max_bytes:
            _, dropped = self._items.popitem(last=False)
            self._bytes -= len(dropped)

    def __len__(self) -> int:
        return len(self._items)
