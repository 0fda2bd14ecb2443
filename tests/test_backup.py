"""``zzv backup`` against a real server's data folder while the server runs: both SQLite
files copied whole and consistent (a finished race in the results, a live race in the race
file), a second backup into the same folder refused with nothing changed, and data kept
in Redis or PostgreSQL named rather than copied."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

ENV = {"ZZV_RATE_LIMIT_ENABLED": "false", "ZZV_ACCESS_LOG": "false"}


def zzv_backup(folder: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", "backup", str(folder)],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def finished_and_live_races(base: str) -> tuple[str, str]:
    """One race played to its end through the API and one just started."""
    rng = random.Random(3)
    with httpx.Client(base_url=base, timeout=30) as http:
        ids = []
        for finish in (True, False):
            created = http.post("/api/games", json={"players": 3, "bots": "random"}).json()
            auth = {"Authorization": f"Bearer {created['token']}"}
            state = created["state"]
            while finish and not state["game_over"]:
                body = {"turn": state["turn"], "action": rng.choice(state["legal_actions"])}
                answer = http.post(
                    f"/api/games/{created['game_id']}/actions", json=body, headers=auth
                )
                state = answer.json()
            ids.append(created["game_id"])
    return ids[0], ids[1]


def rows(path: Path, query: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as connection:
        return connection.execute(query).fetchall()


def test_a_backup_of_a_running_server_is_whole_and_never_overwrites(
    tmp_path: Path,
    launch_server: Callable[..., Any],
    server_command: Callable[..., list[str]],
    free_port: int,
) -> None:
    data = tmp_path / "data"
    env = {**ENV, "ZZV_DATA_DIR": str(data)}
    server = launch_server(server_command(free_port), port=free_port, env=env)
    finished, live = finished_and_live_races(server.url)

    folder = tmp_path / "backup"
    done = zzv_backup(folder, {"ZZV_DATA_DIR": str(data)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"copied {folder / 'races.sqlite3'}",
        f"copied {folder / 'results.sqlite3'}",
    ]
    assert sorted(path.name for path in folder.iterdir()) == ["races.sqlite3", "results.sqlite3"]
    for copy in folder.iterdir():
        assert rows(copy, "PRAGMA integrity_check") == [("ok",)]
    assert rows(folder / "results.sqlite3", "SELECT game_id FROM finished_races") == [(finished,)]
    assert (live,) in rows(folder / "races.sqlite3", "SELECT id FROM races")

    # Into the same folder again: refused, nothing written.
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    again = zzv_backup(folder, {"ZZV_DATA_DIR": str(data)})
    assert again.returncode == 2 and "already exists" in again.stderr and again.stdout == ""
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == before


def test_data_kept_in_redis_or_postgresql_is_named_not_copied(tmp_path: Path) -> None:
    elsewhere = {
        "ZZV_DATA_DIR": str(tmp_path / "data"),
        "ZZV_REDIS_URL": "redis://127.0.0.1:1/0",
        "ZZV_DATABASE_URL": "postgresql://zzv@127.0.0.1:1/zzv",
    }
    done = zzv_backup(tmp_path / "backup", elsewhere)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "The live races are in Redis: back them up with its own persistence.",
        "The results are in PostgreSQL: back them up with pg_dump.",
    ]
    assert list((tmp_path / "backup").iterdir()) == []


def test_before_any_race_there_is_nothing_to_back_up(tmp_path: Path) -> None:
    done = zzv_backup(tmp_path / "backup", {"ZZV_DATA_DIR": str(tmp_path / "data")})
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Nothing to back up yet: no race has been saved.\n"
    assert not (tmp_path / "data").exists()  # looking made no database
