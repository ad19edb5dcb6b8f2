"""A digest of everything the engine produces over many random hands, to show that a
refactoring changed no behaviour (not a test: run it before and after and compare).

Each hand draws its rules, chips (some barely above the ante, for all-ins and empty stacks),
dealer and seed from one seeded RNG, then plays random legal actions, trying a few illegal
ones on the way. At every step it records the legal actions, bet range, default action, the
views of the seat to act and of a spectator, and the refusal of each illegal try; at the end
the events, result and the JSON record. Rules keys added later with their default value are
dropped from the digest, so old and new code hash alike when behaviour is the same.

Run: ``.venv/bin/python -m tests.engine.behaviour_hash OUT.json [hands]``; then
``.venv/bin/python -m tests.engine.behaviour_hash --compare A.json B.json``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

from bot.engine import Bet, Call, Concede, Declare, Hand, IllegalAction, Pass, Play, Raise, Rules

#: the variants every version of the engine has (values drawn from these only)
OLD_VARIANTS: dict[str, tuple[Any, ...]] = {
    "three_players": ("king", "suit"),
    "ranking": ("count", "total"),
    "unclaimed_big_pot": ("dealer", "carry"),
    "blocked_stoppa": (
        "four_aces",
        "three_twos_no_king",
        "three_aces_no_king",
        "four_aces_no_king",
        "three_aces",
        "none",
    ),
    "special_payout": ("cards", "ante"),
    "three_aces_jump": (False, True),
    "removed_suit": ("b", "s", "d", "c"),
}
#: rules keys added after the old engine, with the value that keeps the old behaviour
NEW_DEFAULTS: dict[str, Any] = {
    "show_first": "last_bettor",
    "six_players": "kings",
    "stoppa_povera": "on",
}


def view(hand: Hand, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see, as the JSON-able dict ``Hand.view`` returned before the typed
    views replaced it (kept here, key for key, so that old and new code hash alike)."""
    to_act = hand.to_act
    betting = None
    round_ = hand.betting
    if round_ is not None:
        rng = hand.bet_range(seat) if seat is not None and seat == to_act else None
        level = round_.level
        betting = {
            "level": level,
            "to_call": round_.to_call(seat) if seat is not None else None,
            "min_raise": level + hand.rules.cip if level else hand.rules.cip,
            "max": hand.rules.max_bet,
            "active": list(round_.active),
            "allin": list(round_.allin),
            "bet_range": list(rng) if rng else None,
        }
    showdown = None
    sd = hand.showdown
    if sd is not None:
        showdown = {
            "order": list(sd.order),
            "declared": {str(s): [c.code for c in p.cards] for s, p in sd.declared.items()},
            "conceded": sorted(sd.conceded),
        }
    st = hand.stoppa
    own = hand.cards(seat) if seat is not None else []
    pots = hand.pots
    return {
        "seat": seat,
        "players": hand.n,
        "dealer": hand.dealer,
        "eldest": hand.eldest,
        "phase": hand.phase,
        "point": hand.point if hand.phase not in ("stoppa", "over") else None,
        "deal_no": hand.deal_no,
        "to_act": to_act,
        "hand": [c.code for c in own],
        "new_cards": (
            [c.code for c in hand.eligible(seat)]
            if seat is not None and hand.deal_no is not None
            else []
        ),
        "chips": list(hand.chips),
        "card_counts": [hand.card_count(s) for s in range(hand.n)],
        "pots": {"small": list(pots.small), "big": pots.big, "bets": list(pots.bets),
                 "carry": pots.carry, "carry_out": pots.carry_out},
        "betting": betting,
        "showdown": showdown,
        "declared": [
            {"seat": p.seat, "cards": [c.code for c in p.cards], "value": p.value, "pot": p.pot,
             "deal": p.deal}
            for p in hand.shown
        ],
        "stoppa": {
            "table": [[c.code for c in play] for play in st.table],
            "needed": st.needed,
            "closer": st.closer,
            "last": [c.code for c in st.last],
            "to_act": st.to_act,
            "card_counts": [st.card_count(s) for s in range(hand.n)],
            "winner": st.winner,
        } if st is not None else None,
        "special": hand.special,
        "legal": (
            [str(a) for a in hand.legal_actions()] if seat is not None and seat == to_act else []
        ),
        "result": list(hand.result) if hand.result is not None else None,
        "events": [e.to_dict() for e in hand.events_for(seat)],
        "rules": hand.rules.to_dict(),
    }


def _norm(x: Any) -> Any:
    """``x`` with any rules dict stripped of new keys at their default value."""
    if isinstance(x, dict):
        out = {k: _norm(v) for k, v in x.items()}
        if "cards_per_payment" in out:
            for k, v in NEW_DEFAULTS.items():
                if out.get(k) == v:
                    del out[k]
        return out
    if isinstance(x, list | tuple):
        return [_norm(v) for v in x]
    return x


def _random_rules(rng: random.Random, extra: dict[str, tuple[Any, ...]]) -> Rules:
    d: dict[str, Any] = {"players": rng.choice((3, 4, 5, 6))}
    for name, values in OLD_VARIANTS.items():
        d[name] = rng.choice(values)
    for name, values in extra.items():
        d[name] = rng.choice(values)
    d["cards_per_payment"] = rng.choice((1, 2, 3))
    d["cip"] = rng.choice((1, 10))
    return Rules(**d)


def _illegal_tries(h: Hand, rng: random.Random) -> list[tuple[int, Any]]:
    seat = h.to_act if h.to_act is not None else 0
    other = (seat + 1) % h.n
    card = rng.choice(h.rules.deck())
    return [
        (other, Pass()),
        (seat, Bet(rng.choice((0, 1, 5, 10, 999)))),
        (seat, Raise(rng.choice((0, 10, 20, 999)))),
        (seat, Call()),
        (seat, Declare((card,))),
        (seat, Play((card,))),
        (seat, Concede()),
    ]


def hand_digest(i: int, extra: dict[str, tuple[Any, ...]]) -> tuple[dict[str, Any], str, bool]:
    """(rules, digest, whether a seat had no chips in a betting phase) of the ``i``-th hand."""
    rng = random.Random(i)
    rules = _random_rules(rng, extra)
    n = rules.players
    chips = [rng.choice((rules.ante, rules.ante + 5, rules.ante + 50, 1000)) for _ in range(n)]
    h = Hand.start(rules, chips, rng.randrange(n), seed=i, carry=rng.choice((0, 0, 30)))
    log: list[Any] = [view(h, None)]
    broke = 0 in h.chips
    while h.to_act is not None:
        broke = broke or (h.phase in ("small_point", "big_point") and 0 in h.chips)
        seat = h.to_act
        for s, a in _illegal_tries(h, rng):
            try:
                betting = h.phase in ("small_point", "big_point")
                h.act(s, a)
                broke = broke or (betting and 0 in h.chips)
                log.append(["accepted", s, str(a)])
                break
            except IllegalAction as e:
                log.append([e.code, e.params, str(e)])
        if h.to_act is None:
            break
        seat = h.to_act
        legal = h.legal_actions()
        log.append([str(a) for a in legal])
        log.append(h.bet_range(seat))
        log.append(str(h.default_action(seat)))
        log.append(view(h, seat))
        a = rng.choice(legal)
        rng_ = h.bet_range(seat)
        if isinstance(a, Bet | Raise) and rng_ is not None:
            v = rng.randint(rng_[0], rng_[1])
            a = Bet(v) if isinstance(a, Bet) else Raise(v)
        betting = h.phase in ("small_point", "big_point")
        log.append([e.to_dict() for e in h.act(seat, a)])
        broke = broke or (betting and 0 in h.chips)
    log.append(view(h, None))
    log.append([view(h, s) for s in range(n)])
    log.append(h.result)
    record = json.loads(h.to_json())
    log.append(record)
    again = Hand.from_json(h.to_json())
    log.append(again.to_json() == h.to_json())
    text = json.dumps(_norm(log), sort_keys=True, default=str)
    return _norm(rules.to_dict()), hashlib.sha256(text.encode()).hexdigest(), broke


def main(argv: list[str]) -> None:
    if argv[0] == "--compare":
        with open(argv[1]) as fa, open(argv[2]) as fb:
            a, b = json.load(fa), json.load(fb)
        diff = [k for k in a if a[k]["hash"] != b.get(k, {}).get("hash")]
        print(f"{len(a)} hands, {len(diff)} differ")
        broke = [k for k in diff if b[k].get("broke")]
        total = [k for k in diff if not b[k].get("broke") and b[k]["rules"]["ranking"] == "total"]
        rest = [k for k in diff if k not in broke and k not in total]
        print(f"  with a seat at 0 chips while betting (R-8): {len(broke)}")
        print(f"  others under ranking=total (R-7): {len(total)}")
        print(f"  the rest: {len(rest)}")
        for k in rest[:40]:
            print(k, a[k]["rules"])
        return
    out, count = argv[0], int(argv[1]) if len(argv) > 1 else 3000
    extra: dict[str, tuple[Any, ...]] = {}
    result = {}
    for i in range(count):
        rules, digest, broke = hand_digest(i, extra)
        result[str(i)] = {"rules": rules, "hash": digest, "broke": broke}
    with open(out, "w") as f:
        json.dump(result, f)
    total = hashlib.sha256(json.dumps(result, sort_keys=True).encode()).hexdigest()
    print(f"{count} hands, overall {total}")


if __name__ == "__main__":
    main(sys.argv[1:])
