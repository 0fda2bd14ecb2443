"""Computer players (docs/bots.md): ``make_bot(kind, seed, **options)`` for the levels
:data:`BOT_LEVELS`. A bot only ever receives one seat's view (``Game.view(seat)``, or its
JSON form), never the game, so it cannot see hidden cards by construction.

>>> from engine import new_game
>>> game = new_game(players=4, seed=5)
>>> bot = make_bot("normal", seed=1)
>>> bot.choose(game.observation(game.current_seat)) in game.legal_actions()
True
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action
from engine.bots.base import DEFAULT_BOT_BUDGET_MS, Bot, RandomBot, Seen, decision_rng
from engine.bots.determinize import fixed_deal
from engine.bots.heuristic import EASY, NORMAL, Style
from engine.bots.policy import choose_id
from engine.seat_view import SeatView
from engine.sim import ACTIONS


class NormalBot(Bot):
    """A solid heuristic player: counts this round's cards, values gas across rounds."""

    kind = "normal"
    style: Style = NORMAL

    def pick(self, view: SeatView, actions: list[Action]) -> Action:
        return ACTIONS[choose_id(fixed_deal(view), self.style, decision_rng(self.seed, view))]


class EasyBot(NormalBot):
    """Plausible but beatable: noisy choices among sensible moves, no card counting."""

    kind = "easy"
    style = EASY


BOT_LEVELS: tuple[str, ...] = ("random", "easy", "normal", "hard")
"""The bot levels (the ``kind`` of :func:`make_bot`), weakest first."""
_PLAIN: dict[str, type[Bot]] = {"random": RandomBot, "easy": EasyBot, "normal": NormalBot}


def make_bot(kind: str, seed: int, **options: Any) -> Bot:
    """Build a bot of ``kind`` with its own seed; unknown kinds or options raise ``ValueError``.

    Options (``hard`` only): ``time_budget_ms`` on a ``clock``, or ``iterations`` (fixed
    work, reproducible); ``workers`` jobs run by ``map_jobs`` (a process pool's ``map``);
    ``candidates`` (actions searched); ``models`` (opponent models cycled over the worlds)
    at temperature ``noise``; ``infer`` (the inference's temperature); and what the search
    is told of the seats (:class:`engine.bots.search.Told`).
    """
    if kind == "hard":
        from engine.bots.search import HARD_OPTIONS, HardBot

        unknown = set(options) - HARD_OPTIONS
        if unknown:
            raise ValueError(f"Unknown option(s) for the hard bot: {', '.join(sorted(unknown))}.")
        return HardBot(seed, **options)
    if options:
        raise ValueError(f"The {kind!r} bot takes no options: {', '.join(sorted(options))}.")
    if kind not in _PLAIN:
        raise ValueError(f"Unknown bot kind {kind!r}: choose one of {', '.join(BOT_LEVELS)}.")
    return _PLAIN[kind](seed)


def decide(
    kind: str, seed: int, observation: Seen, **options: Any
) -> tuple[dict[str, Any], int | None]:
    """One decision as plain data, for another process: the action's dict and the rollouts
    the bot ran (None: no search, e.g. one legal move).

    >>> from engine import new_game
    >>> game = new_game(players=4, seed=5)
    >>> action, rollouts = decide("hard", 1, game.observation(game.current_seat), iterations=30)
    >>> rollouts
    30
    >>> decide("normal", 1, game.observation(game.current_seat))[1] is None
    True
    """
    bot = make_bot(kind, seed, **options)
    bot.last_rollouts = -1  # the hard bot sets it only when it searches
    action = bot.choose(observation)
    return dict(action.to_dict()), (bot.last_rollouts if bot.last_rollouts >= 0 else None)


__all__ = ["BOT_LEVELS", "DEFAULT_BOT_BUDGET_MS", "Bot", "decide", "make_bot"]
