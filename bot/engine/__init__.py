"""The rules of Stoppa (RULES.md): pure, synchronous, deterministic, no I/O.

Public API: cards (``Card``, ``parse_cards``), points (``Point``, ``best_point``), settings
(``Rules``), actions (``Pass``, ``Bet``, ``Call``, ``Raise``, ``Declare``, ``Concede``,
``Play``, ``parse_action``, ``IllegalAction``), the stoppa phase (``Stoppa``) and the hand
state machine (``Hand``, ``Event``).
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
from .cards import ALL_CARDS, SUIT_NAMES, SUITS, Card, build_deck, card_of, cards_text, parse_cards
from .events import Event
from .hand import PHASES, Hand, can_pay_ante, prepare
from .points import Point, best_point, declarable_points, point_key
from .rules import VARIANTS, Rules
from .stoppa import Stoppa

__all__ = [
    "ALL_CARDS",
    "MESSAGES",
    "PHASES",
    "SUITS",
    "SUIT_NAMES",
    "VARIANTS",
    "Action",
    "Bet",
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
    "Raise",
    "Rules",
    "Stoppa",
    "best_point",
    "build_deck",
    "can_pay_ante",
    "card_of",
    "cards_text",
    "declarable_points",
    "parse_action",
    "parse_cards",
    "point_key",
    "prepare",
]
