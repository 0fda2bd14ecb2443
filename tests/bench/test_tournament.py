"""A tiny tournament runs end to end, in this process and over a process pool (``python -m
bench tournament``), and its figures add up; the statistics helpers give the textbook
figures."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from bench.__main__ import main as bench_main
from bench.tournament import (
    GameJob,
    SeatResult,
    SeatSpec,
    main,
    paired_difference,
    parse_seat,
    percentile,
    places,
    play_game,
    render,
    run,
    seat_orders,
    seating,
    wilson,
)
from engine import Variants, new_game
from engine.bots.search import rank_candidates

HARD_HEAD_TO_HEAD = ["--players", "3", "--seats", "hard:8it,normal,normal", "--games", "6"]
"""A hard seat on a fixed number of rollouts: the same decisions in any process."""


def assert_figures_add_up(report: dict[str, Any]) -> None:
    """The report's figures agree with each other: one winner per game, every seat of
    every game counted once, rates and intervals from the counts, places summing up."""
    players, games, bots = report["players"], report["games"], report["bots"]
    assert report["seatings"] in (players, 2 * players)
    assert report["deals"] * report["seatings"] == games
    assert sum(b["wins"] for b in bots.values()) == games
    assert sum(b["games"] for b in bots.values()) == games * players
    # The places of one game are 1..players, ties sharing the mean, so they sum to this.
    place_total = sum(b["mean_place"] * b["games"] for b in bots.values())
    assert place_total == pytest.approx(games * players * (players + 1) / 2)
    for figures in bots.values():
        assert figures["win_rate"] == figures["wins"] / figures["games"]
        low, high = figures["ci95"]
        assert low <= figures["win_rate"] <= high
        assert (low, high) == wilson(figures["wins"], figures["games"])
        assert 1.0 <= figures["mean_place"] <= players
        assert figures["ms_per_move_p99"] >= 0.0 and figures["ms_per_move_mean"] >= 0.0


def results_only(report: dict[str, Any]) -> dict[str, tuple[int, int, float]]:
    """Games, wins and mean place by bot: what the same seed must reproduce (timings vary)."""
    return {label: (b["games"], b["wins"], b["mean_place"]) for label, b in report["bots"].items()}


def test_tiny_tournament_counts_every_seat_game(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["--players", "3", "--seats", "normal,easy,random", "--games", "6", "--seed", "3", "--json"]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    bots = report["bots"]
    assert set(bots) == {"normal", "easy", "random"}
    # Three different bots: a deal is played in all six orders (both directions).
    assert (report["games"], report["deals"], report["seatings"]) == (6, 1, 6)
    assert sum(b["wins"] for b in bots.values()) == 6  # exactly one winner per game
    assert_figures_add_up(report)
    for figures in bots.values():
        assert figures["games"] == 6
        assert figures["ci95"] == list(wilson(figures["wins"], 6))
    # The same seed replays the same deals and the same bot decisions.
    again = run(3, [parse_seat(k, None, None) for k in ("normal", "easy", "random")], 6, seed=3)
    for label, figures in again["bots"].items():
        assert (figures["wins"], figures["mean_place"]) == (
            bots[label]["wins"],
            bots[label]["mean_place"],
        )


def test_tournament_over_two_processes_gives_the_sequential_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``python -m bench tournament --jobs 2`` plays the games in worker processes, results
    arriving in any order, and reports what the engine's sequential run reports."""
    assert main([*HARD_HEAD_TO_HEAD, "--seed", "2", "--json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    with pytest.raises(SystemExit) as stopped:
        bench_main(["tournament", "--jobs", "2", *HARD_HEAD_TO_HEAD, "--seed", "2", "--json"])
    assert stopped.value.code == 0
    spread = json.loads(capsys.readouterr().out)
    assert_figures_add_up(alone)
    assert_figures_add_up(spread)
    assert results_only(spread) == results_only(alone)
    assert set(spread["bots"]) == {"hard:8it", "normal"}
    assert spread["bots"]["hard:8it"]["games"] == 6 and spread["bots"]["normal"]["games"] == 12
    assert spread["bots"]["hard:8it"]["ms_per_move_mean"] > 0.0  # it searched, and was timed


def test_the_tournament_plays_its_games_through_the_map_it_is_given() -> None:
    """Every game goes through ``map_games``, and the order it answers in does not matter."""
    seen: list[int] = []

    def backwards(
        play: Callable[[GameJob], list[SeatResult]], jobs: Iterable[GameJob]
    ) -> list[list[SeatResult]]:
        work = list(jobs)
        seen.extend(job.index for job in work)
        return [play(job) for job in reversed(work)]

    specs = [parse_seat(kind, None, None) for kind in ("normal", "easy", "random")]
    reversed_run = run(3, specs, 6, seed=4, map_games=backwards)
    assert seen == list(range(6))
    assert results_only(reversed_run) == results_only(run(3, specs, 6, seed=4))
    assert_figures_add_up(reversed_run)


def test_bad_job_counts_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        bench_main(["tournament", "--jobs", "0", *HARD_HEAD_TO_HEAD])
    assert stopped.value.code == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err


def test_the_table_prints_the_reports_figures() -> None:
    """Each row of the plain-text table is its bot's figures, rounded as labelled."""
    specs = [parse_seat(kind, None, None) for kind in ("normal", "easy", "random")]
    report = run(3, specs, 12, seed=3)
    header, columns, *lines = render(report).splitlines()
    rows, pairs = lines[: len(report["bots"])], lines[len(report["bots"]) :]
    assert header.startswith("3 players, 12 games (2 deals x 6 seatings), seed 3")
    assert columns.split()[:4] == ["bot", "games", "wins", "win"]
    row = re.compile(
        r"(?P<label>\S+)\s+(?P<games>\d+)\s+(?P<wins>\d+)\s+(?P<rate>[\d.]+)%\s+"
        r"\[(?P<low>[\d.]+)%, (?P<high>[\d.]+)%\]\s+(?P<place>[\d.]+)\s+"
        r"(?P<ms>[\d.]+)\s+(?P<p99>[\d.]+)"
    )
    printed = {}
    for line in rows:
        match = row.fullmatch(line)
        assert match, line
        printed[match["label"]] = match
    assert set(printed) == set(report["bots"])
    for label, figures in report["bots"].items():
        match = printed[label]
        assert (int(match["games"]), int(match["wins"])) == (figures["games"], figures["wins"])
        assert float(match["rate"]) == round(figures["win_rate"] * 100, 1)
        low, high = figures["ci95"]
        assert (float(match["low"]), float(match["high"])) == (
            round(low * 100, 1),
            round(high * 100, 1),
        )
        assert float(match["place"]) == round(figures["mean_place"], 2)
        assert float(match["ms"]) == round(figures["ms_per_move_mean"], 1)
    pair = re.compile(
        r"(?P<a>\S+) minus (?P<b>\S+): (?P<points>[-+][\d.]+) points "
        r"\[(?P<low>[-+][\d.]+), (?P<high>[-+][\d.]+)\], paired over 2 deals"
    )
    matches = [pair.fullmatch(line) for line in pairs]
    assert all(matches), pairs
    assert [(m["a"], m["b"]) for m in matches if m] == [
        ("normal", "easy"),
        ("normal", "random"),
        ("easy", "random"),
    ]
    for match, difference in zip(matches, report["differences"], strict=True):
        assert match is not None
        low, high = difference["ci95"]
        assert float(match["points"]) == round(100 * difference["difference"], 1)
        assert (float(match["low"]), float(match["high"])) == (
            round(100 * low, 1),
            round(100 * high, 1),
        )


def test_the_tables_columns_line_up_under_long_labels() -> None:
    """A label longer than the column widens it: every row's figures end where the
    header's column names end."""
    specs = [SeatSpec("normal-with-a-long-label", "normal")]
    specs += [parse_seat(kind, None, None) for kind in ("easy", "random")]
    _, columns, *rows = render(run(3, specs, 6, seed=1)).splitlines()[:5]
    ends = [match.end() for match in re.finditer(r"games|wins", columns)]
    for row in rows:
        assert [match.end() for match in re.finditer(r"\d+", row)][:2] == ends, row


def test_the_paired_difference_is_each_deals_difference_of_win_rates() -> None:
    """The difference between two bots is the mean over deals of their win rates' gap in
    that deal; a deal won by whoever sits in one seat leaves no trace in it."""
    specs = [parse_seat(kind, None, None) for kind in ("normal", "easy", "random")]
    report = run(3, specs, 60, seed=7)
    rates: dict[str, dict[int, list[int]]] = {}
    for index in range(60):
        job = GameJob(index, 3, Variants(), 7, tuple(specs))
        for result in play_game(job):
            rates.setdefault(result.label, {}).setdefault(seating(job)[0], []).append(result.won)
    for difference in report["differences"]:
        a, b = rates[difference["a"]], rates[difference["b"]]
        assert all(len(a[d]) == len(b[d]) == 6 for d in range(10))
        gaps = [sum(a[d]) / 6 - sum(b[d]) / 6 for d in range(10)]
        assert difference["deals"] == 10
        assert difference["difference"] == pytest.approx(sum(gaps) / 10)
        low, high = difference["ci95"]
        assert low < difference["difference"] < high or low == high == difference["difference"]
    # Two bots that win every deal's games equally often differ by nothing, with no spread.
    assert paired_difference([(1 / 3, 1 / 3)] * 5) == (0.0, 0.0, 0.0)
    mean, low, high = paired_difference([(1.0, 0.0), (0.0, 1.0)] * 4)
    assert mean == 0.0 and low < -0.5 and high > 0.5


@pytest.mark.parametrize("players", [3, 4])
def test_duplicate_seating_puts_each_bot_in_each_seat_and_beside_the_others(players: int) -> None:
    """The games of one deal, as played, seat every bot in every seat equally often, each
    bot once on either side of each neighbour it has; at a table of three, every bot
    plays straight after each of the others equally often."""
    kinds = ("normal", "easy", "random", "random")[:players]
    specs = tuple(SeatSpec(f"{kind}-{i}", kind) for i, kind in enumerate(kinds))
    per_deal = 2 * players  # no two labels alike: the reversed order is a new table
    for deal in range(2):
        sat: Counter[tuple[str, int]] = Counter()
        after: Counter[tuple[str, str]] = Counter()
        for index in range(deal * per_deal, (deal + 1) * per_deal):
            job = GameJob(index, players, Variants(), 5, specs)
            assert seating(job)[0] == deal
            results = play_game(job)
            sat.update((r.label, r.seat) for r in results)
            labels = [r.label for r in sorted(results, key=lambda r: r.seat)]
            after.update((labels[s - 1], labels[s]) for s in range(players))
        assert sat == Counter({(s.label, seat): 2 for s in specs for seat in range(players)})
        for first in specs:
            followers = {b: n for (a, b), n in after.items() if a == first.label}
            assert sum(followers.values()) == per_deal
            if players == 3:
                assert followers == {s.label: players for s in specs if s != first}


def test_a_table_whose_reverse_is_a_rotation_plays_the_rotations_only() -> None:
    """Reversing hard, normal, normal (or hard and three normal bots) gives a table the
    rotations already play, so a deal is played once per seat."""
    for kinds in (("hard", "normal", "normal"), ("hard", "normal", "normal", "normal")):
        specs = tuple(parse_seat(kind, None, None) for kind in kinds)
        orders = seat_orders(specs)
        assert len(orders) == len(kinds)
        assert {order.index(specs[0]) for order in orders} == set(range(len(kinds)))
    report = run(3, [parse_seat(k, None, None) for k in ("easy", "random", "random")], 7, 2)
    assert (report["games"], report["deals"], report["seatings"]) == (9, 3, 3)


def test_bad_arguments_are_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--players", "3", "--seats", "normal,normal"]) == 2
    assert main(["--seats", "easy:100ms,normal,normal,normal"]) == 2
    assert "error" in capsys.readouterr().err


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(160, 400)
    assert (round(lo, 4), round(hi, 4)) == (0.3532, 0.4487)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    # A clean sweep's upper end is 1 exactly, however the formula rounds.
    assert all(wilson(n, n)[1] == 1.0 and wilson(0, n)[0] == 0.0 for n in range(1, 500))


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


def test_a_hard_seat_takes_its_candidate_count() -> None:
    spec = parse_seat("hard:1cand:8it", None, None)
    assert dict(spec.options) == {"candidates": 1, "iterations": 8}
    bot = spec.build(1)
    game = new_game(players=4, seed=2)
    seat = game.current_seat
    assert seat is not None
    view = game.view(seat)
    # One candidate leaves nothing to search: the seat plays the policy's best action.
    assert bot.choose(view) == rank_candidates(view, view.legal_actions(), 1)[0]
    wide = parse_seat("hard:3cand:8it", None, None).build(1)
    assert wide.choose(view) in rank_candidates(view, view.legal_actions(), 3)
    with pytest.raises(ValueError, match="candidates"):
        parse_seat("hard:0cand", None, None).build(1)
