"""The heuristic bot levels: easy (noisy, no card counting) and normal (card counting).

Both play the one policy, :func:`engine.bots.policy.choose_id`, the very function every
seat of the hard bot's rollouts plays, on a core state made from the observation
(:func:`policy_state`), so a change to how the normal bot plays changes both.
"""

from __future__ import annotations

from engine.actions import Action
from engine.bots.base import Bot, Seen, as_view, decision_rng
from engine.bots.determinize import fixed_deal
from engine.bots.heuristic import EASY, NORMAL, Style
from engine.bots.policy import choose_id
from engine.sim import ACTIONS, SimState


def policy_state(observation: Seen) -> SimState:
    """A core state the policy can decide on for the observing seat: the view's
    public numbers and its own hand, with the hidden cards in a fixed order
    (:func:`~engine.bots.determinize.fixed_deal`; the policy reads other hands by their
    size only, and never a face-down card).

    >>> from engine import new_game
    >>> game = new_game(players=4, seed=6)
    >>> state = policy_state(game.observation(game.current_seat))
    >>> state.hands[state.turn] == game.core.hands[game.current_seat]
    True
    """
    return fixed_deal(observation)


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

    def choose(self, observation: Seen) -> Action:
        """The policy's pick among the legal actions."""
        view = as_view(observation)
        legal = view.legal
        if not legal:
            raise ValueError("It is not this seat's turn: there is nothing to choose.")
        if len(legal) == 1:
            return ACTIONS[legal[0]]
        state = policy_state(view)
        return ACTIONS[choose_id(state, self.style, decision_rng(self.seed, view))]


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
