"""Calibrating the bots' fixed ratings: ``python -m bench ratings [--games 200] [--jobs 1]``.

Plays four-player games with one bot of each level at the table (``random``, ``easy``,
``normal``, ``hard`` at the server's default budget on the CPU clock), every deal in the
tournament's seatings (:func:`bench.tournament.seat_orders`), and rates the four
levels with the same openskill model the server rates people with
(:func:`app.results.ratings.rate`), game after game in a fixed order, from the defaults.
Prints each level's mu, sigma, conservative estimate and shown rating, and the mean
place; docs/ratings.md explains how the figures became
:data:`app.results.ratings.BOT_RATINGS`.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from collections.abc import Iterable

from app.results.ratings import Rating, display, places, rate
from bench.tournament import GameJob, SeatResult, parse_seat, play_game, whole_deals
from engine.variants import Variants

LEVELS = ("random", "easy", "normal", "hard")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The calibration's options."""
    parser.add_argument("--games", type=int, default=200, help="games (rounded up to whole deals)")
    parser.add_argument("--seed", type=int, default=11, help="the deals' seed")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default: 1)")


def calibrate(results: Iterable[list[SeatResult]]) -> dict[str, tuple[Rating, float, int]]:
    """Each level's rating after rating every game of ``results`` in order, its mean
    place and its games."""
    ratings = {level: Rating() for level in LEVELS}
    place_sum = dict.fromkeys(LEVELS, 0.0)
    games = dict.fromkeys(LEVELS, 0)
    for game in results:
        labels = [seat.label for seat in game]
        # The tournament's places share the mean on ties; the server's share the best.
        order = [-round(2 * seat.place) for seat in game]
        finish = places([0] * len(game), order, None)
        after = rate([ratings[label] for label in labels], finish)
        for label, new, seat in zip(labels, after, game, strict=True):
            ratings[label] = new
            place_sum[label] += seat.place
            games[label] += 1
    return {
        level: (ratings[level], place_sum[level] / games[level], games[level]) for level in LEVELS
    }


def bench_ratings(args: argparse.Namespace) -> int:
    """Play the games and print the levels' ratings."""
    if args.games < 1 or args.jobs < 1:
        print("error: --games and --jobs must be at least 1.", file=sys.stderr)
        return 2
    seats = tuple(parse_seat(level, None, None, "cpu") for level in LEVELS)
    total = whole_deals(seats, args.games)
    jobs = [GameJob(i, len(LEVELS), Variants(), args.seed, seats, "cpu") for i in range(total)]
    if args.jobs == 1:
        played = [play_game(job) for job in jobs]
    else:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            played = pool.map(play_game, jobs)  # in job order: the ratings depend on it
    print(f"{total} four-player games, seed {args.seed}, one bot of each level per game")
    print(f"{'level':<8}{'mu':>8}{'sigma':>8}{'mu-3sd':>9}{'shown':>7}{'place':>7}")
    for level, (rating, place, _) in calibrate(played).items():
        shown = display(rating)
        print(
            f"{level:<8}{rating.mu:8.2f}{rating.sigma:8.2f}{rating.ordinal:9.2f}"
            f"{shown:7d}{place:7.2f}"
        )
    return 0
