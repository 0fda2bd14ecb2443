"""``python -m bench.moves`` end to end with tiny counts: a real redis-server and a real
uvicorn of this checkout, every row of its table a number."""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

REDIS_ROWS = (
    "Redis commands per human move, API",
    "Redis commands per human move, htmx",
    "Redis commands per table page view",
)
TIME_ROWS = (
    "Server CPU per human move, API (ms)",
    "Server CPU per human move, htmx (ms)",
    "Server CPU per GET /healthz (ms): one Redis round trip",
    "Engine + bots in-process per move (ms)",
    "  + the person's observation (ms)",
    "Stored race at its end, bytes per person's move (API)",
    "Load a stored 5-racer race of 40 moves (ms)",
    "  the same after one more move, the worker's copy kept (ms)",
    "  its stored JSON (bytes)",
)


def _figure(output: str, label: str) -> str:
    """The text after ``label`` on its row of the table (the "after" column first)."""
    rows = [line for line in output.splitlines() if line.startswith(label)]
    assert len(rows) == 1, f"no single row {label!r} in:\n{output}"
    return rows[0].removeprefix(label).strip()


def _number(text: str) -> float:
    value = float(text)
    assert math.isfinite(value), text
    return value


@pytest.mark.slow
def test_moves_bench_prints_a_number_in_every_row() -> None:
    tiny = ["--races", "1", "--warmup", "0", "--repeat", "1", "--replay-seconds", "0.05"]
    tiny.append("--no-baseline")
    done = subprocess.run(
        [sys.executable, "-m", "bench.moves", *tiny],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    output = done.stdout
    assert re.search(r"^\s+after \([0-9a-f]+", output, re.MULTILINE), output
    for label in REDIS_ROWS:
        cell = re.match(r"(\S+) \(p50 (\S+), max (\S+)\)", _figure(output, label))
        assert cell is not None, f"{label!r}: {_figure(output, label)!r}"
        mean, p50, top = (_number(part) for part in cell.groups())
        # A move loads and saves its race, and a page view loads it: never zero commands.
        assert 0 < p50 <= top and 0 < mean <= top, cell.group(0)
    for label in TIME_ROWS:
        assert _number(_figure(output, label).split()[0]) > 0, label
    # The in-process share is only meaningful for the same races the server played.
    assert "races identical to the server's (moves, events, winner): all" in output, output
