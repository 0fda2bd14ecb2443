"""Property tests over random seeded games: 3/4/5 players, every variant combination.

Games are driven by a seeded :class:`engine.rng.Rng` choosing uniformly among
``legal_actions()``; hypothesis picks the seat count, the variants and the seeds. The
tests read the full state through ``to_dict()`` (tests may; nothing else should).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from engine_kit import gas_total
from game_kit import (
    VARIANT_COMBOS,
    cards_in_play,
    deck_of,
    random_playout,
    random_turns,
    reshuffle_hidden,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_kit import examples

from app.http.previews import with_previews
from engine import (
    Action,
    ActionType,
    Event,
    Game,
    IllegalAction,
    Suit,
    Variants,
    new_game,
)
from engine.cards import RACER_SUITS, SUIT_ORDER, ZeroEffect
from engine.rng import Rng

PROPERTY = settings(
    max_examples=examples(200),
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

players_st = st.sampled_from((3, 4, 5))
variants_st = st.builds(
    Variants,
    larger_hands=st.booleans(),
    zero_suit=st.none() | st.sampled_from(RACER_SUITS),
    zero_five=st.booleans(),
)
seed_st = st.integers(min_value=0, max_value=2**63 - 1)

FORBIDDEN_KEYS = frozenset({"hands", "card", "discards", "rng", "seed", "plays_secret"})


# ---------------------------------------------------------------- helpers


class SpeedTracker:
    """Speed and laps recomputed from public events alone (R15, R20)."""

    def __init__(self, game: Game) -> None:
        state = game.to_dict()
        self.speed = list(state["speed"])
        self.laps = list(state["laps"])

    def feed(self, events: list[Event]) -> None:
        """Account for one turn's events."""
        for event in events:
            data = event.to_dict()
            if event.kind == "round_dealt":
                self.speed = [0] * len(self.speed)
            elif event.kind == "trick_won" and data["trick"] < 6:
                self.speed[data["seat"]] += 1  # R15: tricks 1-5 give speed
            elif event.kind == "zero_effect" and data["choice"] == "speed":
                self.speed[data["seat"]] += 1  # R20
            elif event.kind == "lap_gained":
                self.laps[data["seat"]] += 1


def check_invariants(game: Game, tracker: SpeedTracker, deck: Counter[str]) -> None:
    """R4 gas total and cap, card conservation (``deck``: the game's, :func:`deck_of`),
    speed and laps from the events."""
    state = game.to_dict()
    n = game.players
    assert gas_total(state) == 5 * n
    assert all(0 <= g <= 5 for g in state["gas"]) and state["middle"] >= 0
    assert state["removed"] >= 0
    assert cards_in_play(state) == deck
    assert state["speed"] == tracker.speed
    assert state["laps"] == tracker.laps


def play_checked(players: int, variants: Variants, seed: int) -> Game:
    """A whole random game with the invariants checked after every turn."""
    game = new_game(players=players, seed=seed, variants=variants)
    tracker = SpeedTracker(game)
    deck = deck_of(game)
    check_invariants(game, tracker, deck)
    for _, events in random_playout(game, Rng(seed ^ 0x5EED)):
        tracker.feed(events)
        check_invariants(game, tracker, deck)
    winner = game.winner
    assert winner is not None and game.is_over and game.current_seat is None
    laps = game.to_dict()["laps"]
    assert laps[winner] == 2
    assert all(n < 2 for s, n in enumerate(laps) if s != winner)
    assert game.legal_actions() == []
    return game


def sample_states(players: int, variants: Variants, seed: int, every: int = 1) -> list[Game]:
    """Clones of a random game's states: every ``every``-th decision point, plus the end."""
    game = new_game(players=players, seed=seed, variants=variants)
    states = [
        position.clone()
        for turn, position in enumerate(random_turns(game, Rng(seed + 1)))
        if turn % every == 0
    ]
    states.append(game)
    return states


def walk_keys(value: Any, found: set[str]) -> None:
    """Collect every dict key anywhere in a JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            found.add(key)
            walk_keys(item, found)
    elif isinstance(value, list):
        for item in value:
            walk_keys(item, found)


def action_space(game: Game) -> list[Action]:
    """A superset of every possible turn: all suits, gas -1..6, every value, discard and
    effect, including malformed combinations."""
    suits: list[Suit | None] = [None, *SUIT_ORDER]
    effects: list[ZeroEffect | None] = [None, ZeroEffect.GAS, ZeroEffect.SPEED]
    space: list[Action] = []
    for suit in suits:
        for gas in range(-1, 7):
            for effect in effects:
                space.append(Action(ActionType.PLAY, suit, gas, effect))
        space.append(Action(ActionType.PLAY, suit, 0, None, 0, None))
        space.append(Action(ActionType.PLAY, suit, 0, None, None, Suit.SALTY))
        space.append(Action(ActionType.TUNE_UP, suit))
        space.append(Action(ActionType.TUNE_UP, suit, 1))
        space.append(Action(ActionType.TUNE_UP, suit, 0, ZeroEffect.SPEED))
        space.append(Action(ActionType.ZERO_FIVE, suit, 0, None, 0, Suit.SALTY))
    for value in (None, 0, 5, 1):
        for gas in range(-1, 7):
            for discard in suits:
                space.append(Action(ActionType.ZERO_FIVE, None, gas, None, value, discard))
    space.append(Action(ActionType.ZERO_FIVE, None, 0, ZeroEffect.GAS, 0, Suit.SALTY))
    return space


def continue_game(game: Game, rng: Rng) -> list[dict[str, Any]]:
    """Play ``game`` to the end with ``rng``; return every event as JSON."""
    return [e.to_dict() for _, events in random_playout(game, rng) for e in events]


# ---------------------------------------------------------------- invariants


@pytest.mark.parametrize("variants", VARIANT_COMBOS, ids=lambda v: json.dumps(v.to_dict()))
@pytest.mark.parametrize("players", [3, 4, 5])
def test_invariants_every_player_count_and_variant_combo(players: int, variants: Variants) -> None:
    """R4 total gas 5·N, every card in one place, speed from events, a 2-lap winner — for
    each of the 24 seat-count/variant combinations."""
    play_checked(players, variants, seed=1000 + players)


@settings(PROPERTY, max_examples=examples(2000))
@given(players=players_st, variants=variants_st, seed=seed_st)
def test_invariants_random_games(players: int, variants: Variants, seed: int) -> None:
    """The same invariants over hypothesis-chosen games, any 0-suit choice included."""
    play_checked(players, variants, seed)


# ---------------------------------------------------------------- hidden information


@settings(PROPERTY, max_examples=examples(300))
@given(players=players_st, variants=variants_st, seed=seed_st)
def test_observation_never_depends_on_hidden_cards(
    players: int, variants: Variants, seed: int
) -> None:
    """Permuting every card a seat cannot see (and the generator) changes nothing in that
    seat's observation; no secret-bearing key appears in it."""
    rng = Rng(seed)
    for game in sample_states(players, variants, seed, every=3):
        state = game.to_dict()
        for observer in range(players):
            view = game.observation(observer)
            keys: set[str] = set()
            walk_keys(view, keys)
            assert not keys & FORBIDDEN_KEYS
            assert isinstance(view["set_aside"], int)
            assert sorted(view["hand"]) == sorted(state["hands"][observer])
            other = reshuffle_hidden(game, observer, rng, reseed=True)
            assert json.dumps(other.observation(observer), sort_keys=True) == json.dumps(
                view, sort_keys=True
            )


def leader(plays: list[dict[str, Any]]) -> dict[str, int] | None:
    """R13 recomputed: highest final, earlier card on a tie; None if all face down."""
    best = None
    for play in plays:
        if play["final"] is not None and (best is None or play["final"] > best["final"]):
            best = {"seat": play["seat"], "final": play["final"]}
    return best


def best_if_played(plays: list[dict[str, Any]], suit: Suit) -> dict[str, int] | None:
    """The leader among the cards already down once ``suit`` is added face up (a first
    lichen strikes the 4s and 5s already played)."""
    lichen_up = any(p["type"] == "play" and p["suit"] == "lichen" for p in plays)
    if suit is not Suit.LICHEN or lichen_up:
        return leader(plays)
    struck = [
        {**p, "final": p["final"] - p["value"]}
        if p["final"] is not None and p["value"] in (4, 5)
        else p
        for p in plays
    ]
    return leader(struck)


def check_trick_numbers(plays: list[dict[str, Any]]) -> None:
    """R8/R9 recomputed for every card of a (current or finished) trick."""
    lichen = any(p["type"] == "play" and p["suit"] == "lichen" for p in plays)
    for play in plays:
        if play["type"] == "tune_up":
            assert (play["suit"], play["value"], play["final"]) == (None, None, None)
            continue
        struck = lichen and play["value"] in (4, 5)
        assert play["effective_value"] == (0 if struck else play["value"])
        assert play["final"] == play["effective_value"] + play["gas"] + play["speed"]


@settings(PROPERTY, max_examples=examples(60))
@given(players=players_st, variants=variants_st, seed=seed_st)
def test_observation_agrees_with_legal_actions_and_rules(
    players: int, variants: Variants, seed: int
) -> None:
    """The view's turn helpers (legal_actions, card_options, zero_five_option) match
    ``legal_actions()``; trick numbers, the leader and finished tricks follow R8, R9, R13."""
    for game in sample_states(players, variants, seed, every=2):
        state = game.to_dict()
        for seat in range(players):
            view = with_previews(game.observation(seat))
            check_trick_numbers(view["trick_plays"])
            assert view["best"] == leader(view["trick_plays"])
            assert view["blocked_suits"] == [
                p["suit"] for p in view["trick_plays"] if p["type"] == "play"
            ]
            assert [p["hand_size"] for p in view["players"]] == [len(h) for h in state["hands"]]
            for record in view["round_tricks"]:
                check_trick_numbers(record["plays"])
                best = leader(record["plays"])
                assert record["winner"] == (None if best is None else best["seat"])
            if seat != game.current_seat:
                assert view["legal_actions"] == [] and view["card_options"] == []
                assert view["zero_five_option"] is None
                continue
            legal = game.legal_actions()
            assert view["legal_actions"] == [a.to_dict() for a in legal]
            assert sorted(o["suit"] for o in view["card_options"]) == sorted(
                set(state["hands"][seat])
            )
            for option in view["card_options"]:
                suit = Suit(option["suit"])
                face_up = [a for a in legal if a.type is ActionType.PLAY and a.suit is suit]
                assert option["can_play_face_up"] is bool(face_up)
                assert option["best_other"] == best_if_played(view["trick_plays"], suit)
                assert (option["blocked_reason"] is None) is bool(face_up)
                if not face_up:
                    continue
                assert option["gas_max"] == max(
                    a.gas for a in face_up if a.zero_effect in (None, ZeroEffect.SPEED)
                )
                assert {ZeroEffect(c) for c in option["zero_effect_choices"]} == {
                    a.zero_effect for a in face_up if a.zero_effect is not None
                }
            zero_fives = [a for a in legal if a.type is ActionType.ZERO_FIVE]
            option = view["zero_five_option"]
            assert (option is None) is (not zero_fives)
            if option is not None:
                assert option["best_other"] == view["best"]
                assert option["values"] == sorted({a.value for a in zero_fives})
                for value in option["values"]:
                    assert option["gas_max"][str(value)] == max(
                        a.gas for a in zero_fives if a.value == value
                    )


def test_reshuffle_hidden_really_moves_cards() -> None:
    """Guard for the property above: the permutation does change the hidden state."""
    game = new_game(players=4, seed=3)
    state = game.to_dict()
    changed = reshuffle_hidden(game, 0, Rng(1), reseed=True).to_dict()
    assert changed["hands"][0] == state["hands"][0]
    assert (changed["rng"], changed["seed"]) != (state["rng"], state["seed"])
    assert changed["hands"][1:] != state["hands"][1:]
    assert Counter(c for h in changed["hands"] for c in h) == Counter(
        c for h in state["hands"] for c in h
    )


def scribble(value: Any) -> None:
    """Overwrite every scalar and grow every container inside a JSON value, in place."""
    if isinstance(value, dict):
        for key in list(value):
            if isinstance(value[key], dict | list):
                scribble(value[key])
            else:
                value[key] = "scribbled"
        value["scribbled"] = True
    elif isinstance(value, list):
        for item in value:
            scribble(item)
        value.append("scribbled")


@settings(PROPERTY, max_examples=examples(40))
@given(players=players_st, variants=variants_st, seed=seed_st)
def test_views_and_saves_are_independent_copies(
    players: int, variants: Variants, seed: int
) -> None:
    """Whatever a caller does to an observation or a saved dict cannot reach the game:
    not its state and not what other seats see."""
    for game in sample_states(players, variants, seed, every=5):
        snapshot = json.dumps(game.to_dict(), sort_keys=True)
        views = [json.dumps(game.observation(s), sort_keys=True) for s in range(players)]
        for seat in range(players):
            scribble(game.observation(seat))
        scribble(game.to_dict())
        assert json.dumps(game.to_dict(), sort_keys=True) == snapshot
        assert [json.dumps(game.observation(s), sort_keys=True) for s in range(players)] == views


def test_restored_game_does_not_share_records_with_its_source() -> None:
    """``Game.from_dict`` copies what it is given: editing the source dict afterwards, or
    the original game's own records, changes neither game."""
    game = new_game(players=3, seed=5)
    _prefix_playout(game, Rng(5), 10)
    saved = game.to_dict()
    assert saved["round_tricks"], "the position must hold completed tricks"
    snapshot = json.dumps(saved, sort_keys=True)
    restored = Game.from_dict(saved)
    scribble(saved)
    assert json.dumps(restored.to_dict(), sort_keys=True) == snapshot
    assert json.dumps(game.to_dict(), sort_keys=True) == snapshot


# ---------------------------------------------------------------- saving and cloning


@settings(PROPERTY, max_examples=examples(150))
@given(
    players=players_st,
    variants=variants_st,
    seed=seed_st,
    cut=st.integers(min_value=0, max_value=400),
)
def test_json_round_trip_continues_identically(
    players: int, variants: Variants, seed: int, cut: int
) -> None:
    """A game saved to JSON mid-way and restored plays on exactly like the original."""
    game = new_game(players=players, seed=seed, variants=variants)
    rng = Rng(seed)
    _prefix_playout(game, rng, cut)
    restored = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert restored.to_dict() == game.to_dict()
    for seat in range(players):
        assert restored.observation(seat) == game.observation(seat)
    rng_copy = Rng(0)
    rng_copy.state = rng.state
    assert continue_game(restored, rng_copy) == continue_game(game, rng)
    assert restored.to_dict() == game.to_dict()


def _prefix_playout(game: Game, rng: Rng, turns: int) -> None:
    for _ in range(turns):
        if game.is_over:
            return
        actions = game.legal_actions()
        game.apply(actions[rng.below(len(actions))])


@settings(PROPERTY, max_examples=examples(100))
@given(players=players_st, variants=variants_st, seed=seed_st)
def test_same_seed_same_game(players: int, variants: Variants, seed: int) -> None:
    """Determinism: the same seed and the same choices give the same events and state."""
    first = new_game(players=players, seed=seed, variants=variants)
    second = new_game(players=players, seed=seed, variants=variants)
    assert first.to_dict() == second.to_dict()
    assert continue_game(first, Rng(seed)) == continue_game(second, Rng(seed))
    assert first.to_dict() == second.to_dict()


def test_different_seeds_deal_differently() -> None:
    """Guard for determinism: the seed does change the deal."""
    deals = {json.dumps(new_game(players=4, seed=s).to_dict()["hands"]) for s in range(10)}
    assert len(deals) == 10


@settings(PROPERTY, max_examples=examples(150))
@given(
    players=players_st,
    variants=variants_st,
    seed=seed_st,
    cut=st.integers(min_value=0, max_value=300),
)
def test_clone_is_independent(players: int, variants: Variants, seed: int, cut: int) -> None:
    """Playing a clone to the end leaves the original untouched, and the original then
    plays the same moves to the same end."""
    game = new_game(players=players, seed=seed, variants=variants)
    _prefix_playout(game, Rng(seed), cut)
    before = game.to_dict()
    copy = game.clone()
    copy_events = continue_game(copy, Rng(7))
    assert game.to_dict() == before
    assert continue_game(game, Rng(7)) == copy_events
    assert game.to_dict() == copy.to_dict()


# ---------------------------------------------------------------- legality


def illegal_candidates(game: Game) -> list[tuple[str, Any, int | None]]:
    """Every kind of illegal move that can be built in this position:
    ``(name, payload, claimed seat)``; a payload that is not an :class:`Action` goes
    through ``Action.from_dict`` first."""
    seat = game.current_seat
    assert seat is not None
    state = game.to_dict()
    hand = [Suit(c) for c in state["hands"][seat]]
    legal = game.legal_actions()
    blocked = set(game.observation(seat)["blocked_suits"])
    missing = [s for s in SUIT_ORDER if s not in hand]
    plays = [a for a in legal if a.type is ActionType.PLAY]
    out: list[tuple[str, Any, int | None]] = [
        ("wrong seat", legal[0], (seat + 1) % game.players),
        ("negative gas", Action.play(hand[0], -1), None),
        ("gas on tune up", Action(ActionType.TUNE_UP, hand[0], 1), None),
    ]
    if missing:
        out.append(("not in hand", Action.play(missing[0]), None))
        out.append(("tune up not in hand", Action.tune_up(missing[0]), None))
    for suit in [s for s in hand if s.value in blocked][:1]:
        effect = ZeroEffect.SPEED if suit is Suit.ZERO else None
        out.append(("suit face up", Action.play(suit, 0, effect), None))
    for suit in {a.suit for a in plays}:
        assert suit is not None
        top = max(a.gas for a in plays if a.suit is suit)
        effect = None
        if suit is Suit.ZERO:
            effect = ZeroEffect.GAS if state["removed"] else ZeroEffect.SPEED
        out.append(("too much gas", Action.play(suit, top + 1, effect), None))
    zero_fives = [a for a in legal if a.type is ActionType.ZERO_FIVE]
    if not zero_fives:
        out.append(("0/5 not allowed", Action.zero_five(0, 0, hand[0]), None))
    else:
        top = max(a.gas for a in zero_fives if a.value == 0)
        out.append(("0/5 too much gas", Action.zero_five(0, top + 1, hand[0]), None))
        if state["laps"][seat] == 0:
            out.append(("0/5 as 5 without a lap", Action.zero_five(5, 0, hand[0]), None))
        if missing:
            out.append(("bad discard", Action.zero_five(0, 0, missing[0]), None))
    if Suit.ZERO in hand and Suit.ZERO.value not in blocked:
        out.append(("0 without choice", Action.play(Suit.ZERO, 0), None))
        if state["removed"] == 0:
            out.append(("0 gas with none removed", Action.play(Suit.ZERO, 0, ZeroEffect.GAS), None))
    for suit in [s for s in hand if s is not Suit.ZERO and s.value not in blocked][:1]:
        out.append(("effect on a racer", Action.play(suit, 0, ZeroEffect.SPEED), None))
    out.extend(("malformed", bad, None) for bad in MALFORMED)
    return out


def attempt(game: Game, payload: Any, seat: int | None) -> None:
    """Parse (if needed) and apply one candidate move."""
    action = payload if isinstance(payload, Action) else Action.from_dict(payload)
    game.apply(action, seat=seat)


MALFORMED: list[Any] = [
    None,
    [],
    "play",
    {"type": "dance"},
    {"type": "play", "suit": "turbo"},
    {"type": "play", "suit": "salty", "gas": "2"},
    {"type": "play", "suit": "salty", "gas": 1.5},
    {"type": "play", "suit": "salty", "gas": True},
    {"type": "play", "suit": "zero", "zero_effect": "fly"},
    {"type": "zero_five", "value": "5", "discard": "salty"},
    {"type": "zero_five", "value": 0, "discard": "turbo"},
    {"type": "tune_up", "suit": "salty", "card": "salty"},
]


@settings(PROPERTY, max_examples=examples(80))
@given(players=players_st, variants=variants_st, seed=seed_st)
def test_every_illegal_kind_is_refused_without_change(
    players: int, variants: Variants, seed: int
) -> None:
    """Wrong seat, missing card, repeated face-up suit, too much or negative gas, gas on a
    Tune Up, a forbidden 0/5, a bad 0 choice or discard, malformed JSON: all raise
    IllegalAction and leave the full state exactly as it was."""
    seen: set[str] = set()
    for game in sample_states(players, variants, seed, every=4)[:-1]:
        before = game.to_dict()
        for name, payload, seat in illegal_candidates(game):
            with pytest.raises(IllegalAction):
                attempt(game, payload, seat)
            assert game.to_dict() == before, name
            seen.add(name)
        with pytest.raises(IllegalAction):
            game.apply(game.legal_actions()[0].to_dict())  # type: ignore[arg-type]
        assert game.to_dict() == before
    assert {"wrong seat", "too much gas", "gas on tune up", "malformed"} <= seen


def test_illegal_after_the_game_is_over() -> None:
    """Once someone has won, every action is refused and the state stays put."""
    game = play_checked(3, Variants(), 77)
    before = game.to_dict()
    for action in (Action.tune_up(Suit.SALTY), Action.play(Suit.LICHEN)):
        with pytest.raises(IllegalAction):
            game.apply(action)
    assert game.to_dict() == before


@settings(PROPERTY, max_examples=examples(50))
@given(players=players_st, variants=variants_st, seed=seed_st)
def test_legal_actions_are_exactly_the_legal_moves(
    players: int, variants: Variants, seed: int
) -> None:
    """Over a generated action space, the moves ``why_illegal`` accepts are exactly
    ``legal_actions()`` (no duplicates); a sample of the rest is refused by ``apply``."""
    rng = Rng(seed)
    for game in sample_states(players, variants, seed, every=2)[:-1]:
        legal = game.legal_actions()
        assert len(set(legal)) == len(legal)
        space = action_space(game)
        assert set(legal) <= set(space)
        for action in legal:
            assert game.why_illegal(action) is None
        accepted = {a for a in space if game.why_illegal(a) is None}
        assert accepted == set(legal)
        rejected = [a for a in space if a not in accepted]
        before = game.to_dict()
        for _ in range(3):
            action = rejected[rng.below(len(rejected))]
            with pytest.raises(IllegalAction):
                game.apply(action)
        assert game.to_dict() == before
        chosen = legal[rng.below(len(legal))]
        assert game.clone().apply(chosen) is not None
