"""A tiny tournament runs end to end; its statistics helpers give the textbook figures."""

from __future__ import annotations

import json

import pytest

from engine.tournament import main, parse_seat, percentile, places, run, wilson


def test_tiny_tournament_counts_every_seat_game(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["--players", "3", "--seats", "normal,easy,random", "--games", "6", "--seed", "3", "--json"]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    bots = report["bots"]
    assert set(bots) == {"normal", "easy", "random"}
    assert report["games"] == 6 and report["deals"] == 2
    assert sum(b["wins"] for b in bots.values()) == 6  # exactly one winner per game
    for figures in bots.values():
        assert figures["games"] == 6
        lo, hi = figures["ci95"]
        assert 0.0 <= lo <= figures["win_rate"] <= hi <= 1.0
        assert 1.0 <= figures["mean_place"] <= 3.0
        assert figures["ms_per_move_p99"] >= 0.0
    assert sum(b["mean_place"] for b in bots.values()) == pytest.approx(1 + 2 + 3)


def test_tournament_with_a_hard_seat_and_two_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--players", "3", "--seats", "hard:8it,normal,normal", "--games", "3", "--jobs", "2"])
    table = capsys.readouterr().out
    assert "hard:8it" in table and "normal" in table and "95% CI" in table


def test_duplicate_rotation_puts_each_bot_in_each_seat() -> None:
    """Same deals, rotated seats: swapping the order of two identical kinds changes nothing."""
    seats = [parse_seat(t, None, None) for t in ("normal", "random", "random")]
    a = run(3, seats, 6, seed=5)
    b = run(3, [seats[1], seats[0], seats[2]], 6, seed=5)
    assert a["bots"]["normal"]["wins"] == b["bots"]["normal"]["wins"]


def test_bad_arguments_are_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--players", "3", "--seats", "normal,normal"]) == 2
    assert main(["--seats", "easy:100ms,normal,normal,normal"]) == 2
    assert "error" in capsys.readouterr().err


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(160, 400)
    assert (round(lo, 4), round(hi, 4)) == (0.3532, 0.4487)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_places_and_percentile() -> None:
    assert places([1, 2, 0], [5, 0, 5], 1) == [2.0, 1.0, 3.0]
    assert places([0, 0, 0], [1, 1, 1], None) == [2.0, 2.0, 2.0]
    assert percentile(list(map(float, range(1, 101))), 99) == 99.0
