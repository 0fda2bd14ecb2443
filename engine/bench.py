"""Speed figures for the engine: ``python -m engine.bench [--seconds S]``.

Plays seeded random games (every turn: list the legal actions, pick one uniformly,
apply it) for 4 players in the base game and then in each variant combination, and
prints decisions per second and games per second on one core.
"""

from __future__ import annotations

import argparse
import itertools
import time

from engine.cards import Suit
from engine.game import new_game
from engine.rng import Rng
from engine.variants import Variants


def random_playout_rate(players: int, variants: Variants, seconds: float) -> tuple[float, float]:
    """Play random games for about ``seconds``; return (decisions/s, games/s)."""
    rng = Rng(12345)
    decisions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        game = new_game(players=players, seed=games, variants=variants)
        while game.winner is None:
            actions = game.legal_actions()
            game.apply(actions[rng.below(len(actions))])
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return decisions / elapsed, games / elapsed


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


def main(argv: list[str] | None = None) -> None:
    """Print the figures for the base game and every variant combination."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0, help="per configuration")
    args = parser.parse_args(argv)
    print(f"Random playouts, {args.players} players, one core, {args.seconds:g} s each")
    print(f"{'configuration':<36}{'decisions/s':>14}{'games/s':>10}")
    for larger, zero, zero_five in itertools.product((False, True), repeat=3):
        variants = Variants(
            larger_hands=larger, zero_suit=Suit.CHIPPY if zero else None, zero_five=zero_five
        )
        # A short warm-up fills the legal-action cache, as a long-running process has it.
        random_playout_rate(args.players, variants, 0.5)
        per_decision, per_game = random_playout_rate(args.players, variants, args.seconds)
        print(f"{_label(variants):<36}{per_decision:>14,.0f}{per_game:>10,.0f}")


if __name__ == "__main__":
    main()
