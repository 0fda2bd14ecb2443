"""Inference from the opponents' plays (engine/bots/infer.py): the round's start is
worked out from the view alone, the real deal explains the normal bots' plays better than
a random one, and the search weighs its worlds by it without ever seeing the real cards."""

from __future__ import annotations

from engine import Variants, new_game
from engine.bots.determinize import Determinizer
from engine.bots.infer import Inference, _replay_public, _steps
from engine.bots.players import NormalBot
from engine.bots.search import HardBot, best_candidate, weights_of
from engine.cards import SUIT_ORDER, Suit
from engine.game import Game
from engine.rng import Rng
from engine.seat_view import SeatView
from engine.sim import INFO, TUNE_UP


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


def test_the_round_start_replays_to_the_views_numbers() -> None:
    # The gas and middle at the round's start are not in the view; the fitted start,
    # replayed through the public plays, ends on the view's numbers.
    positions = _normal_positions(4, seed=40)
    assert len(positions) > 30
    for _, view in positions:
        inference = Inference(view, 0.3)
        assert inference.active
        steps = _steps(view)
        assert steps is not None
        start = inference.start
        end, _ = _replay_public(view, steps, start.gas, start.middle)
        assert end.gas == list(view.gas)
        assert end.middle == view.middle
        assert end.speed == list(view.speed)


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
    other = Determinizer(view).sample(Rng(99))  # same view, other hidden cards
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
