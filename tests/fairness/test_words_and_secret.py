"""Players' words (kept NFC, stripped, limited; shown without markdown or mentions), the
table secret (from `secrets`, never printed), the commitment and CPU seeds (issue 30)."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.fairness import (
    WORD_MAX,
    Commitment,
    DealInputs,
    Stream,
    TableSecret,
    WordError,
    cpu_seed,
    normalise_word,
    public_word,
)
from bot.fairness.secret import CPU_SEED_LIMIT
from bot.i18n import t


def test_a_word_is_kept_nfc_and_stripped() -> None:
    assert normalise_word("  Zoe\u0308 ") == "Zoë" == unicodedata.normalize("NFC", "Zoë")
    assert normalise_word("   ") == ""  # no word
    assert normalise_word("a" * WORD_MAX) == "a" * WORD_MAX


@pytest.mark.parametrize("raw", ["a\nb", "tab\there", "zero\u200bwidth", "\u202eevil", "x\x00"])
def test_control_and_invisible_characters_are_refused(raw) -> None:
    with pytest.raises(WordError) as caught:
        normalise_word(raw)
    assert caught.value.reason == "control"
    assert t(f"fairness.word.{caught.value.reason}", "it")


def test_a_long_word_is_refused_with_its_limit() -> None:
    with pytest.raises(WordError) as caught:
        normalise_word("b" * (WORD_MAX + 1))
    assert caught.value.reason == "too_long"
    assert str(WORD_MAX) in t("fairness.word.too_long", "en", limit=caught.value.limit)


def _unescape(shown: str) -> str:
    return re.sub(r"\\(.)", r"\1", shown).replace("@\u200b", "@")


@settings(max_examples=200)
@given(st.text(max_size=WORD_MAX))
def test_a_shown_word_has_no_markdown_or_mention(raw) -> None:
    try:
        word = normalise_word(raw)
    except WordError:
        return
    shown = public_word(word)
    assert _unescape(shown) == word  # the reader sees exactly the word
    assert re.search(r"@(?!\u200b)", shown) is None  # no @everyone, @here, <@id>
    for i, char in enumerate(shown):  # every markdown sign is escaped
        if char in "*_~`|>#[]()<:-":
            assert shown[i - 1] == "\\", (word, shown)


def test_shown_examples() -> None:
    assert public_word("@everyone") == "@\u200beveryone"
    assert public_word("**bold** <@123>") == "\\*\\*bold\\*\\* \\<@\u200b123\\>"
    assert public_word("ciao") == "ciao"


def test_secrets_are_fresh_and_never_printed() -> None:
    drawn = {TableSecret.draw().value for _ in range(50)}
    assert len(drawn) == 50 and all(len(v) == 32 for v in drawn)
    secret = TableSecret.draw()
    for shown in (repr(secret), str(secret), f"{secret}", repr(DealInputs(secret, 1, 1))):
        assert secret.hex() not in shown and secret.value.hex()[:8] not in shown
    assert TableSecret.from_hex(" " + secret.hex().upper() + "\n") == secret


@pytest.mark.parametrize("text", ["", "00" * 31, "zz" * 32, "00" * 33])
def test_bad_hex_is_refused(text) -> None:
    with pytest.raises(ValueError):
        TableSecret.from_hex(text)
    with pytest.raises(ValueError):
        Commitment.from_hex(text)


def test_a_commitment_binds_the_secret_and_the_table() -> None:
    secret = TableSecret.draw()
    commitment = Commitment.of(secret, 10)
    assert commitment.matches(secret, 10)
    assert not commitment.matches(secret, 11)
    assert not commitment.matches(TableSecret.draw(), 10)
    assert len(commitment.hex()) == 64 and str(commitment) == commitment.hex()


def test_cpu_seeds_are_independent_draws() -> None:
    seeds = {cpu_seed() for _ in range(100)}
    assert len(seeds) == 100 and all(0 <= s < CPU_SEED_LIMIT for s in seeds)


class _Scripted(Stream):
    """A stream whose 4-byte numbers are given, to reach the rejection branch."""

    __slots__ = ("numbers",)

    def __init__(self, numbers: list[int]) -> None:
        super().__init__(b"k")
        self.numbers = numbers

    def next_u32(self) -> int:
        return self.numbers.pop(0)


def test_below_rejects_the_top_of_the_range() -> None:
    limit = 2**32 - 2**32 % 40  # 4294967280
    stream = _Scripted([limit, 2**32 - 1, limit - 1, 85])
    assert stream.below(40) == (limit - 1) % 40 == 39  # the two numbers >= limit are drawn again
    assert stream.below(40) == 5
    assert _Scripted([2**32 - 1]).below(4) == 3  # 4 divides 2**32: nothing is refused


def test_a_long_stream_continues_past_its_first_blocks() -> None:
    stream = Stream(b"key", 1)
    numbers = [stream.next_u32() for _ in range(20)]  # 80 bytes: three blocks
    again = Stream(b"key", 3)
    assert numbers == [again.next_u32() for _ in range(20)]
