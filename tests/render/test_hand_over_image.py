"""The table image at the end of a hand, the seats' order and the shown cards' labels
(issue 15: what the table shows)."""

from __future__ import annotations

from dataclasses import replace
from io import BytesIO

from PIL import Image, ImageChops

from bot.engine import Hand, Rules
from bot.i18n import t
from bot.players import RandomPlayer
from bot.render import PaymentInfo, TableSnapshot, render_table
from bot.render.from_view import table_snapshot
from bot.render.table import CONTENT, ending_lines, seat_positions, table_image
from bot.tables.snapshot import public_hand_events
from tests.render.samples import TABLE_OVER, TABLE_SHOWDOWN

NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def finished(special: str | None) -> Hand:
    for seed in range(3000):
        hand = Hand.start(Rules(players=4), [1000] * 4, 0, seed=seed)
        bots = [RandomPlayer(seed=i) for i in range(4)]
        while hand.phase != "over":
            seat = hand.to_act
            hand.act(seat, bots[seat].choose(
                hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat)
            ))
        if hand.special == special:
            return hand
    raise AssertionError(special)


def centre_differs(a: Image.Image, b: Image.Image) -> bool:
    box = CONTENT
    return ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is not None


def _table(hand: Hand, lang: str) -> TableSnapshot:
    """The table image's snapshot of `hand`, with the events the table service shows."""
    events = public_hand_events(hand)
    return table_snapshot(hand.seat_view(None), NAMES, lang=lang, hand_no=2, events=events)


def test_R3_seats_are_drawn_counter_clockwise() -> None:
    for count in range(3, 7):
        points = seat_positions(count)
        # seat 0 at the bottom; the next seat in playing order is to its right (on screen),
        # then the order climbs the right side: counter-clockwise seen from above
        assert points[0][1] == max(y for _, y in points)
        assert points[1][0] > points[0][0]
        assert points[-1][0] < points[0][0]


def test_R12_R13_the_end_of_a_stoppa_names_the_closer_and_the_payments() -> None:
    hand = finished(None)
    snap = _table(hand, "en")
    closer = next(e.seat for e in hand.events if e.kind == "close")
    assert snap.phase == "over" and snap.winner == NAMES[closer]
    paid = [(NAMES[e.data()["from"]], NAMES[e.data()["to"]], e.data()["amount"])
            for e in hand.events if e.kind == "payment" and e.data()["amount"]]
    assert [(p.payer, p.to, p.amount) for p in snap.payments] == paid
    lines = ending_lines(snap)
    assert lines[0] == t("table_image.closer", "en", player=NAMES[closer])
    assert t("render.open", "en") not in lines
    assert len(lines) == 1 + len(paid)


def test_the_ending_is_drawn_instead_of_open_any_card() -> None:
    drawn = table_image(TABLE_OVER)
    bare = table_image(replace(TABLE_OVER, winner="", payments=()))
    assert centre_differs(drawn, bare)
    other_payments = replace(TABLE_OVER, payments=(PaymentInfo("Carla", "Bruno", 99),))
    assert centre_differs(drawn, table_image(other_payments))
    # a stoppa still in play says what it needs (or "open"); a finished one does not
    assert centre_differs(table_image(replace(TABLE_OVER, phase="stoppa")), bare)


def test_R11_ricchezza_shows_the_kings_and_names_the_holder_in_italian() -> None:
    hand = finished("ricchezza")
    snap = _table(hand, "it")
    holder = next(e.seat for e in hand.events if e.kind == "special")
    assert snap.special == "ricchezza" and snap.winner == NAMES[holder]
    assert sorted(snap.proof) == ["10b", "10c", "10d", "10s"]
    assert ending_lines(snap)[0] == t(
        "table_image.special", "it", player=NAMES[holder], kind=t("table.special.ricchezza", "it")
    )
    without_proof = table_image(replace(snap, proof=()))
    assert centre_differs(table_image(snap), without_proof)


def test_R11_the_public_view_keeps_only_the_proof_of_a_special_hand() -> None:
    hand = finished("ricchezza")
    holder = next(e.seat for e in hand.events if e.kind == "special")
    special = next(e for e in public_hand_events(hand) if e.kind == "special")
    assert sorted(special.data()["cards"]) == ["10b", "10c", "10d", "10s"]
    assert len(hand.cards(holder)) > 4
    povera = finished("misera")
    event = next(e for e in public_hand_events(povera) if e.kind == "special")
    holder = next(e.seat for e in povera.events if e.kind == "special")
    assert sorted(event.data()["cards"]) == sorted(str(c) for c in povera.cards(holder))


def test_shown_cards_are_labelled_with_their_point() -> None:
    labelled = table_image(TABLE_SHOWDOWN)
    bare = table_image(replace(TABLE_SHOWDOWN, seats=tuple(
        replace(s, shown_value=None) for s in TABLE_SHOWDOWN.seats)))
    assert ImageChops.difference(labelled, bare).getbbox() is not None
    hand = Hand.start(Rules(players=3), [1000] * 3, 0, seed=5)
    while not hand.shown:  # bet, call and declare up to the first point shown
        seat = hand.to_act
        assert seat is not None
        legal = hand.legal_actions()
        wanted = [a for a in legal if type(a).__name__ in ("Call", "Bet", "Declare")]
        hand.act(seat, (wanted or legal)[0])
    first = hand.shown[0]
    snap = table_snapshot(hand.seat_view(None), NAMES[:3], lang="en")
    assert snap.seats[first.seat].shown_value == first.value
    assert [s.shown_value is None for s in snap.seats].count(True) == 2


def test_the_hand_over_image_is_a_png() -> None:
    data = render_table(TABLE_OVER)
    with Image.open(BytesIO(data)) as image:
        assert image.size == (800, 600)


def test_the_alt_text_of_a_finished_hand_names_the_ending_not_open() -> None:
    from bot.render import table_alt_text

    text = table_alt_text(TABLE_OVER)
    assert t("render.alt.open", "en") not in text
    assert "Bruno closed the stoppa." in text and "Dario pays Bruno 20." in text
    hand = finished("ricchezza")
    snap = _table(hand, "it")
    alt = table_alt_text(snap)
    assert "Re di" in alt and "ha la stoppa di re" in alt
