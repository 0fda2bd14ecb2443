"""A tiny tournament runs end to end; its statistics helpers give the textbook figures."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine import Variants
from engine.tournament import (
    GameJob,
    SeatSpec,
    main,
    parse_seat,
    percentile,
    places,
    play_game,
    run,
    wilson,
)


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
        assert figures["win_rate"] == figures["wins"] / 6
        assert figures["ci95"] == list(wilson(figures["wins"], 6))
    # The same seed replays the same deals and the same bot decisions.
    again = run(3, [parse_seat(k, None, None) for k in ("normal", "easy", "random")], 6, seed=3)
    for label, figures in again["bots"].items():
        assert (figures["wins"], figures["mean_place"]) == (
            bots[label]["wins"],
            bots[label]["mean_place"],
        )


def test_tournament_with_a_hard_seat_and_two_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--players", "3", "--seats", "hard:8it,normal,normal", "--games", "3", "--jobs", "2"])
    table = capsys.readouterr().out
    assert "hard:8it" in table and "normal" in table and "95% CI" in table


@pytest.mark.parametrize("players", [3, 4])
def test_duplicate_rotation_puts_each_bot_in_each_seat_once_per_deal(players: int) -> None:
    """The games of one deal seat every bot in every seat exactly once, as played."""
    kinds = ("normal", "easy", "random", "random")[:players]
    specs = tuple(SeatSpec(f"{kind}-{i}", kind) for i, kind in enumerate(kinds))
    for deal in range(2):
        sat: Counter[tuple[str, int]] = Counter()
        for index in range(deal * players, (deal + 1) * players):
            results = play_game(GameJob(index, players, Variants(), 5, specs))
            sat.update((r.label, r.seat) for r in results)
        assert sat == Counter({(s.label, seat): 1 for s in specs for seat in range(players)})


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


def test_progress_lines_give_running_wins(capsys: pytest.CaptureFixture[str]) -> None:
    seats = "normal,easy,random"
    assert main(["--players", "3", "--seats", seats, "--games", "6", "--progress", "2"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(":")[0] for line in lines] == [f"after {n} games" for n in (2, 4, 6)]
    final = dict(part.rsplit(" ", 1) for part in lines[-1].split(": ", 1)[1].split(", "))
    assert set(final) == {"normal", "easy", "random"}
    assert sum(int(score.split("/")[0]) for score in final.values()) == 6
    assert {score.split("/")[1] for score in final.values()} == {"6"}
