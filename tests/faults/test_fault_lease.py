"""A move that outlives its lock's lease, on two real uvicorns and one real redis-server:
two different moves for the same turn, one through each server, while the bots' replies
take several leases. At most one is answered 200, and the race holds exactly that move."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from store_kit import start_redis

from bench.server import find_free_port

pytestmark = pytest.mark.slow

LEASE_SECONDS = 1.0
BOT_BUDGET_MS = 700  # a hard move's three searches: about two leases in all


def test_two_different_moves_for_one_turn_past_the_lease_apply_at_most_once(
    tmp_path: Path, launch_server: Callable[..., Any], server_command: Callable[..., list[str]]
) -> None:
    redis = start_redis(tmp_path)
    env = {
        "ZZV_REDIS_URL": redis.url,
        "ZZV_RATE_LIMIT_ENABLED": "false",
        "ZZV_ACCESS_LOG": "false",
        "ZZV_LOCK_TIMEOUT_SECONDS": str(LEASE_SECONDS),
        "ZZV_REDIS_TIMEOUT_SECONDS": "0.3",
        "ZZV_BOT_TIME_BUDGET_MS": str(BOT_BUDGET_MS),
        "ZZV_HARD_BUDGET_FLOOR_MS": str(BOT_BUDGET_MS),
        "ZZV_SEED_SECRET": "lease-test",
    }
    try:
        servers = []
        for _ in range(2):
            port = find_free_port()
            servers.append(launch_server(server_command(port), port=port, env=env))
        for trial in range(3):
            _one_trial(servers[0].url, servers[1].url, seed=40 + trial)
    finally:
        redis.stop()


def _one_trial(first: str, second: str, seed: int) -> None:
    body = {"players": 4, "bots": "hard", "seed": seed}
    created = httpx.post(f"{first}/api/games", json=body, timeout=60).json()
    game_id, state = created["game_id"], created["state"]
    auth = {"Authorization": f"Bearer {created['token']}"}
    legal = state["legal_actions"]
    assert len(legal) >= 2
    moves = [legal[0], legal[-1]]

    async def race_both() -> list[httpx.Response]:
        async with httpx.AsyncClient(timeout=60) as client:
            return list(
                await asyncio.gather(
                    *(
                        client.post(
                            f"{url}/api/games/{game_id}/actions",
                            json={"turn": state["turn"], "action": action},
                            headers=auth,
                        )
                        for url, action in zip((first, second), moves, strict=True)
                    )
                )
            )

    answers = asyncio.run(race_both())
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses.count(200) <= 1, [a.text for a in answers]
    assert all(code in (200, 409, 503) for code in statuses), [a.text for a in answers]
    record = httpx.get(f"{first}/api/games/{game_id}/record", headers=auth, timeout=30).json()
    mine = [
        e
        for e in record["events"]
        if e["seat"] == 0 and e["kind"] in ("card_played", "tuned_up", "zero_five_played")
    ]
    if 200 in statuses:
        index = next(i for i, a in enumerate(answers) if a.status_code == 200)
        assert answers[index].json()["turn"] == state["turn"] + 1
        assert len(mine) == 1  # the race holds one move of seat 0: the answered one
        kind = {"play": "card_played", "tune_up": "tuned_up", "zero_five": "zero_five_played"}
        assert mine[0]["kind"] == kind[moves[index]["type"]]
        assert record["turn"] == state["turn"] + 1
    else:
        assert record["turn"] in (state["turn"], state["turn"] + 1)
