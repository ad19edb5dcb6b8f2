"""The hand policies of `bot.tables` (see `bot.tables.policy`): the cash table's here; the
tournament's lives beside the tournament code (`bot.tournaments.table_policy`)."""

from bot.tables.policies.cash import CASH, CashPolicy, cash_only

__all__ = ["CASH", "CashPolicy", "cash_only"]
