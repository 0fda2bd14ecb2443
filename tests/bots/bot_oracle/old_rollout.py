"""The test oracle's rollout: the checked-path rollout engine/bots/search.py had, the old
policy (old_heuristic.py) playing every seat of a checked Game to the end of its round."""

from __future__ import annotations

from bot_oracle.old_heuristic import NORMAL, Style, choose_index
from bot_oracle.old_situation import face_up_this_round, from_game

from engine.actions import ActionType
from engine.bots.rollout import chances
from engine.game import Game
from engine.rng import Rng


def rollout(game: Game, rng: Rng, style: Style = NORMAL) -> list[float]:
    """Play ``game`` to the end of its round with the old policy for every seat; return
    each seat's estimated chance of winning from there."""
    start_round = game.core.round
    face_up = face_up_this_round(game)
    while game.winner is None and game.core.round == start_round:
        situation = from_game(game, face_up)
        action = situation.legal[choose_index(situation, style, rng)]
        game.apply(action)
        if action.type is ActionType.PLAY and action.suit is not None:
            face_up[action.suit] = face_up.get(action.suit, 0) + 1
    return chances(game.players, game.laps, game.gas, game.core.lead, game.winner)
