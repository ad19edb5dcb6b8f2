"""Who may open and run a tournament, and every refusal: polite, private, in the member's
language (en and it), and nothing changed."""

from __future__ import annotations

from bot.i18n import t
from tests.discord_tournament.conftest import button, note, open_tournament
from tests.harness import FakeMember, Harness


async def test_only_managers_open_tournaments_unless_the_server_allows_everyone(
    h: Harness, boss: FakeMember, anna: FakeMember, bob: FakeMember
) -> None:
    refused = await h.slash(bob, "tournament new", buy_in=100, seats=4)
    assert refused.ephemeral and refused.text == t("tournaments.error.not_allowed", "en")
    refused_it = await h.slash(anna, "tournament new", buy_in=100, seats=4)
    assert refused_it.ephemeral and refused_it.text == t("tournaments.error.not_allowed", "it")
    assert await h.bot.tournaments.open_in(h.guild_id) == []  # type: ignore[union-attr]
    # the setting itself is a manager's
    denied = await h.slash(bob, "settings tournaments", who="everyone")
    assert denied.ephemeral and denied.text == t("errors.need_manage_guild", "en")
    allowed = await h.slash(boss, "settings tournaments", who="everyone")
    assert allowed.ephemeral
    assert t("tournaments.reply.settings", "en", who=t("tournaments.who.everyone", "en")) \
        in allowed.text
    assert (await h.store.server_settings(h.guild_id)).tournaments_open
    shown = await h.slash(boss, "settings show")
    assert f"{t('tournaments.settings_label', 'en')}: {t('tournaments.who.everyone', 'en')}" \
        in shown.text
    number, message = await open_tournament(h, bob)
    assert f"<@{bob.id}>" in h.message(message.id).text  # "Opened by"
    # back to managers only
    await h.slash(boss, "settings tournaments", who="managers")
    again = await h.slash(bob, "tournament new", buy_in=100, seats=4)
    assert again.text == t("tournaments.error.not_allowed", "en")
    assert [i.id for i in await h.bot.tournaments.open_in(h.guild_id)] == [number]  # type: ignore[union-attr]


async def test_the_opener_or_a_manager_starts_cancels_and_adds_cpus(
    h: Harness, boss: FakeMember, anna: FakeMember, bob: FakeMember
) -> None:
    await h.slash(boss, "settings tournaments", who="everyone")
    number, message = await open_tournament(h, bob, buy_in=0)
    for action, key in (("cpu", "not_host_cpu"), ("start", "not_host_start"),
                        ("cancel", "not_host_cancel")):
        reply = await h.click(anna, message.id, button(number, action))
        assert note(reply) == t(f"tournaments.error.{key}", "it")
    added = await h.slash(bob, "tournament addbot", level="hard")
    assert added.text == t("tournaments.reply.cpu_added", "en", number=number,
                           level=t("table.cmd.level.hard", "en"))
    by_manager = await h.click(boss, message.id, button(number, "cpu"))
    assert by_manager.type == 6 and "2 of 4 taken" in h.message(message.id).text
    info = await h.bot.tournaments.info(number)  # type: ignore[union-attr]
    assert len(info.entrants) == 2


async def test_refusals_of_entry(
    h: Harness, boss: FakeMember, anna: FakeMember, bob: FakeMember
) -> None:
    balance = await h.store.balance(h.guild_id, bob.id)
    number, message = await open_tournament(h, boss, buy_in=balance + 1)
    poor = await h.click(bob, message.id, button(number, "join"))
    assert note(poor) == t("tournaments.error.not_enough_chips", "en", buy_in=balance + 1,
                          balance=balance)
    assert await h.store.balance(h.guild_id, bob.id) == balance
    not_in = await h.slash(anna, "tournament leave")
    assert not_in.ephemeral
    assert not_in.text == t("store.tournament_not_registered", "it")
    too_few = await h.slash(boss, "tournament start")
    assert too_few.ephemeral
    assert too_few.text == t("ranked.tournament_not_full", "en", missing=4)
    unknown = await h.slash(bob, "tournament join", tournament="nope")
    assert unknown.text == t("tournaments.error.unknown", "en", text="nope")
    missing = await h.slash(bob, "tournament status", tournament=str(number + 50))
    assert missing.text == t("tournaments.error.unknown", "en", text=str(number + 50))
    assert await h.store.audit() == []


async def test_no_tournament_here_and_which_one(
    h: Harness, boss: FakeMember, bob: FakeMember
) -> None:
    none = await h.slash(bob, "tournament join")
    assert none.ephemeral and none.text == t("tournaments.error.none_here", "en")
    first, _ = await open_tournament(h, boss)
    second, _ = await open_tournament(h, boss, buy_in=50)
    elsewhere = await h.slash(bob, "tournament join", channel="general")
    assert elsewhere.text == t("tournaments.error.which", "en")
    choices = await h.autocomplete(bob, "tournament join", "tournament", tournament="")
    assert [c["value"] for c in choices.choices] == [str(first), str(second)]
    picked = await h.autocomplete(bob, "tournament status", "tournament",
                                  tournament=f"#{second}")
    assert [c["value"] for c in picked.choices] == [str(second)]
    assert "/4" in picked.choices[0]["name"]
    joined = await h.slash(bob, "tournament join", tournament=str(second), channel="general")
    assert joined.text == t("tournaments.reply.joined", "en", number=second, buy_in=50)


async def test_status_is_public_where_the_tournament_is_and_private_elsewhere(
    h: Harness, boss: FakeMember, anna: FakeMember
) -> None:
    number, _ = await open_tournament(h, boss, buy_in=80, payout="50_30_20", seats=5)
    here = await h.slash(anna, "tournament status")
    assert not here.ephemeral
    assert t("tournaments.status.title", "en", number=number) in here.text  # the server's
    elsewhere = await h.slash(anna, "tournament status", channel="general")
    assert elsewhere.ephemeral
    text = elsewhere.text
    assert t("tournaments.status.registering", "it", taken=0, seats=5) in text
    assert t("tournaments.status.level", "it", level=1) in text
    assert "1º: 0" in text  # an empty pool pays nothing yet


async def test_a_full_tournament_that_could_not_start_refuses_entries(
    h: Harness, boss: FakeMember, anna: FakeMember, bob: FakeMember
) -> None:
    await h.slash(bob, "stoppa new")  # an ordinary table in the channel, and no threads
    number, message = await open_tournament(h, boss, buy_in=10, seats=3)
    await h.click(boss, message.id, button(number, "cpu"))
    await h.click(boss, message.id, button(number, "cpu"))
    filled = await h.click(anna, message.id, button(number, "join"))
    # Anna is in; the start is refused politely: the channel already has a table
    text = note(filled)
    assert t("tournaments.reply.joined", "it", number=number, buy_in=10) in text
    assert t("tables.errors.table_exists", "it") in text
    info = await h.bot.tournaments.info(number)  # type: ignore[union-attr]
    assert len(info.entrants) == 3 and info.table_id is None
    full = await h.click(h.member("Carla"), message.id, button(number, "join"))
    assert note(full) == t("store.tournament_full", "en")
    retry = await h.click(boss, message.id, button(number, "start"))
    assert note(retry) == t("tables.errors.table_exists", "en")
    assert await h.store.audit() == []


async def test_buttons_work_after_a_restart_and_stale_ones_are_refused(
    h: Harness, boss: FakeMember, anna: FakeMember, bob: FakeMember
) -> None:
    number, message = await open_tournament(h, boss, buy_in=0, seats=3)
    await h.restart()
    joined = await h.click(bob, message.id, button(number, "join"))
    assert note(joined) == t("tournaments.reply.joined_free", "en", number=number)
    assert f"<@{bob.id}>" in h.message(message.id).text  # the message was edited
    await h.click(boss, message.id, button(number, "cpu"))
    await h.slash(boss, "tournament addbot")  # the last seat: it starts in the channel
    info = await h.bot.tournaments.info(number)  # type: ignore[union-attr]
    assert info.status.value == "running"
    assert h.message(message.id).custom_ids() == []
    # a client still showing the old registration message
    late = await h.click(anna, message.id, button(number, "join"))
    assert note(late) == t("tournaments.error.already_started", "it", number=number)
    twice = await h.click(boss, message.id, button(number, "start"))
    assert note(twice) == t("tournaments.error.already_started", "en", number=number)
    state = h.bot.tables.state(h.channel_id)  # type: ignore[union-attr]
    assert state is not None and state.tournament is not None
    assert state.tournament.id == number


async def test_every_first_answer_leaves_within_a_second_of_a_slow_store(
    h: Harness, boss: FakeMember, bob: FakeMember
) -> None:
    await h.slash(bob, "balance")  # the members' languages and accounts before the crawl
    await h.slash(boss, "balance")
    h.slow_store(4.0)
    opened = await h.slash(boss, "tournament new", buy_in=10, seats=3)
    # deferred privately (nothing public before the checks), then posted in public
    (message,) = [m for m in opened.messages if not m.ephemeral]
    number = int(message.custom_ids()[0].split(":")[2])
    replies = [opened]
    replies.append(await h.slash(bob, "tournament join"))
    replies.append(await h.click(boss, message.id, button(number, "cpu")))
    replies.append(await h.slash(bob, "tournament status", channel="general"))
    replies.append(await h.slash(boss, "tournament cancel"))
    for reply in replies:
        assert reply.responded and reply.first_response_after is not None
        assert reply.first_response_after < 1.0, reply.text
    assert t("tournaments.reply.cancelled", "en", number=number) in replies[-1].text
    assert h.message(message.id).custom_ids() == []  # edited by id after a command
