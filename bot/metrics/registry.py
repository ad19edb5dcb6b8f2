"""`StoppaMetrics`: every metric of the bot, in its own prometheus-client registry.

The hooks elsewhere call the module functions of `bot.metrics`, which reach this object only
while metrics are on. Label values are always from a small fixed set (an action's kind, a
driver's name, a route template, an exception class): never an id, so the number of series
stays bounded however many servers and tables there are.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.registry import Collector

#: seconds: Discord drops an answer after 3 s, so the buckets are dense below that
ANSWER_BUCKETS = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0)
#: seconds: a transaction is a few milliseconds when all is well
STORE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
#: seconds: a wait for room in the one-second request window is below a second
BUDGET_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

DRIVERS = ("sqlite", "postgres")


class StoppaMetrics:
    """The bot's metrics (counters and histograms; the gauges read the bot at scrape time)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.hands_finished = Counter(
            "stoppa_hands_finished", "Hands played to their end and committed", registry=r
        )
        self.actions = Counter(
            "stoppa_actions", "Engine actions applied, by kind (bet, call, declare...)",
            ["kind"], registry=r,
        )
        self.interaction_answer = Histogram(
            "stoppa_interaction_answer_seconds",
            "From an interaction's creation at Discord to Discord accepting its answer",
            buckets=ANSWER_BUCKETS, registry=r,
        )
        self.transactions = Counter(
            "stoppa_store_transactions", "Store transactions committed", ["driver"], registry=r
        )
        self.transaction_retries = Counter(
            "stoppa_store_transaction_retries",
            "Store transactions run again after the database aborted them", ["driver"],
            registry=r,
        )
        self.transaction_seconds = Histogram(
            "stoppa_store_transaction_seconds",
            "From asking the store for a transaction to its commit (queue and retries included)",
            ["driver"], buckets=STORE_BUCKETS, registry=r,
        )
        self.budget_waits = Counter(
            "stoppa_request_budget_waits",
            "Bot-token requests that waited for room in the request budget", registry=r,
        )
        self.budget_wait_seconds = Histogram(
            "stoppa_request_budget_wait_seconds",
            "How long a request that waited for the request budget waited",
            buckets=BUDGET_BUCKETS, registry=r,
        )
        self.rate_limited = Counter(
            "stoppa_discord_rate_limited",
            "HTTP 429 answers from Discord, by route template", ["route"], registry=r,
        )
        self.lease_takeovers = Counter(
            "stoppa_lease_takeovers",
            "Tables this process took over after their owner's lease expired", registry=r,
        )
        self.errors = Counter(
            "stoppa_errors", "Errors logged, by exception class and logger", ["kind", "logger"],
            registry=r,
        )
        # the children of the labelled metrics that every hand uses, made once
        self._actions: dict[str, Counter] = {}
        self._transactions = {d: self.transactions.labels(d) for d in DRIVERS}
        self._transaction_seconds = {d: self.transaction_seconds.labels(d) for d in DRIVERS}

    def register(self, collector: Collector) -> None:
        """Add a collector read at scrape time (the gauges about the running bot)."""
        self.registry.register(collector)

    def action_applied(self, kind: str) -> None:
        """One engine action of `kind` was applied."""
        child = self._actions.get(kind)
        if child is None:
            child = self._actions[kind] = self.actions.labels(kind)
        child.inc()

    def transaction_committed(self, driver: str, seconds: float) -> None:
        """A transaction of `driver` committed after `seconds`."""
        self._transactions[driver].inc()
        self._transaction_seconds[driver].observe(seconds)
