"""``python -m bench bots``: the hard bot searched in one process and, through the server's
worker pool, in two; both rows are real searches, and the pool is stopped afterwards."""

from __future__ import annotations

import re

import pytest

from app.bots import pool
from bench.__main__ import main as bench_main

ROW = re.compile(
    r"(?P<processes>[12])\s+(?P<rollouts>[\d.]+)\s+(?P<ms>[\d.]+)\s+(?P<settled>[0-2])"
)


def test_bench_bots_prints_one_and_two_processes(capsys: pytest.CaptureFixture[str]) -> None:
    # The first position's search settles on one candidate only after about 10,000
    # rollouts, far more than 200 ms hold: every row counts a whole-budget search. The
    # workers run at a lower CPU priority: on a busy machine a 40 ms budget could pass
    # before they got a turn of a core, and their row would count no rollout at all.
    bench_main(["bots", "--positions", "1", "--budget-ms", "200"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("engine build: ")
    assert lines[1] == "hard bot, 4 players, 1 positions, 200 ms budget, wall clock"
    rows = {m["processes"]: m for m in map(ROW.fullmatch, lines[3:5]) if m}
    assert set(rows) == {"1", "2"}, lines
    for row in rows.values():
        assert float(row["rollouts"]) > 0  # each decision ran rollouts, also in the workers
        assert float(row["ms"]) > 0 and row["settled"] == "0"
    ratio = re.fullmatch(r"two processes / one: ([\d.]+)x the rollouts per decision", lines[5])
    assert ratio, lines[5]
    expected = float(rows["2"]["rollouts"]) / float(rows["1"]["rollouts"])
    assert float(ratio[1]) == pytest.approx(expected, rel=0.02, abs=0.01)
    assert pool.status().state == "idle"  # the worker processes were stopped
