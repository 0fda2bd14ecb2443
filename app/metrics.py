"""The game's own Prometheus metrics (``/metrics`` with ``ZZV_METRICS``), process-wide so any
layer counts into them; :func:`app.main.install_metrics` registers them per app.
Labels are closed vocabularies only: never a game id, a token or a card.
"""

from __future__ import annotations

from functools import partial

import prometheus_client
from prometheus_client.metrics import MetricWrapperBase

# Made outside any registry: each app registers them in its own.
Counter = partial(prometheus_client.Counter, registry=None)
Gauge = partial(prometheus_client.Gauge, registry=None)
Histogram = partial(prometheus_client.Histogram, registry=None)

MOVES = Counter("zzv_moves", "Human moves applied.")
RACES_STARTED = Counter("zzv_races_started", "Races dealt and stored.")
BOT_DECISIONS = Counter("zzv_bot_decisions", "Bot decisions taken, by bot level.", ["level"])
BOT_THINK_SECONDS = Histogram(
    "zzv_bot_think_seconds",
    "Time one bot decision took, queueing for a search slot excluded, by bot level.",
    ["level"],
    buckets=(0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 2.0),
)
HARD_ROLLOUTS = Histogram(
    "zzv_hard_rollouts",
    "Rollouts run by one hard-bot search.",
    buckets=(0, 1, 5, 10, 25, 50, 100, 200, 400, 800),
)
HARD_STARVED = Counter(
    "zzv_hard_searches_starved",
    "Hard-bot searches that ran almost no rollouts (fewer than the starvation threshold).",
)
HARD_WAIT_SECONDS = Histogram(
    "zzv_hard_search_wait_seconds",
    "Time a hard-bot decision queued for a search slot.",
    buckets=(0.0, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0),
)
HARD_IN_FLIGHT = Gauge("zzv_hard_searches_in_flight", "Hard-bot searches running now.")
HARD_WAITING = Gauge("zzv_hard_searches_waiting", "Hard-bot decisions queued for a search slot.")
HARD_BUDGET_MS = Histogram(
    "zzv_hard_budget_ms",
    "Thinking budget given to a hard-bot search (shortened when the queue is long).",
    buckets=(10, 25, 50, 100, 150, 200, 400, 1000),
)
# Read from the pool at each scrape (app.main.install_metrics).
BOT_POOL_REPLACED = Gauge(
    "zzv_bot_pool_replaced", "Times the hard bots' worker processes were replaced after one died."
)
# Counted by the Redis store when Redis is unreachable, by the SQLite store (``write``) when
# its file refuses a write.
STORE_ERRORS = Counter(
    "zzv_store_errors",
    "Game store operations that failed (e.g. the shared store unreachable), by operation.",
    ["operation"],
)

PROCESS_METRICS = tuple(m for m in list(globals().values()) if isinstance(m, MetricWrapperBase))
"""Every metric above, in the order declared."""
