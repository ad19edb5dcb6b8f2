"""Hops of one "Call" click: which project files and functions run from the button's callback
to the store's transaction and back (the public message edited), in the offline harness.

Run: ``.venv/bin/python -m bench.click_hops`` (``--list`` prints every function in call order).

Four members play by buttons (no CPU seat, so nothing else runs in the click's settle) until one
of them may call; that click runs under ``sys.setprofile`` (the event loop's thread) and
``threading.setprofile`` (the store's worker thread and Pillow's threads, started after it is
set). Counted: the distinct files of ``bot/`` and ``cogs/`` entered, the distinct functions, and
every call (a function called twice counts twice), per ring. And the path itself: the project
frames on the stack when the store's transaction is called (``save_table``, from the button's
callback down), when the service hands the update to the publisher (``push``), and when the
publisher edits the table message (``edit_original_response``, the worker's task). A measure of
shape, not of speed.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

from bot.engine import Call
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import open_table
from tests.harness import Harness

ROOT = Path(__file__).resolve().parent.parent
RINGS = ("cogs", "bot/tables", "bot/store", "bot/render", "bot/engine", "bot/i18n", "bot")


class Recorder:
    """Records the project calls made while `on` is set, from any thread."""

    def __init__(self) -> None:
        self.on = False
        self.calls: list[tuple[str, str]] = []
        self.paths: dict[str, list[str]] = {}
        self.lock = threading.Lock()

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if not self.on or event != "call":
            return
        name = frame.f_code.co_name
        if name in PATH_ENDS and name not in self.paths:
            self.paths[name] = stack_of(frame)
        rel = project_file(frame.f_code.co_filename)
        if rel is None:
            return
        with self.lock:
            self.calls.append((rel, frame.f_code.co_qualname))


#: the calls whose stack is the click's path (see the module docstring)
PATH_ENDS = ("save_table", "push", "edit_original_response")


def project_file(path: str) -> str | None:
    """`path` relative to the checkout when it is a file of `bot/` or `cogs/`, else None."""
    if not path.startswith(str(ROOT)) or "/.venv/" in path:
        return None
    rel = Path(path).relative_to(ROOT).as_posix()
    return rel if rel.startswith(("bot/", "cogs/")) else None


def stack_of(frame: FrameType | None) -> list[str]:
    """The project frames of a stack, outermost first, as file:function."""
    out: list[str] = []
    while frame is not None:
        rel = project_file(frame.f_code.co_filename)
        if rel is not None:
            out.append(f"{rel}:{frame.f_code.co_qualname}")
        frame = frame.f_back
    return out[::-1]


def ring(rel: str) -> str:
    """The ring of a file (its longest matching prefix in RINGS)."""
    return next(r for r in RINGS if rel.startswith(r + "/"))


async def measure(recorder: Recorder) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with Harness.create(Path(tmp), seed=1) as h:
            members = [h.member(name) for name in ("Anna", "Bruno", "Carla", "Dario")]
            await open_table(h, members)
            driver = TableDriver(h, members, seed=3)
            for _ in range(200):
                state = driver.state()
                assert state is not None and state.to_act is not None
                member = driver.member(state.to_act)
                info = driver.hand_info(member)
                if any(isinstance(a, Call) for a in info.actions):
                    recorder.on = True
                    reply = await driver.act_by_buttons(member, Call())
                    recorder.on = False
                    assert reply.responded, reply.text
                    return
                await driver.play_turn("buttons")
            raise AssertionError("nobody could call")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="every function, in call order")
    args = parser.parse_args()
    recorder = Recorder()
    threading.setprofile(recorder.profile)
    sys.setprofile(recorder.profile)
    try:
        asyncio.run(measure(recorder))
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type, unused-ignore]  # None unsets it
    calls = recorder.calls
    files = sorted({f for f, _ in calls})
    functions = list(dict.fromkeys(calls))
    print(f"files: {len(files)}  functions: {len(functions)}  calls: {len(calls)}")
    per_ring: Counter[str] = Counter(ring(f) for f in files)
    fun_ring: Counter[str] = Counter(ring(f) for f, _ in functions)
    call_ring: Counter[str] = Counter(ring(f) for f, _ in calls)
    for name in RINGS:
        print(f"  {name:<11} files {per_ring[name]:>3}  functions {fun_ring[name]:>4}"
              f"  calls {call_ring[name]:>6}")
    for end in PATH_ENDS:
        stack = recorder.paths.get(end, [])
        files_on = len({frame.split(":")[0] for frame in stack})
        print(f"path to {end}: {len(stack)} calls in {files_on} files")
        if args.list:
            for frame in stack:
                print(f"    {frame}")
    if args.list:
        for rel, name in functions:
            print(f"{rel}:{name}")


if __name__ == "__main__":
    main()
