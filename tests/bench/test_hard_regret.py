"""The hard bot's regret benchmark: references are paired and unpruned, regrets add up."""

from __future__ import annotations

import math

import pytest

from bench.hard_regret import MODELS, Reference, main, positions, reference, regret_table
from engine.bots.search import DEFAULT_CANDIDATES


def test_regret_is_what_the_reference_gives_up() -> None:
    ref = Reference(means=[0.30, 0.42, 0.40], errors=[0.01, 0.0, 0.01])
    assert ref.regret(1) == 0.0
    assert math.isclose(ref.regret(0), 0.12) and math.isclose(ref.regret(2), 0.02)


def test_positions_have_several_candidates_from_the_seat_to_act() -> None:
    found = positions(3, seed=5)
    assert len(found) == 3
    for observation, shortlist in found:
        legal = observation.legal_actions()
        assert 1 < len(shortlist) <= DEFAULT_CANDIDATES
        assert all(action in legal for action in shortlist)


def test_reference_runs_every_candidate_on_every_world() -> None:
    observation, shortlist = positions(1, seed=5)[0]
    ref = reference(observation, shortlist, worlds=12, models=1, seed=3)
    assert len(ref.means) == len(ref.errors) == len(shortlist)
    assert all(0.0 <= m <= 1.0 for m in ref.means)
    best = ref.means.index(max(ref.means))
    assert ref.errors[best] == 0.0  # the best against itself: no spread at all
    assert ref == reference(observation, shortlist, worlds=12, models=1, seed=3)


def test_regret_table_covers_every_setting(capsys: pytest.CaptureFixture[str]) -> None:
    table, noise = regret_table(2, worlds=10, budgets=[8, 24], seeds=1, seed=5)
    assert set(table) == {(m, r, b) for m in MODELS for r in MODELS for b in (8, 24)}
    assert all(value >= 0.0 for value in table.values()) and noise >= 0.0
    main(["--positions", "1", "--worlds", "6", "--budgets", "8", "--seeds", "1"])
    out = capsys.readouterr().out
    assert "regret" in out and len(out.splitlines()) == 2 + len(MODELS) ** 2 + 1
