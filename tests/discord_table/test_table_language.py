"""One language per table (issue 36): on a server where no manager pinned a language, the
table message (its text, its buttons, its lobby notices) speaks its seated players' language,
the opener's when they differ; a ping speaks the pinged player's language; a pinned server
language wins over the players'. The harness's guild keeps Discord's default locale (en-US)."""

from __future__ import annotations

from bot.i18n import t
from bot.tables.clock import FakeClock
from tests.discord_table.conftest import TIMEOUT
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import open_table
from tests.harness import FakeMember, FakeMessage, Harness


def table_message(h: Harness) -> FakeMessage:
    """The public table message (the channel's first message)."""
    return h.messages()[0]


def speaks(message: FakeMessage, lang: str, table: int = 1) -> bool:
    """Whether the table message is in `lang`: its title, and a button label of the phase."""
    buttons = str(message.components)
    label = any(t(f"table.button.{b}", lang) in buttons for b in ("join", "hand", "panel"))
    return t("table.embed.title", lang, number=table) in message.text and label


async def ping_of(h: Harness, clock: FakeClock, members: list[FakeMember]) -> tuple[int, str]:
    """Let the player to act run out most of their clock; the one ping posted: (who, text)."""
    driver = TableDriver(h, members, seed=3)
    state = driver.state()
    assert state is not None and state.to_act is not None
    before = {m.id for m in h.messages()}
    await clock.advance(0.9 * TIMEOUT)
    await h.settle()
    (ping,) = [m for m in h.messages() if m.id not in before and f"<@{state.to_act}>" in m.content]
    return state.to_act, ping.content


def ping_text(lang: str) -> str:
    """The words of a turn ping in `lang` before its deadline (no player, no time)."""
    return t("table.turn_ping.text", lang, player="", deadline="").split("(")[0].strip(" ,")


async def test_italian_players_on_a_default_server_get_an_italian_table_and_ping(
    clocked: tuple[Harness, FakeClock],
) -> None:
    h, clock = clocked
    members = [h.member(name, locale="it") for name in ("Anna", "Bruno", "Carla")]
    opened = await h.slash(members[0], "stoppa new")
    assert opened.ephemeral and opened.text.startswith(t("table.reply.opened", "it"))
    assert speaks(table_message(h), "it")  # the lobby already
    assert t("table.embed.lobby", "it", count=1) in table_message(h).text
    for member in members[1:]:
        await h.slash(member, "stoppa join")
    await h.slash(members[0], "stoppa start")
    message = table_message(h)
    assert speaks(message, "it") and not speaks(message, "en")
    _who, ping = await ping_of(h, clock, members)
    assert ping_text("it") in ping and ping_text("en") not in ping


async def test_a_mixed_table_follows_its_opener_and_a_ping_its_player(
    clocked: tuple[Harness, FakeClock],
) -> None:
    h, clock = clocked
    anna = h.member("Anna")  # English, opens
    italians = [h.member("Bruno", locale="it"), h.member("Carla", locale="it")]
    members = [anna, *italians]
    await open_table(h, members)
    assert speaks(table_message(h), "en")
    who, ping = await ping_of(h, clock, members)
    lang = "it" if who != anna.id else "en"
    assert ping_text(lang) in ping


async def test_an_italian_opener_leads_english_guests(h: Harness) -> None:
    members = [h.member("Anna", locale="it"), h.member("Bruno"), h.member("Carla")]
    await open_table(h, members)
    assert speaks(table_message(h), "it")


async def test_a_pinned_server_language_wins_over_the_players(h: Harness) -> None:
    boss = h.member("Boss", manage_guild=True)
    members = [h.member(name, locale="it") for name in ("Anna", "Bruno", "Carla")]
    await h.slash(boss, "settings language", value="en")
    await open_table(h, members)
    (message,) = [m for m in h.messages() if m.media_urls()]
    assert speaks(message, "en") and not speaks(message, "it")
    await h.slash(boss, "settings language", value="auto")  # the players' language again
    await h.slash(members[1], "stoppa leave")  # a change: the message is published again
    await h.settle()
    assert speaks(h.message(message.id), "it")


async def test_the_table_and_its_pings_keep_the_players_language_after_a_restart(
    clocked: tuple[Harness, FakeClock],
) -> None:
    """The language each player sat in is kept with their seat in the table's row: a restart
    (the members' languages in memory are gone) changes neither the table nor a ping."""
    h, clock = clocked
    members = [h.member(name, locale="it") for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    message = table_message(h)
    assert speaks(message, "it")
    await h.restart()
    assert h.bot.languages.member(members[0].id) is None  # nothing in memory any more
    state = h.bot.tables.state(h.channel_id)
    assert state is not None and dict(state.languages) == {m.id: "it" for m in members}
    _who, ping = await ping_of(h, clock, members)
    assert ping_text("it") in ping and ping_text("en") not in ping
    await clock.advance(TIMEOUT)  # the turn runs out: the table message is edited
    await h.settle()
    assert speaks(h.message(message.id), "it")


async def test_a_player_who_switches_discord_to_italian_mid_table_is_followed(
    h: Harness,
) -> None:
    """The opener sat in English, then set their Discord to Italian: their next move keeps
    the new language with their seat (in the move's own transaction), so the table message,
    which follows its opener, speaks Italian, and still does after a restart."""
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    driver = TableDriver(h, members, seed=3)
    assert speaks(table_message(h), "en")
    anna = members[0]
    anna.locale = "it"  # her Discord in Italian from now on
    for _ in range(20):  # the others play until it is her turn
        state = driver.state()
        assert state is not None and state.to_act is not None
        if state.to_act == anna.id:
            break
        await driver.play_turn("slash")
    moved = await h.slash(anna, "stoppa pass")
    assert moved.ephemeral and moved.text == t("table.done.pass", "it")
    await h.settle()
    state = driver.state()
    assert state is not None and dict(state.languages)[anna.id] == "it"
    assert dict(state.languages)[members[1].id] == "en"
    assert speaks(table_message(h), "it") and not speaks(table_message(h), "en")
    row = await h.store.get_table(state.table_id)  # written, not only in memory
    assert row.meta["languages"][str(anna.id)] == "it"
    await h.restart()
    assert h.bot.languages.member(anna.id) is None
    state = h.bot.tables.state(h.channel_id)
    assert state is not None and dict(state.languages)[anna.id] == "it"
