"""The mypyc build option (``ZZV_MYPYC=1``, hatch_build.py) gives the same results.

The modules the build compiles (listed in pyproject.toml) are compiled here with mypyc
into a temporary copy of the engine — about 20 s of one core — and a child process
importing the compiled copy plays seeded random games on the checked path (every event,
observation and refusal) and on the simulation path with heuristic rollouts. Its record
must equal the pure-Python one, move for move.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench import build as bench_build
from engine.bots.heuristic import EASY, NORMAL
from engine.bots.rollout import rollout_seats
from engine.bots.search import HardBot
from engine.cards import Suit
from engine.game import Game, new_game
from engine.refusals import IllegalAction
from engine.rng import Rng
from engine.sim import SimState
from engine.variants import Variants

REPO_ROOT = Path(__file__).resolve().parents[2]


def record() -> dict[str, Any]:
    """Winners, final states and rollout values of seeded random play, every variant."""
    games: list[Any] = []
    for index in range(96):
        variants = Variants(
            larger_hands=bool(index & 1),
            zero_suit=Suit.JELLY if index & 2 else None,
            zero_five=bool(index & 4),
        )
        state = SimState.new(3 + index % 3, index, variants)
        rng = Rng(index)
        values: list[list[float]] = []
        while state.winner < 0:
            if rng.below(8) == 0:
                style = NORMAL if index % 2 else EASY
                values.append(rollout_seats(state.clone(), Rng(index), [style] * state.players))
            legal = state.legal()
            state.apply(legal[rng.below(len(legal))])
        games.append([state.winner, state.to_dict(), values])
    return {"games": games, "checked": checked_record()}


def checked_record() -> list[Any]:
    """Events, observations, refusals and the final save of seeded games on ``Game``, some
    turns restored from a save, some chosen by a short hard search (a sampled world is
    built from its parts, as a restored save is)."""
    games: list[Any] = []
    for index in range(48):
        variants = Variants(
            larger_hands=bool(index & 1),
            zero_suit=Suit.SALTY if index & 2 else None,
            zero_five=bool(index & 4),
        )
        game = new_game(players=3 + index % 3, seed=index, variants=variants)
        rng = Rng(index)
        moves: list[Any] = []
        while game.winner is None:
            seat = game.current_seat
            assert seat is not None
            legal = game.legal_actions()
            refusals = []
            for junk in ({"type": "play"}, "tune_up", None):
                try:
                    game.apply(junk)
                except IllegalAction as refused:
                    refusals.append(str(refused))
            if rng.below(12) == 0:
                game = Game.from_dict(game.to_dict())
            if rng.below(24) == 0:
                action = HardBot(index, iterations=24).choose(game.view(seat))
            else:
                action = legal[rng.below(len(legal))]
            events = game.apply(action, seat=seat)
            observation = game.observation(rng.below(game.players))
            moves.append([[e.to_dict() for e in events], observation, refusals])
        games.append([moves, game.to_dict()])
    return games


def _compiled_copy(target: Path) -> Path:
    """Compile the listed modules in a copy of the engine; return the copy's root."""
    shutil.copytree(REPO_ROOT / "engine", target / "engine")
    build = subprocess.run(
        [sys.executable, "-m", "mypyc", *bench_build.compile_list()],
        cwd=target,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    return target


@pytest.mark.slow
def test_compiled_simulation_path_plays_exactly_as_pure_python(tmp_path: Path) -> None:
    root = _compiled_copy(tmp_path)
    script = (
        "import json, sys\n"
        f"sys.path.insert(1, {str(Path(__file__).parent)!r})\n"
        # Right after the compiled copy: bench/ from this checkout, the engine from the copy.
        f"sys.path.insert(sys.path.index({str(root)!r}) + 1, {str(REPO_ROOT)!r})\n"
        "import bench.build\n"
        # The API's schema is made from the engine's JSON shapes: on the compiled engine too.
        "from app.http.api.models import GameState\n"
        "GameState.model_json_schema()\n"
        "import test_mypyc_build as t\n"
        "print(json.dumps([bench.build.compiled_modules(), t.record()]))\n"
    )
    child = subprocess.run(
        [sys.executable, "-c", script],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert child.returncode == 0, child.stderr[-3000:]
    extensions, compiled = json.loads(child.stdout)
    assert extensions == bench_build.compilable()
    assert compiled == json.loads(json.dumps(record()))


def test_the_benchmarks_say_the_checkout_is_pure_python() -> None:
    # This test process imports the checkout: pure Python, and the benchmarks say so.
    assert bench_build.compiled_modules() == []
    assert bench_build.describe().startswith("engine build: pure Python")
