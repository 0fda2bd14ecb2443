"""``python -m bench daily-board`` with small days, on SQLite and on a real PostgreSQL: it
checks the database's board against ranking every row in Python before timing them, and
prints a row of figures per size, with varied results and with all of them equal."""

from __future__ import annotations

import re

import pytest
from pg_kit import PostgresServer

from bench.__main__ import main as bench_main

ROW = re.compile(
    r"\s*(?P<entries>\d+)\s+(?P<spread>varied|all equal)\s+(?P<now>\d+\.\d)\s+(?P<anchor>\d+\.\d)"
)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_bench_daily_board_prints_a_row_per_size(
    backend: str, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["daily-board", "--entries", "1,150", "--views", "2"]
    if backend == "postgresql":
        server: PostgresServer = request.getfixturevalue("postgres_server")
        argv += ["--database-url", server.url("postgres")]
    bench_main(argv)  # a board that differs from the anchor's would stop it
    header, *rows = capsys.readouterr().out.splitlines()
    assert "day_board ms" in header and "anchor" in header
    found = [ROW.fullmatch(row) for row in rows]
    assert all(found), rows
    sizes = [(int(m["entries"]), m["spread"]) for m in found if m]
    assert sizes == [(1, "varied"), (1, "all equal"), (150, "varied"), (150, "all equal")]
    assert all(float(m["now"]) > 0 and float(m["anchor"]) > 0 for m in found if m)
