"""The hidden-card sampler: sampled games agree with everything the seat knows, conserve
the deck, keep the seat's own hand, vary the hidden cards, and never read the real ones."""

from __future__ import annotations

from collections import Counter

import pytest
from game_kit import VARIANT_COMBOS, cards_in_play, deck_of, random_positions, variant_label

from engine import Action, Game, Suit, Variants, new_game
from engine.actions import ActionType
from engine.bots.determinize import Determinizer
from engine.cards import SUIT_ORDER
from engine.rng import Rng
from engine.sim import SimState


def _from_parts(
    determinizer: Determinizer,
    game: Game,
    hands: list[list[Suit]],
    hidden: list[Suit],
    rest: list[Suit],
) -> SimState:
    """The sampled game built from the real one's saved form with its hidden parts
    replaced: the other seats' ``hands``, the current trick's Tune Ups dealt from
    ``hidden`` in turn (the seat's current speed standing in for the hidden one), then the
    set-aside cards, and ``rest`` standing for this round's unseen discards."""
    view, data = determinizer.view, game.to_dict()
    own = data["hands"][determinizer.seat]
    data["hands"] = [[card.value for card in hand] for hand in hands]
    data["hands"][determinizer.seat] = own
    at = 0
    for play in data["plays"]:
        if play["type"] == ActionType.TUNE_UP.value:
            play["card"], play["speed"] = hidden[at].value, view.speed[play["seat"]]
            at += 1
    data["set_aside"] = [card.value for card in hidden[at : at + determinizer.set_aside]]
    done = [SUIT_ORDER[i] for i in determinizer.done_ids]
    data["discards"] = [card.value for card in done + rest]
    data["seed"], data["lap_order"] = 0, determinizer.template.lap_order
    return Game.from_dict(data).core


@pytest.mark.parametrize("variants", VARIANT_COMBOS, ids=variant_label)
@pytest.mark.parametrize("players", [3, 5])
def test_samples_match_the_observation_and_conserve_the_deck(
    variants: Variants, players: int
) -> None:
    for n, game in enumerate(random_positions(players, variants, seed=7, count=60, stride=3)):
        seat = game.current_seat
        assert seat is not None
        observation = game.observation(seat)
        sample = Game.over(Determinizer(observation).sample_parts(Rng(n))[0])
        # Same public numbers, same own hand, same trick, same legal actions: the seat
        # cannot tell the sample from the real game.
        assert sample.observation(seat) == observation
        assert sorted(sample.hands[seat]) == sorted(game.hands[seat])
        assert cards_in_play(sample) == deck_of(sample) == Counter(variants.deck(players))
        assert [len(h) for h in sample.hands] == [len(h) for h in game.hands]
        assert len(sample.set_aside) == len(game.set_aside)
        # Every other seat's view keeps the same public numbers too.
        for other in range(players):
            mine, real = sample.observation(other), game.observation(other)
            for key in ("players", "middle", "removed", "round", "trick", "lead", "deck"):
                assert mine[key] == real[key]


def test_sampled_games_play_on_to_the_end() -> None:
    rng = Rng(5)
    for variants in VARIANT_COMBOS:
        for n, game in enumerate(random_positions(4, variants, seed=3, count=5, stride=9)):
            seat = game.current_seat
            assert seat is not None
            sample = Game.over(Determinizer(game.observation(seat)).sample_parts(Rng(n))[0])
            while not sample.is_over:
                actions = sample.legal_actions()
                sample.apply(actions[rng.below(len(actions))])
            assert sample.winner is not None


def test_unknown_pool_is_deck_minus_hand_minus_face_up_cards() -> None:
    game = new_game(
        players=3,
        seed=1,
        hands=[
            ["lichen", "salty", "chippy", "jelly", "beans", "slippy"],
            ["lichen", "salty", "chippy", "jelly", "beans", "slippy"],
            ["lichen", "salty", "chippy", "jelly", "beans", "slippy"],
        ],
        lead=0,
    )
    game.apply(Action.play(Suit.SLIPPY, gas=0))
    game.apply(Action.tune_up(Suit.SLIPPY))
    pool = [SUIT_ORDER[i] for i in Determinizer(game.observation(2)).pool]
    # Seat 2 sees its own six cards and seat 0's face-up slippy; the tune-up stays unknown.
    expected = Counter(game.core.variants.deck(3))
    expected.subtract(game.hands[2])
    expected.subtract([Suit.SLIPPY])
    assert Counter(pool) == +expected
    assert Counter(pool)[Suit.SLIPPY] == 1


def test_hidden_slots_get_different_cards_across_samples() -> None:
    game = new_game(players=4, seed=21)
    game.apply(Action.tune_up(game.hands[game.current_seat or 0][0]))
    seat = game.current_seat
    assert seat is not None
    determinizer = Determinizer(game.observation(seat))
    rng = Rng(2)
    samples = [Game.over(determinizer.sample_parts(rng)[0]) for _ in range(30)]
    other = (seat + 1) % 4
    assert len({tuple(sorted(s.hands[other])) for s in samples}) > 10
    assert len({s.to_dict()["plays"][0]["card"] for s in samples}) > 1  # the face-down card varies


def test_samples_never_depend_on_the_real_hidden_cards() -> None:
    """Two games differing only in cards seat 0 cannot see give identical samples."""
    mine = ["lichen", "salty", "chippy", "jelly", "beans", "slippy"]
    first = [
        mine,
        ["lichen", "lichen", "salty", "salty", "chippy", "chippy"],
        ["jelly", "jelly", "beans", "beans", "slippy", "slippy"],
        ["lichen", "salty", "chippy", "jelly", "beans", "slippy"],
    ]
    second = [mine, first[2], first[3], first[1]]
    games = [new_game(players=4, seed=s, hands=h, lead=1) for s, h in ((1, first), (99, second))]
    for game in games:  # seats 1-3 tune up a card each: different secret cards
        for _ in range(3):
            seat = game.current_seat
            assert seat is not None
            game.apply(Action.tune_up(game.hands[seat][0]))
    observations = [g.observation(0) for g in games]
    assert observations[0] == observations[1]
    assert games[0].to_dict() != games[1].to_dict()
    a, b = (Game.over(Determinizer(obs).sample_parts(Rng(4))[0]) for obs in observations)
    assert a.to_dict() == b.to_dict()


def test_the_most_recent_lap_gainer_leads_the_next_sampled_round() -> None:
    game = new_game(players=3, seed=2, laps=[1, 1, 0], lead=1)
    observation = game.observation(0)
    sample = Game.over(Determinizer(observation).sample_parts(Rng(1))[0])
    assert sample.core.lap_order[-1] == 1
    assert sorted(sample.core.lap_order) == [0, 1]


def test_the_policy_decides_the_same_on_the_true_game_and_on_the_observation() -> None:
    """The policy reads only what the seat may know: on the real game's core and on a
    state made from that seat's observation (hidden cards dealt at random) it gives every
    action the same score and chance (so the normal bot and the rollouts agree)."""
    from engine.bots.determinize import fixed_deal
    from engine.bots.heuristic import EASY, NORMAL
    from engine.bots.policy import score_ids

    for variants in VARIANT_COMBOS:
        for game in random_positions(4, variants, seed=13, count=40, stride=2):
            seat = game.current_seat
            assert seat is not None
            state = fixed_deal(game.observation(seat))
            assert state.to_dict() != game.to_dict()  # the hidden cards really differ
            key = game.core.legal_key()
            assert state.legal_key() == key
            for style in (NORMAL, EASY):
                assert score_ids(state, key, style) == score_ids(game.core, key, style)


@pytest.mark.parametrize("variants", VARIANT_COMBOS, ids=variant_label)
def test_a_sample_is_the_state_of_its_shuffle(variants: Variants) -> None:
    """sample_parts builds its state from a template with the pool's suit indices shuffled;
    it must be exactly the state the shuffled cards give through Game.from_dict (the
    hands, the trick's Tune Ups, the set-aside cards and the rest dealt in that order),
    and leave the generator where that would."""
    for players in (3, 4, 5):
        positions = random_positions(players, variants, seed=11, count=25, stride=2)
        for n, game in enumerate(positions):
            seat = game.current_seat
            assert seat is not None
            determinizer = Determinizer(game.view(seat))
            for world in range(3):
                fast_rng, plain_rng = Rng(n * 7 + world), Rng(n * 7 + world)
                state, rest = determinizer.sample_parts(fast_rng)
                cards = [SUIT_ORDER[i] for i in determinizer.pool]
                plain_rng.shuffle(cards)
                hands, at = [], 0
                for size in determinizer.hand_sizes:
                    hands.append(cards[at : at + size])
                    at += size
                expected_rest = cards[at + determinizer.hidden_plays + determinizer.set_aside :]
                expected = _from_parts(determinizer, game, hands, cards[at:], expected_rest)
                expected.rng.state = plain_rng.next_u64()
                assert state.to_dict() == expected.to_dict()
                assert state.masks == expected.masks and state.plays == expected.plays
                assert rest == expected_rest
                assert fast_rng.state == plain_rng.state
