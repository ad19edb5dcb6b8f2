"""`python -m bot play` (issue 25): what a player types, in English and Italian, in a real
subprocess. Every answer is in the player's words: no engine identifier ("small_point"), no
English command word in Italian, no invented card, and the words the prompt offers work."""

from __future__ import annotations

import pytest

from tests.cli_play.conftest import SNAKE, answer_to, play

#: seed 3, 4 players: Anna (you) is eldest in hand 1 and opens its stoppa holding
#: 1c 2s 3s 3b 4c 5c 7d 9c 9b 10b; passing every bet gets there within a dozen answers
#: (the passes left over are refused in the stoppa and change nothing)
TO_THE_STOPPA = ["pass"] * 12
TO_THE_STOPPA_IT = ["passo"] * 12


def test_a_bet_after_a_bet_is_the_raise_the_prompt_offers() -> None:
    """Seed 5: you bet first ("raise 50" with no bet is a bet), Carla raises to 60."""
    out = play(["raise 50", "bet", "bet 40", "bet 70", "quit"], seed=5)
    assert "Anna bets 50." in out
    assert "There is no bet to call" not in out
    assert "You may raise the bet to match to any amount from 70 to 200 (raise N:" in out
    assert answer_to(out, "bet") == ["Write the amount too: raise N."]
    assert answer_to(out, "bet 40") == ["Not allowed: The minimum raise is to 70."]
    assert answer_to(out, "bet 70")[0] == "Anna raises to 70."


def test_before_any_bet_the_prompt_offers_a_bet() -> None:
    out = play(["quit"], seed=3)
    assert "You may bet any amount from 10 to 200 (bet N)." in out
    assert "Choices: pass | bet N" in out


@pytest.mark.parametrize(("lang", "typed", "answer"), [
    ("en", "declare 7d", "Not allowed: You cannot declare a point now (Punto piccolo)."),
    ("en", "play 3", "Not allowed: You cannot play a card now (Punto piccolo)."),
    ("it", "dichiaro 7d", "Non è permesso: Adesso non puoi dichiarare un punto (Punto piccolo)."),
    ("it", "gioco 3", "Non è permesso: Adesso non puoi giocare una carta (Punto piccolo)."),
    ("it", "migliore", "Non è permesso: Adesso non puoi dichiarare un punto (Punto piccolo)."),
])
def test_a_refusal_names_the_phase_and_the_action(lang: str, typed: str, answer: str) -> None:
    out = play([typed, "quit"], lang=lang)
    assert answer_to(out, typed) == [answer]
    assert not SNAKE.search(out)


def test_a_rank_you_do_not_hold_is_named_with_your_plays() -> None:
    out = play([*TO_THE_STOPPA, "play 6", "play 3c", "play", "6", "3"])
    plays = "1c, 2s, 3s, 4c, 5c, 7d, 9c, 10b"
    assert answer_to(out, "play 6") == [f"Not allowed: you have no play of a 6 now. Your plays: "
                                        f"{plays}."]
    assert answer_to(out, "6") == answer_to(out, "play 6")
    assert answer_to(out, "play 3c") == ["Not allowed: You do not hold Three of Cups (3c)."]
    assert answer_to(out, "play") == [f"Write the card or rank to open with: {plays}."]
    assert answer_to(out, "3")[0].startswith("Anna: 3-4-5")
    assert answer_to(out, "pass")[0] != "Not allowed: You cannot pass now (stoppa)."


def test_the_italian_stoppa_in_italian_words() -> None:
    out = play([*TO_THE_STOPPA_IT, "gioco 6", "gioco 3c", "passo", "gioco 3"], lang="it")
    assert "Scelte: gioco 1c | gioco 2s | gioco 3s | gioco 4c" in out
    assert answer_to(out, "gioco 6")[0].startswith(
        "Non è permesso: adesso non puoi giocare un 6. Le tue giocate: 1c, 2s")
    assert answer_to(out, "gioco 3c") == ["Non è permesso: Non hai in mano Tre di Coppe (3c)."]
    assert "Non è permesso: Adesso non puoi passare (Stoppa)." in out
    assert answer_to(out, "gioco 3")[0].startswith("Anna: 3-4-5")


def test_italian_offers_and_takes_italian_words_only() -> None:
    out = play(["punto", "rilancio 30", "esci"], lang="it", seed=3)
    choices = [line for line in out.splitlines() if line.startswith("Scelte:")]
    english = {"pass", "bet", "call", "raise", "declare", "play", "best", "concede"}
    assert choices and not any(english & set(line.split()) for line in choices)
    assert "Puoi puntare qualsiasi cifra da 10 a 200 (punto N)." in out
    assert answer_to(out, "punto") == ["Scrivi anche la cifra: punto N."]
    assert answer_to(out, "rilancio 30")[0] == "Anna punta 30."
    assert "Scrivi aiuto per i comandi, esci per uscire." in out
    assert "help" not in out.split("Scrivi aiuto", 1)[1].split("\n", 1)[0]
    assert "gettoni" not in out and " chips" not in out


#: what people type by mistake: each is answered and changes nothing
ODD_INPUT = ["", "   ", "²", "①", "5²", "bet ²", "bet -5", "bet 10.5", "bet 1e3",
             "bet 99999999999999999999999", "raise", "call", "concede", "declare",
             "declare 11c", "play 0", "play 11", "0", "1,5", "10x", "<@123>", "**bold**",
             "bet 40 60", "fold", "hand", "?", "best", "Ω", "play 1c 1c"]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_odd_input_is_answered_and_the_game_goes_on(lang: str) -> None:
    out = play([*ODD_INPUT, *(["pass", "best", "3"] * 40)], lang=lang)
    assert not SNAKE.search(out), SNAKE.search(out)
    for typed in ODD_INPUT:
        if typed.strip():
            assert answer_to(out, typed), typed  # every line gets an answer
    over = "Hand 1 is over" if lang == "en" else "La mano 1 è finita"
    assert over in out


def test_a_showdown_names_the_cards_you_typed() -> None:
    """Seed 7, 5 players: you call Carla's bet, and the showdown of punto piccolo 1 follows."""
    out = play(["call", "declare 1z", "declare 7d 7d", "pass", "declare"], seed=7, players=5)
    assert "Choices: best | declare 1c | declare 5b | declare 3s | concede" in out
    assert answer_to(out, "declare 1z")[0].startswith("1z is not a card.")
    assert answer_to(out, "declare 7d 7d") == ["Not allowed: You do not hold Seven of Coins (7d)."]
    assert answer_to(out, "pass") == ["Not allowed: You cannot pass now (Showdown)."]
    assert answer_to(out, "declare")[0] == "Anna declares 16: 1c."


def test_a_bare_amount_while_betting_is_a_bet() -> None:
    out = play(["40", "quit"], seed=3)
    assert answer_to(out, "40")[0] == "Anna bets 40."


def test_the_terminal_reads_a_move_as_the_tables_do() -> None:
    """Issue 35: the terminal reads through `bot.engine.moves.read_move`: cards alone are a
    play in the stoppa ("3c 4c", "4c"), a bet in the stoppa is the engine's refusal."""
    out = play([*TO_THE_STOPPA, "bet 20", "3c 4c", "4c"])
    assert answer_to(out, "bet 20") == ["Not allowed: You cannot bet now (Stoppa)."]
    assert answer_to(out, "3c 4c") == ["Not allowed: You do not hold Three of Cups (3c)."]
    assert answer_to(out, "4c")[0].startswith("Anna: 4-5")
