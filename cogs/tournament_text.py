"""What people read about a tournament: the registration embed, `/tournament status`, the
results embed, the standings snapshot, and the refusals of the tournament service as text.

Everything is built from a `TournamentInfo` (plain data) and the catalogues; members are
written as mentions in embeds (an embed never pings), CPU entrants as "CPU n (Easy)". The
tournament's number is its id, shown as a table's number is ("Tournament #3").
"""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.discord_utils import key
from bot.i18n import has, t
from bot.i18n.currency import Currency
from bot.render.shapes import fmt_int
from bot.render.standings import StandingRow, StandingsSnapshot
from bot.tables import display_name
from bot.tournaments.info import TournamentInfo
from bot.tournaments.state import Phase

#: An embed field holds at most 1024 characters.
FIELD_LIMIT = 1024
COLOURS: dict[Phase, discord.Colour] = {
    Phase.REGISTERING: discord.Colour.green(),
    Phase.RUNNING: discord.Colour.blue(),
    Phase.FINISHED: discord.Colour.gold(),
    Phase.CANCELLED: discord.Colour.dark_grey(),
}


def ordinal(place: int, lang: str) -> str:
    """ "1st", "2nd" (en) or "1º" (it)."""
    name = key("tournaments.ordinal", place)
    return t(name, lang) if has(name, lang) else str(place)


def entrant_name(info: TournamentInfo, user: int, lang: str,
                 names: Mapping[int, str] | None = None) -> str:
    """A member by `names` (else a mention), a CPU entrant as "CPU n (Easy)"."""
    level = info.cpu_level(user)
    if level is not None or user < 0:
        base = display_name(user)
        if level is None:
            return base
        level_name = t(key("table.cmd.level", level), lang)
        return t("tournaments.cpu_name", lang, name=base, level=level_name)
    if names is not None and user in names:
        return names[user]
    return f"<@{user}>"


def schedule_name(info: TournamentInfo, lang: str) -> str:
    """The schedule preset's name in `lang` (its own name when it is not a preset)."""
    name = key("tournaments.schedule", info.config.schedule.name)
    return t(name, lang) if has(name, lang) else info.config.schedule.name


def payout_text(info: TournamentInfo, lang: str) -> str:
    """ "Winner takes all" or "1st: 65%, 2nd: 35%"."""
    percents = info.config.payout.percents
    if len(percents) == 1:
        return t("tournaments.payout.winner_takes_all", lang)
    return t("tournaments.separator", lang).join(
        t("tournaments.embed.payout_part", lang, place=ordinal(i + 1, lang), percent=pct)
        for i, pct in enumerate(percents)
    )


def prizes(info: TournamentInfo) -> list[int]:
    """The chips each paid place wins from the pool (the split the end pays)."""
    return info.config.payout.shares(info.prize_pool)


def where(info: TournamentInfo, table_channel: int | None) -> str:
    """A mention of the channel (or thread) where the tournament's table plays."""
    return f"<#{table_channel if table_channel is not None else info.channel_id}>"


def registration_embed(
    info: TournamentInfo, lang: str, currency: Currency, *, table_channel: int | None = None
) -> discord.Embed:
    """The public registration message: buy-in, seats, stakes, prizes, who is in; once the
    tournament started or ended, where it plays and how it went."""
    config = info.config
    embed = discord.Embed(
        title=t("tournaments.embed.title", lang, number=info.id),
        colour=COLOURS.get(info.status, discord.Colour.green()),
    )
    if info.status is Phase.REGISTERING:
        embed.description = t("tournaments.embed.registering", lang)
    elif info.status is Phase.RUNNING:
        embed.description = t("tournaments.embed.running", lang,
                              where=where(info, table_channel))
    elif info.status is Phase.FINISHED:
        winner = next((p.user_id for p in info.places if p.place == 1), None)
        embed.description = t(
            "tournaments.embed.finished", lang,
            winner=entrant_name(info, winner, lang) if winner is not None else "-",
            where=where(info, table_channel),
        )
    else:
        embed.description = t("tournaments.embed.cancelled", lang)
    embed.add_field(name=t("tournaments.embed.buy_in", lang),
                    value=currency.amount(fmt_int(config.buy_in, lang), lang))
    embed.add_field(name=t("tournaments.embed.seats", lang),
                    value=t("tournaments.embed.seats_value", lang, taken=len(info.entrants),
                            seats=config.seats))
    embed.add_field(name=t("tournaments.embed.pool", lang),
                    value=currency.amount(fmt_int(info.prize_pool, lang), lang))
    embed.add_field(
        name=t("tournaments.embed.schedule", lang),
        value=t("tournaments.embed.schedule_value", lang, name=schedule_name(info, lang),
                hands=config.schedule.hands_per_level,
                ante=fmt_int(config.schedule.level(0).ante, lang)),
        inline=False,
    )
    embed.add_field(name=t("tournaments.embed.stack", lang),
                    value=t("tournaments.embed.stack_value", lang,
                            stack=fmt_int(config.starting_stack, lang)))
    embed.add_field(name=t("tournaments.embed.payout", lang), value=payout_text(info, lang))
    players = "\n".join(entrant_name(info, e.user_id, lang) for e in info.entrants)
    embed.add_field(name=t("tournaments.embed.players", lang),
                    value=(players or t("tournaments.embed.nobody", lang))[:FIELD_LIMIT],
                    inline=False)
    if info.opened_by is not None:
        opener = t("tournaments.embed.opened_by", lang, who=f"<@{info.opened_by}>")
        embed.description = f"{embed.description}\n-# {opener}"
    return embed


def status_embed(
    info: TournamentInfo, lang: str, currency: Currency, *, table_channel: int | None = None
) -> discord.Embed:
    """`/tournament status`: the level and its stakes, hands to the next level, stacks,
    places so far, the pool and what each place wins (or won)."""
    config = info.config
    embed = discord.Embed(title=t("tournaments.status.title", lang, number=info.id),
                          colour=COLOURS.get(info.status, discord.Colour.green()))
    if info.status is Phase.REGISTERING:
        embed.description = t("tournaments.status.registering", lang, taken=len(info.entrants),
                              seats=config.seats)
    elif info.status is Phase.RUNNING:
        embed.description = t("tournaments.status.running", lang,
                              where=where(info, table_channel), hands=info.hands_played)
    elif info.status is Phase.FINISHED:
        embed.description = t("tournaments.status.finished", lang, hands=info.hands_played)
    else:
        embed.description = t("tournaments.status.cancelled", lang)
    if info.status in (Phase.REGISTERING, Phase.RUNNING):
        stakes = info.stakes
        embed.add_field(
            name=t("tournaments.status.level", lang, level=info.level),
            value=t("tournaments.status.level_value", lang, ante=fmt_int(stakes.ante, lang),
                    small_point=fmt_int(stakes.small_point, lang), cip=fmt_int(stakes.cip, lang),
                    max_bet=fmt_int(stakes.max_bet, lang),
                    card_rate=fmt_int(stakes.card_rate, lang)),
            inline=False,
        )
        upcoming = config.schedule.level(info.level)  # `level` is 1-based: the next one
        embed.add_field(
            name=t("tournaments.status.next_level", lang),
            value=t("tournaments.status.next_level_value", lang,
                    hands=info.hands_to_next_level, ante=fmt_int(upcoming.ante, lang)),
            inline=False,
        )
    if info.status is not Phase.REGISTERING and info.stacks:
        embed.add_field(name=t("tournaments.status.stacks", lang),
                        value=stacks_text(info, lang)[:FIELD_LIMIT], inline=False)
    if info.status is Phase.RUNNING:
        embed.add_field(name=t("tournaments.status.places", lang),
                        value=places_text(info, lang)[:FIELD_LIMIT], inline=False)
    embed.add_field(name=t("tournaments.status.pool", lang),
                    value=currency.amount(fmt_int(info.prize_pool, lang), lang))
    embed.add_field(name=t("tournaments.status.prizes", lang),
                    value=prizes_text(info, lang, currency)[:FIELD_LIMIT])
    return embed


def stacks_text(info: TournamentInfo, lang: str) -> str:
    """The players still in by stack (largest first), then those out, by place."""
    still_in = [u for u in info.stacks if info.place_of(u) is None]
    lines = [
        t("tournaments.status.stack_line", lang, name=entrant_name(info, u, lang),
          chips=fmt_int(info.stacks[u], lang))
        for u in sorted(still_in, key=lambda u: -info.stacks[u])
    ]
    lines += [
        t("tournaments.status.out_line", lang, name=entrant_name(info, p.user_id, lang),
          place=ordinal(p.place, lang))
        for p in sorted(info.places, key=lambda p: p.place)
    ]
    return "\n".join(lines)


def places_text(info: TournamentInfo, lang: str) -> str:
    """The places decided so far, best first, with the hand each player went out in."""
    if not info.places:
        return t("tournaments.status.none", lang)
    return "\n".join(
        t("tournaments.status.place_line", lang, place=p.place,
          name=entrant_name(info, p.user_id, lang), hand=p.hand)
        for p in sorted(info.places, key=lambda p: p.place)
    )


def prizes_text(info: TournamentInfo, lang: str, currency: Currency) -> str:
    """What each paid place wins; once paid, who won it."""
    by_place = {p.place: p.user_id for p in info.places}
    lines = []
    for i, share in enumerate(prizes(info)):
        place = i + 1
        amount = currency.amount(fmt_int(share, lang), lang)
        user = by_place.get(place)
        if info.status is Phase.FINISHED and user is not None:
            amount = currency.amount(fmt_int(info.payouts.get(user, share), lang), lang)
            lines.append(t("tournaments.status.paid_line", lang, place=ordinal(place, lang),
                           name=entrant_name(info, user, lang), amount=amount))
        else:
            lines.append(t("tournaments.status.prize_line", lang, place=ordinal(place, lang),
                           amount=amount))
    return "\n".join(lines)


def standings_snapshot(
    info: TournamentInfo, lang: str, names: Mapping[int, str], *, server: str = "",
    currency: Currency | None = None,
) -> StandingsSnapshot:
    """The final standings image's data: every place with its prize and hand."""
    currency = currency or Currency()
    rows = tuple(
        StandingRow(place=p.place, name=entrant_name(info, p.user_id, lang, names),
                    prize=int(info.payouts.get(p.user_id, 0)), hand=p.hand)
        for p in sorted(info.places, key=lambda p: p.place)
    )
    return StandingsSnapshot(
        rows=rows, number=info.id, pool=info.prize_pool, hands=info.hands_played, lang=lang,
        server=server, currency_name=currency.name, currency_emoji=currency.emoji,
    )


def results_embed(info: TournamentInfo, lang: str, currency: Currency, image: str
                  ) -> discord.Embed:
    """The results posted in the tournament's thread: the winner, every place and prize,
    the standings image below."""
    from bot.render.standings import hand_text

    embed = discord.Embed(title=t("tournaments.results.title", lang, number=info.id),
                          colour=discord.Colour.gold())
    winner = next((p.user_id for p in info.places if p.place == 1), None)
    if winner is not None:
        prize = int(info.payouts.get(winner, 0))
        if prize:
            embed.description = t("tournaments.results.winner", lang, currency=currency,
                                  winner=entrant_name(info, winner, lang), prize=prize)
        else:
            embed.description = t("tournaments.results.winner_free", lang,
                                  winner=entrant_name(info, winner, lang))
    lines = []
    for p in sorted(info.places, key=lambda p: p.place):
        prize = int(info.payouts.get(p.user_id, 0))
        row = StandingRow(p.place, "", prize, p.hand)
        lines.append(t(
            "tournaments.results.line", lang, place=p.place,
            name=entrant_name(info, p.user_id, lang),
            prize=currency.amount(fmt_int(prize, lang), lang) if prize
            else t("tournaments.results.no_prize", lang),
            out=hand_text(row, lang),
        ))
    embed.add_field(name=t("tournaments.results.places", lang),
                    value="\n".join(lines)[:FIELD_LIMIT], inline=False)
    embed.set_image(url=f"attachment://{image}")
    embed.set_footer(text=t("tournaments.results.footer", lang, currency=currency,
                            players=len(info.entrants), hands=info.hands_played,
                            pool=info.prize_pool))
    return embed
