"""``python -m bench review --url`` against a real uvicorn that keeps its default limits
per client: every simulated person plays from 127.0.0.1, so the server soon refuses new
races, and the benchmark says so in one sentence naming the settings it needs (exit 2),
not with a traceback."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def test_a_server_that_refuses_races_gets_a_sentence_naming_its_settings(
    launch_server: Callable[..., Any],
    server_command: Callable[..., list[str]],
    free_port: int,
    tmp_path: Path,
) -> None:
    server = launch_server(
        server_command(free_port, "--workers", "1"),
        port=free_port,
        env={"ZZV_CREATE_BURST": "2", "ZZV_DATA_DIR": str(tmp_path / "data")},
    )
    done = subprocess.run(
        [sys.executable, "-m", "bench", "review", "--url", server.url, "--reviews", "4"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "the server refused a new race (429" in done.stderr
    assert "ZZV_RATE_LIMIT_ENABLED=false" in done.stderr
    assert "Traceback" not in done.stderr
