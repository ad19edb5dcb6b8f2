"""Every free-text option (a reason, a name, a word, a season, typed cards...) is treated alike on
SQLite and PostgreSQL (issue 34).

PostgreSQL's text cannot hold NUL (0x00): `/chips grant` with a reason holding one answered
"Sorry, something went wrong" and logged an ERROR there (`CharacterNotInRepertoireError`),
while SQLite stored it. A lone surrogate (JSON "\\ud800") cannot be encoded for either. The
rule (`bot.discord_utils.text`): a free-text option holding a control character (Unicode
category Cc: NUL, a line break, an escape...) or a lone surrogate is refused, politely,
privately and in the member's language, before anything is done; other text (emoji with
their joiners, accents, any script) is kept as typed. An autocomplete gets no suggestions.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

from bot.i18n import t
from tests.harness import FakeMember, Harness

#: Every free-text option of the bot (a string option without choices): command path ->
#: (option, other options). A new one must be added here (the first test says so).
FREE_TEXT: dict[tuple[str, str], dict[str, Any]] = {
    ("chips grant", "reason"): {"amount": 10},
    ("settings economy", "currency_name"): {},
    ("settings economy", "currency_emoji"): {},
    ("season new", "name"): {},
    ("fair word", "text"): {},
    ("verify", "secret"): {"table": 1},
    ("verify", "commitment"): {"table": 1, "secret": "00" * 32},
    **{("verify", f"word{n}"): {"table": 1, "secret": "00" * 32} for n in range(1, 7)},
    ("leaderboard", "season"): {},
    ("stoppa declare", "cards"): {},
    ("stoppa play", "cards"): {},
    ("tournament join", "tournament"): {},
    ("tournament leave", "tournament"): {},
    ("tournament addbot", "tournament"): {},
    ("tournament start", "tournament"): {},
    ("tournament cancel", "tournament"): {},
    ("tournament status", "tournament"): {},
}
REFUSED = ["a\x00b", "\x00", "line\nbreak", "esc\x1b[31m", "bell\x07", "lone \ud800"]


def free_text_options(commands: list[dict[str, Any]]) -> Iterator[tuple[str, str]]:
    """(command path, option name) of every string option without choices."""

    def walk(path: str, options: list[dict[str, Any]]) -> Iterator[tuple[str, str]]:
        for option in options:
            if option["type"] in (1, 2):
                yield from walk(f"{path} {option['name']}", option.get("options") or [])
            elif option["type"] == 3 and not option.get("choices"):
                yield path, option["name"]

    for command in commands:
        yield from walk(command["name"], command.get("options") or [])


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR]


async def test_every_free_text_option_is_listed(h: Harness) -> None:
    assert set(free_text_options(await h.sync_commands())) == set(FREE_TEXT)


async def state(h: Harness, member: FakeMember) -> tuple[Any, ...]:
    store = h.bot.open_store
    return (await store.balance(h.guild_id, member.id), await store.audit())


@pytest.mark.parametrize("typed", REFUSED)
async def test_control_characters_are_refused_alike_on_both_databases(
    hdb: Harness, caplog: pytest.LogCaptureFixture, typed: str
) -> None:
    boss = hdb.member("Boss", locale="it", manage_guild=True)
    bob = hdb.member("Bob")
    before = await state(hdb, bob)
    for (path, name), others in FREE_TEXT.items():
        options = dict(others)
        if path == "chips grant":
            options["member"] = bob
        options[name] = typed
        reply = await hdb.slash(boss, path, **options)
        assert reply.ephemeral, (path, reply.text)
        assert reply.text == t("input.control_character", "it"), (path, reply.text)
        suggested = await hdb.autocomplete(boss, path, name, **options)
        assert suggested.choices == [] if suggested.type == 8 else not suggested.responded
    assert await state(hdb, bob) == before
    assert errors(caplog) == []


async def test_text_without_control_characters_is_kept_as_typed(hdb: Harness) -> None:
    """Accents, scripts and emoji with their joiners are text a member means."""
    boss = hdb.member("Boss", manage_guild=True)
    bob = hdb.member("Bob")
    reason = "Torneo di Natale 🎄 – vincitore: Zoë 👨‍👩‍👧"
    granted = await hdb.slash(boss, "chips grant", member=bob, amount=10, reason=reason)
    assert not granted.ephemeral, granted.text
    name = await hdb.slash(boss, "settings economy", currency_name="Gettoni ☕")
    assert "Gettoni ☕" in name.text
