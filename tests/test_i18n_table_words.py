"""The Italian of the table's screens read as an Italian player reads it (issue 36).

Every player is addressed alike: no participle that says "he" to Anna ("Ti sei seduto",
"Bentornato", "è stato allontanato"); a CPU level is named in Italian ("CPU 1 (facile)");
the fair deal is said as a card player would ("Mazzo garantito", a "codice di garanzia"),
never the cryptographer's "impegno"."""

from __future__ import annotations

import re

from bot.i18n import catalogue, t
from bot.tables import Notice
from cogs.table_text import level_name, notice_text

#: the catalogue areas of the table's screens: the table message, the panel, notices, pings
TABLE_AREAS = ("table.", "tables.", "table_kinds.", "table_image.", "living.", "kick.",
               "handover.", "pings.", "fairness.table.")
#: participles and pronouns that make a person male ("seduto", "tornato", "per lui"); after
#: "ha" a participle agrees with nobody ("{by} ha allontanato {player}")
MASCULINE = re.compile(
    r"(?<!\bha )(?<!\bhanno )\b(sedut[oi]|tornat[oi]|[Bb]entornat[oi]|allontanat[oi]|messo"
    r"|eliminat[oi]|per lui)\b"
)
#: the fair deal's jargon, wherever it is said in Italian
JARGON = re.compile(r"\b(impegno|[Mm]azzo equo)\b")


def _prose(text: str) -> str:
    """The words a person reads: without `{placeholders}` (plural forms kept) and `code`."""
    text = re.sub(r"`[^`]*`", "", text)
    return re.sub(r"\{[^{}:]*(?::([^{}]*))?\}", lambda m: m.group(1) or "", text)


def test_the_table_screens_address_every_player_alike() -> None:
    wrong = {k: v for k, v in catalogue("it").items()
             if k.startswith(TABLE_AREAS) and MASCULINE.search(_prose(v))}
    assert not wrong


def test_the_fair_deal_is_said_without_jargon() -> None:
    wrong = {k: v for k, v in catalogue("it").items() if JARGON.search(_prose(v))}
    assert not wrong
    assert t("fairness.table.field", "it") == "Mazzo garantito"
    commitment = "ab" * 32
    line = t("fairness.table.hand", "it", commitment=commitment, table=4)
    assert f"`{commitment}`" in line and "garanzia" in line  # the value kept, and named


def test_a_check_would_catch_the_old_words() -> None:
    assert MASCULINE.search(_prose("Ti sei seduto al tavolo."))
    assert MASCULINE.search(_prose("In attesa: {count} {count:seduto|seduti}"))
    assert not MASCULINE.search(_prose("{by} ha allontanato {player} dal tavolo."))
    assert JARGON.search(_prose("Mazzo equo: impegno `{commitment}`"))


def test_a_cpu_sits_down_with_its_level_in_the_tables_language() -> None:
    notice = Notice("tables.cpu_joined", {"player": -1, "level": "easy"}, ("player",))
    assert notice_text(notice, "it", {-1: "CPU 1"}) == "CPU 1 (facile) prende posto al tavolo."
    assert notice_text(notice, "en", {-1: "CPU 1"}) == t(
        "tables.cpu_joined", "en", player="CPU 1", level=t("players.level.easy", "en"))
    for level in ("random", "easy", "hard"):
        assert level_name(level, "it") == t(f"players.level.{level}", "it") != level
    assert level_name("unheard_of", "it") == "unheard_of"  # never a missing key
