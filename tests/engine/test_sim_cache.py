"""The simulation path's legal-set cache stays bounded and right once it overflows."""

from __future__ import annotations

import itertools

import pytest
from oracle.old_game import _face_up_actions, _tune_up_actions

from engine import sim
from engine.sim import ACTION_ID, legal_ids


def _keys() -> list[int]:
    """Distinct legal-set keys: every hand, playable subset and gas, with
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


def test_the_legal_set_cache_stays_bounded_and_right_past_its_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    limit = 500  # the real limit is far larger; the code path is the same
    monkeypatch.setattr(sim, "CACHE_LIMIT", limit)
    keys = _keys()[: 3 * limit + 100]
    assert len(set(keys)) == len(keys)
    sim.LEGAL_CACHE.clear()  # whatever earlier tests left in it
    for key in keys:
        legal_ids(key)
        assert len(sim.LEGAL_CACHE) <= limit
    assert len(sim.LEGAL_CACHE) == 100  # emptied each time it was full, then refilled
    for key in keys[::7]:  # rebuilt or still cached, each set is what the old engine gave
        playable, hand, gas, middle = key & 127, key >> 7 & 127, key >> 14 & 7, key >> 17 & 1
        expected = [*_face_up_actions(playable, gas, bool(middle), False), *_tune_up_actions(hand)]
        assert legal_ids(key) == tuple(ACTION_ID[a] for a in expected)
