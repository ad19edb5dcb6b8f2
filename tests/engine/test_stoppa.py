"""R-12 the stoppa (shedding phase), with the blog's worked turns."""

from __future__ import annotations

import pytest

from bot.engine import Card, IllegalAction, Play, Rules, Stoppa, parse_cards


def st(hands: list[str], rules: Rules | None = None, first: int = 0) -> Stoppa:
    return Stoppa.from_hands([parse_cards(h) for h in hands], first, rules or Rules(players=4))


def ranks(s: Stoppa) -> list[list[int]]:
    return [[c.rank for c in play] for play in s.table]


def play(s: Stoppa, text: str) -> None:
    assert s.to_act is not None
    s.act(s.to_act, Play(tuple(parse_cards(text))))


def test_R12_blog_worked_turns() -> None:
    """Eldest 5-6-7-8 "senza nove"; next 9-10-3-4 "senza cinque"; next 5-6-7-8-9-10-3
    "senza quattro"."""
    s = st(["5c 6c 7c 8c 2c 4d", "9c 10c 3c 4c 2d", "5d 6d 7d 8d 9d 10d 3d 2s"])
    assert s.to_act == 0
    play(s, "5c")
    assert s.senza == [(0, 9)]
    assert s.to_act == 1  # B closed with the king and must choose an opening
    play(s, "3c")
    assert s.senza[-1] == (1, 5)
    assert s.to_act == 2
    play(s, "3d")
    assert s.senza[-1] == (2, 4)
    flat = [r for play_ in ranks(s) for r in play_]
    # after "senza quattro" B has no 4 either; A plays 4d, which is now the closer (no 5..10
    # left), so A opens again with its last card, the 2, and closes
    assert flat == [5, 6, 7, 8, 9, 10, 3, 4, 5, 6, 7, 8, 9, 10, 3, 4, 2]
    assert s.senza[-1] == (2, 4)
    assert s.winner == 0


def test_R12_exhausted_rank_skipped_one_turn() -> None:
    """With all four 6s already played, 4-5-7-8-9-10-4 is one turn (and here closes)."""
    s = st(["4c 4d 5c 7c 8c 9c 10c", "2c 3c", "1c 2d"])
    play(s, "4c")
    assert ranks(s) == [[4], [5], [7], [8], [9], [10], [4]]
    assert s.winner == 0


def test_R12_only_aces_join() -> None:
    """After 4-5-6-7 the next player continues with 8, never 7-8-9."""
    s = st(["4c 5c 6c 7c 2c", "7d 8c 9c 3d", "10c 2s"])
    play(s, "4c")
    assert s.senza[0] == (0, 8)
    assert ranks(s)[4:6] == [[8], [9]]
    assert Card.parse("7d") in s.cards(1)


def test_R12_aces_go_together_and_join_an_ace() -> None:
    """6-7-8-9-10-1, then the next player 1-1-2-3-4."""
    s = st(["6c 7c 8c 9c 10c 1c 5c", "1d 1s 2c 3c 4c 9d", "5d 2s"])
    play(s, "6c")
    assert s.to_act == 0  # closed with the king: open again, holding 1c and 5c
    play(s, "1c")
    assert s.senza[0] == (0, 2)
    assert ranks(s)[:9] == [[6], [7], [8], [9], [10], [1], [1, 1], [2], [3]]
    assert ranks(s)[9] == [4]
    assert s.senza[1] == (1, 5)


def test_R12_ace_joins_even_without_two() -> None:
    s = st(["5c 1c 9d", "1d 1s 7c", "2c 3c"])
    play(s, "1c")  # needs 2 -> senza due; seat 1 adds both aces though it has no 2
    assert ranks(s)[:2] == [[1], [1, 1]]
    assert s.senza[:2] == [(0, 2), (1, 2)]


def test_R12_opening_with_aces_plays_all_of_them() -> None:
    s = st(["1c 1d 2c 5d", "3c 9c", "4c 10c"])
    assert Play(tuple(parse_cards("1c 1d"))) in s.legal_plays()
    with pytest.raises(IllegalAction) as err:
        play(s, "1c")
    assert err.value.code == "bad_play"
    play(s, "1c 1d")
    assert ranks(s)[:4] == [[1, 1], [2], [3], [4]]


def test_R12_four_of_a_kind_goes_together() -> None:
    """3-4-5-6-6-6-6-7-8."""
    s = st(["3c 4c 5c 6c 6d 6s 6b 7c 8c 2d", "9c 2c", "10c 2s"])
    play(s, "3c")
    assert ranks(s)[:6] == [[3], [4], [5], [6, 6, 6, 6], [7], [8]]


def test_R12_pairs_go_one_at_a_time() -> None:
    s = st(["3c 4c 5c 5d 6c 2d", "7c 2c", "10c 2s"])
    play(s, "3c")
    assert ranks(s)[:4] == [[3], [4], [5], [6]]
    assert Card.parse("5d") in s.cards(0)


@pytest.mark.parametrize("variant", ["king", "suit"])
def test_R12_three_of_a_kind_is_complete_when_a_card_is_removed(variant: str) -> None:
    rules = Rules(players=3, three_players=variant)
    if variant == "king":  # king of Bastoni removed: three kings are all the kings
        s = st(["9c 10c 10d 10s 2c", "3c 4c", "5c 6c"], rules)
        play(s, "9c")
        assert ranks(s)[:2] == [[9], [10, 10, 10]]
    else:  # Bastoni removed: three 6s are all the 6s
        s = st(["5c 6c 6d 6s 2c", "7c 4c", "8c 3c"], rules)
        play(s, "5c")
        assert ranks(s)[:2] == [[5], [6, 6, 6]]


def test_R12_kings_dumped_at_open() -> None:
    """8-9-10-10-10-2-3 is one turn."""
    s = st(["8c 9c 10c 10d 10s 2c 3c 5c", "4c 10b 6c", "7c 6d"])
    play(s, "8c")
    assert s.to_act == 0
    play(s, "10d")
    assert s.to_act == 0
    play(s, "10s")
    play(s, "2c")
    assert ranks(s)[:7] == [[8], [9], [10], [10], [10], [2], [3]]
    assert s.senza[0] == (0, 4)


def test_R12_closer_is_the_knight_with_six_players() -> None:
    rules = Rules(players=6)
    s = st(["8c 9c 2c", "3c", "4c", "5c", "6c", "7c"], rules)
    assert s.closer == 9
    play(s, "8c")  # 8, 9 closes: open again, only the 2 left -> forced, and closes
    assert ranks(s) == [[8], [9], [2]]
    assert s.winner == 0


def test_R12_closer_drops_when_kings_are_played_out() -> None:
    s = st(["10c 10d 7c 2c", "10s 10b 3c", "8c 9c 4c"])
    assert s.closer == 10
    play(s, "10c")
    play(s, "10d")
    assert s.to_act == 0
    play(s, "7c")  # needs 8 (seat 2)... 10s/10b still live
    assert s.closer is not None


def test_R12_compulsory_senza_passes_to_next_seat() -> None:
    s = st(["5c 9c", "7c 8c", "6c 2c"])
    play(s, "5c")
    # seat 0 lacks 6: senza sei; seat 1 lacks 6: senza sei; seat 2 plays 6, then lacks 7
    assert s.senza[:2] == [(0, 6), (1, 6)]
    assert ranks(s)[1] == [6]


def test_R12_single_rank_opening_is_forced() -> None:
    s = st(["5c 5d", "6c 7c", "6d 2c"])
    assert s.to_act == 0 or s.winner is not None
    # seat 0 holds only 5s: no choice, the engine plays
    s2 = st(["5c 5d", "6c 7c", "6d 2c"], first=0)
    assert ranks(s2)[0] == [5]


@pytest.mark.parametrize("jump", [False, True])
def test_R12_three_aces_jump_variant(jump: bool) -> None:
    rules = Rules(players=4, three_aces_jump=jump)
    s = st(["5c 2d 9c", "1c 1d 1s 3c 4c 8d", "6d 7d 2s"], rules)
    play(s, "5c")
    if jump:
        # seat 1 cannot play 6: throws its aces, then 2? no (seat 0/2 hold 2s): senza due
        assert ranks(s)[1] == [1, 1, 1]
        assert s.senza[1] == (1, 2)
    else:
        assert s.senza[1] == (1, 6)
        assert ranks(s)[1] == [6]


def test_R12_no_jump_with_a_king() -> None:
    rules = Rules(players=4, three_aces_jump=True)
    s = st(["5c 2d 9c", "1c 1d 1s 10c 4c", "6d 7d 2s"], rules)
    play(s, "5c")
    assert s.senza[1] == (1, 6)


def test_R12_illegal_plays_refused() -> None:
    s = st(["5c 6d 9c", "7c 8c", "6c 2c"])
    with pytest.raises(IllegalAction) as e1:
        s.act(1, Play((Card.parse("7c"),)))
    assert e1.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as e2:
        s.act(0, Play((Card.parse("7c"),)))
    assert e2.value.code == "card_not_held"
    with pytest.raises(IllegalAction) as e3:
        s.act(0, Play(tuple(parse_cards("5c 6d"))))
    assert e3.value.code == "bad_play"
    assert s.table == []
    assert [str(p) for p in s.legal_plays()] == ["play 5c", "play 6d", "play 9c"]
    assert s.default_play() == Play((Card.parse("5c"),))


def test_R12_any_card_of_a_rank_may_open() -> None:
    s = st(["5c 5d 9c", "7c 8c", "6c 2c"])
    assert s.can(0, Play((Card.parse("5d"),)))
    play(s, "5d")
    assert s.table[0] == [Card.parse("5d")]


def test_R13_first_to_empty_closes_even_in_the_first_turn() -> None:
    s = st(["5c 6c 7c", "8c 2c", "9c 3c"])
    assert s.winner is None and s.to_act == 0
    play(s, "5c")  # 5-6-7 empties the hand
    assert s.winner == 0
    assert [e.kind for e in s.events()][-1] == "close"
