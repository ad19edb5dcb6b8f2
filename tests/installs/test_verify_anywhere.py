"""Issue 38: `/verify` where the table was not played checks only what is pasted.

The pasted values are the worked example of docs/fairness.md (table 42, its secret,
commitment and two words: the deck there was computed by hand from the protocol), sent from
a server without the bot, a DM and a group DM: the deck and the commitment check come back,
with no request to the store and none outside the interaction. A bare table number of
another server reveals nothing: no look-up, no secret in any request, a polite private
answer saying what to paste; in the table's own server the same number still checks the
stored table.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from bot.i18n import t
from tests.harness import Harness
from tests.harness.places import Place, Places

SECRET = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
COMMITMENT = "f2af894cf32663c90281a0fd44c8e9647a51ab6c0f602d19d51f40fddfc7f8f9"
DECK = ("5c 2d 6d 3s 7s 4d 4c 2s 5b 6s 4s 8d 1s 3d 5d 10c 1d 6b 1b 8c 5s 10s 8s 3c 6c 9d "
        "1c 10b 9s 9c 7d 3b 8b 4b 7b 2c 7c 2b 10d 9b")
ELSEWHERE = [Place.FOREIGN_SERVER, Place.BOT_DM, Place.GROUP_DM]


@contextmanager
def store_reads(h: Harness) -> Iterator[list[str]]:
    """The names of the store's methods called inside the block."""
    store = h.bot.open_store
    called: list[str] = []
    originals: dict[str, Any] = {}
    for name in dir(type(store)):
        method = getattr(store, name, None)
        if name.startswith("_") or not callable(method):
            continue
        originals[name] = method

        def spy(*args: Any, _name: str = name, _method: Any = method, **kwargs: Any) -> Any:
            called.append(_name)
            return _method(*args, **kwargs)

        setattr(store, name, spy)
    try:
        yield called
    finally:
        for name in originals:
            delattr(store, name)


@pytest.mark.parametrize("place", [*ELSEWHERE, Place.SERVER], ids=lambda p: p.name)
@pytest.mark.parametrize(("locale", "lang"), [("en-GB", "en"), ("it", "it")])
async def test_pasted_values_are_checked_anywhere_without_any_look_up(
    h: Harness, place: Place, locale: str, lang: str
) -> None:
    places = Places(h)
    zoe = h.member("Zoe", locale=locale)
    with store_reads(h) as called:
        reply = await places.slash(place, zoe, "verify", table=42, secret=SECRET,
                                   commitment=COMMITMENT, word1='"ciao"', word2="Zoe\u0308",
                                   players=4)
    assert called == []
    assert reply.ephemeral and reply.http_calls == []
    (embed,) = reply.embeds
    text = embed["description"]
    assert t("fairness.verify.commitment_ok", lang, commitment=COMMITMENT, table=42) in text
    assert t("fairness.verify.deck", lang, count=40, cards=DECK) in text
    assert t("fairness.verify.all_ok", lang) in text
    wrong = await places.slash(place, zoe, "verify", table=43, secret=SECRET,
                               commitment=COMMITMENT)
    assert t("fairness.verify.some_bad", lang) in wrong.embeds[0]["description"]
    bad = await places.slash(place, zoe, "verify", table=42, secret="not hex")
    assert bad.ephemeral and bad.text == t("fairness.answer.bad_secret", lang)


@pytest.mark.parametrize("place", ELSEWHERE, ids=lambda p: p.name)
async def test_a_bare_table_number_of_another_server_reveals_nothing(
    h: Harness, place: Place
) -> None:
    places = Places(h)
    boss = h.owner
    opened = await h.slash(boss, "stoppa new")
    assert opened.responded
    state = h.bot.tables.state(h.channel_id)
    assert state is not None
    table = state.table_id
    await h.slash(boss, "stoppa end")
    row = await h.store.get_table(table)
    assert row.status == "closed" and row.revealed and row.secret is not None
    secret = row.secret.hex()
    with store_reads(h) as looked_up:  # in its own server: looked up and checked
        at_home = await h.slash(boss, "verify", table=table)
    assert "get_table" in looked_up
    assert secret in json.dumps(at_home.embeds)

    anna = h.member("Anna", locale="it")
    before = len(h.calls)
    with store_reads(h) as called:
        reply = await places.slash(place, anna, "verify", table=table)
    assert called == []
    assert reply.ephemeral and reply.http_calls == []
    assert reply.text == t("fairness.answer.paste_values", "it", table=table)
    shown = json.dumps([c.json for c in h.calls[before:]], ensure_ascii=False)
    assert secret not in shown and (row.commitment is None or row.commitment.hex() not in shown)
