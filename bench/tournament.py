"""The engine's bot tournament over worker processes: ``python -m bench tournament --jobs 2``.

Same options and same report as ``python -m engine.tournament`` (which plays the games
one after another in its own process): the games go to a pool of ``--jobs`` processes
(``fork``ed: this command starts no threads before the pool) and are counted as they
finish. With the default CPU clock a hard bot's budget buys the same search in any
process, so the figures match the sequential run in distribution, not move for move.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys

from engine import tournament


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The tournament's own options, and ``--jobs``."""
    tournament.add_arguments(parser)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default: 2)")


def bench_tournament(args: argparse.Namespace) -> int:
    """Play the tournament on ``args.jobs`` processes; the exit status of the engine's."""
    if args.jobs < 1:
        print("error: --jobs must be at least 1.", file=sys.stderr)
        return 2
    if args.jobs == 1:
        return tournament.run_arguments(args)
    with multiprocessing.get_context("fork").Pool(args.jobs) as workers:
        return tournament.run_arguments(args, workers.imap_unordered)
