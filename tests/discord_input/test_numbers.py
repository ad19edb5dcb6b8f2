"""Numbers from Discord are read in one place (`bot.discord_utils.numbers`): only ASCII digits
count, and every id from a custom id or option is bounded before any look-up.

Each test here failed before that module: `²`, `①` and `5²` pass `str.isdigit()` and then
`int()` raised (an apology and an ERROR); a 20-digit id reached SQLite as an OverflowError; a
history page below 1 became a negative OFFSET."""

from __future__ import annotations

import re

import pytest

from bot.discord_utils.numbers import ID_MAX, NUMBER, checked_id, typed_number
from bot.i18n import t
from cogs.history import PAGE_TEMPLATE, SHARE_TEMPLATE
from cogs.table_items import BUTTON_TEMPLATE, MODAL_TEMPLATE, SELECT_TEMPLATE
from cogs.tournament_items import BUTTON_TEMPLATE as TOURNAMENT_TEMPLATE
from tests.discord_input.conftest import (
    a_replay,
    errors_in,
    finished_hands,
    press_on,
    three_at_a_table,
)
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_orphans import open_modal
from tests.harness import Harness

NOT_ASCII_NUMBERS = ("²", "①", "5²", "٣٠", "１２", "½", "")
HUGE = "9" * 20


@pytest.mark.parametrize("text", (*NOT_ASCII_NUMBERS, "-5", "+5", "5.0", "1e3", "9" * 20,
                                  "1.5", "1,20", "1,2000", "1,200.000", ",200", "1 200"))
def test_only_ascii_digits_are_a_number(text: str) -> None:
    assert typed_number(text) is None


@pytest.mark.parametrize(("text", "value"), [("0", 0), (" 42 ", 42), ("007", 7),
                                             ("9" * 19, 10**19 - 1), ("1,200", 1200),
                                             ("1.200", 1200), (" 12,345,678 ", 12345678)])
def test_ascii_digits_are_read(text: str, value: int) -> None:
    assert typed_number(text) == value


def test_templates_match_ascii_digits_only() -> None:
    templates = [BUTTON_TEMPLATE, SELECT_TEMPLATE, MODAL_TEMPLATE.pattern, PAGE_TEMPLATE,
                 SHARE_TEMPLATE, TOURNAMENT_TEMPLATE]
    for template in templates:
        assert r"\d" not in template and NUMBER in template
    assert re.fullmatch(SHARE_TEMPLATE, "stoppa:history:share:٣") is None
    assert re.fullmatch(SHARE_TEMPLATE, "stoppa:history:share:3") is not None


@pytest.mark.parametrize("value", [0, -1, ID_MAX + 1, 10**99])
def test_ids_outside_int64_are_refused_before_any_look_up(value: int) -> None:
    with pytest.raises(Exception) as refused:
        checked_id(value)
    assert getattr(refused.value, "key", None) == "input_numbers.no_such"
    assert checked_id(ID_MAX) == ID_MAX


@pytest.mark.parametrize("typed", ["²", "①", "5²", "٣٠", "5\x00"])
async def test_the_bet_modal_refuses_a_non_ascii_number_politely(
    h: Harness, caplog: pytest.LogCaptureFixture, typed: str
) -> None:
    members = await three_at_a_table(h, locale="it")
    driver = TableDriver(h, members)
    actor, opened = await open_modal(h, driver)
    low, high = driver.hand_info(actor).bet_range
    before = driver.state()
    refused = await h.submit_modal(actor, opened.modal["custom_id"],  # type: ignore[index]
                                   {"amount": typed}, opened_by=opened)
    assert refused.ephemeral
    # the refusal is shown in the player's live panel itself, above the moves (issue 36)
    assert t("table.refuse.bad_amount", "it", min=low, max=high) in refused.text
    assert driver.state() == before
    assert errors_in(caplog) == []


@pytest.mark.parametrize("typed", ["²", "①", "5²"])
async def test_play_cards_refuses_a_non_ascii_rank_politely(
    h: Harness, caplog: pytest.LogCaptureFixture, typed: str
) -> None:
    members = await three_at_a_table(h)
    before = h.bot.tables.state(h.channel_id)
    refused = await h.slash(members[0], "stoppa play", cards=typed)
    assert refused.ephemeral
    assert refused.text == t("input.bad_cards", "en", text=f"`{typed}`")
    assert h.bot.tables.state(h.channel_id) == before
    assert errors_in(caplog) == []


@pytest.mark.parametrize("typed", ["²", "①", "5²", "#" + HUGE, str(2**63)])
async def test_the_tournament_number_option_refuses_what_is_not_one(
    h: Harness, caplog: pytest.LogCaptureFixture, typed: str
) -> None:
    refused = await h.slash(h.member("Anna"), "tournament status", tournament=typed)
    assert refused.ephemeral
    assert refused.text == t("tournaments.error.unknown", "en", text=typed)
    assert errors_in(caplog) == []


async def test_a_20_digit_hand_id_in_a_share_button_is_refused_privately(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    anna = h.member("Anna")
    _, replay = await a_replay(h, anna)
    posts = len(h.messages())
    for custom_id in (f"stoppa:history:share:{HUGE}", f"stoppa:history:share:{2**63}",
                      "stoppa:history:share:0"):
        refused = await h.click(anna, replay.id, custom_id)
        assert refused.ephemeral and refused.responded, custom_id
        assert len(h.messages()) == posts  # nothing posted in public
    assert errors_in(caplog) == []


async def test_a_20_digit_replay_option_is_refused(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    refused = await h.slash(h.member("Anna"), "stoppa replay", hand=int(HUGE))
    assert refused.ephemeral and refused.responded
    assert errors_in(caplog) == []


async def test_a_20_digit_tournament_id_in_a_button_is_refused(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    anna = h.member("Anna")
    await h.slash(anna, "stoppa new")
    refused = await press_on(h, anna, h.messages()[-1], f"stoppa:tour:{HUGE}:join")
    assert refused.ephemeral and refused.responded
    assert errors_in(caplog) == []


async def test_a_history_page_below_one_never_reaches_the_store(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    anna = h.member("Anna")
    await finished_hands(h, [anna.id, -1, -2, -3], 7)
    offsets: list[int] = []
    store = h.bot.open_store
    real = store.player_hands

    async def spy(*args: object, **kwargs: object) -> object:
        offsets.append(int(kwargs.get("offset", 0)))  # type: ignore[call-overload]
        return await real(*args, **kwargs)  # type: ignore[arg-type]

    store.player_hands = spy  # type: ignore[method-assign]
    page = await h.slash(anna, "stoppa history")
    assert page.message is not None
    for bad in (0, -3):
        refused = await h.slash(anna, "stoppa history", page=bad)
        assert refused.ephemeral and refused.responded
        clicked = await h.click(anna, page.message.id, f"stoppa:history:page:{anna.id}:0")
        assert clicked.ephemeral and clicked.responded
    assert offsets and min(offsets) >= 0
    assert errors_in(caplog) == []


def test_a_currency_emoji_is_a_custom_emoji_only_in_ascii() -> None:
    from cogs.admin import is_emoji

    assert is_emoji("<:chip:123456789012345678>")
    assert is_emoji("<a:chip_2:123456789012345678>")
    assert not is_emoji("<:chip:١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧٨>")  # Arabic-Indic digits
    assert not is_emoji("<:ĉipo:123456789012345678>")


async def test_options_outside_their_range_or_choices_are_refused_by_the_tree(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord checks `Range` and choices for an honest client; a modified one is refused
    the same way, before the command runs (a leaderboard page of 0 was a negative OFFSET)."""
    boss, bob = h.member("Boss", manage_guild=True), h.member("Bob")
    cases = [
        (await h.slash(bob, "leaderboard", page=0),
         t("input_numbers.out_of_range", "en", value="`0`", low=1, high=10_000)),
        (await h.slash(bob, "give", member=boss, amount=-5),
         t("input_numbers.out_of_range", "en", value="`-5`", low=1, high=1_000_000_000)),
        (await h.slash(boss, "chips grant", member=bob, amount=5, reason=""),
         t("input_numbers.text_length", "en", low=1, high=200)),
        (await h.slash(bob, "pings", state="sometimes"),
         t("errors.bad_option", "en", value="`sometimes`")),
    ]
    for reply, expected in cases:
        assert reply.ephemeral and reply.text == expected
    balances = await h.store.balances(h.guild_id, [boss.id, bob.id])
    assert set(balances.values()) == {1000}
    assert errors_in(caplog) == []
