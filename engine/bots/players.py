"""The heuristic bot levels: easy (noisy, no card counting) and normal (card counting)."""

from __future__ import annotations

from engine.actions import Action
from engine.bots.base import Bot, decision_rng, legal_actions
from engine.bots.heuristic import EASY, NORMAL, Style, choose
from engine.bots.situation import from_observation
from engine.cards import SUIT_BY_ID, Suit
from engine.view import Observation


class HeuristicBot(Bot):
    """A bot that plays the :mod:`engine.bots.heuristic` scores with one :class:`Style`.

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

    def choose(self, observation: Observation) -> Action:
        """The heuristic's pick among the legal actions."""
        actions = legal_actions(observation)
        if not actions:
            raise ValueError("It is not this seat's turn: there is nothing to choose.")
        if len(actions) == 1:
            return actions[0]
        situation = from_observation(observation, actions)
        if not self.style.count_cards:
            situation.unseen = _uncounted(observation, situation.hand)
        return choose(situation, self.style, decision_rng(self.seed, observation))


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


def _uncounted(observation: Observation, hand: list[Suit]) -> dict[Suit, int]:
    """The unseen pool of a player who only remembers the deck and their own hand."""
    pool = {SUIT_BY_ID[name]: n for name, n in observation["deck"]["copies"].items()}
    for card in hand:
        pool[card] -= 1
    return pool
