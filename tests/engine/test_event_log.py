"""The packed public event log (engine/event_log.py): every event comes back exactly, from
any position, through its saved form, and logs saved by older versions still read."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from game_kit import VARIANT_COMBOS, random_playout, variant_label

from engine import Event, EventKind, EventLog, Variants, new_game
from engine.rng import Rng

# A log as older versions saved it: one JSON object per event (here a 3-player race's first
# trick, with a Tune Up sharing the middle and a Salty 2 taking gas), written out by hand.
OLD_FORMAT = [
    {"kind": "round_dealt", "seat": None, "round": 1, "lead": 2, "hand_size": 6},
    {"kind": "card_played", "seat": 2, "suit": "salty", "value": 2, "gas": 1, "speed": 0,
     "final": 3},
    {"kind": "gas_taken", "seat": 2, "amount": 0, "removed": 1},
    {"kind": "tuned_up", "seat": 0},
    {"kind": "zero_five_played", "seat": 1, "value": 0, "gas": 2, "speed": 0, "final": 2,
     "gained": 2},
    {"kind": "card_discarded", "seat": 1},
    {"kind": "tune_up_share", "seat": None, "seats": [0], "each": 3, "gained": [3],
     "removed": 0, "middle_before": 3},
    {"kind": "trick_won", "seat": 2, "trick": 1, "final": 3},
    {"kind": "gas_to_middle", "seat": None, "amount": 3, "middle": 3},
    {"kind": "speed_gained", "seat": 2, "speed": 1},
    {"kind": "zero_effect", "seat": 0, "choice": "gas", "gained": 1, "removed": 0},
    {"kind": "trick_all_tuned_up", "seat": None, "trick": 2},
    {"kind": "lap_gained", "seat": 1, "laps": 1},
    {"kind": "game_won", "seat": 1, "laps": 2},
]  # fmt: skip


def _race(players: int, variants: Variants, seed: int) -> list[Event]:
    """Every event of one random race, the opening deal first."""
    game = new_game(players=players, seed=seed, variants=variants)
    events = [game.deal_event()]
    for _, more in random_playout(game, Rng(seed)):
        events.extend(more)
    return events


@pytest.mark.parametrize("variants", VARIANT_COMBOS, ids=variant_label)
def test_every_event_of_random_races_comes_back_exactly(variants: Variants) -> None:
    for players, seed in itertools.product((3, 4, 5), range(4)):
        events = _race(players, variants, seed)
        log = EventLog()
        for start in range(0, len(events), 7):  # appended a turn's worth at a time
            log.extend(events[start : start + 7])
        assert len(log) == len(events)
        assert log.events() == events
        middle = len(events) // 2
        assert log.dicts(middle) == [event.to_dict() for event in events[middle:]]
        assert log.events(len(events)) == []
        saved = json.loads(json.dumps(log.to_list()))
        assert EventLog.from_list(saved) == log
        assert EventLog.from_list(saved).events() == events


def test_every_kind_is_covered_by_the_old_format_sample() -> None:
    assert {item["kind"] for item in OLD_FORMAT} == {kind.value for kind in EventKind}


def test_a_log_saved_as_one_object_per_event_still_reads() -> None:
    log = EventLog.from_list(OLD_FORMAT)
    assert log.dicts() == OLD_FORMAT
    assert log.to_list()[1] == ["card_played", 2, "salty", 2, 1, 0, 3]
    assert log.to_list()[6] == ["tune_up_share", None, [0], 3, [3], 0, 3]


def test_a_log_saved_as_json_text_per_event_still_reads() -> None:
    texts = [json.dumps(item, separators=(",", ":")) for item in OLD_FORMAT]
    assert EventLog.from_list(texts).dicts() == OLD_FORMAT


def test_the_saved_form_is_much_shorter_than_one_object_per_event() -> None:
    log = EventLog(_race(4, VARIANT_COMBOS[-1], 3))
    compact = len(json.dumps(log.to_list(), separators=(",", ":")))
    old = len(json.dumps(log.dicts(), separators=(",", ":")))
    assert compact * 2 < old


@pytest.mark.parametrize(
    "item",
    [
        {"kind": "no_such_kind", "seat": None},
        {"kind": "speed_gained", "seat": 2},
        {"seat": 2, "speed": 1},
        ["speed_gained", 2],
        ["speed_gained", 2, 1, 1],
        ["speed_gained", "two", 1],
        ["speed_gained", -1, 1],
        ["speed_gained", 2, -1],
        ["speed_gained", 2, 70_000],
        ["speed_gained", 2, 1.5],
        ["card_played", 2, "rocks", 2, 0, 0, 2],
        ["tune_up_share", None, 0, 3, [3], 0, 3],
        "{not json",
        7,
    ],
)
def test_an_unreadable_saved_event_is_refused_with_value_error(item: Any) -> None:
    with pytest.raises(ValueError):
        EventLog.from_list([OLD_FORMAT[0], item])


def test_an_event_that_cannot_be_packed_leaves_the_log_as_it_was() -> None:
    log = EventLog.from_list(OLD_FORMAT[:3])
    before = log.to_list()
    bad = Event(EventKind.SPEED_GAINED, 1, {"speed": 1 << 20})
    with pytest.raises(ValueError, match="speed_gained"):
        log.extend([Event(EventKind.SPEED_GAINED, 1, {"speed": 2}), bad])
    assert log.to_list() == [*before, ["speed_gained", 1, 2]]


def test_a_saved_game_naming_an_unknown_card_is_refused_with_value_error() -> None:
    """A save is read by name lookups: a card that is not a suit is a ValueError that
    says so, as every other unreadable save is, not a KeyError from inside the engine."""
    from engine import new_game
    from engine.game import Game

    data = new_game(players=3, seed=2).to_dict()
    assert Game.from_dict(data) == new_game(players=3, seed=2)
    for field in ("hands", "discards"):
        broken = new_game(players=3, seed=2).to_dict()
        target = broken[field][0] if field == "hands" else broken[field]
        target.append("wombat")
        with pytest.raises(ValueError, match="not a suit"):
            Game.from_dict(broken)
