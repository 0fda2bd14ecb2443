"""No orphans: the hard bots' worker processes end with their server, even when the server
is killed with SIGKILL (nothing of it runs to stop them), on a real uvicorn."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from app_kit import wait_until

pytestmark = pytest.mark.slow


def children_of(pid: int) -> list[int]:
    """Running processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def running(pid: int) -> bool:
    """Whether ``pid`` is a live (not zombie) process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_kill_9_of_the_server_leaves_no_pool_process_after_5_seconds(
    launch_server: Callable[..., Any], server_command: Callable[..., list[str]], free_port: int
) -> None:
    env = {
        "ZZV_ACCESS_LOG": "false",
        "ZZV_RATE_LIMIT_ENABLED": "false",
        "ZZV_HARD_BOT_WORKERS": "2",
        "ZZV_BOT_TIME_BUDGET_MS": "50",
    }
    server = launch_server(server_command(free_port), port=free_port, env=env)
    with httpx.Client(base_url=server.url, timeout=60) as client:
        created = client.post("/api/games", json={"bots": "hard", "players": 3}).json()
        headers = {"Authorization": f"Bearer {created['token']}"}
        state = created["state"]
        moved = client.post(
            f"/api/games/{created['game_id']}/actions",
            json={"turn": state["turn"], "action": state["legal_actions"][0]},
            headers=headers,
        )
        assert moved.status_code == 200, moved.text

    def pool_workers() -> list[int]:
        workers = children_of(server.process.pid)
        return workers if len(workers) >= 2 else []

    workers = wait_until(pool_workers, "the pool's worker processes starting")

    os.kill(server.process.pid, signal.SIGKILL)
    server.process.wait(timeout=10)
    try:
        wait_until(
            lambda: not any(running(pid) for pid in workers), "the workers ending", timeout=5
        )
    finally:
        for pid in workers:  # do not leave them behind for the next test either
            if running(pid):
                os.kill(pid, signal.SIGKILL)


PARENT_SCRIPT = """
import subprocess, sys
child = subprocess.Popen([sys.executable, "-c", sys.argv[1], str(__import__("os").getpid())])
print(child.pid, flush=True)
child.wait()  # until the test kills this process
"""

WATCHED_CHILD = """
import sys, threading
from app.bots.pool import watch_parent
watch_parent(int(sys.argv[1]), interval=0.1)  # the fallback alone: no parent-death signal
print("watching", flush=True)
threading.Event().wait()  # the watch alone may end this process
"""


def test_the_parent_watch_alone_ends_a_worker_whose_server_died(tmp_path: Path) -> None:
    with subprocess.Popen(
        [sys.executable, "-c", PARENT_SCRIPT, WATCHED_CHILD],
        stdout=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[2],
    ) as parent:  # leaving closes its pipe and waits for it
        try:
            assert parent.stdout is not None
            child = int(parent.stdout.readline())
            assert parent.stdout.readline() == b"watching\n"  # its stdout is the parent's
            assert running(child)
        finally:
            parent.kill()
    try:
        wait_until(lambda: not running(child), "the watched process ending", timeout=5)
    finally:
        if running(child):
            os.kill(child, signal.SIGKILL)
