"""Action and Event JSON forms: round trips, malformed input, and events free of hidden
card identities (R12, R22)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from engine_kit import of_kind
from game_kit import VARIANT_COMBOS, deal, random_playout, random_turns
from hypothesis import given, settings
from hypothesis import strategies as st
from property_kit import examples

from app.http.race_words import refusal_sentence
from engine import (
    EVENT_PAYLOADS,
    Action,
    ActionType,
    Event,
    EventKind,
    Game,
    IllegalAction,
    Suit,
    Variants,
    new_game,
)
from engine.cards import ZeroEffect
from engine.rng import Rng

ACTION_KEYS = {"type", "suit", "gas", "zero_effect", "value", "discard"}

#: Data keys each event kind carries, as API clients and the web page read them; ``kind``
#: and ``seat`` come on top. Written out here so that a change to the JSON fails a test.
EVENT_KEYS: dict[str, set[str]] = {
    "round_dealt": {"round", "lead", "hand_size"},
    "card_played": {"suit", "value", "gas", "speed", "final"},
    "tuned_up": set(),
    "zero_five_played": {"value", "gas", "speed", "final", "gained"},
    "card_discarded": set(),
    "gas_taken": {"amount", "removed"},
    "zero_effect": {"choice", "gained", "removed"},
    "tune_up_share": {"seats", "each", "gained", "removed", "middle_before"},
    "trick_won": {"trick", "final"},
    "trick_all_tuned_up": {"trick"},
    "gas_to_middle": {"amount", "middle"},
    "speed_gained": {"speed"},
    "lap_gained": {"laps"},
    "game_won": {"laps"},
}

#: Keys that would name a card; only a face-up card_played may carry ``suit``.
CARD_KEYS = {"suit", "card", "discard", "cards", "hand"}


def json_round_trip(action: Action) -> Action:
    """Through ``to_dict``, JSON text and back."""
    return Action.from_dict(json.loads(json.dumps(action.to_dict())))


def random_game_events(players: int, variants: Variants, seed: int) -> list[Event]:
    """Every event of one random game."""
    game = new_game(players=players, seed=seed, variants=variants)
    return [e for _, events in random_playout(game, Rng(seed)) for e in events]


# ---------------------------------------------------------------- actions


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        (
            Action.play(Suit.SALTY, gas=2),
            {
                "type": "play",
                "suit": "salty",
                "gas": 2,
                "zero_effect": None,
                "value": None,
                "discard": None,
            },
        ),
        (
            Action.play(Suit.ZERO, gas=0, zero_effect=ZeroEffect.SPEED),
            {
                "type": "play",
                "suit": "zero",
                "gas": 0,
                "zero_effect": "speed",
                "value": None,
                "discard": None,
            },
        ),
        (
            Action.tune_up(Suit.JELLY),
            {
                "type": "tune_up",
                "suit": "jelly",
                "gas": 0,
                "zero_effect": None,
                "value": None,
                "discard": None,
            },
        ),
        (
            Action.zero_five(value=5, gas=1, discard=Suit.LICHEN),
            {
                "type": "zero_five",
                "suit": None,
                "gas": 1,
                "zero_effect": None,
                "value": 5,
                "discard": "lichen",
            },
        ),
    ],
)
def test_action_json_form_and_round_trip(action: Action, expected: dict[str, Any]) -> None:
    """Every key is present, unused ones null, and the JSON text parses back equal."""
    assert action.to_dict() == expected
    assert json_round_trip(action) == action


def test_every_legal_action_round_trips() -> None:
    """All legal actions met in random games of every variant survive JSON unchanged."""
    seen: set[ActionType] = set()
    for index, variants in enumerate(VARIANT_COMBOS):
        game = new_game(players=3 + index % 3, seed=index, variants=variants)
        for position in random_turns(game, Rng(index)):
            for action in position.legal_actions():
                assert set(action.to_dict()) == ACTION_KEYS
                assert json_round_trip(action) == action
                seen.add(action.type)
    assert seen == set(ActionType)


def test_from_dict_fills_missing_fields_with_defaults() -> None:
    """Absent keys mean null, and gas 0."""
    assert Action.from_dict({"type": "tune_up", "suit": "jelly"}) == Action.tune_up(Suit.JELLY)
    assert Action.from_dict({"type": "play", "suit": "slippy"}) == Action.play(Suit.SLIPPY, 0)


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        ["play", "salty"],
        "play",
        7,
        {},
        {"type": None},
        {"type": "dance"},
        {"type": "PLAY", "suit": "salty"},
        {"type": "play", "suit": "turbo"},
        {"type": "play", "suit": "Salty"},
        {"type": "play", "suit": 2},
        {"type": "play", "suit": ["salty"]},
        {"type": "play", "suit": "salty", "gas": "2"},
        {"type": "play", "suit": "salty", "gas": 1.0},
        {"type": "play", "suit": "salty", "gas": True},
        {"type": "play", "suit": "salty", "gas": None},
        {"type": "play", "suit": "zero", "zero_effect": "fly"},
        {"type": "play", "suit": "zero", "zero_effect": 1},
        {"type": "zero_five", "value": "5", "discard": "salty"},
        {"type": "zero_five", "value": 5.0, "discard": "salty"},
        {"type": "zero_five", "value": True, "discard": "salty"},
        {"type": "zero_five", "value": 0, "discard": "turbo"},
        {"type": "tune_up", "suit": "salty", "card": "salty"},
        {"type": "tune_up", "suit": "salty", "seat": 1},
    ],
)
def test_from_dict_rejects_malformed_input(bad: Any) -> None:
    """Anything that is not a well-formed action raises IllegalAction with a refusal that
    the catalog words as a sentence."""
    with pytest.raises(IllegalAction) as info:
        Action.from_dict(bad)
    sentence = refusal_sentence(info.value.refusal)
    assert sentence.endswith(".") and len(sentence) > 10


def test_from_dict_error_does_not_echo_long_input() -> None:
    """A long junk value is cut short in the message instead of being reflected whole."""
    junk = "x" * 500
    with pytest.raises(IllegalAction) as info:
        Action.from_dict({"type": "play", "suit": junk})
    sentence = refusal_sentence(info.value.refusal)
    assert junk not in sentence and len(sentence) < 100


json_scalars = (
    st.none() | st.booleans() | st.integers(-10, 10) | st.floats(-5, 5) | st.text(max_size=8)
)
action_like = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["play", "tune_up", "zero_five"]) | json_scalars,
        "suit": st.sampled_from([s.value for s in Suit]) | json_scalars,
        "gas": st.integers(-2, 7) | json_scalars,
        "zero_effect": st.sampled_from(["gas", "speed"]) | json_scalars,
        "value": st.sampled_from([0, 5]) | json_scalars,
        "discard": st.sampled_from([s.value for s in Suit]) | json_scalars,
        "extra": json_scalars,
    },
)


@settings(max_examples=examples(300), deadline=None, derandomize=True, database=None)
@given(data=action_like | st.lists(json_scalars, max_size=3) | json_scalars)
def test_from_dict_only_ever_parses_or_raises_illegal_action(data: Any) -> None:
    """Arbitrary JSON gives either an Action that round-trips or an IllegalAction, never
    another exception."""
    try:
        action = Action.from_dict(data)
    except IllegalAction:
        return
    assert json_round_trip(action) == action


# ---------------------------------------------------------------- events


def test_event_to_dict_is_flat() -> None:
    """``kind`` and ``seat`` first, then the data keys at the same level."""
    event = Event(EventKind.GAS_TO_MIDDLE, None, {"amount": 3, "middle": 7})
    assert event.to_dict() == {"kind": "gas_to_middle", "seat": None, "amount": 3, "middle": 7}
    assert json.loads(json.dumps(event.to_dict())) == event.to_dict()


def test_event_kinds_are_the_documented_list() -> None:
    """No more and no fewer kinds than the JSON clients know; each has a payload type."""
    assert {k.value for k in EventKind} == set(EVENT_KEYS)
    assert set(EVENT_PAYLOADS) == set(EventKind)


@pytest.mark.parametrize("kind", list(EventKind), ids=str)
def test_event_payload_type_names_exactly_the_json_keys(kind: EventKind) -> None:
    """Each kind's ``TypedDict`` declares exactly the keys its events carry, all required."""
    payload = EVENT_PAYLOADS[kind]
    assert set(payload.__annotations__) == EVENT_KEYS[kind.value]
    assert payload.__required_keys__ == frozenset(EVENT_KEYS[kind.value])


@pytest.mark.parametrize("variants", VARIANT_COMBOS, ids=lambda v: json.dumps(v.to_dict()))
def test_events_carry_their_keys_and_no_hidden_identity(variants: Variants) -> None:
    """Over whole random games: every event has exactly its documented keys, is plain JSON,
    and only a face-up card_played names a suit; Tune Ups and discards name nothing."""
    kinds_seen: set[str] = set()
    for players in (3, 4, 5):
        for event in random_game_events(players, variants, seed=players * 31):
            data = json.loads(json.dumps(event.to_dict()))
            kind = data.pop("kind")
            data.pop("seat")
            kinds_seen.add(kind)
            assert set(data) == EVENT_KEYS[kind], kind
            if kind == "card_played":
                assert data["suit"] in {s.value for s in Suit}
                assert set(data) & CARD_KEYS == {"suit"}
            else:
                assert not set(data) & CARD_KEYS, kind
            if kind in ("tuned_up", "card_discarded"):
                assert data == {}
    assert {"round_dealt", "card_played", "tuned_up", "trick_won", "lap_gained"} <= kinds_seen
    assert "game_won" in kinds_seen
    if variants.zero_five:
        assert {"zero_five_played", "card_discarded"} <= kinds_seen
    if variants.zero:
        assert "zero_effect" in kinds_seen


def test_tuned_up_event_is_the_same_whichever_card() -> None:
    """At every Tune Up of random games, tuning up a different card gives identical events
    (the trick's resolution included)."""
    compared = 0
    for index, variants in enumerate(VARIANT_COMBOS):
        game = new_game(players=4, seed=100 + index, variants=variants)
        for position in random_turns(game, Rng(index)):
            seat = position.current_seat
            assert seat is not None
            hand = sorted(set(position.to_dict()["hands"][seat]))
            if len(hand) >= 2:
                first, second = position.clone(), position.clone()
                one = first.apply(Action.tune_up(Suit(hand[0])))
                two = second.apply(Action.tune_up(Suit(hand[-1])))
                if not any(e.kind == "round_dealt" for e in one):  # a new deal may differ
                    assert [e.to_dict() for e in one] == [e.to_dict() for e in two]
                    compared += 1
    assert compared > 300


def test_zero_five_discard_event_is_the_same_whichever_card() -> None:
    """Discarding a different card with the 0/5 gives identical events."""
    variants = Variants(zero_five=True)

    def events(discard: str) -> list[dict[str, Any]]:
        game = deal(
            3,
            [["chippy", "slippy"], ["jelly", "salty"], ["beans", "salty"]],
            trick=5,
            variants=variants,
            gas=[2, 2, 2],
            removed=4,
            middle=5,
        )
        out = game.apply(Action.zero_five(0, 1, Suit(discard)))
        out += game.apply(Action.play(Suit.JELLY))
        out += game.apply(Action.tune_up(Suit.SALTY))
        assert of_kind(out, "card_discarded") == [{"kind": "card_discarded", "seat": 0}]
        return [e.to_dict() for e in out]

    assert events("chippy") == events("slippy")


def test_apply_returns_events_that_match_the_new_state() -> None:
    """The numbers in the events agree with the state they leave behind."""
    checked = 0
    for index, variants in enumerate(VARIANT_COMBOS):
        game: Game = new_game(players=4, seed=42 + index, variants=variants)
        for _, events in random_playout(game, Rng(index)):
            state = game.to_dict()
            for event in events:
                data = event.to_dict()
                if event.kind == "gas_to_middle":
                    assert data["middle"] == state["middle"]
                    checked += 1
                if event.kind == "speed_gained":
                    assert data["speed"] == state["speed"][data["seat"]]
                if event.kind == "lap_gained":
                    assert data["laps"] == state["laps"][data["seat"]]
                if event.kind == "round_dealt":
                    assert data["lead"] == state["lead"] and data["round"] == state["round"]
                    assert all(len(h) == data["hand_size"] for h in state["hands"])
    assert checked > 80


def test_deal_event_reports_the_round_in_progress() -> None:
    """``Game.deal_event()`` is the ``round_dealt`` event of the current round: for the
    first round as ``apply`` reports later deals, and unchanged at every turn of a round."""
    compared = 0
    for index, variants in enumerate(VARIANT_COMBOS):
        game = new_game(players=3 + index % 3, seed=7 + index, variants=variants)
        dealt = game.deal_event().to_dict()
        assert dealt == {
            "kind": "round_dealt",
            "seat": None,
            "round": 1,
            "lead": game.core.lead,
            "hand_size": variants.deal_size,
        }
        for _, events in random_playout(game, Rng(index)):
            dealt = next((e.to_dict() for e in events if e.kind == "round_dealt"), dealt)
            if not game.is_over:
                assert game.deal_event().to_dict() == dealt
                compared += 1
    assert compared > 500
    late = deal(3, [["chippy"], ["jelly"], ["slippy"]], trick=6, lead=2)
    assert late.deal_event().data == {"round": 1, "lead": 2, "hand_size": 6}
