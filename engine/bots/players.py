"""The heuristic bot levels, easy and normal: the policy every seat of the hard bot's
rollouts plays too (:func:`engine.bots.policy.choose_id`), run on a core state made from the
seat's view (:func:`engine.bots.determinize.fixed_deal`)."""

from __future__ import annotations

from engine.actions import Action
from engine.bots.base import Bot, decision_rng
from engine.bots.determinize import fixed_deal
from engine.bots.heuristic import EASY, NORMAL, Style
from engine.bots.policy import choose_id
from engine.seat_view import SeatView
from engine.sim import ACTIONS


class HeuristicBot(Bot):
    """A bot that plays the policy with one :class:`Style`.

    >>> from engine import new_game
    >>> game = new_game(players=4, seed=9)
    >>> bot = HeuristicBot(3, NORMAL)
    >>> bot.choose(game.observation(game.current_seat)) in game.legal_actions()
    True
    """

    kind = "heuristic"

    def __init__(self, seed: int, style: Style) -> None:
        super().__init__(seed)
        self.style = style

    def pick(self, view: SeatView, actions: list[Action]) -> Action:
        return ACTIONS[choose_id(fixed_deal(view), self.style, decision_rng(self.seed, view))]


class EasyBot(HeuristicBot):
    """Plausible but beatable: noisy choices among sensible moves, no card counting."""

    kind = "easy"

    def __init__(self, seed: int) -> None:
        super().__init__(seed, EASY)


class NormalBot(HeuristicBot):
    """A solid heuristic player: counts this round's cards, values gas across rounds."""

    kind = "normal"

    def __init__(self, seed: int) -> None:
        super().__init__(seed, NORMAL)
