"""Inference from the opponents' plays (engine/bots/infer.py): the round's possible
starts are worked out from the view alone, the real one among them; replayed from it with
the real deal, every normal-bot play gets the model's own chance; the real deal explains
the normal bots' plays better than a random one, and the search weighs its worlds by it
without ever seeing the real cards."""

from __future__ import annotations

import math

import pytest

from engine import Variants, new_game
from engine.bots import NormalBot
from engine.bots.candidates import best_candidate, weights_of
from engine.bots.determinize import TUNE_UP_IDS, Determinizer
from engine.bots.heuristic import NORMAL
from engine.bots.infer import Inference, log_chance
from engine.bots.search import SKIP, HardBot, Stop, rank_candidates, run_worlds
from engine.cards import SUIT_ORDER, Suit
from engine.game import Game
from engine.rng import Rng
from engine.seat_view import SeatView
from engine.sim import INFO, LICHEN, TUNE_UP, SimState


def _normal_positions(games: int, seed: int, every: int = 3) -> list[tuple[Game, SeatView]]:
    """Positions (the game as it stands, and the seat to move's view) from games between
    normal bots, every ``every``-th decision from trick 2 on (a round with plays to read)."""
    found: list[tuple[Game, SeatView]] = []
    for g in range(games):
        game = new_game(players=4, seed=seed + g)
        bots = [NormalBot(s) for s in range(4)]
        decision = 0
        while decision < 90:
            seat = game.current_seat
            if game.winner is not None or seat is None:
                break
            view = game.view(seat)
            if decision % every == 0 and view.trick >= 2:
                found.append((game.clone(), view))
            game.apply(bots[seat].choose(view), seat)
            decision += 1
    return found


def _true_discards(game: Game) -> list[Suit]:
    """The real Tune Ups of this round's completed tricks, in play order."""
    return [
        SUIT_ORDER[INFO[action][1]]
        for record in game.core.tricks
        for _, action, _ in record[2]
        if INFO[action][0] == TUNE_UP
    ]


#: A position with its history this round: the game, the seat to move's view, the real
#: round start (gas, middle, removed gas) and every play of the round so far, each with
#: the real state it was made in.
Rounded = tuple[Game, SeatView, tuple[tuple[int, ...], int, int], list[tuple[SimState, int]]]


def _normal_rounds(games: int, seed: int, every: int) -> list[Rounded]:
    """:func:`_normal_positions`, with each position's round history (:data:`Rounded`)."""
    found: list[Rounded] = []
    for g in range(games):
        game = new_game(players=4, seed=seed + g)
        bots = [NormalBot(s) for s in range(4)]
        start = (tuple(game.core.gas), game.core.middle, game.core.removed)
        plays: list[tuple[SimState, int]] = []
        for decision in range(90):
            seat = game.current_seat
            if game.winner is not None or seat is None:
                break
            view = game.view(seat)
            if view.trick == 1 and not view.trick_plays:
                start = (tuple(game.core.gas), game.core.middle, game.core.removed)
                plays = []
            if decision % every == 0 and view.trick >= 2:
                found.append((game.clone(), view, start, list(plays)))
            action = bots[seat].choose(view)
            plays.append((game.core.clone(), game.core.legal()[game.legal_actions().index(action)]))
            game.apply(action, seat)
    return found


def _replays_legally(view: SeatView, inference: Inference, k: int) -> bool:
    """Whether the round's public plays, replayed under the rules from the inference's
    ``k``-th start (a Tune Up of a stand-in card), are every one legal and end on the
    view's numbers."""
    s = inference.firsts[k].clone()
    for seat, action, _ in inference.steps:
        action = TUNE_UP_IDS[LICHEN] if action < 0 else action
        s.hands[seat][INFO[action][1]] += 1
        s.masks[seat] |= 1 << INFO[action][1]
        if action not in s.legal():
            return False
        s.apply(action)
    return (s.gas, s.middle, s.removed, s.speed) == (
        list(view.gas),
        view.middle,
        view.removed,
        list(view.speed),
    )


def test_the_round_starts_replay_to_the_views_numbers_and_hold_the_real_one() -> None:
    # The gas and middle at the round's start are not in the view, and the public plays
    # do not always fix them; every start the inference keeps replays legally to the
    # view's numbers, and the real start is always one of them.
    positions = _normal_rounds(4, seed=40, every=3)
    assert len(positions) > 30
    for _, view, real, _ in positions:
        inference = Inference(view, 0.3)
        assert inference.active
        assert real in inference.starts
        assert all(_replays_legally(view, inference, k) for k in range(len(inference.starts)))
    assert max(len(Inference(view, 0.3).starts) for _, view, _, _ in positions) > 1


def test_with_the_real_deal_each_normal_play_gets_the_models_own_chance() -> None:
    # The normal bot plays its best score (ties at random), so the model is exact here:
    # replayed with the real deal from the real start, every opponent's play gets the
    # very chance the model gives it in the real game. Averaged over the possible
    # starts, the real deal's likelihood is then at least that over their number; a
    # replay from a wrong start scores some plays as mistakes and falls below it.
    temperature = 0.001
    positions = _normal_rounds(6, seed=80, every=2)
    assert len(positions) > 60
    for game, view, _, plays in positions:
        inference = Inference(view, temperature)
        model = sum(
            log_chance(state, action, NORMAL, temperature)
            for state, action in plays
            if state.turn != view.seat
        )
        truth = inference.log_weight(game.core, _true_discards(game))
        assert truth >= model - math.log(len(inference.starts)) - 1e-9


def test_the_real_deal_explains_the_normal_bots_plays_better_than_random_deals() -> None:
    # The opponents are normal bots, the very policy the inference models: the real deal
    # must be likelier than most deals sampled uniformly from the same view.
    positions = _normal_positions(5, seed=60, every=4)
    quantiles = []
    for n, (game, view) in enumerate(positions):
        inference = Inference(view, 0.3)
        truth = inference.log_weight(game.core, _true_discards(game))
        determinizer = Determinizer(view)
        rng = Rng(n)
        sampled = [inference.log_weight(*determinizer.sample_parts(rng)) for _ in range(40)]
        quantiles.append(sum(x < truth for x in sampled) / len(sampled))
    assert len(quantiles) > 20
    assert sum(quantiles) / len(quantiles) > 0.6


def test_inference_reads_the_view_only() -> None:
    # Two games that differ only in the cards the seat cannot see weigh the same sampled
    # world the same: the real hidden cards never reach the inference.
    game = new_game(players=4, seed=8)
    bots = [NormalBot(s) for s in range(4)]
    for _ in range(9):
        seat = game.current_seat
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat)), seat)
    seat = game.current_seat
    assert seat is not None
    view = game.view(seat)
    other = Game.over(Determinizer(view).sample_parts(Rng(99))[0])  # same view, other hidden cards
    assert other.view(seat) == view
    world, rest = Determinizer(view).sample_parts(Rng(3))
    mine = Inference(view, 0.3).log_weight(world, rest)
    theirs = Inference(other.view(seat), 0.3).log_weight(world, rest)
    assert mine == theirs < 0.0


def test_inference_is_off_at_zero_and_with_the_variants_it_cannot_replay() -> None:
    positions = _normal_positions(1, seed=70)
    assert not Inference(positions[0][1], 0.0).active
    game = new_game(players=4, seed=3, variants=Variants(zero_five=True))
    seat = game.current_seat
    assert seat is not None
    assert not Inference(game.view(seat), 0.3).active


def test_weighted_choice_follows_the_weights() -> None:
    rows = [[0.9, 0.1], [0.1, 0.3], [0.1, 0.3]]
    assert best_candidate(rows, [0, 1]) == 0  # 1.1 against 0.7
    assert best_candidate(rows, [0, 1], weights_of([0.0, -3.0, -3.0])) == 0
    assert best_candidate(rows, [0, 1], weights_of([-5.0, 0.0, 0.0])) == 1


def test_hard_bot_with_inference_plays_legal_moves_through_a_game() -> None:
    game = new_game(players=3, seed=12)
    bots = [HardBot(s, iterations=40, infer=0.3) for s in range(3)]
    for _ in range(40):
        seat = game.current_seat
        if game.winner is not None or seat is None:
            break
        action = bots[seat].choose(game.view(seat))
        assert action in game.legal_actions()
        game.apply(action, seat)


def test_worlds_weighing_under_a_thousandth_of_the_best_so_far_are_not_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # At a low temperature most uniformly dealt worlds cannot explain the normal bots'
    # plays; the search weighs a world first and spends no rollouts on those.
    weighed = []
    log_weight = Inference.log_weight

    def counted(self: Inference, world: SimState, rest: list[Suit], floor: float) -> float:
        weighed.append(floor)
        return log_weight(self, world, rest, floor)

    monkeypatch.setattr(Inference, "log_weight", counted)
    _, view = _normal_positions(1, seed=90, every=5)[3]
    ranked = rank_candidates(view, view.legal_actions(), 8)
    rows, logs, used, _ = run_worlds(view, ranked, 5, Stop(400, None), 1, noise=0.0, infer=0.05)
    assert len(weighed) > len(rows) == len(logs)
    assert used >= len(weighed) + len(rows)  # a weighing counts as a rollout
    for i, log in enumerate(logs):
        assert log >= max(logs[:i], default=-math.inf) - SKIP
