"""A review sees what the seat saw, nothing more: twin races, the search's own moves, and
the kept moves that rebuild a race.

Twin races share everything the reviewed seat ever saw and differ in cards it never saw:
a card another seat still held when the race ended, or the card another seat laid face
down (a Tune Up, R7). With the same moves by every seat, the seat's reviews are equal to
the last digit. (A one-round race, every racer on one lap already, so the cards set aside
by Larger Hands, R18, never go back into a deal.)
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from app_kit import play_inline, run_bots_inline

from app.races import review
from app.races.record import GameConfig, GameSession, decode_move, encode_move, new_session
from app.races.review import Budget, Deal
from app.settings import Settings
from engine import Action, ActionType, Game, Observation, Suit, Variants, new_game, observe
from engine.bots import make_bot
from engine.bots.base import as_view
from engine.bots.search import NOTHING_TOLD, Told

BUDGET = Budget(worlds=8, candidates=5, seed=3)
LARGER = Variants(larger_hands=True)


def one_round_race(seed: int) -> tuple[Game, list[int]] | None:
    """A race on one lap each, played by normal bots; its start and its kept moves, or
    None when it did not end in its first round."""
    start = new_game(players=4, seed=seed, variants=LARGER, laps=[1, 1, 1, 1])
    game = start.clone()
    moves = []
    bots = [make_bot("normal", seed * 10 + s) for s in range(4)]
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        action = bots[seat].choose(observe(game, seat))
        moves.append(encode_move("person" if seat == 0 else "bot", seat, action))
        game.apply(action, seat=seat)
    return (start, moves) if game.core.round == 1 else None


def swapped(start: Game, seat: int, card: Any, stand_in: Any) -> Game:
    """``start`` with ``card`` in ``seat``'s hand and ``stand_in`` set aside trading places."""
    data = start.to_dict()
    hand, aside = data["hands"][seat], data["set_aside"]
    hand[hand.index(card.value)] = stand_in.value
    aside[aside.index(stand_in.value)] = card.value
    return Game.from_dict(data)


def deal_of(start: Game, moves: list[int]) -> Deal:
    return Deal(start.to_dict(), tuple(moves), start.core.seed)


def seat_views(deal: Deal, seat: int) -> list[Any]:
    return [observe(game, seat) for _, mover, _, game in deal.replay() if mover == seat]


def twins() -> tuple[Deal, Deal, Deal]:
    """A race, its twin by a card another seat kept, its twin by a Tune Up's card."""
    for seed in range(1, 60):
        found = one_round_race(seed)
        if found is None:
            continue
        start, moves = found
        end = start.clone()
        for kept in moves:
            end.apply(decode_move(kept)[2])
        tuned = [
            (i, s, a)
            for i, m in enumerate(moves)
            for _kind, s, a in [decode_move(m)]
            if s != 0 and a.type is ActionType.TUNE_UP
        ]
        aside = start.set_aside
        kept = end.hands[2][0]
        if not tuned or all(c == kept for c in aside):
            continue
        stand_in = next(c for c in aside if c != kept)
        held = deal_of(swapped(start, 2, kept, stand_in), moves)
        index, tuner, action = tuned[0]
        other = next((c for c in aside if c != action.suit), None)
        if other is None:
            continue
        changed = list(moves)
        changed[index] = encode_move("bot", tuner, Action.tune_up(other))
        face_down = deal_of(swapped(start, tuner, action.suit, other), changed)
        return deal_of(start, moves), held, face_down
    raise AssertionError("no one-round race with a Tune Up among the seeds tried")


@pytest.mark.parametrize(
    "told", [NOTHING_TOLD, Told(normal_seats=(1, 2, 3))], ids=["not-told", "told-normal-seats"]
)
def test_twin_races_differing_in_unseen_cards_get_identical_reviews(told: Told) -> None:
    race, held, face_down = twins()
    for twin in (held, face_down):
        assert twin.fresh() != race.fresh(), "the twins' hidden cards differ"
        assert seat_views(twin, 0) == seat_views(race, 0), "seat 0 saw the same things"
    decisions = review.decisions_of(race, 0)
    assert decisions == review.decisions_of(held, 0) == review.decisions_of(face_down, 0)
    reviewed = review.review_moves(race, 0, decisions, BUDGET, told)
    assert len(reviewed) == len(decisions) > 3
    assert review.review_moves(held, 0, decisions, BUDGET, told) == reviewed
    assert review.review_moves(face_down, 0, decisions, BUDGET, told) == reviewed
    # A seat that did see the swapped card (the one who held it) is not a twin: its
    # review may differ, which shows the check above can fail.
    tuner_seat = next(s for s in (1, 2, 3) if seat_views(face_down, s) != seat_views(race, s))
    assert tuner_seat in (1, 2, 3)


def search_choice(observation: Observation, told: Told) -> Action:
    """The move the review's search would play itself, with the same budget and told the
    same (docs/review.md): a seat that always plays it loses nothing in its review."""
    actions = as_view(observation).legal_actions()
    if len(actions) == 1:
        return actions[0]
    return review.best_of(review.estimate(observation, BUDGET, told=told)).action


@pytest.mark.parametrize(
    "told", [NOTHING_TOLD, Told(normal_seats=(1, 2, 3))], ids=["not-told", "told-normal-seats"]
)
def test_a_seat_playing_the_searchs_own_choice_loses_nothing(told: Told) -> None:
    game = new_game(players=4, seed=77)
    start = game.clone()
    moves = []
    bots = {s: make_bot("normal", 500 + s) for s in (1, 2, 3)}
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        observation = observe(game, seat)
        action = search_choice(observation, told) if seat == 0 else bots[seat].choose(observation)
        moves.append(encode_move("person" if seat == 0 else "bot", seat, action))
        game.apply(action, seat=seat)
    deal = Deal(start.to_dict(), tuple(moves), 77)
    assert deal.fresh() == start
    entries = review.review_moves(deal, 0, review.decisions_of(deal, 0), BUDGET, told)
    assert entries and all(e["played"] == e["best"] and e["loss"] == 0 for e in entries)
    summary = review.summary(entries, BUDGET)
    assert summary["total_loss"] == 0 and summary["accuracy"] == 100.0
    # Another budget's search disagrees somewhere: the zero above is not a constant.
    other = review.review_moves(
        deal, 0, review.decisions_of(deal, 0), Budget(worlds=8, seed=4), told
    )
    assert any(e["loss"] > 0 for e in other)


@pytest.mark.parametrize(
    "variants",
    [
        Variants(),
        Variants(larger_hands=True),
        Variants(zero_five=True),
        Variants(larger_hands=True, zero_suit=Suit.BEANS, zero_five=True),
    ],
    ids=["base", "larger_hands", "zero_five", "larger_hands_zero"],
)
def test_the_kept_moves_rebuild_the_race_exactly(variants: Variants) -> None:
    settings = Settings(seed_secret="kept-moves")
    for seed in (1, 2):
        session = new_session(GameConfig(players=4, seed=seed, variants=variants), settings)
        rng = random.Random(seed)
        run_bots_inline(session)
        while not session.game.is_over:
            play_inline(session, rng.choice(session.game.legal_actions()))
        saved = GameSession.from_dict(session.to_dict())
        assert saved.moves == session.moves
        rebuilt = Deal.of(saved).fresh()
        for kept in saved.moves:
            _kind, seat, action = decode_move(kept)
            rebuilt.apply(action, seat=seat)
        assert rebuilt == session.game
        kinds = {decode_move(m)[2].type for m in saved.moves}
        assert ActionType.TUNE_UP in kinds, "face-down cards are kept too"
