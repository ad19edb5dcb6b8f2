"""The rules of Stoppa (docs/rules-spec.md): pure, synchronous, deterministic, no I/O.

Public API: cards (``Card``, ``Card.parse``, ``parse_cards``, ``PRIMIERA``, ``build_deck``),
points (``Point``, ``best_point``, ``showdown_key``), settings (``Rules``, ``MIN_PLAYERS``,
``MAX_PLAYERS``), actions (``Pass``, ``Bet``, ``Call``, ``Raise``, ``Declare``, ``Concede``,
``Play``, ``parse_action``, ``IllegalAction``), the stoppa phase (``Stoppa``,
``next_live_rank``), the hand state machine (``Hand``, ``Event``) and its typed views
(``SeatView`` and its parts, from ``Hand.seat_view``).

Modules: ``cards``, ``points``, ``rules``, ``actions``, ``events``; a hand (``hand``) is made
of its phases, ``betting`` (R-8), ``showdown`` (R-9), ``specials`` (R-11) and ``stoppa``
(R-12); ``views`` is what a seat may see.
"""

from __future__ import annotations

from .actions import (
    MESSAGES,
    Action,
    Bet,
    Call,
    Concede,
    Declare,
    IllegalAction,
    Pass,
    Play,
    Raise,
    parse_action,
)
from .cards import (
    ALL_CARDS,
    FIGURES,
    PRIMIERA,
    SUIT_NAMES,
    SUITS,
    Card,
    build_deck,
    card_of,
    cards_text,
    parse_cards,
)
from .events import Event
from .hand import PHASES, Hand, can_pay_ante, prepare
from .points import Point, best_point, declarable_points, point_key
from .rules import MAX_PLAYERS, MIN_PLAYERS, VARIANTS, Rules
from .showdown import showdown_key
from .specials import SPECIAL_KINDS, holds_special
from .stoppa import Stoppa, next_live_rank
from .views import (
    BettingView,
    Pots,
    SeatPublic,
    SeatView,
    ShowdownView,
    ShownPoint,
    StoppaView,
)

__all__ = [
    "ALL_CARDS",
    "FIGURES",
    "MAX_PLAYERS",
    "MESSAGES",
    "MIN_PLAYERS",
    "PHASES",
    "PRIMIERA",
    "SPECIAL_KINDS",
    "SUITS",
    "SUIT_NAMES",
    "VARIANTS",
    "Action",
    "Bet",
    "BettingView",
    "Call",
    "Card",
    "Concede",
    "Declare",
    "Event",
    "Hand",
    "IllegalAction",
    "Pass",
    "Play",
    "Point",
    "Pots",
    "Raise",
    "Rules",
    "SeatPublic",
    "SeatView",
    "ShowdownView",
    "ShownPoint",
    "Stoppa",
    "StoppaView",
    "best_point",
    "build_deck",
    "can_pay_ante",
    "card_of",
    "cards_text",
    "declarable_points",
    "holds_special",
    "next_live_rank",
    "parse_action",
    "parse_cards",
    "point_key",
    "prepare",
    "showdown_key",
]
