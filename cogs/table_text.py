"""Texts of the game table on Discord: names, languages, event lines, the table message's
texts, hand replies.

Everything a player reads comes from the `table` catalogue (plus `tables`, `engine`, `cards`
and `render`); this module only assembles. Nothing here ever reads a hidden hand: the public
message's texts are built from the service's public `TableState`, and the private hand text from the
player's own `hand_for` view.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.client import StoppaBot
from bot.discord_utils.errors import refusal_text as refused_text
from bot.engine import Bet, Call, Concede, Declare, IllegalAction, Pass, Play, Raise
from bot.engine import events as ev
from bot.i18n import DEFAULT, has, normalize_locale, t
from bot.i18n.cards import cards_text
from bot.i18n.currency import Currency
from bot.i18n.refusals import readable
from bot.render.shapes import phase_label
from bot.store.privacy import is_forgotten
from bot.tables import (
    Notice,
    PlayerHand,
    TableError,
    TableEvent,
    TableState,
    display_name,
    is_cpu,
)
from cogs.fair_text import fair_field, hand_line
from cogs.table_hand_over import hand_over_lines

_log = logging.getLogger("stoppa.table")

#: How many recent lines the public message shows (room for a six-player hand's closer and
#: payments beside the newest moves and notices).
EVENT_LINES = 10


async def table_language(client: StoppaBot, guild_id: int, players: Iterable[int] = (),
                         spoken: Mapping[int, str] | None = None) -> str:
    """The language of a table's public message (its buttons, notices, result) and of what it
    says in the channel: the language a manager pinned for the server; else its players'
    (`players`, in seat order: the first of them whose language is known, that is the opener's
    while they sit, when the players differ), each the language kept with their seat
    (`spoken`: `TableState.languages`, `TournamentInfo.languages`; it survives a restart) or
    else the one they last used the bot in; else the server's preferred locale when Italian
    or English; else English. A ping speaks its own player's language (`member_language`)."""
    languages = client.languages  # kept in memory; a server not loaded yet is read once
    pinned = languages.get(guild_id) if languages.known(guild_id) else None
    if not languages.known(guild_id) and client.store is not None:
        pinned = await languages.load(client.store, guild_id)
    if pinned is not None:
        return pinned
    seated = next((lang for user in players if (lang := member_language(client, user, "", spoken))),
                  None)
    if seated is not None:
        return seated
    guild = client.get_guild(guild_id)
    if guild is not None:
        return normalize_locale(guild.preferred_locale) or DEFAULT
    return DEFAULT


def humans(state: TableState) -> list[int]:
    """The table's human players in seat order (the opener first while they sit)."""
    return [s.user_id for s in state.seats if not is_cpu(s.user_id) and not is_forgotten(s.user_id)]


def member_language(client: StoppaBot, user: int, fallback: str,
                    spoken: Mapping[int, str] | None = None) -> str:
    """`user`'s language (a ping is theirs): the one kept with their seat (`spoken`, the
    table's `TableState.languages`), else the one they last used the bot in, else
    `fallback`."""
    kept = spoken.get(user) if spoken is not None else None
    return kept or client.languages.member(user) or fallback


def key_of(prefix: str, name: object) -> str:
    """A catalogue key made of a prefix and a name ("table.event", "bet")."""
    return f"{prefix}.{name}"


def mention(user: int) -> str:
    """A mention for a human, "CPU n" for a CPU seat, "anon-n" for a forgotten member."""
    return display_name(user) if is_cpu(user) or is_forgotten(user) else f"<@{user}>"


def discord_time(epoch: float | None) -> str:
    """A relative Discord timestamp (`<t:...:R>`), or an empty string."""
    return f"<t:{int(epoch)}:R>" if epoch else ""


def refusal_text(error: TableError | IllegalAction, lang: str) -> str:
    """A refusal in `lang`, user ids shown as mentions and engine identifiers named (the one
    wording of every refusal: `bot.discord_utils.errors.refusal_text`)."""
    return refused_text(error, lang) or t("errors.not_allowed", lang)


# ---------------------------------------------------------------------- events as notices


def event_notice(event: TableEvent, players: Sequence[int]) -> Notice | None:
    """The line of a public engine event (None for the events not worth a line).

    Only public data goes in: shown points, played cards and amounts, never a hand.
    """
    e, user = event.event, event.user
    if isinstance(e, ev.Carried):
        into = "carry_next" if e.into == "next" else "carry_big"
        return Notice(key_of("table.event", into), {"amount": e.amount})
    if isinstance(e, ev.PhaseBegan):
        return _phase_notice(e)
    if user is None:
        return None
    params: dict[str, Any] = {"player": user}
    if isinstance(e, ev.Wager):
        params["level"] = e.level
    elif isinstance(e, ev.Passed | ev.Conceded | ev.Closed):
        params["level"] = 0
    elif isinstance(e, ev.Declared):
        params.update(value=e.value, cards=" ".join(e.cards))
    elif isinstance(e, ev.Won):
        name = ("win_big" if e.pot == "big" else "win_small")
        return Notice(key_of("table.event", name + ("_dealer" if e.reason == "no_bet" else "")),
                      {**params, "amount": e.amount, "deal": (e.deal or 0) + 1}, ("player",))
    elif isinstance(e, ev.SpecialHand):
        params.update(kind=t(key_of("table.special", e.name), DEFAULT), special=e.name)
    elif isinstance(e, ev.Played):
        params["cards"] = " ".join(e.cards)
    elif isinstance(e, ev.Senza):
        params["rank"] = e.needed
    elif isinstance(e, ev.Paid):
        to = players[e.to] if 0 <= e.to < len(players) else None
        if to is None or not e.amount:
            return None
        return Notice("table.event.payment", {**params, "amount": e.amount, "to": to},
                      ("player", "to"))
    elif isinstance(e, ev.Refunded):
        params["amount"] = e.amount
    else:
        return None
    return Notice(key_of("table.event", e.kind), params, ("player",))


def _phase_notice(e: ev.PhaseBegan) -> Notice | None:
    if isinstance(e, ev.SmallPointBegan):
        return Notice("table.event.phase_small", {"deal": e.deal + 1})
    if isinstance(e, ev.BigPointBegan | ev.ShowdownBegan | ev.StoppaBegan):
        name = "big" if isinstance(e, ev.BigPointBegan) else e.phase
        return Notice(key_of("table.event", "phase_" + name))
    return None


def notice_text(
    notice: Notice, lang: str, names: Mapping[int, str], currency: Currency | None = None
) -> str:
    """A notice in `lang` (a special hand's name translated too), amounts of chips in the
    server's `currency` (None: the bot's own words)."""
    if notice.key == "table.event.special":
        params = dict(notice.params)
        params["kind"] = t(key_of("table.special", params.pop("special", "assi")), lang)
        return Notice(notice.key, params, notice.users).text(lang, names, currency=currency)
    if "action" in notice.params or "phase" in notice.params:
        notice = Notice(notice.key, readable(notice.params, lang), notice.users)
    if notice.key == "tables.cpu_joined":  # "CPU 1 (facile)": the level in `lang` too
        notice = Notice(notice.key, {**notice.params, "level": level_name(
            notice.params.get("level"), lang)}, notice.users)
    try:
        return notice.text(lang, names, currency=currency)
    except (KeyError, IndexError):
        _log.warning("notice %s cannot be translated", notice.key)
        return ""


def level_name(level: object, lang: str) -> str:
    """A CPU level ("easy") by its name in `lang` ("facile"); an unknown one as it is."""
    name = key_of("players.level", level)
    return t(name, lang) if has(name, lang) else str(level)


#: The catalogue keys of engine events' lines start so (`event_notice`).
EVENT_KEYS = "table.event."  # i18n: not user-facing
#: The newest event lines the window always shows, however many notices there are.
EVENTS_SHOWN = 3


#: Notices of the lobby (who sat down, who deals): shown after results and moves, so that
#: "CPU 1 (easy) sat down" never pushes out who closed the stoppa and who paid.
LOBBY_KEYS = frozenset({
    "tables.opened", "tables.joined", "tables.cpu_joined", "tables.left", "tables.stays",
    "tables.waiting_players", "tables.hand_started", "table.embed.converted",
})
#: The notice that opens a hand's lines ("Hand 3: Anna deals").
HAND_STARTED = "tables.hand_started"
#: The engine events that say how a pot or a hand ended (kept like a notice).
RESULT_EVENTS = frozenset(
    EVENT_KEYS + name for name in (
        "win_small", "win_big", "win_small_dealer", "win_big_dealer", "special", "close",
        "payment", "carry_next", "carry_big", "refund",
    )
)


def must_read(notice: Notice) -> bool:
    """A result (a pot won, the stoppa closed, a payment) or a notice of the table service
    a player must read (a hand over, a player sat out or gone, a level up), as against a
    move, which the table image shows as well, and a lobby notice."""
    if notice.key in LOBBY_KEYS:
        return False
    return notice.key in RESULT_EVENTS or not notice.key.startswith(EVENT_KEYS)


def last_lines(lines: Sequence[Notice], size: int = EVENT_LINES) -> list[Notice]:
    """The lines the table message shows, in order: the newest `EVENTS_SHOWN` moves, the
    newest notices a player must read, the newest results (pots won, the stoppa closed,
    payments), the newest of the other moves, and only then lobby notices. A change's
    notices come before its events and the next hand's deal adds more, so the newest lines
    alone used to push "Hand 3 is over" out before anyone saw it, and a CPU sitting down
    pushed out who closed the stoppa and who paid. The lines of hands before the last one
    come last of all ("Hand 1 is over" no longer matters in hand 6)."""
    starts = [i for i, line in enumerate(lines) if line.key == HAND_STARTED]
    since = starts[-2] if len(starts) > 1 else 0  # this hand's and the last hand's lines
    newest = list(range(len(lines) - 1, since - 1, -1))
    lobby = [i for i in newest if lines[i].key in LOBBY_KEYS]
    notices = [i for i in newest if must_read(lines[i]) and lines[i].key not in RESULT_EVENTS]
    results = [i for i in newest if lines[i].key in RESULT_EVENTS]
    moves = [i for i in newest if i not in {*lobby, *notices, *results}]
    chosen = set(moves[:EVENTS_SHOWN])
    older = list(range(since - 1, -1, -1))  # hands before the last one: only to fill up
    for i in notices + results + moves[EVENTS_SHOWN:] + lobby + older:
        if len(chosen) >= size:
            break
        chosen.add(i)
    return [lines[i] for i in sorted(chosen)]


def notice_users(notices: Iterable[Notice]) -> set[int]:
    """Every user id named by these notices."""
    out: set[int] = set()
    for notice in notices:
        for key in notice.users:
            value = notice.params.get(key)
            if isinstance(value, int):
                out.add(value)
    return out


# ---------------------------------------------------------------------- the table message


def phase_text(state: TableState, lang: str) -> str:
    """The phase of the hand in words ("Punto piccolo 2/4", "Stoppa", ...)."""
    total = len(state.pots.small) if state.pots is not None else 0
    return phase_label(state.phase or "lobby", lang, state.deal_no, total)


def seat_lines(
    state: TableState, lang: str, names: Mapping[int, str], currency: Currency | None = None
) -> list[str]:
    """One line per seat: name, chips, cards held (a count), status, dealer."""
    lines = []
    for seat in state.seats:
        name = discord.utils.escape_markdown(names.get(seat.user_id, display_name(seat.user_id)))
        parts = [t("table.embed.seat_line", lang, name=name, chips=seat.chips, currency=currency)]
        if seat.cards:
            parts.append(t("table.embed.seat_cards", lang, count=seat.cards))
        marks = _round_marks(state, seat.user_id, lang)
        if not (marks and seat.status == "playing"):  # "passed" says more than "playing"
            parts.append(t(key_of("table.seat_status", seat.status), lang))
        parts += marks
        if seat.away:
            parts.append(t("living.away_mark", lang))
        if state.dealer == seat.user_id and state.phase not in (None, "over"):
            parts.append(t("table.embed.dealer", lang))
        prefix = "▶ " if state.to_act == seat.user_id else ""
        lines.append(prefix + " · ".join(parts))
    return lines


def _round_marks(state: TableState, user: int, lang: str) -> list[str]:
    """A seat's part in the betting round (passed, all-in, its bet): the seat line says it,
    the table image leaves it out (`cogs.table_publisher.image_snapshot`)."""
    view = state.view
    if view is None or user not in state.players:
        return []
    seat = view.seats[state.players.index(user)]
    marks = []
    if seat.status in ("passed", "allin"):
        marks.append(t(key_of("table.seat_status", "round_" + seat.status), lang))
    if seat.bet and view.phase not in ("over", None):
        marks.append(t("table.embed.seat_bet", lang, amount=seat.bet))
    return marks


def pot_lines(state: TableState, lang: str) -> list[str]:
    """The pots of the hand in progress that hold chips (and a carried big pot)."""
    pots = state.pots
    lines = []
    small = pots.small if pots is not None else ()
    if any(small):
        lines.append(t("table.embed.small_pots", lang, pots=" · ".join(map(str, small))))
    if pots is not None and pots.big:
        lines.append(t("table.embed.big_pot", lang, amount=pots.big))
    if state.carry and pots is None:
        lines.append(t("table.embed.carry", lang, amount=state.carry))
    level = state.betting.level if state.betting is not None else 0
    if level:
        lines.append(t("table.embed.level", lang, level=level))
    return lines


@dataclass(frozen=True, slots=True)
class TableTexts:
    """What the public table message says, section by section (`table_texts`): the V2 layout
    (`cogs.table_layout`) gives each its own text block. A section without lines is not
    shown."""

    title: str
    #: the phase and whose turn until when (or the lobby's line), the round call, a tournament
    top: tuple[str, ...]
    seats: tuple[str, ...] = ()
    pots: tuple[str, ...] = ()
    #: how the last hand ended, while the table shows it (`TableState.last_hand`)
    result_title: str = ""
    result: tuple[str, ...] = ()
    fair: str | None = None
    #: the last events, oldest first
    events: tuple[str, ...] = ()
    stakes: str = ""


def top_lines(state: TableState, lang: str) -> list[str]:
    """The first lines of the table message: the phase and whose turn it is until when (or
    the lobby's invitation, or "closed"), then the round call and a tournament's level."""
    if state.status == "closed":
        return [t("table.embed.closed", lang)]
    top: list[str] = []
    if state.phase is None or state.phase == "over":
        top.append(t("table.embed.lobby", lang, count=len(state.seats)))
    else:
        top.append(
            t("table.embed.hand_phase", lang, hand_no=state.hand_no, phase=phase_text(state, lang))
        )
        if state.to_act is not None:
            deadline = discord_time(state.deadline)
            top.append(t("table.embed.turn", lang, player=mention(state.to_act), deadline=deadline))
        else:
            top.append(t("table.embed.no_turn", lang))
    if state.round_called:
        top.append(t("table.embed.round_called", lang))
    tournament = state.tournament
    if tournament is not None:
        top.append(t("table.embed.tournament", lang, number=tournament.id,
                     level=tournament.level, hands=tournament.hands_to_next_level))
    return top


def table_texts(
    state: TableState,
    lang: str,
    names: Mapping[int, str],
    lines: Sequence[str],
    currency: Currency | None = None,
) -> TableTexts:
    """The texts of the public table message (or of `/stoppa status`) in `lang`; chips in
    the server's `currency` (None: the bot's own words). `lines`: the last events."""
    last = state.last_hand
    stakes = ""
    with contextlib.suppress(KeyError, IndexError):
        stakes = t("table.embed.stakes", lang, **state.stakes.to_dict())
    return TableTexts(
        title=t("table.embed.title", lang, number=state.table_id),
        top=tuple(top_lines(state, lang)),
        seats=tuple(seat_lines(state, lang, names, currency)),
        pots=tuple(pot_lines(state, lang)) if state.status != "closed" else (),
        result_title=t("handover.title", lang, hand_no=last.hand_no) if last else "",
        result=tuple(hand_over_lines(last, lang, names, currency)) if last else (),
        fair=fair_field(state, lang),
        events=tuple(lines)[-EVENT_LINES:],
        stakes=stakes,
    )


# ---------------------------------------------------------------------- the private hand


def action_words(info: PlayerHand, lang: str) -> list[str]:
    """The legal actions of a player, in words ("pass", "call (20 chips)", "play 5c"...)."""
    bet_range = info.bet_range
    out: list[str] = []
    declared = False
    for action in info.actions:
        if isinstance(action, Pass):
            out.append(t("table.action.pass", lang))
        elif isinstance(action, Call):
            out.append(t("table.action.call", lang, amount=info.to_call))
        elif isinstance(action, Bet | Raise) and bet_range:
            kind = "bet" if isinstance(action, Bet) else "raise"
            out.append(t(key_of("table.action", kind), lang, min=bet_range[0], max=bet_range[1]))
        elif isinstance(action, Declare) and not declared:
            declared = True
            out.append(t("table.action.declare", lang))
        elif isinstance(action, Concede):
            out.append(t("table.action.concede", lang))
        elif isinstance(action, Play):
            out.append(t("table.action.play", lang, cards=" ".join(map(str, action.cards))))
    return out


def hand_text(info: PlayerHand, state: TableState | None, lang: str, *,
              live: bool = False) -> str:
    """The private hand reply: the cards with names, the best point, whose turn (`live`: a
    panel that changes by itself names nobody else, so that another's turn needs no edit)."""
    view = info.seat_view
    codes = [c.code for c in view.hand]
    lines = [f"**{t('table.hand.title', lang, hand_no=info.hand_no)}**"]
    if codes:
        lines.append(t("table.hand.cards", lang, count=len(codes), cards=cards_text(codes, lang)))
    else:
        lines.append(t("table.hand.no_cards", lang))
    if view.eligible and view.deal_no is not None:
        new = " ".join(c.code for c in view.eligible)
        lines.append(t("table.hand.new_cards", lang, cards=new))
    best = view.best_point  # the engine's, never recomputed here
    if best is not None:
        cards = " ".join(str(c) for c in best.cards)
        lines.append(t("table.hand.best", lang, value=best.total, cards=cards))
    if view.phase == "over":
        lines.append(t("table.hand.over", lang))
    elif info.my_turn:
        deadline = discord_time(state.deadline if state is not None else None)
        lines.append(
            t("table.hand.your_turn", lang, deadline=deadline,
              actions=", ".join(action_words(info, lang)))
        )
    elif live:
        lines.append(t("table.hand.not_your_turn", lang))
    elif state is not None and state.to_act is not None:
        lines.append(t("table.hand.waiting", lang, player=mention(state.to_act)))
    fair = hand_line(state, lang)
    if fair is not None:
        lines.append(fair)
    return "\n".join(lines)


def done_text(action: Any, lang: str) -> str:
    """The private confirmation of an action ("You bet 30.")."""
    if isinstance(action, Bet):
        return t("table.done.bet", lang, amount=action.amount)
    if isinstance(action, Raise):
        return t("table.done.raise", lang, amount=action.to)
    if isinstance(action, Declare | Play):
        kind = "declare" if isinstance(action, Declare) else "play"
        return t(key_of("table.done", kind), lang, cards=" ".join(map(str, action.cards)))
    kind = type(action).__name__.lower()
    return t(key_of("table.done", kind), lang)
