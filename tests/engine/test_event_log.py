"""The public event log (engine/event_log.py): every event comes back exactly, from any
position, and a copy is independent of its original."""

from __future__ import annotations

import itertools

import pytest
from game_kit import VARIANT_COMBOS, random_playout, variant_label

from engine import Event, EventKind, EventLog, Variants, new_game
from engine.rng import Rng


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
        assert log == EventLog(events) and log != EventLog(events[:-1])


def test_a_copy_is_independent() -> None:
    events = _race(4, VARIANT_COMBOS[-1], 3)
    log = EventLog(events[:10])
    copied = log.copy()
    copied.extend(events[10:12])
    assert len(log) == 10 and len(copied) == 12
    assert log.events() == events[:10]


def test_find_last_reads_back_from_the_end() -> None:
    events = _race(3, VARIANT_COMBOS[0], 2)
    log = EventLog(events)
    plays = {EventKind.CARD_PLAYED}
    found = log.find_last(plays, seat=1)
    assert found is not None and events[found].kind is EventKind.CARD_PLAYED
    assert events[found].seat == 1
    assert all(e.kind is not EventKind.CARD_PLAYED or e.seat != 1 for e in events[found + 1 :])
    assert log.find_last({EventKind.ROUND_DEALT}, before=1) == 0
    assert log.find_last(plays, before=0) is None


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
