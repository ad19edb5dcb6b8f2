"""One number format per language (issue 25): "+1010" in a caption stood beside "1.010" on a
seat, and /daily wrote no separators. `format_number` is the one formatter; `t()` writes every
quantity it is given with it, identifiers excepted."""

from __future__ import annotations

import re
import string

from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import CHIPS_SPEC, SUPPORTED, catalogue, placeholders, t
from bot.i18n.numbers import IDENTIFIERS, format_number
from bot.render.shapes import fmt_int

SAMPLE = 12345
WRITTEN = {"en": "12,345", "it": "12.345"}


@given(st.integers(-10**12, 10**12), st.sampled_from(SUPPORTED))
def test_a_number_reads_back_and_groups_by_three(n: int, lang: str) -> None:
    text = format_number(n, lang)
    sep = {"en": ",", "it": "."}[lang]
    assert int(text.replace(sep, "")) == n
    assert re.fullmatch(rf"-?\d{{1,3}}(\{sep}\d{{3}})*", text)
    assert fmt_int(n, lang) == text
    signed = format_number(n, lang, sign=True)
    assert signed == (f"+{text}" if n > 0 else text)


def test_the_examples_of_the_issue() -> None:
    assert format_number(1010, "it", sign=True) == "+1.010"
    assert format_number(1010, "en", sign=True) == "+1,010"
    assert format_number(-1010, "it") == "-1.010"
    assert format_number(999, "it") == "999"


def written_out(text: str) -> set[str]:
    """The placeholders whose value a message writes (not only a plural form it picks)."""
    return {name for _, name, spec, _ in string.Formatter().parse(text)
            if name and (not spec or spec == CHIPS_SPEC)}


def test_every_catalogue_message_writes_its_quantities_one_way() -> None:
    """The sweep: every message of both languages, each int placeholder 12345: the number
    appears written with the language's separator, never as bare digits (identifiers such as
    a hand's id stay bare, as a player types them back)."""
    swept = 0
    for lang in SUPPORTED:
        for key, text in catalogue(lang).items():
            names = placeholders(text)
            if not names:
                continue
            params = {name: SAMPLE for name in names}
            out = t(key, lang, **params)
            quantities = written_out(text) - IDENTIFIERS
            if quantities:
                assert WRITTEN[lang] in out, (lang, key, out)
                swept += 1
            if names.isdisjoint(IDENTIFIERS):
                assert str(SAMPLE) not in out, (lang, key, out)
    assert swept > 300


def test_a_replay_caption_and_the_seat_write_the_same_number() -> None:
    """A result of +1010 in the caption and 1.010 on the seat, as the issue saw them."""
    assert t("history.replay.result", "it", player="Bruno",
             delta=format_number(1010, "it", sign=True)) == "Bruno +1.010"
    assert fmt_int(1010, "it") == "1.010"


def test_a_bool_and_an_identifier_are_not_numbers_to_group() -> None:
    assert t("history.replay_public", "en", id=12345, channel="#x", when="now").startswith(
        "Replay of hand #12345 ")
    assert "12,345" in t("economy.balance_self", "en", balance=12345)


def test_no_replay_caption_or_alt_text_writes_bare_thousands() -> None:
    """The sweep of what a hand shows: with stacks in the thousands, no caption of its replay
    and no alt text of its table writes four digits in a row (1,010 / 1.010, never 1010)."""
    import random

    from bot.engine import Hand, Rules
    from bot.render.alt_text import table_alt_text
    from bot.render.from_view import table_snapshot
    from bot.render.replay_frames import ReplaySetup, replay_frames

    rules = Rules(players=4, ante=1500, small_point=100, max_bet=5000)
    bare = re.compile(r"(?<![\d#])\d{4,}")
    seen = 0
    for seed in range(6):
        rng = random.Random(seed)
        hand = Hand.start(rules, [20000] * 4, 0, seed=seed)
        while hand.to_act is not None:
            hand.act(hand.to_act, rng.choice(hand.legal_actions()))
            for lang in SUPPORTED:
                snap = table_snapshot(hand.seat_view(None), ["A", "B", "C", "D"], lang=lang,
                                      events=hand.events)
                assert not bare.search(table_alt_text(snap)), table_alt_text(snap)
        for lang in SUPPORTED:
            for frame in replay_frames(ReplaySetup(tuple(hand.events), ("A", "B", "C", "D"),
                                                   lang=lang)):
                assert not bare.search(frame.caption), frame.caption
                seen += bool(re.search(r"\d[.,]\d{3}", frame.caption))
    assert seen, "some caption wrote a number in the thousands"


#: A number that names something a person types back (`/verify table:1234`, `/history
#: page:12`) or compares with another message ("table 1234" on the table message and in the
#: report) stands inside `code`, after "#", or after one of these words.
NAMING_WORD = re.compile(r"(?:\b(?:table|tavolo|hand|mano|page|pagina)\s+|[#]|\w+:)\Z",
                         re.IGNORECASE)
#: "page 3 of 12": the count a page number is compared with.
OF_PAGES = re.compile(r"\{page\}\s+(?:of|di)\s+\Z")
#: Placeholders that are text where they name something (a hex commitment, a card, a date).
TEXTS = frozenset({"commitment", "secret", "expected", "card", "ended", "start", "end", "words",
                   "name", "value", "example", "text", "setting", "url", "database", "reason"})


def named_numbers() -> dict[str, set[str]]:
    """Each placeholder found where a number would name something, with its messages."""
    named: dict[str, set[str]] = {}
    for lang in SUPPORTED:
        for key, text in catalogue(lang).items():
            for found in re.finditer(r"\{(\w+)(?::[^}]*)?\}", text):
                before = text[: found.start()]
                if (before.count("`") % 2 == 1 or NAMING_WORD.search(before)
                        or OF_PAGES.search(before)):
                    named.setdefault(found.group(1), set()).add(f"{lang}:{key}")
    return named


def test_every_number_a_person_types_back_or_compares_is_plain_digits() -> None:
    """The sweep of the class (issue 34): "Table 1,234, commitment ..." and "`/verify
    table:1,234`" could not be typed into an integer option nor matched with the table."""
    named = named_numbers()
    assert {"table", "hand", "page", "pages", "id"} <= set(named)
    missing = {name: sorted(keys)[:3] for name, keys in named.items()
               if name not in IDENTIFIERS | TEXTS}
    assert missing == {}
    for lang in SUPPORTED:
        for key in ("fairness.table.revealed", "fairness.table.commitment",
                    "fairness.answer.no_table", "fairness.answer.title",
                    "fairness.answer.filename", "fairness.table.hand"):
            out = t(key, lang, table=1234, secret="ab", commitment="cd")
            assert "1234" in out, out
        assert "1234 " in t("history.footer", lang, page=1234, pages=2345)
        assert "2345 " in t("history.footer", lang, page=1234, pages=2345)
