"""The one policy (engine.bots.rollout, on the core) plays exactly as the old heuristic did.

The old normal and easy bots' policy, written on a Situation of their own, is kept as an
oracle (tests/bots/bot_oracle/). The rollouts (SimState, integer actions, pruned
scoring) must play the same round as the oracle's checked rollout (checked Game,
Situation, every action scored) from the same position and generator: the same actions,
the same random draws, the same final state and values; every action's score and chance
must be the same floats; and the easy and normal bots must pick what the old ones picked,
decision by decision. Checked over positions of random games in every player count and
variant combination, for the normal style (argmax with random tie-breaks) and the easy
one (softmax over sensible actions).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from bot_oracle import old_heuristic
from bot_oracle.old_rollout import rollout as checked_rollout
from bot_oracle.old_situation import from_game, from_observation
from game_kit import canonical, rollout

from engine import Variants, new_game
from engine.bots import make_bot
from engine.bots.base import as_view, decision_rng
from engine.bots.determinize import Determinizer
from engine.bots.heuristic import EASY, NORMAL, Style
from engine.bots.policy import Choice, score_ids
from engine.bots.rollout import Decisions, rollout_seats
from engine.bots.search import DEFAULT_NOISE, OPPONENT_MODELS, Stop, run_worlds, seat_styles
from engine.cards import RACER_SUITS, Suit
from engine.game import Game
from engine.rng import Rng
from engine.shapes import Observation
from engine.sim import SimState


def _variants(index: int) -> Variants:
    larger, zero, zero_five = ((index >> bit) & 1 for bit in range(3))
    return Variants(
        larger_hands=bool(larger),
        zero_suit=RACER_SUITS[index % len(RACER_SUITS)] if zero else None,
        zero_five=bool(zero_five),
    )


_OLD = {NORMAL: old_heuristic.NORMAL, EASY: old_heuristic.EASY}


def _counting(style: Style) -> Style:
    """``style`` counting cards: the old rollouts and Situations always counted (only the
    old easy bot forgot, by a pool of its own); the policy now honours ``count_cards``
    wherever it runs, which the bots' test below checks."""
    return replace(style, count_cards=True)


def _old_choice(level: str, seed: int, observation: Observation) -> dict[str, object]:
    """What the old easy or normal bot played (its HeuristicBot.choose, verbatim)."""
    view = as_view(observation)
    actions = view.legal_actions()
    if len(actions) == 1:
        return dict(actions[0].to_dict())
    situation = from_observation(observation, actions)
    style = old_heuristic.NORMAL if level == "normal" else old_heuristic.EASY
    if not style.count_cards:
        pool = {Suit(name): n for name, n in observation["deck"]["copies"].items()}
        for card in situation.hand:
            pool[card] -= 1
        situation.unseen = pool
    rng = decision_rng(seed, view)
    return dict(old_heuristic.choose(situation, style, rng).to_dict())


@pytest.mark.parametrize("level", ["normal", "easy"])
def test_the_bots_pick_what_the_old_bots_picked(level: str) -> None:
    compared = 0
    for index in range(30):
        game = new_game(players=3 + index % 3, seed=index, variants=_variants(index))
        while game.winner is None:
            seat = game.current_seat
            assert seat is not None
            observation = game.observation(seat)
            chosen = make_bot(level, index).choose(observation)
            assert chosen.to_dict() == _old_choice(level, index, observation), (index, compared)
            game.apply(chosen)
            compared += 1
    assert compared > 1000


@pytest.mark.parametrize("style", [NORMAL, EASY], ids=["normal", "easy"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_sim_rollouts_play_the_same_rounds_as_checked_rollouts(players: int, style: Style) -> None:
    compared = 0
    for index in range(24):
        game = new_game(players=players, seed=index, variants=_variants(index))
        rng = Rng(index)
        while game.winner is None:
            if rng.below(4) == 0:
                sim = game.core.clone()
                copy = game.clone()
                expected = checked_rollout(copy, Rng(compared), _OLD[style])
                assert rollout(sim, Rng(compared), _counting(style)) == expected, (index, compared)
                assert sim.to_dict() == canonical(copy.to_dict()), (index, compared)
                compared += 1
            legal = game.legal_actions()
            game.apply(legal[rng.below(len(legal))])
    assert compared > 200


def test_sim_scores_are_the_heuristic_scores() -> None:
    """Every action's score and chance, not only the chosen one, are the same floats."""
    for index in range(40):
        game = new_game(players=3 + index % 3, seed=index, variants=_variants(index))
        rng = Rng(index)
        while game.winner is None:
            sim = game.core.clone()
            for style in (NORMAL, EASY):
                assert score_ids(
                    sim, sim.legal_key(), _counting(style)
                ) == old_heuristic.score_actions(from_game(game), _OLD[style])
            legal = game.legal_actions()
            game.apply(legal[rng.below(len(legal))])


def test_other_seats_play_their_own_style() -> None:
    """``others`` drives every seat but ``seat``: the same style gives the same round as
    one style for all, and a different one changes some rounds (it is really used)."""
    changed = 0
    for index in range(30):
        state = SimState.new(4, index)
        seat = state.turn
        same = rollout(state.clone(), Rng(index), NORMAL, NORMAL, seat)
        assert same == rollout(state.clone(), Rng(index), NORMAL)
        other = state.clone()
        rollout(other, Rng(index), NORMAL, EASY, seat)
        plain = state.clone()
        rollout(plain, Rng(index), NORMAL)
        changed += other.to_dict() != plain.to_dict()
    assert changed > 0


@pytest.mark.parametrize("models", [0, len(OPPONENT_MODELS) + 1])
def test_hard_bot_rejects_an_unknown_number_of_opponent_models(models: int) -> None:
    with pytest.raises(ValueError, match="models"):
        make_bot("hard", 1, iterations=10, models=models)


@pytest.mark.parametrize("models", [1, len(OPPONENT_MODELS)])
def test_hard_bot_plays_legally_with_each_opponent_modelling(models: int) -> None:
    game = new_game(players=4, seed=8)
    observation = game.observation(game.current_seat or 0)
    bot = make_bot("hard", 3, iterations=60, models=models)
    assert bot.choose(observation) in game.legal_actions()


@pytest.mark.parametrize("noise", [-0.1, 10.5])
def test_hard_bot_rejects_noise_out_of_range(noise: float) -> None:
    with pytest.raises(ValueError, match="noise"):
        make_bot("hard", 1, iterations=10, noise=noise)


def test_noise_reaches_the_modelled_opponents_and_only_them() -> None:
    # The same worlds and rollout seeds: noise 0 plays the normal model exactly (twice the
    # same rows); noise changes the opponents' replies, so some values move.
    game = new_game(players=4, seed=8)
    seat = game.current_seat or 0
    observation = game.observation(seat)
    shortlist = game.legal_actions()[:3]
    stop = Stop(60, None)
    exact = run_worlds(observation, shortlist, 5, stop, prune=False, noise=0.0)[0]
    assert exact == run_worlds(observation, shortlist, 5, stop, prune=False, noise=0.0)[0]
    noisy = run_worlds(observation, shortlist, 5, stop, prune=False, noise=DEFAULT_NOISE)[0]
    assert len(noisy) == len(exact)
    assert noisy != exact


def _positions(games: int, every: int) -> Iterator[tuple[int, Game]]:
    """Seeded random games of 3 to 5 players across the variants, each position kept with
    a chance of one in ``every``: (the game's index, the game at that position; not to be
    changed by the caller)."""
    for index in range(games):
        game = new_game(players=3 + index % 3, seed=index, variants=_variants(index))
        rng = Rng(index)
        while game.winner is None:
            if rng.below(every) == 0:
                yield index, game
            legal = game.legal_actions()
            game.apply(legal[rng.below(len(legal))])


def _played_alike(
    sampled: SimState,
    action: int,
    world: int,
    styles: list[Style],
    decisions: Decisions,
    segment: int = -1,
) -> None:
    """A rollout after ``action`` that shares ``decisions`` (and, given, the state's
    ``segment``) plays exactly as one without them: value, final state, generator."""
    plain, shared = sampled.clone(), sampled.clone()
    plain.apply(action)
    shared.apply(action)
    plain_rng, shared_rng = Rng(world), Rng(world)
    expected = rollout_seats(plain, plain_rng, styles, False)
    got = rollout_seats(shared, shared_rng, styles, False, decisions, segment)
    assert got == expected
    assert shared.to_dict() == plain.to_dict()
    assert shared_rng.state == plain_rng.state


def test_a_rollout_without_the_round_end_deal_gives_the_same_values() -> None:
    """The search's rollouts stop before the next round's deal (SimState.play_out): the
    values, the laps, gas and next lead must be those of the rollout that deals."""
    compared = 0
    for index, game in _positions(24, 3):
        dealt, undealt = game.core.clone(), game.core.clone()
        seat = dealt.turn
        noisy = replace(NORMAL, temperature=DEFAULT_NOISE)
        expected = rollout(dealt, Rng(compared), NORMAL, noisy, seat)
        got = rollout(undealt, Rng(compared), NORMAL, noisy, seat, deal=False)
        assert got == expected, (index, compared)
        assert (undealt.laps, undealt.gas, undealt.lead, undealt.winner) == (
            dealt.laps,
            dealt.gas,
            dealt.lead,
            dealt.winner,
        )
        compared += 1
    assert compared > 100


class _CountingDict(dict[tuple[int, ...], Choice]):
    """A cache that counts the lookups it answers."""

    hits = 0

    def get(self, key: tuple[int, ...], default: Any = None) -> Any:
        found = super().get(key, default)
        self.hits += found is not None
        return found


def test_a_search_s_shared_decisions_change_no_rollout() -> None:
    """Rollouts sharing one Decisions (as a search's do) play exactly as rollouts without
    it: the same values, final states and generator states. One cache serves every
    table here in turn, so it must also never answer from another table's choices."""
    decisions = Decisions()
    decisions.choices = answers = _CountingDict()
    compared = 0
    for _, game in _positions(18, 3):
        seat = game.current_seat
        assert seat is not None
        determinizer = Determinizer(game.view(seat))
        noisy = replace(NORMAL, temperature=DEFAULT_NOISE)
        styles = seat_styles(seat, game.players, noisy, ())
        for world in range(4):
            sampled = determinizer.sample_parts(Rng(world))[0]
            for action in sampled.legal()[:3]:
                _played_alike(sampled, action, world, styles, decisions)
                compared += 1
    assert compared > 500
    assert answers.hits > 1000  # the cache is really used


def test_a_candidate_s_public_state_is_the_same_in_every_world() -> None:
    """The search works out the id of the public state after a candidate on its first
    world only (engine.bots.search.run_worlds): every sampled world must give that state the
    same id, and a rollout handed the id must play as one without the cache."""
    decisions = Decisions()
    compared = 0
    for index, game in _positions(12, 4):
        seat = game.current_seat
        assert seat is not None
        determinizer = Determinizer(game.view(seat))
        styles = seat_styles(seat, game.players, OPPONENT_MODELS[index % 4], ())
        starts: dict[int, int] = {}
        for world in range(3):
            sampled = determinizer.sample_parts(Rng(world))[0]
            for action in sampled.legal()[:4]:
                after = sampled.clone()
                after.apply(action)
                decisions.bind(after, styles)
                start = starts.setdefault(action, decisions.segment(after))
                assert decisions.segment(after) == start, (index, compared)
                _played_alike(sampled, action, world, styles, decisions, start)
                compared += 1
    assert compared > 300
