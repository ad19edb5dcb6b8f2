"""The ledger audit, in SQL both databases run, and its report lines.

Every user account, table escrow and tournament pool is recomputed from the ledger, and on
each server the balances plus escrows plus pools must equal the chips minted net of burns.
The queries use `?` placeholders (the dialect numbers them for PostgreSQL: `bot.store.sql`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

# Every user account, table escrow and guild mint recomputed from the ledger.
AUDIT_ACCOUNTS = """
WITH flows (g, u, a) AS (
    SELECT guild_id, dst_id, amount FROM ledger WHERE dst_kind = 'user'
    UNION ALL SELECT guild_id, src_id, -amount FROM ledger WHERE src_kind = 'user'
), sums AS (SELECT g, u, CAST(SUM(a) AS BIGINT) AS s FROM flows GROUP BY g, u)
SELECT a.guild_id, a.user_id, a.balance, COALESCE(sums.s, 0)
  FROM accounts a LEFT JOIN sums ON sums.g = a.guild_id AND sums.u = a.user_id
 WHERE a.balance != COALESCE(sums.s, 0)
UNION ALL
SELECT sums.g, sums.u, NULL, sums.s
  FROM sums LEFT JOIN accounts a ON a.guild_id = sums.g AND a.user_id = sums.u
 WHERE a.user_id IS NULL
"""
AUDIT_TABLES = """
WITH flows (t, g, a) AS (
    SELECT dst_id, guild_id, amount FROM ledger WHERE dst_kind = 'table'
    UNION ALL SELECT src_id, guild_id, -amount FROM ledger WHERE src_kind = 'table'
), sums AS (SELECT t, CAST(SUM(a) AS BIGINT) AS s, MIN(g) AS g1, MAX(g) AS g2 FROM flows GROUP BY t)
SELECT tb.id, tb.escrow, COALESCE(sums.s, 0), tb.guild_id, sums.g1, sums.g2, tb.status
  FROM tables tb LEFT JOIN sums ON sums.t = tb.id
 WHERE tb.escrow != COALESCE(sums.s, 0)
    OR (sums.t IS NOT NULL AND (sums.g1 != tb.guild_id OR sums.g2 != tb.guild_id))
    OR (tb.status = 'closed' AND tb.escrow != 0)
UNION ALL
SELECT sums.t, NULL, sums.s, NULL, sums.g1, sums.g2, NULL
  FROM sums LEFT JOIN tables tb ON tb.id = sums.t WHERE tb.id IS NULL
"""
AUDIT_TOURNAMENTS = """
WITH flows (t, g, a) AS (
    SELECT dst_id, guild_id, amount FROM ledger WHERE dst_kind = 'tournament'
    UNION ALL SELECT src_id, guild_id, -amount FROM ledger WHERE src_kind = 'tournament'
), sums AS (SELECT t, CAST(SUM(a) AS BIGINT) AS s, MIN(g) AS g1, MAX(g) AS g2 FROM flows GROUP BY t)
SELECT tn.id, tn.pool, COALESCE(sums.s, 0), tn.guild_id, sums.g1, sums.g2
  FROM tournaments tn LEFT JOIN sums ON sums.t = tn.id
 WHERE tn.pool != COALESCE(sums.s, 0)
    OR (sums.t IS NOT NULL AND (sums.g1 != tn.guild_id OR sums.g2 != tn.guild_id))
UNION ALL
SELECT sums.t, NULL, sums.s, NULL, sums.g1, sums.g2
  FROM sums LEFT JOIN tournaments tn ON tn.id = sums.t WHERE tn.id IS NULL
"""
MINTED = """
SELECT CAST(COALESCE(SUM(CASE WHEN src_kind = 'mint' THEN amount ELSE 0 END), 0)
     - COALESCE(SUM(CASE WHEN dst_kind = 'mint' THEN amount ELSE 0 END), 0) AS BIGINT)
  FROM ledger WHERE guild_id = ? AND (src_kind = 'mint' OR dst_kind = 'mint')
"""


AUDIT_GUILDS = (
    "SELECT guild_id FROM accounts UNION SELECT guild_id FROM tables"
    " UNION SELECT guild_id FROM tournaments"
    " UNION SELECT guild_id FROM ledger"
)
TOTAL_BALANCES = "SELECT CAST(COALESCE(SUM(balance), 0) AS BIGINT) FROM accounts WHERE guild_id = ?"
TOTAL_ESCROW = "SELECT CAST(COALESCE(SUM(escrow), 0) AS BIGINT) FROM tables WHERE guild_id = ?"
TOTAL_POOLS = "SELECT CAST(COALESCE(SUM(pool), 0) AS BIGINT) FROM tournaments WHERE guild_id = ?"


def audit_lines(
    accounts: Sequence[Sequence[object]],
    tables: Sequence[Sequence[object]],
    totals: Mapping[int, tuple[int, int, int]],
    tournaments: Sequence[Sequence[object]] = (),
) -> list[str]:
    """One readable line per difference, from the rows of AUDIT_ACCOUNTS, AUDIT_TABLES and
    AUDIT_TOURNAMENTS and each server's (balances, escrow and pools, minted)."""
    problems: list[str] = []
    for g, u, balance, expected in accounts:
        if balance is None:
            problems.append(f"guild {g} user {u}: ledger rows but no account")
        else:
            problems.append(f"guild {g} user {u}: balance {balance}, ledger says {expected}")
    for t, escrow, expected, g, g1, g2, status in tables:
        if escrow is None:
            problems.append(f"table {t}: ledger rows but no table")
        elif escrow != expected:
            problems.append(f"table {t}: escrow {escrow}, ledger says {expected}")
        elif g1 != g or g2 != g:
            problems.append(f"table {t} of guild {g}: ledger rows of guild {g1}/{g2}")
        else:
            problems.append(f"table {t}: {status} with escrow {escrow}")
    for t, pool, expected, g, g1, g2 in tournaments:
        if pool is None:
            problems.append(f"tournament {t}: ledger rows but no tournament")
        elif pool != expected:
            problems.append(f"tournament {t}: pool {pool}, ledger says {expected}")
        else:
            problems.append(f"tournament {t} of guild {g}: ledger rows of guild {g1}/{g2}")
    for g, (balances, escrow, minted) in sorted(totals.items()):
        if balances + escrow != minted:
            problems.append(f"guild {g}: balances {balances} + escrow {escrow} != minted {minted}")
    return problems
