"""Speed figures for the engine: ``python -m bench.engine_speed [--seconds S] [--players N]``.

Plays seeded random games — every turn: list the legal actions, pick one uniformly with
:class:`engine.rng.Rng`, apply it — for the base game and each variant combination, three
ways: the core :class:`~engine.sim.SimState` (integer actions, as the bots' rollouts
play); the checked :class:`~engine.game.Game` applying the very object
``legal_actions()`` listed (validation and events); the server's path, where every turn
also builds the deciding seat's view (what the server hands its bots) and applies a fresh
copy of the chosen action (as a request's parsed body or a bot's answer arrives); and the
same with the view's JSON form, which the server builds once per response.
When the optional ``open_spiel`` package is installed (``pip install -e '.[bench]'``), the
same Python loop then drives OpenSpiel's C++ Hearts for comparison, and the ratios are
printed.

Rates are per second of this process's CPU time (``time.process_time``), so other work on
a shared machine slows the run down but changes the figures little. OpenSpiel deals its
cards as chance steps through the same loop, so its steps are given both in all and as
player decisions only; this engine deals inside ``apply``.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable
from typing import Any

from bench.build import describe
from engine.actions import Action
from engine.cards import Suit
from engine.game import new_game
from engine.rng import Rng
from engine.sim import SimState
from engine.variants import Variants

#: A playout loop: (players, variants, seconds) -> (decisions, games, CPU seconds).
Loop = Callable[[int, Variants, float], tuple[int, int, float]]


def checked_playouts(players: int, variants: Variants, seconds: float) -> tuple[int, int, float]:
    """Random games through ``Game.legal_actions`` and ``Game.apply`` for ``seconds``."""
    rng = Rng(12345)
    decisions = games = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        game = new_game(players=players, seed=games, variants=variants)
        while game.winner is None:
            actions = game.legal_actions()
            game.apply(actions[rng.below(len(actions))])
            decisions += 1
        games += 1
    return decisions, games, time.process_time() - start


def _turns_as_served(
    players: int, variants: Variants, seconds: float, as_json: bool
) -> tuple[int, int, float]:
    rng = Rng(12345)
    decisions = games = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        game = new_game(players=players, seed=games, variants=variants)
        while game.winner is None:
            seat = game.current_seat
            assert seat is not None
            if as_json:
                game.observation(seat)
            else:
                game.view(seat)
            actions = game.legal_actions()
            a = actions[rng.below(len(actions))]
            game.apply(Action(a.type, a.suit, a.gas, a.zero_effect, a.value, a.discard), seat)
            decisions += 1
        games += 1
    return decisions, games, time.process_time() - start


def server_playouts(players: int, variants: Variants, seconds: float) -> tuple[int, int, float]:
    """The same random games as the server's bots play them: each turn the deciding seat's
    view (:meth:`Game.view`, what a bot decides on), ``legal_actions()``, then ``apply()``
    of a fresh copy of the choice."""
    return _turns_as_served(players, variants, seconds, as_json=False)


def json_playouts(players: int, variants: Variants, seconds: float) -> tuple[int, int, float]:
    """:func:`server_playouts` with the view's JSON form built every turn instead
    (:meth:`Game.observation`, what a response to a person or an API client carries)."""
    return _turns_as_served(players, variants, seconds, as_json=True)


def sim_playouts(players: int, variants: Variants, seconds: float) -> tuple[int, int, float]:
    """The same random games on the simulation path (the same deals and choices)."""
    rng = Rng(12345)
    decisions = games = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        state = SimState.new(players, games, variants)
        winner = -1
        while winner < 0:
            actions = state.legal()
            winner = state.apply(actions[rng.below(len(actions))])
            decisions += 1
        games += 1
    return decisions, games, time.process_time() - start


def open_spiel_playouts(seconds: float) -> tuple[int, int, float] | None:
    """OpenSpiel Hearts random playouts from this loop: (steps, player decisions, CPU s),
    or ``None`` when ``open_spiel`` is not installed."""
    try:
        import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        return None
    hearts: Any = pyspiel.load_game("hearts")
    rng = Rng(12345)
    steps = decisions = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        state = hearts.new_initial_state()
        while not state.is_terminal():
            decisions += not state.is_chance_node()
            actions = state.legal_actions()
            state.apply_action(actions[rng.below(len(actions))])
            steps += 1
    return steps, decisions, time.process_time() - start


def _label(variants: Variants) -> str:
    parts = [
        name
        for name, on in (
            ("larger hands", variants.larger_hands),
            ("0 suit", variants.zero),
            ("0/5 cards", variants.zero_five),
        )
        if on
    ]
    return " + ".join(parts) or "base game"


def rate(loop: Loop, players: int, variants: Variants, seconds: float) -> float:
    """Decisions per CPU second of ``loop``, after a short warm-up that fills the
    legal-action caches as a long-running process has them."""
    loop(players, variants, min(0.5, seconds))
    decisions, _, elapsed = loop(players, variants, seconds)
    return decisions / elapsed


def _spiel_rates(seconds: float) -> tuple[float, float] | None:
    """OpenSpiel Hearts' steps and player decisions per CPU second, or None without it."""
    open_spiel_playouts(min(0.5, seconds))  # warm-up, as for the engine
    spiel = open_spiel_playouts(seconds)
    if spiel is None:
        return None
    steps, decisions, elapsed = spiel
    return steps / elapsed, decisions / elapsed


def _compare(
    base: dict[str, float], before: tuple[float, float] | None, after: tuple[float, float] | None
) -> list[str]:
    """The OpenSpiel lines: each loop's base-game rate beside OpenSpiel's, measured just
    before and just after the base game (their mean is the anchor, so a machine whose
    speed drifts during the run moves both sides alike), or a hint on how to get them."""
    if before is None or after is None:
        return ["OpenSpiel Hearts: not installed (pip install -e '.[bench]')"]
    per_step = (before[0] + after[0]) / 2
    per_decision = (before[1] + after[1]) / 2
    lines = [
        f"OpenSpiel Hearts (same loop): {per_step:,.0f} steps/s "
        f"({per_decision:,.0f} player decisions/s; the rest are chance steps dealing cards; "
        f"{before[1]:,.0f} just before the base game, {after[1]:,.0f} just after)",
    ]
    for name, rate_ in base.items():
        lines.append(
            f"{name + ' / OpenSpiel:':<30}{rate_ / per_step:.2f}x per step, "
            f"{rate_ / per_decision:.2f}x per player decision"
        )
    return lines


def main(argv: list[str] | None = None) -> None:
    """Print the figures for every variant combination, then the OpenSpiel comparison."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=2.0, help="per configuration")
    args = parser.parse_args(argv)
    print(describe())
    print(f"Random playouts, {args.players} players, decisions per CPU second, one core")
    print(f"{'configuration':<36}{'core':>10}{'checked':>10}{'server':>10}{'JSON':>10}")
    base: dict[str, float] = {}
    before = _spiel_rates(args.seconds)
    after = None
    for larger, zero, zero_five in itertools.product((False, True), repeat=3):
        variants = Variants(
            larger_hands=larger, zero_suit=Suit.CHIPPY if zero else None, zero_five=zero_five
        )
        sim = rate(sim_playouts, args.players, variants, args.seconds)
        checked = rate(checked_playouts, args.players, variants, args.seconds)
        server = rate(server_playouts, args.players, variants, args.seconds)
        as_json = rate(json_playouts, args.players, variants, args.seconds)
        if not base:
            base = {
                "core": sim,
                "checked (listed)": checked,
                "server path": server,
                "server, JSON view": as_json,
            }
            after = _spiel_rates(args.seconds)
        print(
            f"{_label(variants):<36}{sim:>10,.0f}{checked:>10,.0f}{server:>10,.0f}{as_json:>10,.0f}"
        )
    print(
        "core: SimState.legal + apply of an id; checked: Game.legal_actions + apply of the "
        "listed object;\nserver: the seat's view (Game.view, what a bot decides on) + "
        "legal_actions + apply of a fresh Action;\nJSON: the same with the view's JSON form "
        "(Game.observation, what a response carries) instead"
    )
    print("\n".join(_compare(base, before, after)))


if __name__ == "__main__":
    main()
