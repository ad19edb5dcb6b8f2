"""`/stoppa history`, `/stoppa replay` and the `/stats` chart through the offline harness.

Hands are stored the way the table service stores them (`HandRecord` with the event log as
JSON text, results keyed by user in seat order), from hands played by CPU players.
"""

from __future__ import annotations

import asyncio
import io
import json
import random
import sys
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from bot.engine import Hand, Rules
from bot.i18n import t
from bot.players import make_player
from bot.store import HandRecord
from bot.store.models import TableSave
from cogs.history import PAGE_SIZE, HistoryCog
from tests.harness import FakeMember, Harness


def played_hand(seed: int) -> Hand:
    rng = random.Random(seed)
    cpus = [make_player("easy", rng.randrange(2**31)) for _ in range(4)]
    hand = Hand.start(Rules(players=4), [1000] * 4, seed % 4, seed=seed)
    while hand.to_act is not None:
        seat = hand.to_act
        hand.act(seat, cpus[seat].choose(
            hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat)
        ))
    return hand


#: the settle bound of a test whose answers are replays: one is drawn in 0.2-0.5 s of CPU
#: (a quick hand), but a CI whose 2 cores run other tests too gives that thread a fraction
REPLAY_SETTLE = 60.0


def quick_hand(seed: int) -> Hand:
    """A hand in which every seat plays its first legal action: 30-50 replay frames where a
    CPU hand has 45-180 (128 for seed 1). Its replay draws in a third of the time, which
    keeps a replay test's answer inside the harness's settle bound on a busy 2-core CI."""
    hand = Hand.start(Rules(players=4), [1000] * 4, seed % 4, seed=seed)
    while hand.to_act is not None:
        hand.act(hand.to_act, hand.legal_actions()[0])
    return hand


async def store_hands(h: Harness, seats: list[int], count: int, first_seed: int = 0,
                      play: Callable[[int], Hand] = played_hand) -> list[int]:
    """Record `count` finished hands of a table of `seats`, each `play(seed)`; returns the
    hands' ids."""
    store = h.store
    row = await store.create_table(h.guild_id, h.channel_id,
                                   settings=(await store.get_stakes(h.guild_id)).to_dict(),
                                   seats=seats)
    for no in range(1, count + 1):
        hand = play(first_seed + no)
        assert hand.result is not None
        record = HandRecord(
            hand_no=no,
            seed=first_seed + no,
            events=json.dumps([e.to_dict() for e in hand.events]),
            result={seats[i]: r for i, r in enumerate(hand.result)},
            closes={seats[e.seat]: 1 for e in hand.events if e.kind == "close"},
        )
        row = await store.save_table(row.id, TableSave(row.version, hand=record))
    hands = await store.player_hands(h.guild_id, seats[0], limit=count)
    return sorted(hand.id for hand in hands)


def cog(h: Harness) -> Any:
    """The loaded history cog (the extension's own module object, so no isinstance)."""
    found = h.bot.get_cog("HistoryCog")
    assert found is not None and type(found).__name__ == HistoryCog.__name__
    return found


def custom_ids(reply_components: list[dict]) -> list[str]:  # type: ignore[type-arg]
    return [c["custom_id"] for row in reply_components for c in row.get("components", [])]


async def test_replay_is_private_with_own_cards_and_share_posts_the_public_one(
    h: Harness, anna: FakeMember, bob: FakeMember
) -> None:
    h.settle_timeout = REPLAY_SETTLE
    ids = await store_hands(h, [anna.id, bob.id, -1, -2], 1, play=quick_hand)
    hand_id = ids[0]
    r = await h.slash(anna, "stoppa replay", hand=hand_id)
    assert r.ephemeral and len(r.files) == 1
    private = r.files[0].data
    image = Image.open(io.BytesIO(private))
    assert image.format == "WEBP" and getattr(image, "n_frames", 1) > 10
    assert f"#{hand_id}" in r.text and t("history.replay_private", "it", id=hand_id,
                                          channel=f"<#{h.channel_id}>", when="x")[:20] in r.text
    replays = cog(h).replays
    assert replays.get((hand_id, 0, "it", "webp")) == private  # Anna's seat, her language
    assert replays.get((hand_id, None, "it", "webp")) is None
    assert r.message is not None
    assert custom_ids(r.message.components) == [f"stoppa:history:share:{hand_id}"]

    shared = await h.click(anna, r.message.id, f"stoppa:history:share:{hand_id}")
    assert not shared.ephemeral and len(shared.files) == 1
    public = shared.files[0].data
    assert public != private
    assert replays.get((hand_id, None, "it", "webp")) == public
    assert shared.message is not None and not shared.message.components

    # Bob did not play this hand's seat 0: his private replay is his own seat's view
    again = await h.slash(bob, "stoppa replay", hand=hand_id)
    assert again.ephemeral and replays.get((hand_id, 1, "en", "webp")) == again.files[0].data


async def test_replay_share_option_and_cache(h: Harness, anna: FakeMember) -> None:
    h.settle_timeout = REPLAY_SETTLE
    (hand_id,) = await store_hands(h, [anna.id, -1, -2, -3], 1, play=quick_hand)
    outsider = h.member("Carla", locale="en-US")
    first = await h.slash(outsider, "stoppa replay", hand=hand_id)
    assert first.ephemeral  # not a player of the hand: the public view, still privately
    assert cog(h).replays.get((hand_id, None, "en", "webp")) == first.files[0].data
    misses = cog(h).replays.misses
    shared = await h.slash(outsider, "stoppa replay", hand=hand_id, share=True)
    assert not shared.ephemeral and shared.files[0].data == first.files[0].data
    assert cog(h).replays.misses == misses  # served from the cache


async def test_replay_of_an_unknown_hand_is_refused_politely(
    h: Harness, anna: FakeMember
) -> None:
    r = await h.slash(anna, "stoppa replay", hand=999)
    assert r.ephemeral and r.text == t("history.errors.no_hand", "it", id=999)
    assert not r.files


async def test_replay_autocomplete_offers_the_askers_last_hands(
    h: Harness, anna: FakeMember
) -> None:
    ids = await store_hands(h, [anna.id, -1, -2, -3], 3)
    r = await h.autocomplete(anna, "stoppa replay", "hand", hand="")
    assert [c["value"] for c in r.choices] == sorted(ids, reverse=True)
    assert all(c["name"].startswith("#") for c in r.choices)


async def test_history_pages_with_buttons_and_a_stale_page(
    h: Harness, anna: FakeMember, bob: FakeMember
) -> None:
    await store_hands(h, [anna.id, -1, bob.id, -2], PAGE_SIZE + 2)
    r = await h.slash(anna, "stoppa history")
    assert r.ephemeral
    embed = r.embeds[0]
    assert embed["title"] == t("history.title", "it", name="Anna")
    assert embed["description"].count("**#") == PAGE_SIZE
    assert t("history.footer", "it", page=1, pages=2) == embed["footer"]["text"]
    assert "punti piccoli" in embed["description"]
    assert r.message is not None
    ids = custom_ids(r.message.components)
    assert ids == [f"stoppa:history:page:{anna.id}:1", f"stoppa:history:page:{anna.id}:2"]

    nxt = await h.click(anna, r.message.id, f"stoppa:history:page:{anna.id}:2")
    page2 = h.message(r.message.id).embeds[0]
    assert page2["description"].count("**#") == 2 and nxt.responded

    other = await h.slash(anna, "stoppa history", member=bob, page=2)
    assert other.embeds[0]["title"] == t("history.title", "it", name="Bob")

    await h.restart()
    # the buttons still work after a restart (the custom id holds the player and the page)
    back = await h.click(anna, r.message.id, f"stoppa:history:page:{anna.id}:1")
    assert back.type == 6 and h.message(r.message.id).embeds[0]["description"].count("**#") == 5
    # a page that no longer exists (a click from an older message): a polite private word
    stale = await h.click(anna, r.message.id, f"stoppa:history:page:{anna.id}:9")
    refusal = stale.messages[-1]
    assert stale.responded and refusal.ephemeral
    assert refusal.text == t("history.errors.page_out", "it", pages=2)
    assert h.message(r.message.id).embeds[0]["description"].count("**#") == 5  # unchanged
    gone = await h.slash(anna, "stoppa history", page=9)
    assert gone.ephemeral and gone.text == t("history.errors.page_out", "it", pages=2)


async def test_history_of_a_member_without_hands(h: Harness, anna: FakeMember) -> None:
    r = await h.slash(anna, "stoppa history")
    assert r.ephemeral and r.text == t("history.errors.no_hands", "it", name="Anna")


async def test_stats_has_the_chart_and_the_phase_figures(
    h: Harness, anna: FakeMember, bob: FakeMember
) -> None:
    await store_hands(h, [anna.id, bob.id, -1, -2], 6)
    r = await h.slash(bob, "stats")
    assert r.ephemeral
    names = [f["name"] for f in r.embeds[0]["fields"]]
    assert t("history.stats.small_won", "en") in names
    assert t("history.stats.average_paid", "en") in names
    (chart,) = r.files
    assert chart.is_png and chart.filename == "chips.png"
    assert r.embeds[0]["image"]["url"] == "attachment://chips.png"
    fresh = h.member("Dora")
    none = await h.slash(fresh, "stats")
    assert none.ephemeral and not none.files


async def test_one_page_has_no_buttons(h: Harness, anna: FakeMember) -> None:
    await store_hands(h, [anna.id, -1, -2, -3], 3)
    r = await h.slash(anna, "stoppa history")
    assert r.ephemeral and r.embeds[0]["description"].count("**#") == 3
    assert r.message is not None and not custom_ids(r.message.components)


async def test_the_same_replay_asked_twice_at_once_is_drawn_once(
    h: Harness, anna: FakeMember, monkeypatch: pytest.MonkeyPatch
) -> None:
    (hand_id,) = await store_hands(h, [anna.id, -1, -2, -3], 1, play=quick_hand)
    history = cog(h)
    module = sys.modules[type(history).__module__]
    drawn: list[object] = []
    real = module._render

    def counting(setup: object) -> bytes:
        drawn.append(setup)
        return real(setup)

    monkeypatch.setattr(module, "_render", counting)
    hand = await h.store.stored_hand(h.guild_id, hand_id)
    first, second = await asyncio.gather(
        history.replay_bytes(h.guild_id, hand, 0, "en"),
        history.replay_bytes(h.guild_id, hand, 0, "en"),
    )
    assert first == second and len(drawn) == 1
    assert await history.replay_bytes(h.guild_id, hand, 0, "en") == first and len(drawn) == 1
    await history.replay_bytes(h.guild_id, hand, None, "en")
    assert len(drawn) == 2  # another perspective is another replay
