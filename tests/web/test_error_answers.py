"""A refusal answers htmx with the error page's panel alone, and a browser without
JavaScript with the whole page: the same status and the same sentence either way."""

from __future__ import annotations

from app_kit import HX, create
from fastapi.testclient import TestClient
from httpx import Response
from starlette.requests import Request

from app.http.errors import ServerStopping, render_error


def _panel(answer: Response) -> str:
    """The answer's body, checked to be the error panel alone (htmx's fragment)."""
    body = answer.text
    assert "<html" not in body and "<head" not in body and "<main" not in body, body
    assert body.lstrip().startswith('<section class="panel panel-center error-panel">'), body
    assert "HX-Request" in answer.headers["vary"]
    return body


def test_an_unknown_address_answers_htmx_with_the_panel(client: TestClient) -> None:
    fragment = client.get("/no/such/page", headers=HX)
    assert fragment.status_code == 404
    assert "Nothing lives at this address." in _panel(fragment)
    whole = client.get("/no/such/page")
    assert whole.status_code == 404
    assert "<html" in whole.text and "Nothing lives at this address." in whole.text
    assert "HX-Request" in whole.headers["vary"]


def test_a_cross_site_move_by_htmx_is_refused_with_the_panel(client: TestClient) -> None:
    game_id, token, _ = create(client)
    headers = {**HX, "Cookie": f"zzv_{game_id}={token}", "Origin": "https://evil.example"}
    form = {"turn": "0", "choice": "down:jelly"}
    refused = client.post(f"/games/{game_id}/move", data=form, headers=headers)
    assert refused.status_code == 403
    assert "This request came from another site and was refused." in _panel(refused)
    without_js = {k: v for k, v in headers.items() if k not in HX}
    page = client.post(f"/games/{game_id}/move", data=form, headers=without_js)
    assert page.status_code == 403 and "<html" in page.text


def test_a_stopping_servers_answer_to_htmx_is_the_panel_with_its_headers() -> None:
    # What the stopping server answers a move still running (CancelledAs503Middleware).
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/games/abc/move",
        "query_string": b"",
        "headers": [(b"hx-request", b"true")],
    }
    answer = render_error(Request(scope), ServerStopping())
    assert answer.status_code == 503
    assert answer.headers["retry-after"] == "5" and answer.headers["connection"] == "close"
    body = bytes(answer.body).decode()
    assert "<html" not in body and "The server is restarting" in body
