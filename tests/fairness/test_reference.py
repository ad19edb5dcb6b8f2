"""The bot's fair deal agrees with a second implementation written from docs/fairness.md,
and with the Python listing printed in that page (issue 30)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Rules
from bot.fairness import Commitment, DealInputs, TableSecret, first_dealer
from tests.fairness import reference

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"

secrets_ = st.binary(min_size=32, max_size=32)
table_ids = st.integers(min_value=0, max_value=2**64 - 1)
hand_numbers = st.integers(min_value=0, max_value=2**64 - 1)
# words as players type them, including accents (precomposed or not), emoji, CJK, empties
word = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["Zoë", "Zoe\u0308", "café", "cafe\u0301", "ñandú", "日本", "🂡", "", "a b"]),
)
word_lists = st.lists(word, max_size=6)


def _doc_listing() -> dict[str, Any]:
    """The Python block of the page, run as printed."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1, "docs/fairness.md should hold one Python listing"
    namespace: dict[str, Any] = {}
    exec(compile(blocks[0], str(DOC), "exec"), namespace)
    return namespace


DOC_DECK = _doc_listing()["deck"]


@settings(max_examples=150, deadline=None)
@given(secrets_, table_ids, hand_numbers, word_lists)
def test_deck_agrees_with_the_reference_and_the_doc_listing(secret, table, k, words) -> None:
    ours = [c.code for c in DealInputs(TableSecret(secret), table, k, tuple(words)).full_deck()]
    assert ours == reference.full_deck(secret, table, k, words)
    assert ours == DOC_DECK(secret, table, k, words)
    assert sorted(ours) == sorted(reference.INDEX_ORDER)


@settings(max_examples=100, deadline=None)
@given(secrets_, table_ids)
def test_commitment_agrees_with_the_reference(secret, table) -> None:
    commitment = Commitment.of(TableSecret(secret), table)
    assert commitment.hex() == reference.commitment(secret, table)
    assert Commitment.from_hex(commitment.hex()).matches(TableSecret(secret), table)


@settings(max_examples=100, deadline=None)
@given(secrets_, st.integers(min_value=1, max_value=6))
def test_first_dealer_agrees_with_the_reference(secret, players) -> None:
    assert first_dealer(TableSecret(secret), players) == reference.first_dealer(secret, players)


@settings(max_examples=60, deadline=None)
@given(secrets_, word_lists)
def test_nfd_and_nfc_words_give_the_same_deck(secret, words) -> None:
    nfd = tuple(unicodedata.normalize("NFD", w) for w in words)
    nfc = tuple(unicodedata.normalize("NFC", w) for w in words)
    a = DealInputs(TableSecret(secret), 7, 3, nfd).full_deck()
    assert a == DealInputs(TableSecret(secret), 7, 3, nfc).full_deck()


@settings(max_examples=60, deadline=None)
@given(secrets_, st.sampled_from([
    Rules(players=3), Rules(players=3, three_players="suit", removed_suit="d"),
    Rules(players=5), Rules(players=6), Rules(players=6, six_players="jacks"),
]))
def test_a_smaller_deck_keeps_the_order_of_the_full_shuffle(secret, rules) -> None:
    inputs = DealInputs(TableSecret(secret), 9, 2, ("x",))
    deck = inputs.deck(rules.deck())
    assert deck == inputs.deck(rules.deck_mask())
    expected = [c for c in reference.full_deck(secret, 9, 2, ["x"])
                if c in {card.code for card in rules.deck()}]
    assert [c.code for c in deck] == expected
    assert len(deck) == len(rules.deck())


def test_every_input_changes_the_deck() -> None:
    secret = TableSecret(bytes(32))
    base = DealInputs(secret, 1, 1, ("a", "b")).full_deck()
    others = [
        DealInputs(TableSecret(bytes(31) + b"\1"), 1, 1, ("a", "b")),
        DealInputs(secret, 2, 1, ("a", "b")),
        DealInputs(secret, 1, 2, ("a", "b")),
        DealInputs(secret, 1, 1, ("b", "a")),  # seat order matters
        DealInputs(secret, 1, 1, ("ab",)),  # length prefixes: no run-together
        DealInputs(secret, 1, 1, ("a",)),
    ]
    assert all(o.full_deck() != base for o in others)
    # silent seats add nothing
    assert DealInputs(secret, 1, 1, ("", "a", "", "b")).full_deck() == base
