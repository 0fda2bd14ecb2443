"""Security of the server: headers, CSRF, body cap, rate limits, cookies, logs without tokens."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from app_kit import bearer, create, make_settings, move
from fastapi.testclient import TestClient
from starlette.datastructures import Headers
from store_kit import RedisServer

from app.http.security import CONTENT_SECURITY_POLICY, same_origin
from app.main import create_app


@pytest.fixture
def client() -> Iterator[TestClient]:
    """In-process client, rate limits lifted."""
    with TestClient(create_app(make_settings(max_body_bytes=4096))) as test_client:
        yield test_client


def assert_security_headers(headers: Any) -> None:
    """The headers every answer must carry."""
    csp = headers["content-security-policy"]
    directives = {d.split()[0]: d.split()[1:] for d in csp.split("; ")}
    assert directives["script-src"] == ["'self'"] or directives["script-src"][0] == "'self'"
    assert "'unsafe-inline'" not in directives["script-src"]
    assert "'unsafe-eval'" not in directives["script-src"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"]


def test_headers_on_every_kind_of_answer(client: TestClient) -> None:
    game_id, token, _ = create(client)
    answers = [
        client.get("/"),
        client.get("/rules"),
        client.get("/healthz"),
        client.get("/static/css/app.css"),
        client.get(f"/games/{game_id}", headers={"Cookie": f"zzv_{game_id}={token}"}),
        client.get("/games/unknown"),
        client.get("/api/games/unknown", headers=bearer(token)),
        client.get("/no/such/page"),
        client.post("/api/games", json={"players": 9}),
        client.post("/api/games", content=b"x" * 5000, headers={"Content-Type": "text/plain"}),
        client.post("/api/games", json={}, headers={"Sec-Fetch-Site": "cross-site"}),
        client.post("/api/games", json={}),
    ]
    statuses = {r.status_code for r in answers}
    assert {200, 201, 403, 404, 413, 422} <= statuses
    for response in answers:
        assert_security_headers(response.headers)
    assert answers[-1].headers["cache-control"] == "no-store"


def test_pages_run_no_inline_code_so_the_csp_holds(client: TestClient) -> None:
    game_id, token, _ = create(client)
    cookie = {"Cookie": f"zzv_{game_id}={token}"}
    pages = [
        client.get("/").text,
        client.get("/rules").text,
        client.get(f"/games/{game_id}", headers=cookie).text,
        client.get(f"/games/{game_id}", headers={**cookie, "HX-Request": "true"}).text,
        client.get("/games/unknown").text,
    ]
    for page in pages:
        for tag in re.findall(r"<script\b[^>]*>(.*?)</script>", page, re.S):
            assert tag.strip() == "", "inline script would be blocked by the CSP"
        assert re.search(r"<script(?![^>]*\bsrc=)", page) is None
        assert "<style" not in page
        assert re.search(r"\sstyle\s*=", page) is None
        assert re.search(r"\son[a-z]+\s*=", page) is None, "inline event handler"
    base = pages[0]
    assert '"allowEval":false' in base.replace(" ", "")
    assert '"includeIndicatorStyles":false' in base.replace(" ", "")


def test_default_csp_allows_only_self() -> None:
    assert "script-src 'self';" in CONTENT_SECURITY_POLICY
    assert "style-src 'self';" in CONTENT_SECURITY_POLICY


@pytest.mark.parametrize(
    ("headers", "allowed"),
    [
        ({}, True),  # httpx, curl: not a browser, no ambient cookies
        ({"sec-fetch-site": "same-origin"}, True),
        ({"sec-fetch-site": "none"}, True),
        ({"sec-fetch-site": "cross-site"}, False),
        ({"sec-fetch-site": "same-site"}, False),
        ({"origin": "http://testserver", "host": "testserver"}, True),
        ({"origin": "https://evil.example", "host": "testserver"}, False),
        ({"origin": "null", "host": "testserver"}, False),
        ({"origin": "http://testserver.evil.example", "host": "testserver"}, False),
    ],
)
def test_same_origin_rule(headers: dict[str, str], allowed: bool) -> None:
    assert same_origin(Headers(headers), "http") is allowed


def test_cross_site_posts_are_refused_for_pages_and_api(client: TestClient) -> None:
    game_id, token, state = create(client)
    cookie = {"Cookie": f"zzv_{game_id}={token}"}
    evil = {"Origin": "https://evil.example"}
    form = {"turn": "0", "choice": "down:jelly"}
    assert client.post("/games", data={"players": "4"}, headers=evil).status_code == 403
    refused = client.post(f"/games/{game_id}/move", data=form, headers={**cookie, **evil})
    assert refused.status_code == 403
    assert "This request came from another site and was refused." in refused.text
    cross = {"Sec-Fetch-Site": "cross-site"}
    api = client.post(
        f"/api/games/{game_id}/actions",
        json={"turn": 0, "action": state["legal_actions"][0]},
        headers={**bearer(token), **cross},
    )
    assert api.status_code == 403 and api.json()["code"] == "cross_site_request"
    # nothing was applied by the refused requests
    assert client.get(f"/api/games/{game_id}", headers=bearer(token)).json()["turn"] == 0
    ok = client.post("/games", data={"players": "4"}, headers={"Sec-Fetch-Site": "same-origin"})
    assert ok.status_code in (200, 303)


def test_body_size_cap_declared_and_streamed(client: TestClient) -> None:
    declared = client.post("/api/games", content=b"{" + b" " * 5000 + b"}")
    assert declared.status_code == 413
    assert declared.json()["code"] == "payload_too_large"

    def chunks() -> Iterator[bytes]:
        yield b'{"players": 4, "pad": "'
        for _ in range(10):
            yield b"x" * 1000
        yield b'"}'

    streamed = client.post(
        "/api/games", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert streamed.status_code == 413


def test_creation_is_rate_limited_with_retry_after() -> None:
    settings = make_settings(rate_limit_enabled=True, create_burst=2, create_rate_per_minute=6)
    with TestClient(create_app(settings)) as client:
        assert client.post("/api/games", json={}).status_code == 201
        assert client.post("/api/games", json={}).status_code == 201
        limited = client.post("/api/games", json={})
        assert limited.status_code == 429
        assert limited.json()["code"] == "rate_limited"
        # 2 per 20 s moving window: a slot frees when the first creation leaves the window
        assert 1 <= int(limited.headers["retry-after"]) <= 20
        # the HTML form shares the creation bucket
        assert client.post("/games", data={"players": "4"}).status_code == 429
        assert client.get("/healthz").status_code == 200  # probes are not limited


def test_moves_are_rate_limited_separately() -> None:
    settings = make_settings(rate_limit_enabled=True, move_burst=3, move_rate_per_second=0.5)
    with TestClient(create_app(settings)) as client:
        game_id, token, state = create(client, bots="random")
        codes = []
        for _ in range(5):
            response = move(client, game_id, token, state["turn"], state["legal_actions"][0])
            codes.append(response.status_code)
            if response.status_code == 200:
                state = response.json()
        assert codes == [200, 200, 200, 429, 429]
        assert client.post("/api/games", json={}).status_code == 201


def test_reads_are_rate_limited_but_not_probes_or_static_files() -> None:
    settings = make_settings(rate_limit_enabled=True, read_burst=3, read_rate_per_second=0.5)
    with TestClient(create_app(settings)) as client:
        game_id, token, _ = create(client, bots="random")
        codes = [
            client.get(f"/api/games/{game_id}", headers=bearer(token)).status_code for _ in range(4)
        ]
        assert codes == [200, 200, 200, 429]
        assert client.get("/rules").status_code == 429  # pages count as reads too
        limited = client.get(f"/api/games/{game_id}", headers=bearer(token))
        assert limited.json()["code"] == "rate_limited"
        assert 1 <= int(limited.headers["retry-after"]) <= 6
        assert client.get("/healthz").status_code == 200
        assert client.get("/readyz").status_code == 200
        assert client.get("/static/app.css").status_code in (200, 404)
        assert client.get("/static/app.css").status_code != 429
        # moves have their own limit
        assert client.post("/api/games", json={}).status_code == 201


def test_shutdown_closes_the_shared_counters_connections(fresh_redis: RedisServer) -> None:
    """With Redis, the rate counters are the app's too: stopping it leaves no connection
    behind (a worker that restarts must not strand clients on the Redis server)."""
    watcher = redis.Redis.from_url(fresh_redis.url)

    def connected() -> int:
        clients: int = watcher.info("clients")["connected_clients"]
        return clients

    try:
        alone = connected()
        settings = make_settings(redis_url=fresh_redis.url, rate_limit_enabled=True)
        with TestClient(create_app(settings)) as client:
            assert client.get("/rules").status_code == 200
            assert any(watcher.scan_iter(match="zzv:limits*"))
            assert connected() > alone
        assert connected() == alone
    finally:
        watcher.close()


def test_browser_cookie_flags(client: TestClient) -> None:
    response = client.post("/games", data={"players": "4"}, follow_redirects=False)
    assert response.status_code == 303
    location = response.headers["location"]
    game_id = location.rsplit("/", 1)[-1]
    cookies = [v for k, v in response.headers.multi_items() if k == "set-cookie"]
    token_cookie = next(c for c in cookies if c.startswith(f"zzv_{game_id}="))
    token = token_cookie.split(";")[0].split("=", 1)[1]
    assert len(token) >= 43 and token not in location
    flags = token_cookie.lower()
    assert "httponly" in flags and "samesite=lax" in flags
    assert "secure" not in flags  # plain http on the loopback
    assert f"path=/games/{game_id}".lower() in flags


def test_cookie_is_secure_over_https() -> None:
    with TestClient(create_app(make_settings()), base_url="https://testserver") as client:
        response = client.post("/games", data={"players": "4"}, follow_redirects=False)
        assert response.status_code == 303
        cookie = next(
            v for k, v in response.headers.multi_items() if k == "set-cookie" and "zzv_" in v
        )
        assert "secure" in cookie.lower()
        assert "strict-transport-security" in response.headers


def test_logs_never_hold_tokens_or_query_strings(caplog: pytest.LogCaptureFixture) -> None:
    settings = make_settings(access_log=True)
    with TestClient(create_app(settings)) as client:
        logging.getLogger("zzv").addHandler(caplog.handler)
        try:
            with caplog.at_level(logging.INFO, logger="zzv"):
                game_id, token, state = create(client, bots="random")
                move(client, game_id, token, 0, state["legal_actions"][0])
                move(client, game_id, token, 0, state["legal_actions"][0])
                client.get(f"/api/games/{game_id}?token={token}", headers=bearer(token))
                client.get(f"/games/{game_id}", headers={"Cookie": f"zzv_{game_id}={token}"})
                client.get(f"/api/games/{game_id}", headers=bearer(token + "x"))
        finally:
            logging.getLogger("zzv").removeHandler(caplog.handler)
    access = [r for r in caplog.records if r.name == "zzv.access"]
    assert len(access) >= 6
    assert all(not hasattr(r, "query") for r in access)
    paths = [getattr(r, "path", "") for r in access]
    assert f"/api/games/{game_id}" in paths
    for record in caplog.records:
        assert token not in record.getMessage()
        assert token not in repr(record.__dict__)
