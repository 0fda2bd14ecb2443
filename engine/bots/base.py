"""The :class:`Bot` interface and per-decision randomness. A bot keeps no memory between
calls: its move depends only on its seed, one seat's view and (a time-budgeted hard bot
only) how much work fits in its budget, so a server may build a fresh bot per decision."""

from __future__ import annotations

from abc import ABC, abstractmethod

from engine.actions import Action
from engine.rng import Rng
from engine.seat_view import SeatView
from engine.shapes import Observation

Seen = SeatView | Observation
"""What a bot is handed: a seat's view, as data or in its JSON form (an API client's)."""

DEFAULT_BOT_BUDGET_MS = 200
"""Thinking time per decision, in milliseconds, of a bot that searches against a clock
(the hard bot) when no budget is given."""


def mix_seed(*parts: int) -> int:
    """Fold integers into one 64-bit seed.

    >>> mix_seed(1, 2) == mix_seed(1, 2) != mix_seed(2, 1)
    True
    """
    h = 0x243F6A8885A308D3
    for part in parts:
        h = Rng(h ^ part).next_u64()
    return h


def decision_rng(seed: int, view: SeatView) -> Rng:
    """A generator for one decision: the same for the same seed and view, another on
    every turn of a game."""
    seat = -1 if view.seat is None else view.seat
    return Rng(mix_seed(seed, seat, view.round, view.trick, len(view.trick_plays)))


def as_view(observation: Seen) -> SeatView:
    if isinstance(observation, SeatView):
        return observation
    return SeatView.from_observation(observation)


class Bot(ABC):
    """A computer player: ``choose`` returns one of the seat's legal actions."""

    kind: str = "bot"
    last_rollouts = -1  # rollouts the last choose ran (a searching bot's; -1: none)

    def __init__(self, seed: int) -> None:
        self.seed = int(seed)

    def choose(self, observation: Seen) -> Action:
        """A legal action for the seat whose view this is (its only one without :meth:`pick`)."""
        view = as_view(observation)
        actions = view.legal_actions()
        if not actions:
            raise ValueError("It is not this seat's turn: there is nothing to choose.")
        return actions[0] if len(actions) == 1 else self.pick(view, actions)

    @abstractmethod
    def pick(self, view: SeatView, actions: list[Action]) -> Action:
        """One of ``actions``, the two or more legal actions of ``view``'s seat."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} kind={self.kind} seed={self.seed}>"


class RandomBot(Bot):
    """Uniform over the legal actions: the baseline, and a fuzzer for the engine."""

    kind = "random"

    def pick(self, view: SeatView, actions: list[Action]) -> Action:
        return actions[decision_rng(self.seed, view).below(len(actions))]
