"""Restore race by race: one damaged entry in the saved races costs that race only, on a
real uvicorn stopped with SIGTERM and started again on the same ``ZZV_DATA_DIR``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.slow


def server_env(data: Path) -> dict[str, str]:
    """A one-worker server saving its races to ``data`` (the memory-only store, whose
    save file this is; the default store's unreadable rows: tests/test_sqlite_store.py)."""
    return {
        "ZZV_DATA_DIR": str(data),
        "ZZV_DURABLE": "false",
        "ZZV_RATE_LIMIT_ENABLED": "false",
        "ZZV_ACCESS_LOG": "false",
        "ZZV_SEED_SECRET": "restore-test",
    }


def test_a_corrupted_entry_among_five_saved_races_leaves_four_loaded(
    launch_server: Callable[..., Any],
    server_command: Callable[..., list[str]],
    free_port: int,
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    command = server_command(free_port)
    first = launch_server(command, port=free_port, env=server_env(data))
    races: list[tuple[str, str, int]] = []
    with httpx.Client(base_url=first.url, timeout=30) as client:
        for _ in range(5):
            body = client.post("/api/games", json={"bots": "random", "players": 3}).json()
            races.append((body["game_id"], body["token"], body["state"]["turn"]))
    assert first.stop() in (0, -15)  # uvicorn re-raises SIGTERM once it stopped cleanly
    saved = json.loads((data / "races.json").read_text(encoding="utf-8"))
    assert len(saved["races"]) == 5
    damaged = saved["races"][2]
    damaged_id = damaged["race"]["id"]
    del damaged["race"]["moves"]  # as a format change or a torn edit would leave it
    (data / "races.json").write_text(json.dumps(saved), encoding="utf-8")

    second = launch_server(command, port=free_port, env=server_env(data))
    with httpx.Client(base_url=second.url, timeout=30) as client:
        answers = {
            game_id: client.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {t}"})
            for game_id, t, _ in races
        }
    loaded = {game_id for game_id, answer in answers.items() if answer.status_code == 200}
    assert loaded == {game_id for game_id, _, _ in races} - {damaged_id}
    for game_id, _, turn in races:
        if game_id in loaded:
            assert answers[game_id].json()["turn"] == turn
    # The damaged race says the server restarted (410), not "unknown" (404) ...
    assert answers[damaged_id].status_code == 410
    # ... and its entry is kept aside for a person to look at, never loaded.
    kept = json.loads((data / "races.json.bad").read_text(encoding="utf-8"))
    assert [entry["race"]["id"] for entry in kept["races"]] == [damaged_id]
    log = second.log()
    assert "a saved race is unreadable; skipped" in log
    restored = [json.loads(line)["restored"] for line in log.splitlines() if '"restored"' in line]
    assert restored == [4], log
