"""The races of :mod:`bench.moves` replayed with the engine and the bots alone.

The person at seat 0 of every benchmark race plays by :func:`pick`: a card choice drawn
uniformly from those offered (a racer face up, or a Tune Up), then a gas amount drawn
uniformly from what that choice allows, both seeded by the race's seed and the move's
number. The HTTP clients of :mod:`bench.moves` and :func:`replay` here use the same
function, so all of them play the same race from one seed and one bots' key.

:func:`replay` plays those races in this process: ``engine.new_game`` and the normal bots,
seeded the way the server seeds them (the deal from the public seed keyed with the server's
secret; one seed per bot decision from the race's bots' key, the seat and the decision
number), with no HTTP and no store. A race's bots' key is its server's secret, drawn per
race and revealed by its record once it is over (``bot_key``); a server from before
per-race keys keyed its bots with the deal's engine seed, and its races replay with that
as their key. The replay's CPU per person's move is the engine's and the bots' own share
of what a server does for that move.

Runnable as a script against any checkout's engine (``PYTHONPATH`` pointing at it), which
is how :mod:`bench.moves` measures the baseline's engine; it imports nothing but ``engine``
and the standard library, and prints its figures as one JSON object::

    python bench/moves_replay.py --secret S --seeds 1000,1001 --bot-keys 17,42 --repeat 3
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import random
import statistics
import sys
import time
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

PLAYERS = 4
"""Racers in every benchmark race."""

BOTS = "normal"
"""The bots' level in every benchmark race."""

HUMAN_SEAT = 0
"""The race's creator sits at seat 0; every other seat is a bot."""

Choice = tuple[str, str]
"""A card choice as the table's form names it: ``("up", suit)`` or ``("down", suit)``."""

_KINDS = {"play": "up", "tune_up": "down"}


def options_from_actions(actions: Iterable[Mapping[str, Any]]) -> dict[Choice, int]:
    """The card choices among legal actions (engine JSON), each with the most gas it takes.

    The benchmark races use the base rules, whose only actions are these two kinds.
    """
    options: dict[Choice, int] = {}
    for action in actions:
        kind = _KINDS.get(str(action["type"]))
        if kind is None:
            raise ValueError(f"the benchmark's person does not play {action['type']!r} actions")
        key = (kind, str(action["suit"]))
        options[key] = max(options.get(key, 0), int(action["gas"]))
    return options


def pick(options: Mapping[Choice, int], seed: int, move: int) -> tuple[Choice, int]:
    """The person's ``move``-th choice (from 0) in the race of ``seed``, and its gas."""
    rng = random.Random(f"{seed}:{move}")
    choice = rng.choice(sorted(options))
    return choice, rng.randint(0, options[choice])


def matches(action: Mapping[str, Any], choice: Choice, gas: int) -> bool:
    """Whether ``action`` (engine JSON) is ``choice`` played with ``gas``."""
    return _KINDS.get(str(action["type"])) == choice[0] and (action["suit"], action["gas"]) == (
        choice[1],
        gas,
    )


def engine_seed(seed: int, secret: str) -> int:
    """The engine's shuffle seed the server derives from a race's public ``seed``."""
    digest = hmac.new(secret.encode(), str(seed).encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def bot_seed(bot_key: int, seat: int, decision: int) -> int:
    """The seed the server gives the bot of ``seat`` for the race's ``decision``-th bot move
    (``app.bots.runner.bot_seed``, not imported: the script runs on any build's engine)."""
    digest = hashlib.blake2b(f"{bot_key}:{seat}:{decision}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big")


@dataclass(frozen=True)
class RaceResult:
    """How one race ended: what the server's public record of it must show too."""

    seed: int
    bot_key: int
    human_moves: int
    events: int
    winner: int | None


Race = tuple[int, int]
"""A race to replay: its public seed and its bots' key."""


def _play(
    race: Race, secret: str, picks: list[int] | None, observe: bool
) -> tuple[RaceResult, list[int]]:
    """One race; the person's moves come from :func:`pick`, or from ``picks`` (indices into
    the legal actions) when given, so a timed run spends nothing on the person's choice."""
    from engine import Variants, new_game
    from engine.bots import make_bot

    seed, bot_key = race
    game = new_game(players=PLAYERS, seed=engine_seed(seed, secret), variants=Variants())
    events = 1  # the server's log opens with the first deal
    decisions = 0
    chosen: list[int] = []
    while (seat := game.current_seat) is not None:
        if seat == HUMAN_SEAT:
            if observe:  # what the server renders for the person after every move
                game.observation(seat)
            legal = game.legal_actions()
            if picks is None:
                dicts = [action.to_dict() for action in legal]
                choice, gas = pick(options_from_actions(dicts), seed, len(chosen))
                index = next(i for i, a in enumerate(dicts) if matches(a, choice, gas))
            else:
                index = picks[len(chosen)]
            chosen.append(index)
            events += len(game.apply(legal[index], seat=seat))
        else:
            bot = make_bot(BOTS, bot_seed(bot_key, seat, decisions))
            decisions += 1
            # What that build's server hands its bots: the view as data where the build
            # has one (Game.view), else the JSON observation.
            seen = game.view(seat) if hasattr(game, "view") else game.observation(seat)
            events += len(game.apply(bot.choose(seen), seat=seat))
    return RaceResult(seed, bot_key, len(chosen), events, game.winner), chosen


def replay(races: list[Race], secret: str, repeat: int, min_seconds: float) -> dict[str, Any]:
    """Play ``races`` once to learn the person's moves, then time them ``repeat`` times,
    each race played without and then with the person's observation per move (in turn, so
    both see the same load); each timed run plays the races again until it has used
    ``min_seconds`` of CPU. The median CPU ms per person's move of each."""
    import engine

    learned = [_play(race, secret, None, False) for race in races]
    moves = sum(result.human_moves for result, _ in learned)
    runs: dict[str, list[float]] = {"ms_per_move": [], "ms_per_move_observed": []}
    for _ in range(repeat):
        spent = {name: 0.0 for name in runs}
        loops = 0
        while not loops or sum(spent.values()) < min_seconds:
            for race, (_, picks) in zip(races, learned, strict=True):
                for name, observe in (("ms_per_move", False), ("ms_per_move_observed", True)):
                    started = time.process_time()
                    _play(race, secret, picks, observe)
                    spent[name] += time.process_time() - started
            loops += 1
        for name in runs:
            runs[name].append(spent[name] * 1000 / max(1, moves * loops))
    return {
        "engine_file": engine.__file__,
        "moves": moves,
        "results": [asdict(result) for result, _ in learned],
        **{name: statistics.median(values) for name, values in runs.items()},
    }


def main(argv: list[str] | None = None) -> int:
    """Print :func:`replay`'s figures for the given races as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--secret", required=True, help="the server's ZZV_SEED_SECRET")
    parser.add_argument("--seeds", required=True, help="comma-separated public seeds")
    parser.add_argument(
        "--bot-keys", required=True, help="comma-separated bots' keys, one per seed, in order"
    )
    parser.add_argument("--repeat", type=int, default=3, help="timed runs (median reported)")
    parser.add_argument(
        "--min-seconds", type=float, default=0.6, help="CPU seconds each timed run lasts at least"
    )
    args = parser.parse_args(argv)
    seeds = [int(seed) for seed in args.seeds.split(",") if seed]
    keys = [int(key) for key in args.bot_keys.split(",") if key]
    if len(keys) != len(seeds):
        parser.error(f"{len(seeds)} seeds but {len(keys)} bots' keys: give one key per seed")
    races = list(zip(seeds, keys, strict=True))
    print(json.dumps(replay(races, args.secret, max(1, args.repeat), args.min_seconds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
