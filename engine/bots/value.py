"""How good a position between rounds is for each seat: an estimate of win chances.

When a simulated round ends, the search scores it with a softmax over seats of
``LAP_WEIGHT·laps + GAS_WEIGHT·gas + LEAD_WEIGHT·(leads the next round)``. The weights
were fitted (maximum likelihood, multinomial logit) on the round starts of 3,000
four-player games between normal bots and their eventual winners: a lap is worth about
ten gas, and leading the first trick of a round is a small handicap.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.game import Game

LAP_WEIGHT = 3.0
GAS_WEIGHT = 0.3
LEAD_WEIGHT = -0.3


def win_chances(game: Game) -> list[float]:
    """Each seat's estimated chance of winning from ``game`` (exact once it is over).

    >>> from engine import new_game
    >>> chances = win_chances(new_game(players=3, seed=1, lead=0, gas=[5, 5, 0]))
    >>> round(sum(chances), 6), chances[1] > chances[0] > chances[2]
    (1.0, True)
    """
    if game.winner is not None:
        return [1.0 if seat == game.winner else 0.0 for seat in range(game.players)]
    scores = [
        LAP_WEIGHT * game.laps[s]
        + GAS_WEIGHT * game.gas[s]
        + (LEAD_WEIGHT if s == game.lead else 0)
        for s in range(game.players)
    ]
    top = max(scores)
    weights = [math.exp(x - top) for x in scores]
    total = sum(weights)
    return [w / total for w in weights]
