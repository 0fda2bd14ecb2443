"""MemoryStore: idle expiry, LRU eviction of idle games, the cap, sweeping, with a fake clock."""

from __future__ import annotations

import pytest

from app.sessions import GameConfig, GameSession, token_digest
from app.store import ManualClock, MemoryStore, StoreFull
from engine import new_game


def session(game_id: str) -> GameSession:
    """A minimal stored game."""
    return GameSession(
        id=game_id,
        token=f"token-{game_id}",
        config=GameConfig(),
        game=new_game(players=3, seed=1),
        seed=1,
        seed_chosen=True,
        engine_seed=1,
    )


def test_get_returns_what_was_put_and_refreshes_idle_time() -> None:
    clock = ManualClock(5000.0)
    store = MemoryStore(max_games=10, idle_expiry_seconds=100, clock=clock)
    a = session("a")
    store.put(a)
    for _ in range(5):
        clock.now += 90  # each touch keeps it alive although 450 s passed in all
        assert store.get("a") is a
    clock.now += 100
    assert store.get("a") is None
    assert store.expired_token_digest("a") == token_digest("token-a")
    assert len(store) == 0


def test_sweep_drops_only_expired_games() -> None:
    clock = ManualClock(5000.0)
    store = MemoryStore(max_games=10, idle_expiry_seconds=100, clock=clock)
    for name in "abc":
        store.put(session(name))
        clock.now += 40
    # a put at 5000, b at 5040, c at 5080; now 5120
    assert store.sweep() == 1  # a is 120 s idle
    assert store.get("a") is None and store.get("b") is not None
    clock.now += 1000
    assert store.sweep() == 2
    assert len(store) == 0
    assert store.sweep() == 0


def test_full_store_evicts_the_least_recently_used_idle_game() -> None:
    clock = ManualClock(5000.0)
    store = MemoryStore(
        max_games=3, idle_expiry_seconds=1000, evict_min_idle_seconds=30, clock=clock
    )
    for name in "abc":
        store.put(session(name))
        clock.now += 50
    store.get("a")  # a becomes the most recently used; b is now the LRU
    clock.now += 50
    store.put(session("d"))
    assert len(store) == 3
    assert store.get("b") is None
    assert store.expired_token_digest("b") == token_digest("token-b")
    assert all(store.get(name) is not None for name in "acd")


def test_full_store_refuses_rather_than_evict_an_active_game() -> None:
    clock = ManualClock(5000.0)
    store = MemoryStore(
        max_games=2, idle_expiry_seconds=1000, evict_min_idle_seconds=30, clock=clock
    )
    store.put(session("a"))
    store.put(session("b"))
    clock.now += 10
    with pytest.raises(StoreFull):
        store.put(session("c"))
    assert {g for g in "ab" if store.get(g)} == {"a", "b"}
    clock.now += 31
    store.put(session("c"))  # a and b were just touched by get() above... at now-31
    assert len(store) == 2


def test_cap_holds_under_many_puts() -> None:
    clock = ManualClock(5000.0)
    store = MemoryStore(max_games=50, idle_expiry_seconds=10_000, clock=clock)
    for i in range(500):
        clock.now += 1
        store.put(session(f"g{i}"))
        assert len(store) <= 50
    assert len(store) == 50
    assert store.get("g499") is not None and store.get("g0") is None


def test_delete_forgets_without_a_tombstone() -> None:
    store = MemoryStore(max_games=5, idle_expiry_seconds=10)
    store.put(session("a"))
    store.delete("a")
    store.delete("never-there")
    assert store.get("a") is None and store.expired_token_digest("a") is None


def test_tombstones_are_bounded() -> None:
    clock = ManualClock(5000.0)
    store = MemoryStore(max_games=100, idle_expiry_seconds=1, expired_memory=3, clock=clock)
    for i in range(10):
        store.put(session(f"g{i}"))
    clock.now += 5
    assert store.sweep() == 10
    remembered = [i for i in range(10) if store.expired_token_digest(f"g{i}")]
    assert len(remembered) == 3


def test_background_sweep_drops_expired_games_without_any_request() -> None:
    import time as real_time

    from app_kit import make_settings
    from fastapi.testclient import TestClient

    from app.main import create_app

    clock = ManualClock(5000.0)
    store = MemoryStore(max_games=10, idle_expiry_seconds=60, clock=clock)
    app = create_app(make_settings(sweep_interval_seconds=0.05), store=store)
    with TestClient(app) as client:
        assert client.post("/api/games", json={"bots": "random"}).status_code == 201
        assert len(store) == 1
        clock.now += 61
        deadline = real_time.monotonic() + 5
        while len(store) and real_time.monotonic() < deadline:
            real_time.sleep(0.05)
        assert len(store) == 0
