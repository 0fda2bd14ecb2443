"""The data-only view (engine.seat_view) plus the web layer's previews (app.http.previews,
the seat's options of engine.options as JSON) are, byte for byte, what the view that built
its previews itself sent (the oracle in tests/engine/oracle/old_view.py): every seat and
the spectator, every position of seeded random races over every table size and variant
combination."""

from __future__ import annotations

from typing import cast

import orjson
import pytest
from game_kit import VARIANT_COMBOS, variant_label
from oracle import old_view
from oracle.old_game import Play

from app.http.previews import with_previews
from engine import (
    Action,
    ActionType,
    Game,
    Suit,
    Variants,
    new_game,
    observe,
    observe_public,
    supply_after_effect,
)
from engine.rng import Rng
from engine.shapes import TrickRecord


class _OldGame:
    """A game as the oracle reads it: the checked game, with the helpers it had then
    (the trick's face-up suits, its 1 and its 0/5 card, the gas a card may carry), worked
    out here from the game's state so that the oracle stays independent of the options."""

    def __init__(self, game: Game) -> None:
        self._game = game

    def __getattr__(self, name: str) -> object:
        # The numbers the game no longer names itself (round, lead, middle...) are its core's.
        game = self._game
        return getattr(game, name) if hasattr(game, name) else getattr(game.core, name)

    @property
    def plays(self) -> list[Play]:
        return [Play.from_dict(p) for p in self._game.to_dict()["plays"]]

    @property
    def round_tricks(self) -> list[TrickRecord]:
        return list(self._game.to_dict()["round_tricks"])

    @property
    def last_trick(self) -> TrickRecord | None:
        return cast("TrickRecord | None", self._game.to_dict()["last_trick"])

    def lichen_in_trick(self) -> bool:
        return Suit.LICHEN in self.blocked_suits()

    def blocked_suits(self) -> list[Suit]:
        return [p.card for p in self.plays if p.kind is ActionType.PLAY and p.card]

    def zero_five_in_trick(self) -> bool:
        return any(p.kind is ActionType.ZERO_FIVE for p in self.plays)

    def supply_after_effect(self, seat: int, action: Action) -> int:
        game = self._game
        return supply_after_effect(action, game.gas[seat], game.core.middle, game.core.removed)


def _positions(players: int, variants: Variants, seed: int) -> list[Game]:
    game = new_game(players=players, seed=seed, variants=variants)
    rng = Rng(seed)
    seen = [game.clone()]
    while not game.is_over:
        actions = game.legal_actions()
        game.apply(actions[rng.below(len(actions))])
        seen.append(game.clone())
    return seen


@pytest.mark.parametrize("variants", VARIANT_COMBOS, ids=variant_label)
def test_views_with_previews_are_the_old_views_byte_for_byte(variants: Variants) -> None:
    compared = 0
    for players in (3, 4, 5):
        for seed in range(4):
            for game in _positions(players, variants, seed):
                for seat in range(players):
                    old = orjson.dumps(old_view.observe(_OldGame(game), seat))
                    assert orjson.dumps(with_previews(observe(game, seat))) == old
                    compared += 1
                old = orjson.dumps(old_view.observe_public(_OldGame(game)))
                assert orjson.dumps(with_previews(observe_public(game))) == old
    assert compared > 1000


def test_the_bare_view_carries_no_previews_and_the_previews_only_the_movers() -> None:
    game = new_game(players=4, seed=8)
    seat = game.current_seat
    assert seat is not None
    view = observe(game, seat)
    assert "card_options" not in view and "zero_five_option" not in view
    shown = with_previews(view)
    assert shown["card_options"] and {o["suit"] for o in shown["card_options"]} == set(view["hand"])
    waiting = with_previews(observe(game, (seat + 1) % 4))
    assert waiting["card_options"] == [] and waiting["zero_five_option"] is None
