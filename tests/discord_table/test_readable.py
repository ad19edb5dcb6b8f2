"""No internal identifier and no "1 cards" in anything a person reads (issue 15).

Two scans: every catalogue message in both languages (phase names, action kinds, variant
values and any snake_case word are engine identifiers, never words for people), and every
text the bot sent during a whole scripted game (replies, public messages, embeds, buttons
and the images' alt texts), with refusals, typed cards and a rank typed alone among them.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from typing import Any

import pytest

from bot.engine import (
    PHASES,
    VARIANTS,
    Bet,
    Call,
    Concede,
    Declare,
    IllegalAction,
    Pass,
    Play,
    Raise,
)
from bot.i18n import SUPPORTED, catalogue, has, t
from cogs.admin import VARIANTS as VARIANT_CHOICES
from cogs.admin import variant_text
from cogs.table_text import refusal_text
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import open_table
from tests.harness import Harness

ACTION_KINDS = sorted(
    {str(a).split()[0] for a in (Pass(), Call(), Concede(), Bet(1), Raise(1), Declare(()),
                                 Play(()))}
)
SNAKE = re.compile(r"(?<![\w/<@#:.-])[a-z]+(?:_[a-z0-9]+)+(?![\w])")
CODE_SPAN = re.compile(r"`[^`]*`")
ONE_PLURAL = re.compile(
    r"\b1\*{0,2}\s+(cards|chips|players|times|hands|pages|points|carte|giocatori|"
    r"volte|mani|pagine|punti|fiches)\b"
)
#: Keys of a message payload whose string values a person reads.
READ_KEYS = frozenset({"content", "title", "description", "name", "value", "text", "label",
                       "placeholder"})


def words_of(text: str) -> str:
    """A catalogue text without its placeholders (plural forms kept as words)."""
    out = []
    for literal, name, spec, _ in string.Formatter().parse(text):
        out.append(literal)
        if name is not None and spec and "|" in spec:
            out.append(" " + " ".join(spec.split("|")) + " ")
    return "".join(out)


def identifiers_in(text: str) -> list[str]:
    """snake_case identifiers in `text` (code spans are commands or notation, not prose)."""
    return SNAKE.findall(CODE_SPAN.sub(" ", text))


@pytest.mark.parametrize("lang", SUPPORTED)
def test_no_catalogue_message_holds_an_engine_identifier(lang: str) -> None:
    snake_ids = {p for p in PHASES if "_" in p} | {
        v for values in VARIANTS.values() for v in values if "_" in v
    } | {name for name in VARIANTS if "_" in name}
    found = {}
    for key, text in catalogue(lang).items():
        words = words_of(text)
        bad = set(identifiers_in(words)) | {i for i in snake_ids if i in words}
        if bad:
            found[key] = sorted(bad)
    assert found == {}


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_phase_action_and_variant_value_has_a_name(lang: str) -> None:
    for phase in PHASES:
        assert has(f"render.phase.{phase}", lang), phase
    for kind in ACTION_KINDS:
        assert has(f"names.action.{kind}", lang), kind
    for variant, values in VARIANT_CHOICES.items():
        for value in values:
            shown = variant_text(variant, value if value not in ("yes", "no") else value == "yes",
                                 lang)
            assert shown != value and not identifiers_in(shown), (variant, value)


@pytest.mark.parametrize("lang", SUPPORTED)
def test_engine_refusals_name_the_phase_and_the_action(lang: str) -> None:
    for phase in PHASES:
        for kind in ACTION_KINDS:
            text = refusal_text(IllegalAction("wrong_phase", action=kind, phase=phase), lang)
            assert not identifiers_in(text), text
            assert t(f"names.action.{kind}", lang) in text
            assert t(f"render.phase.{phase}", lang) in text


def read_texts(value: Any, key: str = "") -> Iterator[str]:
    """The strings a person reads in a REST payload (not custom ids, urls or file names)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from read_texts(v, k)
    elif isinstance(value, list):
        for item in value:
            yield from read_texts(item, key)
    elif isinstance(value, str) and key in READ_KEYS:
        yield value


def problems(h: Harness) -> list[tuple[str, str]]:
    found = []
    for call in h.calls:
        if call.method not in ("POST", "PATCH") or "/applications/" in call.path:
            continue
        for text in read_texts(call.json):
            for bad in identifiers_in(text):
                found.append((bad, text))
            for bad in ONE_PLURAL.findall(text):
                found.append((f"1 {bad}", text))
    return found


async def test_a_whole_game_reads_without_identifiers_or_wrong_plurals(tmp_path) -> None:
    async with Harness.create(tmp_path, seed=3) as h:
        members = [h.member("Anna"), h.member("Bruno", locale="it"), h.member("Carla"),
                   h.member("Dario", locale="it")]
        await open_table(h, members)
        await h.slash(members[2], "stoppa round")
        driver = TableDriver(h, members, seed=11)
        state = driver.state()
        assert state is not None and state.to_act is not None and state.phase == "small_point"
        player = driver.member(state.to_act)
        lang = "it" if player.locale == "it" else "en"

        early = await h.slash(player, "stoppa play", cards="5c")
        assert early.ephemeral
        assert t("names.action.play", lang) in early.text
        assert t("render.phase.small_point", lang) in early.text
        typo = await h.slash(player, "stoppa play", cards="zz")
        assert typo.text == t("input.bad_cards", lang, text="`zz`")
        typo = await h.slash(player, "stoppa declare", cards="7x")
        assert typo.ephemeral and typo.text == t("input.bad_cards", lang, text="`7x`")

        by_rank = ambiguous = 0
        for _ in range(3000):
            await driver.service.wait_idle()
            await h.settle()
            state = driver.state()
            if state is None:
                break
            assert state.to_act is not None
            member = driver.member(state.to_act)
            plays = [a for a in driver.hand_info(member).actions if isinstance(a, Play)]
            ranks = [p.cards[0].rank for p in plays if len(p.cards) == 1]
            single = [r for r in ranks if ranks.count(r) == 1]
            double = [r for r in ranks if ranks.count(r) > 1]
            lang = "it" if member.locale == "it" else "en"
            if double and not ambiguous:
                asked = await h.slash(member, "stoppa play", cards=str(double[0]))
                assert asked.ephemeral and "`" in asked.text
                assert driver.state() == state  # nothing was played
                ambiguous += 1
            if single:
                chosen = next(p for p in plays if p.cards[0].rank == single[0]
                              and len(p.cards) == 1)
                played = await h.slash(member, "stoppa play", cards=str(single[0]))
                assert played.text == t("table.done.play", lang, cards=str(chosen.cards[0]))
                by_rank += 1
                continue
            await driver.play_turn("mixed")
        assert driver.state() is None, "the table did not close"
        assert by_rank >= 3
        assert problems(h) == []
        # the scan reads what matters: seat lines with card counts and the images' alt texts
        texts = [s for c in h.calls if isinstance(c.json, dict) for s in read_texts(c.json)]
        assert any(re.search(r"\b1 (card|carta)\b", s) for s in texts)
        assert any(s.startswith(("Seat ", "Posto ")) or "\nSeat " in s or "\nPosto " in s
                   for s in texts)


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_timeout_notice_names_the_action(lang: str) -> None:
    from bot.tables import Notice
    from cogs.table_text import notice_text

    notice = Notice("tables.timeout.other", {"player": 5, "action": "declare 7d 6d"}, ("player",))
    text = notice_text(notice, lang, {5: "Anna"})
    assert t("names.action.declare", lang) in text and "7d" not in text
