"""The game's own Prometheus metrics, served on ``/metrics`` when ``ZZV_METRICS`` is on.

They are process-wide objects (like the bots' worker pool and the hard search cap they
describe), so any layer can count into them without holding the app; this module imports
nothing but ``prometheus_client``, so the domain, the bots and the stores may use it.
:func:`app.http.metrics.install_metrics` registers them into each app's own registry next
to its request metrics, which keeps apps built side by side (the tests) independent.
Labels are closed vocabularies only (bot level, route template, store operation): never a
game id, a token or a card.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

MOVES = Counter("zzv_moves", "Human moves applied.", registry=None)
"""Human moves applied (one per accepted move request)."""

RACES_STARTED = Counter("zzv_races_started", "Races dealt and stored.", registry=None)
"""Races created (refused creations are not counted)."""

BOT_DECISIONS = Counter(
    "zzv_bot_decisions", "Bot decisions taken, by bot level.", ["level"], registry=None
)
"""Bot decisions by level (``random``, ``easy``, ``normal``, ``hard``)."""

BOT_THINK_SECONDS = Histogram(
    "zzv_bot_think_seconds",
    "Time one bot decision took, queueing for a search slot excluded, by bot level.",
    ["level"],
    buckets=(0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 2.0),
    registry=None,
)
"""Wall time of one bot decision by level (a hard search's queue wait is not in it)."""

HARD_ROLLOUTS = Histogram(
    "zzv_hard_rollouts",
    "Rollouts run by one hard-bot search.",
    buckets=(0, 1, 5, 10, 25, 50, 100, 200, 400, 800),
    registry=None,
)
"""Rollouts per hard decision that searched."""

HARD_STARVED = Counter(
    "zzv_hard_searches_starved",
    "Hard-bot searches that ran almost no rollouts (fewer than the starvation threshold).",
    registry=None,
)
"""Hard searches that ran too few rollouts to mean much (also logged one by one)."""

HARD_WAIT_SECONDS = Histogram(
    "zzv_hard_search_wait_seconds",
    "Time a hard-bot decision queued for a search slot.",
    buckets=(0.0, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0),
    registry=None,
)
"""Queueing time of hard decisions before their search started."""

HARD_IN_FLIGHT = Gauge(
    "zzv_hard_searches_in_flight", "Hard-bot searches running now.", registry=None
)
"""Hard searches running now (never above the cap)."""

HARD_WAITING = Gauge(
    "zzv_hard_searches_waiting", "Hard-bot decisions queued for a search slot.", registry=None
)
"""Hard decisions waiting for a search slot now."""

HARD_BUDGET_MS = Histogram(
    "zzv_hard_budget_ms",
    "Thinking budget given to a hard-bot search (shortened when the queue is long).",
    buckets=(10, 25, 50, 100, 150, 200, 400, 1000),
    registry=None,
)
"""Budgets handed to hard searches, in milliseconds."""

BOT_POOL_REPLACED = Gauge(
    "zzv_bot_pool_replaced",
    "Times the hard bots' worker processes were replaced after one died.",
    registry=None,
)
"""Replacements of a broken worker pool since the process started (read from the pool at
each scrape: :func:`app.http.metrics.install_metrics` connects it)."""

STORE_ERRORS = Counter(
    "zzv_store_errors",
    "Game store operations that failed (e.g. the shared store unreachable), by operation.",
    ["operation"],
    registry=None,
)
"""Failed store operations by operation name (``read``, ``write``, ``lock``, ``add``, …),
counted by the Redis store each time Redis cannot be reached."""

PROCESS_METRICS = (
    MOVES,
    RACES_STARTED,
    BOT_DECISIONS,
    BOT_THINK_SECONDS,
    HARD_ROLLOUTS,
    HARD_STARVED,
    HARD_WAIT_SECONDS,
    HARD_IN_FLIGHT,
    HARD_WAITING,
    HARD_BUDGET_MS,
    BOT_POOL_REPLACED,
    STORE_ERRORS,
)
"""Every metric above, in the order an app registers them."""
