"""The hard bot's budget clocks and its final choice.

A budget on the CPU clock counts only the searching thread's own CPU time: time spent
off the CPU (here, a sleep inside every rollout, standing in for a machine so busy the
search is not scheduled) does not use it up, while on the wall clock it does. And the
final choice compares the surviving candidates on the same worlds only.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

import pytest

from bench.tournament import main, parse_seat
from engine import new_game
from engine.bots import make_bot
from engine.bots import search as search_module
from engine.bots.base import decision_rng
from engine.bots.candidates import best_candidate
from engine.bots.search import CLOCKS, HardBot, Stop, rank_candidates, run_worlds
from engine.shapes import Observation

SLEEP_S = 0.004
BUDGET_MS = 48.0  # 40 ms once the search's safety margin is taken off


@pytest.fixture
def off_cpu_rollouts(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every rollout first spends SLEEP_S off the CPU, as a starved search would."""
    real = search_module.sim_rollout

    def sleepy(*args: Any) -> list[float]:
        time.sleep(SLEEP_S)  # time off the CPU is what the search's clock must count
        return real(*args)

    monkeypatch.setattr(search_module, "sim_rollout", sleepy)
    yield


def _observation() -> Observation:
    game = new_game(players=4, seed=3)
    return game.observation(game.current_seat or 0)


def test_wall_clock_budget_is_used_up_by_time_off_the_cpu(off_cpu_rollouts: None) -> None:
    bot = HardBot(1, time_budget_ms=BUDGET_MS)
    bot.choose(_observation())
    # Each rollout sleeps 4 ms, so 40 ms of wall time holds at most 10 of them.
    assert 0 < bot.last_rollouts <= 11


def test_cpu_clock_budget_is_not_used_up_by_time_off_the_cpu(off_cpu_rollouts: None) -> None:
    bot = HardBot(1, time_budget_ms=BUDGET_MS, clock="cpu")
    start_wall, start_cpu = time.monotonic(), time.thread_time()
    bot.choose(_observation())
    wall, cpu = time.monotonic() - start_wall, time.thread_time() - start_cpu
    # The search ran past its 48 ms in wall time (sleeping rollouts did not count) and
    # stopped once its own CPU time reached the budget, not long after.
    assert bot.last_rollouts > 11
    assert wall > BUDGET_MS / 1000
    assert cpu >= BUDGET_MS / 1000 - 0.012


def test_cpu_clock_is_the_searching_threads_cpu_time() -> None:
    assert CLOCKS["cpu"] is time.thread_time and CLOCKS["wall"] is time.monotonic


def test_unknown_clock_is_refused() -> None:
    with pytest.raises(ValueError, match="clock"):
        make_bot("hard", 1, clock="sundial")


def test_cpu_clock_with_workers_spends_each_workers_own_budget() -> None:
    with ProcessPoolExecutor(2, mp_context=get_context("spawn")) as pool:
        bot = HardBot(2, time_budget_ms=60, workers=2, clock="cpu", map_jobs=pool.map)
        game = new_game(players=4, seed=6)
        assert bot.choose(game.observation(game.current_seat or 0)) in game.legal_actions()
    assert bot.last_rollouts > 0


def test_tournament_gives_hard_seats_the_chosen_clock(capsys: pytest.CaptureFixture[str]) -> None:
    on_cpu, on_wall = (
        parse_seat(t, None, None, c).build(1) for t, c in (("hard", "cpu"), ("hard", None))
    )
    assert isinstance(on_cpu, HardBot) and on_cpu.clock == "cpu"
    assert isinstance(on_wall, HardBot) and on_wall.clock == "wall"
    assert main(["--players", "3", "--seats", "hard:20ms,normal,normal", "--games", "3"]) == 0
    assert "cpu clock" in capsys.readouterr().out
    assert main(["--players", "3", "--seats", "normal,normal,easy", "--clock", "wall"]) == 0
    assert "wall clock" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--seats", "normal,normal,normal,normal", "--clock", "sundial"])


def test_final_choice_is_paired_over_the_worlds_every_survivor_saw() -> None:
    nan = math.nan
    rows = [[0.9, nan, 0.1], [0.2, 0.6, 0.5], [0.2, 0.6, 0.5]]
    # Candidate 0 has the best mean over its own three worlds (0.43 against 0.4), but
    # on the two worlds both survivors saw, candidate 1 is ahead.
    assert best_candidate(rows, [0, 1]) == 1
    assert best_candidate(rows, [0, 2]) == 0  # paired over all three: 1.3 against 1.1
    assert best_candidate(rows, [2]) == 2
    # Equal values (say jelly or beans) are a tie, which the heuristic's order settles.
    assert best_candidate([[0.1 + 0.2, 0.3], [0.3, 0.1 + 0.2]], [1, 0]) == 0


def test_a_pruned_search_keeps_full_rows_for_the_candidates_still_running() -> None:
    """Pruning drops candidates as the evidence grows; each one dropped loses its values
    in every row, also those of worlds played before it was dropped, and every candidate
    still running has a value in every row kept. So the survivors are compared on exactly
    the same worlds, and no dropped candidate counts in the final choice."""
    dropped_over_time = 0
    for seed in range(4):
        game = new_game(players=3 + seed % 3, seed=20 + seed)
        view = game.view(game.current_seat or 0)
        shortlist = rank_candidates(view, view.legal_actions(), 16)
        rows, _, used, alive = run_worlds(view, shortlist, seed, Stop(600, None))
        assert used <= 600 and len(rows) >= 6
        for i in range(len(shortlist)):
            values = [row[i] for row in rows]
            if i in alive:
                assert not any(math.isnan(v) for v in values)
            else:
                assert all(math.isnan(v) for v in values)
        dropped_over_time += len(shortlist) - len(alive)
    assert dropped_over_time >= 4  # the searches did prune, at different worlds


@pytest.mark.parametrize(
    "seeds",
    [
        # Two of the six stop early, and one that runs its budget out: both outcomes.
        pytest.param((0, 2, 4), id="three"),
        # Each undecided seed spends the whole budget (seconds): the rest are the sweep's.
        pytest.param(range(6), id="six", marks=pytest.mark.slow),
    ],
)
def test_a_search_left_with_one_candidate_stops_there_and_plays_it(seeds: Iterable[int]) -> None:
    """Once pruning leaves one candidate, no further world can change the choice: the
    search ends there, short of its budget, and the bot plays that candidate."""
    stopped_early = 0
    for seed in seeds:
        game = new_game(players=3, seed=40 + seed)
        view = game.view(game.current_seat or 0)
        shortlist = rank_candidates(view, view.legal_actions(), 16)
        # The worlds the bot seeded ``seed`` samples for this decision.
        worlds_seed = decision_rng(seed, view).next_u64()
        _, _, used, alive = run_worlds(view, shortlist, worlds_seed, Stop(3_000, None))
        if len(alive) > 1:
            assert used >= 3_000 - len(shortlist)  # still undecided: the budget ran out
            continue
        stopped_early += 1
        assert used < 3_000
        bot = HardBot(seed, iterations=3_000)
        assert bot.choose(view) == shortlist[alive[0]]
        assert bot.last_rollouts < 3_000 and bot.last_settled
        # On a clock, too, the move comes before the budget is spent.
        timed = HardBot(seed, time_budget_ms=60_000, clock="cpu")
        start = time.thread_time()
        assert timed.choose(view) in shortlist
        assert time.thread_time() - start < 60.0
    assert stopped_early >= 2
