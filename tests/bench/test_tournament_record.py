"""A tournament kept in a record file (``python -m bench tournament --record FILE``) can be
stopped at any moment and taken up later: the recorded games are counted, not played
again, and the report is the one an unbroken run gives."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from bench.__main__ import main as bench_main
from bench.tournament import GameJob, SeatResult, parse_seat, play_game, run
from engine import Variants

TOURNAMENT = ["--players", "3", "--seats", "hard:8it,normal,normal", "--seed", "6"]
"""A hard seat on a fixed number of rollouts: the same games whenever they are played."""


def bench_json(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, object]:
    """Run ``python -m bench tournament`` in this process and read its JSON report."""
    with pytest.raises(SystemExit) as stopped:
        bench_main(["tournament", "--jobs", "1", *TOURNAMENT, "--json", *extra])
    assert stopped.value.code == 0, capsys.readouterr().err
    report: dict[str, object] = json.loads(capsys.readouterr().out)
    return report


def without_timings(report: dict[str, object]) -> dict[str, object]:
    """``report`` without its move timings, the only figures a second sitting changes."""
    bots = report["bots"]
    assert isinstance(bots, dict)
    timeless = {
        label: {k: v for k, v in figures.items() if not k.startswith("ms_per_move")}
        for label, figures in bots.items()
    }
    return report | {"bots": timeless}


def recorded_games(path: Path) -> list[int]:
    """The game numbers a record file holds, in the order they were written."""
    lines = path.read_text(encoding="utf-8").splitlines()
    assert set(json.loads(lines[0])) == {"settings"}
    return [json.loads(line)["seats"][0]["game"] for line in lines[1:]]


def test_a_stopped_tournament_taken_up_again_reports_the_unbroken_runs_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unbroken = bench_json(capsys, "--games", "6")
    record = tmp_path / "run.jsonl"
    first_sitting = bench_json(capsys, "--games", "6", "--record", str(record))
    assert without_timings(first_sitting) == without_timings(unbroken)
    assert sorted(recorded_games(record)) == list(range(6))
    # Stopped after two games, in the middle of writing the third.
    lines = record.read_text(encoding="utf-8").splitlines(keepends=True)
    record.write_text("".join(lines[:3]) + lines[3][:25], encoding="utf-8")
    taken_up = bench_json(capsys, "--games", "6", "--record", str(record))
    assert without_timings(taken_up) == without_timings(unbroken)
    # The torn line is gone, the two kept games were not played again, the rest were.
    assert recorded_games(record)[:2] == [0, 1] and sorted(recorded_games(record)) == list(range(6))


def test_a_recorded_tournament_can_be_lengthened(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "run.jsonl"
    bench_json(capsys, "--games", "3", "--record", str(record))
    # Taken up on two worker processes: the parent still writes every game, once.
    longer = bench_json(capsys, "--games", "9", "--record", str(record), "--jobs", "2")
    assert sorted(recorded_games(record)) == list(range(9))
    assert longer["games"] == 9 and longer["deals"] == 3
    assert longer["bots"]["hard:8it"]["games"] == 9  # type: ignore[index]


def test_recorded_games_are_counted_not_played_again() -> None:
    specs = [parse_seat(kind, None, None) for kind in ("normal", "easy", "random")]
    first = [play_game(GameJob(i, 3, Variants(), 4, tuple(specs))) for i in (0, 4)]
    asked: list[int] = []
    fresh: list[list[SeatResult]] = []

    def watching(
        play: Callable[[GameJob], list[SeatResult]], jobs: Iterable[GameJob]
    ) -> Iterable[list[SeatResult]]:
        for job in jobs:
            asked.append(job.index)
            yield play(job)

    report = run(3, specs, 6, seed=4, map_games=watching, played=first, on_game=fresh.append)
    assert asked == [1, 2, 3, 5]
    assert sorted(results[0].game for results in fresh) == [1, 2, 3, 5]
    assert report["games"] == 6
    assert sum(b["games"] for b in report["bots"].values()) == 18
    unbroken = run(3, specs, 6, seed=4)
    assert report["differences"] == unbroken["differences"]
    for label, figures in unbroken["bots"].items():
        assert (figures["wins"], figures["mean_place"]) == (
            report["bots"][label]["wins"],
            report["bots"][label]["mean_place"],
        )


def test_a_record_of_another_tournament_is_refused_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "run.jsonl"
    bench_json(capsys, "--games", "3", "--record", str(record))
    before = record.read_bytes()
    for other in (["--seed", "7"], ["--budget-ms", "100"]):
        with pytest.raises(SystemExit) as stopped:
            bench_main(["tournament", "--jobs", "1", *TOURNAMENT, *other, "--record", str(record)])
        assert stopped.value.code == 2
        assert "records a different tournament" in capsys.readouterr().err
    not_a_record = tmp_path / "notes.txt"
    not_a_record.write_text("shopping list\n", encoding="utf-8")
    with pytest.raises(SystemExit) as stopped:
        bench_main(["tournament", *TOURNAMENT, "--record", str(not_a_record)])
    assert stopped.value.code == 2
    assert "is not a tournament record" in capsys.readouterr().err
    assert record.read_bytes() == before
    assert not_a_record.read_text(encoding="utf-8") == "shopping list\n"


def test_a_seat_result_survives_its_json_form() -> None:
    result = SeatResult("hard:400ms", 2, False, 2.5, [190.123, 201.0], deal=7, game=21)
    back = SeatResult.from_dict(json.loads(json.dumps(result.to_dict())))
    assert back == SeatResult("hard:400ms", 2, False, 2.5, [190.12, 201.0], deal=7, game=21)
