"""``/metrics``: Prometheus text when ``ZZV_METRICS`` is on, a plain 404 when off."""

from __future__ import annotations

import random
from typing import Any

import pytest
from app_kit import bearer, create, make_settings, move
from bot_kit import first_legal
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from app.bots.runner import SearchRequest, SearchResult
from app.main import create_app
from app.settings import Settings


async def _quick_search(request: SearchRequest) -> SearchResult:
    return first_legal(request), 42


def _families(text: str) -> dict[str, Any]:
    return {family.name: family for family in text_string_to_metric_families(text)}


def _value(family: Any, sample_name: str, **labels: str) -> float:
    return sum(
        sample.value
        for sample in family.samples
        if sample.name == sample_name and all(sample.labels.get(k) == v for k, v in labels.items())
    )


def test_metrics_are_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ZZV_METRICS", raising=False)
    assert Settings().metrics is False
    with TestClient(create_app(make_settings())) as client:
        response = client.get("/metrics")
        assert response.status_code == 404
        assert "zzv_" not in response.text
    monkeypatch.setenv("ZZV_METRICS", "true")
    assert Settings().metrics is True


def test_metric_families_exist_with_sane_values_after_a_few_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(3)
    app = create_app(make_settings(metrics=True))
    app.state.runner.search = _quick_search
    with TestClient(app) as client:
        before = _families(client.get("/metrics").text)
        secrets: list[str] = []
        moves = 0
        for bots in ("normal", "hard"):
            game_id, token, state = create(client, players=4, bots=bots, seed=11)
            secrets += [game_id, token]
            for _ in range(3):
                answer = move(
                    client, game_id, token, state["turn"], rng.choice(state["legal_actions"])
                )
                assert answer.status_code == 200
                state = answer.json()
                moves += 1
            client.get(f"/api/games/{game_id}", headers=bearer(token))
        response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    for secret in secrets:
        assert secret not in text  # labels are route templates, never ids or tokens
    after = _families(text)

    def grew(name: str, sample: str, **labels: str) -> float:
        old = _value(before[name], sample, **labels) if name in before else 0.0
        return _value(after[name], sample, **labels) - old

    route = "/api/games/{game_id}/actions"
    assert (
        grew("http_request_duration_seconds", "http_request_duration_seconds_count", handler=route)
        == moves
    )
    assert (
        _value(
            after["http_request_duration_seconds"],
            "http_request_duration_seconds_sum",
            handler=route,
        )
        > 0
    )
    assert _value(after["zzv_races_live"], "zzv_races_live") == 2
    assert grew("zzv_moves", "zzv_moves_total") == moves
    assert grew("zzv_races_started", "zzv_races_started_total") == 2
    assert grew("zzv_bot_decisions", "zzv_bot_decisions_total", level="normal") >= moves
    assert grew("zzv_bot_decisions", "zzv_bot_decisions_total", level="hard") >= moves
    assert grew("zzv_bot_think_seconds", "zzv_bot_think_seconds_count", level="normal") >= moves
    searches = grew("zzv_hard_rollouts", "zzv_hard_rollouts_count")
    assert searches >= 1
    assert grew("zzv_hard_rollouts", "zzv_hard_rollouts_sum") == 42 * searches
    assert _value(after["zzv_hard_searches_in_flight"], "zzv_hard_searches_in_flight") == 0
    for family in ("zzv_store_errors", "zzv_hard_searches_starved", "zzv_bot_pool_replaced"):
        assert family in after
