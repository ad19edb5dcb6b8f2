"""Helpers for engine tests: build explicit decks that give each seat chosen cards."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Card, Hand, Rules, parse_cards


def deck_for(rules: Rules, dealer: int, hands: dict[int, str | Sequence[Card]]) -> list[Card]:
    """A deck that deals ``hands[seat]`` (in deal order) to those seats; others get the rest.

    Each listed hand must have exactly ``rules.hand_size`` cards. Cards of the first deal come
    first, then the second deal's, and so on (R-3).
    """
    n = rules.players
    wanted = {s: parse_cards(h) if isinstance(h, str) else list(h) for s, h in hands.items()}
    used = set()
    for s, cards in wanted.items():
        assert len(cards) == rules.hand_size, (s, len(cards))
        used.update(cards)
    rest = [c for c in rules.deck() if c not in used]
    for s in range(n):
        if s not in wanted:
            wanted[s], rest = rest[: rules.hand_size], rest[rules.hand_size :]
    deck: list[Card] = []
    pos = 0
    eldest = (dealer + 1) % n
    for k in rules.deals:
        for j in range(n):
            s = (eldest + j) % n
            deck.extend(wanted[s][pos : pos + k])
        pos += k
    assert sorted(deck) == sorted(rules.deck())
    return deck


def start(
    rules: Rules,
    hands: dict[int, str],
    *,
    dealer: int | None = None,
    chips: Sequence[int] | None = None,
    carry: int = 0,
) -> Hand:
    """A hand dealing the given cards (dealer defaults to the last seat, so seat 0 is eldest)."""
    n = rules.players
    dealer = n - 1 if dealer is None else dealer
    deck = deck_for(rules, dealer, hands)
    return Hand.start(rules, list(chips or [1000] * n), dealer, deck=deck, carry=carry)


def pass_all_betting(h: Hand) -> None:
    """Everyone passes every betting round (the dealer takes each pot)."""
    from bot.engine import Pass

    while h.phase in ("small_point", "big_point") and h.to_act is not None:
        h.act(h.to_act, Pass())
