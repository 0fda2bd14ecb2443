"""The bot tournament over worker processes: ``python -m bench tournament --jobs 2``.

Same options and same report as ``python -m bench.tournament`` (which plays the games
one after another in its own process): the games go to a pool of ``--jobs`` processes
(``fork``ed: this command starts no threads before the pool) and are counted as they
finish. With the default CPU clock a hard bot's budget buys the same search in any
process, so the figures match the sequential run in distribution, not move for move.

``--record FILE`` keeps every finished game in FILE (JSON lines: the tournament's settings
first, then one line per game) and, when FILE already holds games of the same tournament,
counts them instead of playing them again. A tournament that takes longer than one
sitting can so be stopped at any moment and taken up later with the same command; the
report covers every game recorded.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from pathlib import Path
from typing import Any

from bench import tournament
from bench.tournament import SeatResult


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The tournament's own options, ``--jobs`` and ``--record``."""
    tournament.add_arguments(parser)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default: 2)")
    parser.add_argument(
        "--record",
        type=Path,
        default=None,
        help="keep each finished game in this file and take the tournament up from it",
    )


def settings(args: argparse.Namespace) -> dict[str, Any]:
    """What makes two runs the same tournament: everything but the number of games (a
    recorded tournament may be lengthened) and how it is run."""
    return {
        "players": args.players,
        "seats": [token.strip() for token in args.seats.split(",")],
        "seed": args.seed,
        "variants": args.variants,
        "budget_ms": args.budget_ms,
        "iterations": args.iterations,
        "clock": args.clock,
    }


class Record:
    """A tournament's games in a JSON-lines file: its settings, then one line per game."""

    def __init__(self, path: Path, wanted: dict[str, Any]) -> None:
        """Open ``path`` for the tournament with settings ``wanted``, reading the games it
        holds; a new file gets the settings line. Raises ``ValueError`` with a sentence
        when the file records a different tournament or is not a record at all."""
        self.path = path
        self.games: list[list[SeatResult]] = []
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True) if path.exists() else []
        # A run stopped in the middle of a write leaves a last line without its end.
        complete = [line for line in lines if line.endswith("\n")]
        if not complete:
            path.write_text(json.dumps({"settings": wanted}) + "\n", encoding="utf-8")
            return
        try:
            found = json.loads(complete[0])["settings"]
            self.games = [
                [SeatResult.from_dict(seat) for seat in json.loads(line)["seats"]]
                for line in complete[1:]
            ]
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"{path} is not a tournament record ({error}).") from error
        if found != wanted:
            raise ValueError(
                f"{path} records a different tournament ({json.dumps(found)}); "
                "give the same options or another file."
            )
        if len(complete) < len(lines):
            path.write_text("".join(complete), encoding="utf-8")

    def add(self, results: list[SeatResult]) -> None:
        """Append one finished game, flushed at once (a stop loses no finished game)."""
        line = json.dumps({"seats": [result.to_dict() for result in results]})
        with self.path.open("a", encoding="utf-8") as out:
            out.write(line + "\n")


def bench_tournament(args: argparse.Namespace) -> int:
    """Play the tournament on ``args.jobs`` processes; the exit status of the engine's."""
    if args.jobs < 1:
        print("error: --jobs must be at least 1.", file=sys.stderr)
        return 2
    played: list[list[SeatResult]] = []
    on_game = None
    if args.record is not None:
        try:
            record = Record(args.record, settings(args))
        except (ValueError, OSError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        played, on_game = record.games, record.add
        if played:
            print(f"{args.record}: {len(played)} games recorded", file=sys.stderr)
    if args.jobs == 1:
        return tournament.run_arguments(args, played=played, on_game=on_game)
    with multiprocessing.get_context("fork").Pool(args.jobs) as workers:
        return tournament.run_arguments(args, workers.imap_unordered, played, on_game)
