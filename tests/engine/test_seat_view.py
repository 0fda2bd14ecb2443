"""The seat view as data (engine.seat_view.SeatView): the one builder, its JSON form and
its secrecy while a race is being played (the core's own records, not a restored save)."""

from __future__ import annotations

import orjson
import pytest
from game_kit import VARIANT_COMBOS, random_positions, variant_label
from hypothesis import given, settings
from hypothesis import strategies as st
from property_kit import examples

from engine import Action, ActionType, Game, SeatView, Variants, new_game, observe, observe_public
from engine.bots import make_bot
from engine.bots.determinize import Determinizer
from engine.cards import TRICKS_PER_ROUND
from engine.rng import Rng
from engine.sim import ACTIONS, MASKED, public_play

PROPERTY = settings(max_examples=examples(60), deadline=None, derandomize=True, database=None)


@pytest.mark.parametrize("variants", VARIANT_COMBOS, ids=variant_label)
def test_the_cached_view_the_fresh_view_and_the_json_form_agree(variants: Variants) -> None:
    """Game.view (legal ids and trick forms remembered between calls) equals a view built
    from nothing, its JSON form is what observe() sends, and that form reads back to the
    same view, for every seat and the spectator."""
    compared = 0
    for players in (3, 4, 5):
        for game in random_positions(players, variants, seed=players, count=120):
            for seat in [*range(players), None]:
                view = game.view(seat)
                assert view == SeatView.of(game.core, seat)
                shown = observe(game, seat) if seat is not None else observe_public(game)
                assert view.to_dict() == shown
                assert SeatView.from_observation(shown) == view
                compared += 1
            if compared % 7 == 0:
                # A reloaded core holds its records in their public form: the same view.
                assert Game.from_dict(game.to_dict()).view(None) == game.view(None)
    assert compared > 1000


def _play_alike(worlds: list[Game], observer: int, rng: Rng, turns: int) -> None:
    """The same public moves in every world: the observer plays the same action
    everywhere; every other seat lays down the first card of its hand, which differs from
    world to world while nobody else can see it. Play stops before the round's last card:
    the next deal comes from the hidden discards, which differ."""
    for _ in range(turns):
        seat = worlds[0].current_seat
        lead = worlds[0]
        if seat is None or (
            lead.core.trick == TRICKS_PER_ROUND and len(lead.core.plays) == lead.players - 1
        ):
            return
        if seat == observer:
            actions = worlds[0].legal_actions()
            action = actions[rng.below(len(actions))]
            for world in worlds:
                world.apply(action, seat)
        else:
            for world in worlds:
                world.apply(Action.tune_up(world.hand(seat)[0]), seat)


@settings(PROPERTY)
@given(
    players=st.sampled_from((3, 4, 5)),
    variants=st.sampled_from(VARIANT_COMBOS),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_a_view_never_depends_on_cards_laid_face_down_during_play(
    players: int, variants: Variants, seed: int
) -> None:
    """Twin races, dealt apart in every card the observer cannot see, played on with the
    same public moves (Tune Ups of different cards): the observer's view and its JSON form
    are the same in both, trick records in the core's own compact form included."""
    game = new_game(players=players, seed=seed, variants=variants)
    rng = Rng(seed)
    for _ in range(rng.below(3 * players)):
        game.apply(game.legal_actions()[rng.below(len(game.legal_actions()))])
    observer = (game.current_seat or 0) % players
    sampler = Determinizer(game.view(observer))
    worlds = [Game.over(sampler.sample_parts(Rng(seed + n))[0]) for n in range(2)]
    _play_alike(worlds, observer, rng, turns=2 * players + rng.below(2 * players))
    first, second = (world.view(observer) for world in worlds)
    assert first == second
    assert orjson.dumps(first.to_dict()) == orjson.dumps(second.to_dict())
    assert worlds[0].view(None) == worlds[1].view(None)


def test_the_twin_races_really_differ_in_their_face_down_cards() -> None:
    """Guard for the property above: the hidden cards laid down do differ between the
    worlds, in the core's records of finished tricks, while the views agree."""
    game = new_game(players=4, seed=21)
    sampler = Determinizer(game.view(0))
    worlds = [Game.over(sampler.sample_parts(Rng(n))[0]) for n in (1, 2)]
    _play_alike(worlds, 0, Rng(3), turns=8)
    records = [world.core.tricks for world in worlds]
    assert all(isinstance(r, tuple) for rs in records for r in rs)
    assert records[0] != records[1]
    assert worlds[0].view(0) == worlds[1].view(0)


def test_a_tune_up_and_the_zero_five_discard_have_no_suit_in_public() -> None:
    """A view keeps each play as the first action showing the same (MASKED): every Tune Up
    as one, the 0/5 card by its value and gas whatever its discard, a face-up card as is."""
    shown: dict[tuple[object, ...], set[int]] = {}
    for a, action in enumerate(ACTIONS):
        assert public_play(0, MASKED[a], 1, True) == public_play(0, a, 1, True)
        if action.type is ActionType.PLAY:
            assert MASKED[a] == a
        hidden = action.type is ActionType.TUNE_UP or action.discard is not None
        key = (action.type, action.value, action.gas) if hidden else (a,)
        shown.setdefault(key, set()).add(MASKED[a])
    assert all(len(masked) == 1 for masked in shown.values())
    assert len({MASKED[a] for a, action in enumerate(ACTIONS) if action.type == "tune_up"}) == 1


@pytest.mark.parametrize("level", ["random", "easy", "normal", "hard"])
def test_a_bot_picks_the_same_from_a_view_and_from_its_json_form(level: str) -> None:
    options = {"iterations": 24} if level == "hard" else {}
    picked = 0
    for game in random_positions(4, Variants(zero_five=True), seed=9, count=40, stride=3):
        seat = game.current_seat
        assert seat is not None
        view = game.view(seat)
        from_view = make_bot(level, 5, **options).choose(view)
        from_json = make_bot(level, 5, **options).choose(game.observation(seat))
        assert from_view == from_json
        assert from_view in game.legal_actions()
        picked += 1
    assert picked == 40


def test_a_spectator_view_offers_no_move_and_cannot_be_sampled() -> None:
    game = new_game(players=3, seed=4)
    view = game.view(None)
    assert view.legal == () and sum(view.hand) == 0 and view.legal_actions() == []
    with pytest.raises(ValueError, match="spectator"):
        Determinizer(view)
    with pytest.raises(ValueError, match="no seat 3"):
        SeatView.of(game.core, 3)
