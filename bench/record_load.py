"""What loading and saving one race costs, on a build's own code, in a fresh interpreter.

``python bench/record_load.py [--players 5] [--moves 40] [--rounds 300]``, with the build's
directory as working directory and ``PYTHONPATH`` (:mod:`bench.moves` runs it so for each
build). It plays a seeded race of ``--players`` seats for ``--moves`` recorded actions (random
legal ones) and times, over ``--rounds`` rounds, the median of:

* ``load_ms``: ``GameSession.from_dict`` of its stored JSON, parsing included, with nothing
  derived kept in the process (a build whose record derives its game empties its cache
  first: the whole race is replayed);
* ``load_after_move_ms``: the same after one more move, once the process loaded the race
  before it (what a request pays when the same worker served the previous move);
* ``save_ms``: ``GameSession.to_dict`` and the compact JSON a store writes.

It prints them as JSON, with ``bytes``, the stored JSON's size, and the engine's file.
Only ``app`` and ``engine`` are imported, so it runs on builds from before it existed.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import orjson

from app.races import record
from app.races.record import GameConfig, GameSession, new_session
from app.settings import Settings


def _race(players: int, moves: int) -> tuple[GameSession, bytes]:
    """The race after ``moves - 1`` actions, and its stored JSON after ``moves``."""
    settings = Settings(seed_secret="bench-record-load")
    session = new_session(GameConfig(players=players, bots="normal", seed=7), settings)
    rng = random.Random(7)
    before = b""
    for _ in range(moves):
        before = orjson.dumps(session.to_dict())
        game = session.game
        seat = game.current_seat
        assert seat is not None, "the race ended before its moves were played"
        action = rng.choice(game.legal_actions())
        session.record_events(game.apply(action, seat=seat))
        session.record_action(seat, action, "bot")
    return session, before


def _median_ms(rounds: int, prepare: Callable[[], None], timed: Callable[[], Any]) -> float:
    spent = []
    for _ in range(rounds):
        prepare()
        started = time.perf_counter()
        timed()
        spent.append((time.perf_counter() - started) * 1000)
    return statistics.median(spent)


def measure(players: int, moves: int, rounds: int) -> dict[str, Any]:
    """The figures of the module doc."""
    session, before = _race(players, moves)
    stored = orjson.dumps(session.to_dict())
    derived = getattr(record, "DERIVED", None)

    def forget() -> None:
        if derived is not None:
            derived.clear()

    def previous() -> None:
        forget()
        GameSession.from_dict(orjson.loads(before))

    load = _median_ms(rounds, forget, lambda: GameSession.from_dict(orjson.loads(stored)))
    after_move = _median_ms(rounds, previous, lambda: GameSession.from_dict(orjson.loads(stored)))
    save = _median_ms(rounds, lambda: None, lambda: orjson.dumps(session.to_dict()))
    loaded = GameSession.from_dict(orjson.loads(stored))
    assert loaded.game == session.game and loaded.events == session.events
    return {
        "players": players,
        "moves": moves,
        "bytes": len(stored),
        "load_ms": load,
        "load_after_move_ms": after_move,
        "save_ms": save,
        "engine_file": sys.modules["engine"].__file__,
    }


def main(argv: list[str] | None = None) -> int:
    """Print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.players, args.moves, max(1, args.rounds))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
