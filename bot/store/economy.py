"""Each server's own economy (issue 20): the rules of /daily and /give, and /give itself.

The rules are pure functions shared by both stores (the stores' `give` and `claim_daily`
call them); a gift is ONE transaction: both
accounts (created if new), the giver's gifts of the last 24 hours summed from the ledger, the
conditional debit (`balance >= amount`), the credit and one `give` ledger row. The limit is
over a rolling 24 hours (no time zone to agree on). The cap stops /daily and /give from taking
a balance above it; table winnings and admin grants are never capped.
"""

from __future__ import annotations

from bot.store.errors import DailyRefused, GiveRefused
from bot.store.models import ServerSettings

#: the span of the giver's daily limit (seconds)
GIVE_WINDOW = 86_400.0

#: chips the giver gave in the window: guild, giver, window start
GIVEN_SINCE = (
    "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM ledger WHERE guild_id = ?"
    " AND reason = 'give' AND src_kind = 'user' AND src_id = ? AND at > ?"
)


def check_member_age(settings: ServerSettings, joined_at: float | None, now: float) -> None:
    """DailyRefused if the member joined less than `daily_min_age` ago (None: not known to
    the caller, not checked)."""
    if joined_at is None or settings.daily_min_age <= 0:
        return
    if now < joined_at + settings.daily_min_age:
        raise DailyRefused.too_new(joined_at + settings.daily_min_age, now)


def daily_pay(settings: ServerSettings, balance: int) -> int:
    """The daily chips for an account holding `balance`: the server's amount, cut so the
    balance stops at the cap; DailyRefused if it is already at (or above) the cap."""
    cap = settings.balance_cap
    if cap is None or not settings.daily_amount:
        return settings.daily_amount
    if balance >= cap:
        raise DailyRefused("daily_at_cap", {"cap": cap})
    return min(settings.daily_amount, cap - balance)


def check_give(settings: ServerSettings, giver: int, receiver: int, amount: int) -> None:
    """The checks that need no account: enabled, two different members, a positive amount."""
    if not settings.give_enabled:
        raise GiveRefused("give_disabled")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise GiveRefused("give_bad_amount")
    if giver == receiver:
        raise GiveRefused("give_self")
    if giver <= 0 or receiver <= 0:  # CPU players have negative ids
        raise GiveRefused("give_not_member")


def check_limits(
    settings: ServerSettings, amount: int, given: int, receiver_balance: int
) -> int | None:
    """The checks against the daily limit (`given`: the giver's gifts of the window) and the
    receiver's cap; what the giver may still give after this gift (None: no limit)."""
    limit = settings.give_daily_limit
    if limit is not None and given + amount > limit:
        raise GiveRefused("give_limit", {"limit": limit, "left": max(0, limit - given)})
    cap = settings.balance_cap
    if cap is not None and receiver_balance + amount > cap:
        raise GiveRefused("give_cap", {"cap": cap})
    return None if limit is None else limit - given - amount
