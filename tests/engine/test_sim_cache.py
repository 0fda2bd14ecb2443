"""The simulation path's legal-set cache stays bounded and right once it overflows."""

from __future__ import annotations

import itertools

from engine import sim
from engine.game import _face_up_actions, _tune_up_actions
from engine.sim import ACTION_ID, CACHE_LIMIT, legal_ids


def _keys() -> list[int]:
    """More legal-set keys than the cache holds: every hand, playable subset and gas, with
    and without gas in the middle (no one removed, so no 0/5 card)."""
    keys = []
    for hand, gas, middle in itertools.product(range(1, 128), range(6), (0, 1)):
        playable = hand
        while True:  # every subset of the hand
            keys.append(playable | hand << 7 | gas << 14 | middle << 17)
            if playable == 0:
                break
            playable = (playable - 1) & hand
    return keys


def test_the_legal_set_cache_stays_bounded_and_right_past_its_limit() -> None:
    keys = _keys()[: CACHE_LIMIT + 1_000]
    assert len(set(keys)) == CACHE_LIMIT + 1_000
    sim.LEGAL_CACHE.clear()  # whatever earlier tests left in it
    for key in keys:
        legal_ids(key)
        assert len(sim.LEGAL_CACHE) <= CACHE_LIMIT
    assert len(sim.LEGAL_CACHE) == 1_000  # emptied when full, then refilled
    for key in keys[::40]:  # rebuilt or still cached, each set is what the rules give
        playable, hand, gas, middle = key & 127, key >> 7 & 127, key >> 14 & 7, key >> 17 & 1
        expected = [*_face_up_actions(playable, gas, bool(middle), False), *_tune_up_actions(hand)]
        assert legal_ids(key) == tuple(ACTION_ID[a] for a in expected)
