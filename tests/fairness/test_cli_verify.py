"""`python -m bot verify` (bot/cli/verify.py): a wrong commitment, foreign cards, missing or
bad values are reported plainly with exit codes 1 and 2; Italian output; 3-player decks."""

from __future__ import annotations

import pytest

from bot.__main__ import main
from bot.fairness import Commitment, TableSecret
from bot.i18n import t

SECRET = "ab" * 32
BASE = ["verify", "--secret", SECRET, "--table", "7", "--hand", "2"]


def _run(capsys, *extra: str) -> tuple[int, str]:
    code = main([*BASE, *extra])
    return code, capsys.readouterr().out


def test_a_matching_commitment_passes(capsys) -> None:
    good = Commitment.of(TableSecret.from_hex(SECRET), 7).hex()
    code, out = _run(capsys, "--commitment", good)
    assert code == 0
    assert t("fairness.verify.commitment_ok", "en", commitment=good, table=7) in out
    assert t("fairness.verify.all_ok", "en") in out


def test_a_wrong_commitment_fails(capsys) -> None:
    wrong = Commitment.of(TableSecret.from_hex(SECRET), 8).hex()
    code, out = _run(capsys, "--commitment", wrong)
    assert code == 1
    assert "DOES NOT match" in out and t("fairness.verify.some_bad", "en") in out


def test_cards_no_single_player_held_fail(capsys) -> None:
    code, out = _run(capsys, "--players", "4")
    lines = out.splitlines()
    eldest = lines[lines.index(t("fairness.verify.used", "en", players=4, count=40)) + 1]
    mine = eldest.split(": ", 1)[1].split()[:2]
    dealer = lines[lines.index(t("fairness.verify.used", "en", players=4, count=40)) + 4]
    theirs = dealer.split(": ", 1)[1].split()[0]
    code, out = _run(capsys, "--players", "4", "--cards", " ".join(mine),
                     "--cards", f"{mine[0]} {theirs}", "--cards", theirs)
    assert code == 1
    assert t("fairness.verify.cards_ok", "en", cards=" ".join(mine), position=1) in out
    assert t("fairness.verify.cards_bad", "en", cards=f"{mine[0]} {theirs}") in out
    assert t("fairness.verify.cards_dealer", "en", cards=theirs) in out


def test_three_players_use_the_tables_deck(capsys) -> None:
    _, out = _run(capsys, "--players", "3")
    assert t("fairness.verify.used", "en", players=3, count=39) in out
    assert "10b" not in out.split(t("fairness.verify.used", "en", players=3, count=39))[1]
    _, out = _run(capsys, "--players", "3", "--three-players", "suit", "--removed-suit", "d")
    assert t("fairness.verify.used", "en", players=3, count=30) in out


def test_cards_need_players(capsys) -> None:
    code, out = _run(capsys, "--cards", "7d")
    assert code == 2 and t("fairness.verify.cards_need_players", "en") in out


@pytest.mark.parametrize("extra", [
    ["--commitment", "12"], ["--cards", "11x", "--players", "4"], ["--word", "a\nb"],
    ["--players", "7"],
])
def test_bad_values_are_refused_by_argparse(capsys, extra) -> None:
    with pytest.raises(SystemExit) as caught:
        main([*BASE, *extra])
    assert caught.value.code == 2
    assert "python -m bot verify" in capsys.readouterr().err


def test_italian_output(capsys) -> None:
    code, out = _run(capsys, "--lang", "it", "--word", "ciao", "--players", "5")
    assert code == 0
    assert t("fairness.verify.all_ok", "it") in out
    assert t("fairness.verify.used", "it", players=5, count=40) in out
    assert "1 parola" in out
