"""Every INTEGER and NUMBER option of every command keeps to Discord's limits (issue 34).

Discord refuses a bulk command registration whose one option has a `min_value`/`max_value`
outside its range, and then not one command of the bot is registered: `/verify` once
sent `max_value` 2**53, one more than the largest value of an INTEGER option. The limits are
read from the copy of Discord's spec, so they are Discord's, not ours; the largest table
number is then answered as any unknown table, on both databases.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from tests.harness import Harness
from tests.harness.contract import SPEC_FILE

INTEGER, NUMBER = 4, 10
SUBCOMMAND, GROUP = 1, 2


def int53() -> tuple[int, int]:
    """The range of an INTEGER option's value and bounds (`Int53Type` of the spec)."""
    schema = json.loads(SPEC_FILE.read_text(encoding="utf-8"))["components"]["schemas"]
    return schema["Int53Type"]["minimum"], schema["Int53Type"]["maximum"]


def number_options(commands: list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(command path, option) of every INTEGER and NUMBER option, subcommands included."""

    def walk(path: str, options: list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any]]]:
        for option in options:
            if option["type"] in (SUBCOMMAND, GROUP):
                yield from walk(f"{path} {option['name']}", option.get("options") or [])
            elif option["type"] in (INTEGER, NUMBER):
                yield path, option

    for command in commands:
        yield from walk(command["name"], command.get("options") or [])


async def test_every_integer_and_number_option_is_within_discords_range(h: Harness) -> None:
    low, high = int53()
    assert (low, high) == (-(2**53 - 1), 2**53 - 1)  # what Discord's docs say too
    found = list(number_options(await h.sync_commands()))
    assert len(found) >= 15, found  # the walk reached the subcommands
    outside = [
        (path, option["name"], bound, option[bound])
        for path, option in found
        for bound in ("min_value", "max_value")
        if bound in option and not low <= option[bound] <= high
    ]
    assert outside == []
    crossed = [(p, o["name"]) for p, o in found
               if o.get("min_value", low) > o.get("max_value", high)]
    assert crossed == []
    verify = {o["name"]: o for p, o in found if p == "verify"}
    assert verify["table"]["max_value"] == high



async def test_the_largest_table_number_is_an_unknown_table_on_both_databases(
    hdb: Harness,
) -> None:
    member = hdb.member("Carla", locale="en-GB")
    reply = await hdb.slash(member, "verify", table=2**53 - 1)
    assert reply.ephemeral
    assert reply.text == f"There is no table {2**53 - 1} on this server."
