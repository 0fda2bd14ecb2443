"""The seed key made once in the results database (``app.results.store.SEED_KEY``).

Unless ``ZZV_SEED_SECRET`` is set, every app on one results database (the workers and the
replicas of one site) deals the same cards for a public seed, and so does the server after
a restart, on SQLite and on PostgreSQL; another database deals other cards. A key that is
set is the key, whatever the database holds.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.main import create_app
from app.results.database import async_url
from app.results.store import SEED_KEY, ResultsStore
from app.settings import Settings

SEED = 7


def _settings(database: str, **overrides: Any) -> Settings:
    return Settings(
        rate_limit_enabled=False,
        access_log=False,
        durable=False,
        database_url=database,
        **overrides,
    )


def _deal(client: TestClient) -> tuple[list[str], list[Any]]:
    """Seat 0's hand and the bots' plays before its first turn, in a race of seed SEED."""
    answer = client.post("/api/games", json={"players": 3, "bots": "normal", "seed": SEED})
    assert answer.status_code == 201, answer.text
    state = answer.json()["state"]
    return state["hand"], state["trick_plays"]


def test_every_app_on_one_database_deals_the_same_cards_for_a_seed(
    results_database: str, tmp_path: Path
) -> None:
    # Two workers at once, then a restart: each is an app of its own on the database.
    with (
        TestClient(create_app(_settings(results_database))) as first,
        TestClient(create_app(_settings(results_database))) as second,
    ):
        deal = _deal(first)
        assert _deal(second) == deal
        assert _deal(first) == deal
    with TestClient(create_app(_settings(results_database))) as restarted:
        assert _deal(restarted) == deal
    elsewhere = f"sqlite:///{tmp_path / 'another.sqlite3'}"
    with TestClient(create_app(_settings(elsewhere))) as other_site:
        assert _deal(other_site) != deal


def test_a_seed_secret_that_is_set_is_the_key(results_database: str, tmp_path: Path) -> None:
    with TestClient(create_app(_settings(results_database))) as shared:
        shared_deal = _deal(shared)
    chosen = {"seed_secret": "chosen by the host"}
    with TestClient(create_app(_settings(results_database, **chosen))) as first:
        deal = _deal(first)
    elsewhere = f"sqlite:///{tmp_path / 'another.sqlite3'}"
    with TestClient(create_app(_settings(elsewhere, **chosen))) as second:
        assert _deal(second) == deal
    assert deal != shared_deal


def test_workers_making_the_key_at_once_all_get_the_first_one_written(
    results_database: str,
) -> None:
    async def race() -> list[bytes]:
        stores = [ResultsStore(async_url(results_database)) for _ in range(4)]
        try:
            return list(await asyncio.gather(*(s.server_key(SEED_KEY) for s in stores)))
        finally:
            for store in stores:
                await store.close()

    keys = asyncio.run(race())
    assert len(set(keys)) == 1 and len(keys[0]) == 32
