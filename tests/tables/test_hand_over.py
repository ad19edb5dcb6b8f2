"""The hand-over state: how a hand ended stays on the table until a human's first decision in
the next hand (issue 15: what the table shows; issue 36: CPU moves do not hide it, and the
server's pause before the next deal). Declared points (R-9, R-10), pot winners, the special hand's
proof (R-11) and the payments (R-11, R-13)."""

from __future__ import annotations

from bot.engine import Hand, Rules
from bot.players import RandomPlayer
from bot.tables import HandOver, TableEvent, TableMeta, TableState
from bot.tables.meta import HandInPlay
from bot.tables.snapshot import hand_over, shown_hand_over, special_proof
from tests.tables.helpers import CHANNEL, GUILD, USERS, Harness, TamePlayer, drive


def finished_hand(seed: int, players: int = 4) -> Hand:
    hand = Hand.start(Rules(players=players), [1000] * players, 0, seed=seed)
    bots = [RandomPlayer(seed=i) for i in range(players)]
    while hand.phase != "over":
        seat = hand.to_act
        hand.act(seat, bots[seat].choose(
            hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat)
        ))
    return hand


def special_hand(kind: str) -> tuple[Hand, int]:
    for seed in range(3000):
        hand = finished_hand(seed)
        if hand.special == kind:
            holder = next(e.seat for e in hand.events if e.kind == "special")
            return hand, holder
    raise AssertionError(f"no {kind} in 3000 seeds")


async def test_the_next_hand_shows_how_the_last_one_ended_until_a_human_acts(
    h: Harness,
) -> None:
    await h.seat_four()
    await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    players = {u: TamePlayer(u) for u in USERS}
    first = await drive(h, lambda s: s is not None and s.hand_no == 2, players)
    assert first is not None
    over = next(u for u in h.updates if u.kind == "hand_over")
    last = first.last_hand
    assert last is not None and last.hand_no == 1
    assert last == over.state.last_hand
    # every declared point of hand 1, as the engine's events told them
    events = _hand_one_events(h)
    declared = [e for e in events if e.kind == "declare"]
    assert [(p.user, list(p.cards), p.value) for p in last.points] == [
        (e.user, e.event.data()["cards"], e.event.data()["value"]) for e in declared
    ]
    wins = [e for e in events if e.kind == "win"]
    assert {(w.user, w.pot, w.deal, w.amount) for w in last.pots} == {
        (e.user, e.event.data()["pot"], e.event.data()["deal"], e.event.data()["amount"])
        for e in wins
    }
    assert last.winner is not None
    assert sum(p.amount for p in last.payments) > 0 or last.special == "assi"
    # the first action of hand 2 takes it away
    acting = first.to_act
    assert acting is not None
    info = h.svc.hand_for(GUILD, CHANNEL, acting)
    after = await h.svc.act(GUILD, CHANNEL, acting, players[acting].choose(
        info.seat_view, info.actions, info.events), expected_hand=2, expected_turn=first.turn)
    assert after.last_hand is None


def _hand_one_events(h: Harness) -> list[TableEvent]:
    return [e for u in h.updates if u.state.hand_no == 1 for e in u.events]


async def test_the_hand_over_state_survives_a_restart(h: Harness) -> None:
    await h.seat_four()
    await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    players = {u: TamePlayer(u) for u in USERS}
    state = await drive(h, lambda s: s is not None and s.hand_no == 2, players)
    assert state is not None and state.last_hand is not None
    await h.restart()
    again = h.state()
    assert again is not None and again.last_hand == state.last_hand


def test_R9_R10_every_declared_point_and_every_pot_winner() -> None:
    for seed in range(40):
        hand = finished_hand(seed)
        users = [101, 102, 103, 104]
        over = hand_over(hand, users, hand_no=3, turn=50)
        assert [p.value for p in over.points] == [d.value for d in hand.shown]
        assert all(p.user in users for p in over.points)
        wins = [e for e in hand.events if e.kind == "win"]
        assert [(w.user, w.amount) for w in over.pots] == [
            (users[e.seat], e.data()["amount"]) for e in wins
        ]
        if hand.special is None:
            closer = next(e.seat for e in hand.events if e.kind == "close")
            assert over.winner == users[closer]
            assert {p.to for p in over.payments} <= {users[closer]}
        assert HandOver.from_dict(over.to_dict()) == over


def test_R11_ricchezza_proof_is_the_kings_only() -> None:
    hand, holder = special_hand("ricchezza")
    over = hand_over(hand, [1, 2, 3, 4], hand_no=1, turn=9)
    held = [str(c) for c in hand.cards(holder)]
    assert over.special == "ricchezza" and over.holder == holder + 1
    assert sorted(over.proof) == sorted(c for c in held if c.startswith("10"))
    assert len(over.proof) == 4 and len(held) > 4
    assert over.winner == holder + 1
    assert {p.to for p in over.payments} == {holder + 1}


def test_R11_stoppa_povera_proof_is_the_whole_hand() -> None:
    hand, holder = special_hand("misera")
    over = hand_over(hand, [1, 2, 3, 4], hand_no=1, turn=9)
    assert sorted(over.proof) == sorted(str(c) for c in hand.cards(holder))


def test_R11_stoppa_di_assi_proof_is_the_aces() -> None:
    cards = ["1c", "1d", "1s", "1b", "5c", "7d", "10s"]
    assert special_proof("assi", cards) == ("1c", "1d", "1s", "1b")
    assert special_proof("assi", cards, "three_aces") == ("1c", "1d", "1s", "1b")
    # "no king" variants: only the whole hand shows that there is no king
    assert special_proof("assi", cards, "three_aces_no_king") == tuple(cards)
    assert special_proof("ricchezza", ["10c", "10d", "3s", "10s", "10b"]) == (
        "10c", "10d", "10s", "10b")


def test_the_hand_over_is_shown_until_the_table_moves_on() -> None:
    meta = TableMeta(seed=1, in_play=HandInPlay(turn=50))
    meta.last_hand = HandOver(hand_no=2, turn=50)
    meta.in_play = HandInPlay(turn=58)  # the next hand dealt and CPU moves played: still shown
    assert shown_hand_over(meta) == HandOver(hand_no=2, turn=50)
    meta.moved_on()  # a human's decision (or their turn ran out)
    assert shown_hand_over(meta) is None


async def test_cpu_moves_keep_the_last_result_until_a_human_decides(h: Harness) -> None:
    """Issue 36: CPU players acting first in the next hand no longer hide how the last one
    ended; the human's first decision does."""
    human = USERS[0]
    await h.svc.open_table(GUILD, CHANNEL, human)
    for _ in range(3):
        await h.svc.add_cpu(GUILD, CHANNEL, human)
    await h.svc.start_game(GUILD, CHANNEL, human)
    players = {human: TamePlayer(human)}

    def cpus_moved_first(state: TableState | None) -> bool:
        last = state.last_hand if state is not None else None
        return state is not None and last is not None and last.hand_no == state.hand_no - 1 \
            and state.turn > last.turn + 2  # the deal, then at least two CPU moves

    state = await drive(h, cpus_moved_first, players)
    assert state is not None and state.to_act == human and state.last_hand is not None
    info = h.svc.hand_for(GUILD, CHANNEL, human)
    after = await h.svc.act(GUILD, CHANNEL, human, players[human].choose(
        info.seat_view, info.actions, info.events), expected_hand=state.hand_no,
        expected_turn=state.turn)
    assert after.last_hand is None


async def test_the_pause_between_hands_survives_a_restart_and_deals_once(h: Harness) -> None:
    """Issue 36: the server's pause holds the next deal on the service's clock; a restart in
    the pause deals when it ends, not at once, not never, not twice."""
    await h.store.update_server_settings(GUILD, by=1, hand_pause=5)
    await h.seat_four()
    await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    players = {u: TamePlayer(u) for u in USERS}
    paused = await drive(h, lambda s: s is not None and s.next_deal is not None, players)
    assert paused is not None and paused.hand_no == 1 and paused.to_act is None
    assert paused.next_deal == h.clock.now() + 5 and paused.last_hand is not None
    await h.clock.advance(4)
    await h.svc.wait_idle()
    assert h.state() == paused  # nothing dealt yet
    await h.restart()
    resumed = h.state()
    assert resumed is not None and resumed.hand_no == 1 and resumed.next_deal == paused.next_deal
    await h.clock.advance(1)
    await h.svc.wait_idle()
    dealt = h.state()
    assert dealt is not None and dealt.hand_no == 2 and dealt.next_deal is None
    assert dealt.last_hand == paused.last_hand  # still shown: no human decided yet
    await h.clock.advance(10)
    await h.svc.wait_idle()
    assert [u.state.hand_no for u in h.updates if u.kind == "started"] == [1, 2]


async def test_no_pause_by_default_in_the_service_and_zero_allowed(h: Harness) -> None:
    await h.store.update_server_settings(GUILD, by=1, hand_pause=0)
    await h.seat_four()
    await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    players = {u: TamePlayer(u) for u in USERS}
    state = await drive(h, lambda s: s is not None and s.hand_no == 2, players)
    assert state is not None and state.next_deal is None
    assert not any(u.state.next_deal for u in h.updates)


async def test_the_bot_default_pause_holds_timed_tables_and_never_a_practice_table(
    h: Harness,
) -> None:
    """Where a server set no pause the service's applies (the bot runs with 4 s); a practice
    table is untimed: its next hand waits for its member, with no pause on top."""
    h.service_kwargs["hand_pause"] = 4.0
    await h.restart()
    await h.seat_four()
    await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    players = {u: TamePlayer(u) for u in USERS}
    paused = await drive(h, lambda s: s is not None and s.next_deal is not None, players)
    assert paused is not None and paused.next_deal == h.clock.now() + 4.0
    member = 77
    table = await h.svc.open_practice(GUILD, member, 2, "easy", "it")
    assert dict(table.languages) == {member: "it"}
    player = TamePlayer(member)
    for _ in range(500):
        view = h.svc.practice(member)
        assert view is not None
        if not view.in_hand:
            break
        assert view.hand is not None
        action = player.choose(view.hand.seat_view, list(view.hand.actions), view.hand.events)
        await h.svc.practice_act(member, view.table_id, action, view.state.hand_no,
                                 view.state.turn)
    assert view.state.phase == "over" and view.state.next_deal is None
    assert view.state.last_hand is not None
