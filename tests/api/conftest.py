"""Fixtures for the JSON API tests: an in-process app with its own store, limits lifted."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from api_helpers import make_settings
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.main import create_app


@pytest.fixture
def app() -> FastAPI:
    """A fresh app with its own empty store."""
    return create_app(make_settings())


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """An httpx-based client talking to :func:`app` in process (lifespan included)."""
    with TestClient(app) as test_client:
        yield test_client
