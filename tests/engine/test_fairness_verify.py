"""The deal checker (engine.verify): a finished race's record checks out, card by card, for
every variant and table size; any change to what it reveals or tells is found and named."""

from __future__ import annotations

import copy
import itertools
from collections import Counter
from typing import Any

import pytest
from fair_kit import played_record
from game_kit import VARIANT_COMBOS, variant_label
from hypothesis import given, settings
from hypothesis import strategies as st
from property_kit import examples

from engine import Variants, new_game
from engine.cards import MAX_PLAYERS, MIN_PLAYERS
from engine.fairness import commit
from engine.verify import CODES, verify_record

TABLES = [
    pytest.param(players, variants, id=f"{players}p-{variant_label(variants)}")
    for players, variants in itertools.product(range(MIN_PLAYERS, MAX_PLAYERS + 1), VARIANT_COMBOS)
]
RACES_PER_TABLE = 4


@pytest.mark.parametrize(("players", "variants"), TABLES)
def test_finished_races_check_out_card_by_card(players: int, variants: Variants) -> None:
    for number in range(RACES_PER_TABLE):
        deal_seed = 2**40 + players * 1000 + number * 7919
        bots = "normal" if number == 0 else "random"
        record = played_record(players, variants, deal_seed, bots=bots, bot_seed=number)
        verdict = verify_record(record)
        assert verdict.code == "ok", verdict
        assert verdict.status == "ok" and verdict.params == {}
        assert verdict.commitment == record["commitment"]
        assert verdict.actions == len(record["actions"])
        assert verdict.events == len(record["events"])
        assert verdict.winner == record["winner"]
        # The deal is the one new_game deals from the seed, and a new one for each round told.
        dealt = new_game(players=players, seed=deal_seed, variants=variants)
        first = verdict.deal[0]
        assert first.round == 1 and [list(hand) for hand in first.hands] == dealt.hands
        assert list(first.set_aside) == dealt.set_aside
        told = [e for e in record["events"] if e["kind"] == "round_dealt"]
        assert [(d.round, d.lead) for d in verdict.deal] == [(e["round"], e["lead"]) for e in told]
        for round_deal, event in zip(verdict.deal, told, strict=True):
            assert {len(hand) for hand in round_deal.hands} == {event["hand_size"]}
        if not variants.larger_hands:  # every card of the deck is dealt, each round (R5)
            deck = Counter(variants.deck(players))
            for round_deal in verdict.deal:
                assert Counter(c for hand in round_deal.hands for c in hand) == deck
                assert round_deal.set_aside == ()


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return played_record(4, VARIANT_COMBOS[-1], 123456789, salt="a1b2c3", bots="normal")


def changed(record: dict[str, Any], **fields: Any) -> dict[str, Any]:
    altered = copy.deepcopy(record)
    altered.update(fields)
    return altered


def test_a_changed_salt_is_found(record: dict[str, Any]) -> None:
    verdict = verify_record(changed(record, salt="a1b2c4"))
    assert verdict.code == "commitment_mismatch" and verdict.status == "tampered"
    assert verdict.params == {
        "published": record["commitment"],
        "recomputed": commit(record["deal_seed"], "a1b2c4"),
    }


def test_a_changed_deal_seed_is_found(record: dict[str, Any]) -> None:
    verdict = verify_record(changed(record, deal_seed=record["deal_seed"] + 1))
    assert verdict.code == "commitment_mismatch"
    # Even with a commitment made to fit the new seed, its moves do not fit its cards.
    seed = record["deal_seed"] + 1
    forged = changed(record, deal_seed=seed, commitment=commit(seed, record["salt"]))
    verdict = verify_record(forged)
    assert verdict.status == "tampered"
    assert verdict.code in {"illegal_action", "wrong_seat", "event_mismatch"}


def test_a_changed_action_is_found(record: dict[str, Any]) -> None:
    altered = copy.deepcopy(record)
    index = next(
        i for i, entry in enumerate(altered["actions"]) if entry["action"]["type"] == "play"
    )
    played = altered["actions"][index]["action"]
    # The same card tuned up instead: still legal (R7), so the events tell the difference.
    altered["actions"][index]["action"] = {**played, "type": "tune_up", "gas": 0}
    altered["actions"][index]["action"]["zero_effect"] = None
    verdict = verify_record(altered)
    assert verdict.status == "tampered"
    assert verdict.code == "event_mismatch"
    assert verdict.params["index"] > 0
    # A card its seat does not hold: the replay refuses it at that very action.
    altered = copy.deepcopy(record)
    seat = altered["actions"][0]["seat"]
    held = {card.value for card in verdict.deal[0].hands[seat]}
    missing = next(s for s in ("lichen", "salty", "jelly", "beans", "slippy") if s not in held)
    altered["actions"][0]["action"] = {
        **altered["actions"][0]["action"],
        "type": "tune_up",
        "suit": missing,
        "gas": 0,
        "zero_effect": None,
        "value": None,
        "discard": None,
    }
    verdict = verify_record(altered)
    assert (verdict.code, verdict.params) == ("illegal_action", {"index": 0, "seat": seat})
    assert verdict.actions == 0 and len(verdict.deal) == 1


def test_an_action_in_the_wrong_seat_is_found(record: dict[str, Any]) -> None:
    altered = copy.deepcopy(record)
    seat = altered["actions"][3]["seat"]
    altered["actions"][3]["seat"] = (seat + 1) % 4
    verdict = verify_record(altered)
    assert verdict.code == "wrong_seat"
    assert verdict.params == {"index": 3, "seat": (seat + 1) % 4, "to_move": seat}


def test_dropped_and_extra_actions_are_found(record: dict[str, Any]) -> None:
    verdict = verify_record(changed(record, actions=record["actions"][:-1]))
    assert verdict.code == "race_not_over"
    assert verdict.params == {"actions": len(record["actions"]) - 1}
    extra = changed(record, actions=[*record["actions"], record["actions"][-1]])
    verdict = verify_record(extra)
    assert (verdict.code, verdict.params) == (
        "actions_after_end",
        {"index": len(record["actions"])},
    )


def test_a_changed_event_is_found(record: dict[str, Any]) -> None:
    altered = copy.deepcopy(record)
    index = next(i for i, e in enumerate(altered["events"]) if e["kind"] == "trick_won")
    original = copy.deepcopy(altered["events"][index])
    altered["events"][index]["seat"] = (original["seat"] + 1) % 4
    verdict = verify_record(altered)
    assert verdict.code == "event_mismatch"
    assert verdict.params == {
        "index": index,
        "replayed": original,
        "recorded": altered["events"][index],
    }
    # An event left out, or one added at the end.
    verdict = verify_record(changed(record, events=record["events"][:-1]))
    assert verdict.code == "event_mismatch"
    assert verdict.params["recorded"] is None
    assert verdict.params["replayed"] == record["events"][-1]
    verdict = verify_record(changed(record, events=[*record["events"], record["events"][-1]]))
    assert verdict.code == "event_mismatch" and verdict.params["replayed"] is None


def test_a_changed_winner_is_found(record: dict[str, Any]) -> None:
    other = (record["winner"] + 1) % 4
    verdict = verify_record(changed(record, winner=other))
    assert (verdict.code, verdict.params) == (
        "winner_mismatch",
        {"replayed": record["winner"], "recorded": other},
    )
    assert verify_record(changed(record, winner=None)).code == "winner_mismatch"
    # Equal in Python, not in JSON: a reader would see another value.
    assert verify_record(changed(record, winner=float(record["winner"]))).code == "winner_mismatch"
    altered = copy.deepcopy(record)
    event = next(e for e in altered["events"] if e["seat"] in (0, 1))
    event["seat"] = bool(event["seat"])
    assert verify_record(altered).code == "event_mismatch"


def test_a_changed_setting_is_found(record: dict[str, Any]) -> None:
    settings = {**record["settings"], "players": 5}
    assert verify_record(changed(record, settings=settings)).status == "tampered"
    variants = {**record["settings"]["variants"], "zero_five": False}
    settings = {**record["settings"], "variants": variants}
    assert verify_record(changed(record, settings=settings)).status == "tampered"


@pytest.mark.parametrize(
    ("fields", "code", "params"),
    [
        ({"complete": False}, "not_finished", {}),
        ({"commitment": None}, "no_commitment", {}),
        ({"deal_seed": None, "salt": None}, "not_revealed", {"missing": ["deal_seed", "salt"]}),
        ({"actions": None}, "not_revealed", {"missing": ["actions"]}),
        ({"deal_seed": "12"}, "bad_field", {"field": "deal_seed"}),
        ({"deal_seed": True}, "bad_field", {"field": "deal_seed"}),
        ({"salt": 12}, "bad_field", {"field": "salt"}),
        ({"commitment": 12}, "bad_field", {"field": "commitment"}),
        ({"actions": {}}, "bad_field", {"field": "actions"}),
        ({"events": None}, "bad_field", {"field": "events"}),
        ({"settings": {"players": 9}}, "bad_field", {"field": "settings"}),
        (
            {"settings": {"players": 4, "variants": {"turbo": True}}},
            "bad_field",
            {"field": "settings"},
        ),
        ({"settings": None}, "not_a_record", {}),
    ],
)
def test_records_that_cannot_be_checked_are_refused(
    record: dict[str, Any], fields: dict[str, Any], code: str, params: dict[str, Any]
) -> None:
    verdict = verify_record(changed(record, **fields))
    assert (verdict.code, dict(verdict.params)) == (code, params)
    assert verdict.status == "refused" and verdict.deal == ()


@pytest.mark.parametrize("value", [None, [], "record", 3, {"complete": True}])
def test_what_is_not_a_record_is_refused(value: object) -> None:
    assert verify_record(value).code == "not_a_record"


def test_unparseable_actions_are_illegal(record: dict[str, Any]) -> None:
    for entry in ({"seat": 0}, {"seat": "0", "action": {}}, [], {"seat": 0, "action": {"x": 1}}):
        altered = changed(record, actions=[entry, *record["actions"][1:]])
        assert verify_record(altered).code in {"illegal_action", "wrong_seat"}


def test_every_code_is_a_known_status() -> None:
    assert set(CODES.values()) == {"ok", "tampered", "refused"}


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
CHECKED = ("commitment", "deal_seed", "salt", "winner", "players", "variants", "action", "event")


@settings(max_examples=examples(300), deadline=None, derandomize=True, database=None)
@given(field=st.sampled_from(CHECKED), value=JSON, at=st.integers(0, 10_000))
def test_any_value_in_a_checked_field_is_found_never_crashes(
    record: dict[str, Any], field: str, value: Any, at: int
) -> None:
    """Whatever JSON replaces a field the check reads, the checker answers with a known
    code, and never "ok" unless the value is the one it replaced."""
    altered = copy.deepcopy(record)
    if field in ("players", "variants"):
        holder, key = altered["settings"], field
    elif field in ("action", "event"):
        holder, key = altered[f"{field}s"], at % len(altered[f"{field}s"])
    else:
        holder, key = altered, field
    original = holder[key]
    holder[key] = value
    verdict = verify_record(altered)
    assert verdict.code in CODES
    if value != original or type(value) is not type(original):
        assert verdict.code != "ok", (field, value)
