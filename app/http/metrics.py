"""``/metrics``: the game's metrics (:mod:`app.metrics`) and the requests', in a registry
of each app's own. Labels are closed vocabularies only (never a game id, a token or a card);
each worker process answers for itself (no multiprocess mode)."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI
from prometheus_client import CollectorRegistry, Gauge
from prometheus_fastapi_instrumentator import Instrumentator
from prometheus_fastapi_instrumentator import metrics as http_metrics

from app.bots import pool as bot_pool
from app.metrics import BOT_POOL_REPLACED, PROCESS_METRICS

# Request latency buckets, in seconds (moves with hard bots reach seconds).
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)


def install_metrics(app: FastAPI, races_live: Callable[[], float]) -> CollectorRegistry:
    """Instrument ``app`` and serve ``/metrics`` from a registry of its own; return it.
    ``races_live`` is read at each scrape for the ``zzv_races_live`` gauge."""
    registry = CollectorRegistry()
    for metric in PROCESS_METRICS:
        registry.register(metric)
    # The pool sits below the metrics' users; the gauge reads it here, in the layer above.
    BOT_POOL_REPLACED.set_function(lambda: bot_pool.status().replaced)
    live = Gauge("zzv_races_live", "Races held by the store now.", registry=registry)
    live.set_function(races_live)
    instrumentator = Instrumentator(
        should_group_status_codes=False, excluded_handlers=["/metrics"], registry=registry
    )
    # Route templates (``/api/games/{game_id}``) label the requests, never the raw path.
    instrumentator.add(
        http_metrics.latency(buckets=LATENCY_BUCKETS, registry=registry),
        http_metrics.requests(registry=registry),
    )
    instrumentator.instrument(app).expose(app, include_in_schema=False)
    return registry
