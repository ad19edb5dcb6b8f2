"""Players' fair-deal words in the store (issue 30), on SQLite and PostgreSQL: kept per
member and server, replaced, cleared by an empty word, read for the seats asked only."""

from __future__ import annotations

from bot.store import StoreContract


async def test_words_are_kept_per_server_replaced_and_cleared(store: StoreContract) -> None:
    await store.set_word(1, 10, "ciao")
    await store.set_word(1, 11, "Zoë")
    await store.set_word(2, 10, "altrove")
    assert await store.words_of(1, [10, 11, 12]) == {10: "ciao", 11: "Zoë"}
    assert await store.words_of(1, [11]) == {11: "Zoë"}
    assert await store.words_of(1, []) == {}
    await store.set_word(1, 10, "luna")
    await store.set_word(1, 11, "")
    assert await store.words_of(1, [10, 11]) == {10: "luna"}
    assert await store.words_of(2, [10, 11]) == {10: "altrove"}
