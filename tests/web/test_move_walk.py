"""One htmx move walks the way docs/architecture.md tells it ("One move, top to bottom"):
the form read once, the race loaded once and saved once, the table rendered once, and
only after the save, on the default store (the SQLite file)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from app_kit import HX, form_fields, make_settings, start
from fastapi.testclient import TestClient
from starlette.requests import Request
from store_kit import StoreProbe

from app.http.web.templating import templates
from app.main import create_app
from app.storage.sqlite import SqliteStore


@pytest.fixture
def walk(tmp_path: Path) -> Iterator[tuple[TestClient, StoreProbe]]:
    """A client of an app on the default store (durable: the SQLite race file)."""
    app = create_app(make_settings(durable=True, data_dir=tmp_path))
    with TestClient(app, follow_redirects=False) as client:
        assert isinstance(app.state.store, SqliteStore)
        yield client, StoreProbe(app.state.store, client)


def _watch(monkeypatch: pytest.MonkeyPatch, store: Any) -> list[str]:
    """The steps of every request from now on, in order: ``form``, ``load``, ``save``,
    ``render``."""
    steps: list[str] = []
    fetch, lock, save = store.fetch, store.lock, store.save
    form = Request.form
    render = templates.TemplateResponse

    async def fetched(*args: Any, **kwargs: Any) -> Any:
        steps.append("load")
        return await fetch(*args, **kwargs)

    @contextlib.asynccontextmanager
    async def locked(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        steps.append("load")
        async with lock(*args, **kwargs) as found:
            yield found

    async def saved(*args: Any, **kwargs: Any) -> Any:
        await save(*args, **kwargs)
        steps.append("save")

    def read_form(self: Request, *args: Any, **kwargs: Any) -> Any:
        steps.append("form")
        return form(self, *args, **kwargs)

    def rendered(*args: Any, **kwargs: Any) -> Any:
        steps.append("render")
        return render(*args, **kwargs)

    monkeypatch.setattr(store, "fetch", fetched)
    monkeypatch.setattr(store, "lock", locked)
    monkeypatch.setattr(store, "save", saved)
    monkeypatch.setattr(Request, "form", read_form)
    monkeypatch.setattr(templates, "TemplateResponse", rendered)
    return steps


def test_an_htmx_move_reads_loads_saves_and_renders_once_each_in_that_order(
    walk: tuple[TestClient, StoreProbe], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, store = walk
    game_id = start(client)
    session = store.get(game_id)
    action = session.game.observation(0)["legal_actions"][0]
    steps = _watch(monkeypatch, store.store)
    answer = client.post(f"/games/{game_id}/move", data=form_fields(action, 0), headers=HX)
    assert answer.status_code == 200, answer.text
    assert steps == ["form", "load", "save", "render"]
    assert store.get(game_id).turn == 1


def test_a_refused_htmx_move_renders_the_table_after_the_race_is_let_go(
    walk: tuple[TestClient, StoreProbe], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move for an old turn changes nothing: nothing is saved, the table says why."""
    client, store = walk
    game_id = start(client)
    action = store.get(game_id).game.observation(0)["legal_actions"][0]
    steps = _watch(monkeypatch, store.store)
    answer = client.post(f"/games/{game_id}/move", data=form_fields(action, 7), headers=HX)
    assert answer.status_code == 409, answer.text
    assert steps == ["form", "load", "render"]
