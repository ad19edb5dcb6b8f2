"""Texts of the game table on Discord: names, languages, event lines, embeds, hand replies.

Everything a player reads comes from the `table` catalogue (plus `tables`, `engine`, `cards`
and `render`); this module only assembles. Nothing here ever reads a hidden hand: the public
embed is built from the service's public `TableState`, and the private hand text from the
player's own `hand_for` view.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable, Mapping, Sequence
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

#: How many recent lines the public message shows, and the embed field limit.
EVENT_LINES = 8
FIELD_LIMIT = 1024


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


def must_read(notice: Notice) -> bool:
    """A notice of the table service (a hand over, a player sat out or gone, a level up), as
    against the line of an engine event, which the table image shows as well."""
    return not notice.key.startswith(EVENT_KEYS)


def last_lines(lines: Sequence[Notice], size: int = EVENT_LINES) -> list[Notice]:
    """The lines the table message shows, in order: the newest `EVENTS_SHOWN` event lines and
    the newest notices a player must read, then the newest of the rest. A change's notices
    come before its events and the next hand's deal adds more, so the newest lines alone
    used to push "Hand 3 is over" out before anyone saw it."""
    newest = list(range(len(lines) - 1, -1, -1))
    events = [i for i in newest if not must_read(lines[i])]
    notices = [i for i in newest if must_read(lines[i])]
    chosen = set(events[:EVENTS_SHOWN])
    for i in notices + events[EVENTS_SHOWN:]:
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


# ---------------------------------------------------------------------- the public embed


def _clip(lines: Sequence[str], limit: int = FIELD_LIMIT) -> str:
    text = "\n".join(lines)
    while len(text) > limit and len(lines) > 1:
        lines = lines[1:]
        text = "\n".join(lines)
    return text[:limit] or "-"


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
        parts.append(t(key_of("table.seat_status", seat.status), lang))
        if seat.away:
            parts.append(t("living.away_mark", lang))
        if state.dealer == seat.user_id and state.phase not in (None, "over"):
            parts.append(t("table.embed.dealer", lang))
        prefix = "▶ " if state.to_act == seat.user_id else ""
        lines.append(prefix + " · ".join(parts))
    return lines


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


def table_embed(
    state: TableState,
    lang: str,
    names: Mapping[int, str],
    lines: Sequence[str],
    *,
    image: str | None = None,
    currency: Currency | None = None,
) -> discord.Embed:
    """The embed of the public table message (or of `/stoppa status`); chips in the
    server's `currency` (None: the bot's own words)."""
    embed = discord.Embed(
        title=t("table.embed.title", lang, number=state.table_id),
        colour=(
            discord.Colour.dark_grey() if state.status == "closed" else discord.Colour.dark_green()
        ),
    )
    top: list[str] = []
    if state.status == "closed":
        top.append(t("table.embed.closed", lang))
    elif state.phase is None or state.phase == "over":
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
    if state.round_called and state.status != "closed":
        top.append(t("table.embed.round_called", lang))
    tournament = state.tournament
    if tournament is not None and state.status != "closed":
        top.append(t("table.embed.tournament", lang, number=tournament.id,
                     level=tournament.level, hands=tournament.hands_to_next_level))
    embed.description = "\n".join(top)
    if state.seats:
        embed.add_field(
            name=t("table.embed.players", lang),
            value=_clip(seat_lines(state, lang, names, currency)),
            inline=False,
        )
    pots = pot_lines(state, lang) if state.status != "closed" else []
    if pots:
        embed.add_field(name=t("table.embed.pots", lang), value=_clip(pots), inline=False)
    if state.last_hand is not None:
        embed.add_field(
            name=t("handover.title", lang, hand_no=state.last_hand.hand_no),
            value=_clip(hand_over_lines(state.last_hand, lang, names, currency)), inline=False,
        )
    fair = fair_field(state, lang)
    if fair is not None:
        embed.add_field(name=t("fairness.table.field", lang), value=fair, inline=False)
    if lines:
        embed.add_field(
            name=t("table.embed.events", lang), value=_clip(list(lines)[-EVENT_LINES:]),
            inline=False,
        )
    with contextlib.suppress(KeyError, IndexError):
        embed.set_footer(text=t("table.embed.stakes", lang, **state.stakes.to_dict()))
    if image is not None:
        embed.set_image(url=f"attachment://{image}")
    return embed


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
