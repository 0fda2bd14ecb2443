"""Fixtures for the HTML route tests: an in-process app with a movable clock, limits lifted."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from app.store import ManualClock, MemoryStore


@pytest.fixture
def clock() -> ManualClock:
    """The clock of :func:`store`."""
    return ManualClock()


@pytest.fixture
def settings() -> Settings:
    """Settings without rate limits or access log."""
    return Settings(rate_limit_enabled=False, access_log=False, idle_expiry_seconds=600)


@pytest.fixture
def store(settings: Settings, clock: ManualClock) -> MemoryStore:
    """The app's game store, on the fake clock."""
    return MemoryStore(max_games=50, idle_expiry_seconds=settings.idle_expiry_seconds, clock=clock)


@pytest.fixture
def app(settings: Settings, store: MemoryStore) -> FastAPI:
    """A fresh app with its own store."""
    return create_app(settings, store=store)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """In-process client; redirects are not followed so tests can see the 303s."""
    with TestClient(app, follow_redirects=False) as test_client:
        yield test_client
