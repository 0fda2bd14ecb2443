"""Trusted hosts on a real uvicorn: a request for a foreign Host is refused before any page
or invite link is built on that name, links follow ``ZZV_PUBLIC_URL`` when it is set, and
the same-origin check counts only on an allowed host (DNS rebinding)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from starlette.datastructures import Headers

from app.http.security import same_origin

pytestmark = pytest.mark.slow

QUIET = {"ZZV_ACCESS_LOG": "false", "ZZV_RATE_LIMIT_ENABLED": "false"}

FOREIGN = "evil.example"


def links_in(text: str) -> list[str]:
    """Every absolute http(s) link in ``text``."""
    return re.findall(r"https?://[^\s\"'<>]+", text)


def test_a_foreign_host_is_refused_and_no_link_to_it_is_handed_out(
    launch_server: Callable[..., Any], server_command: Callable[..., list[str]], free_port: int
) -> None:
    server = launch_server(server_command(free_port), port=free_port, env=QUIET)
    own = f"127.0.0.1:{free_port}"
    foreign = {"Host": FOREIGN}
    rebinding = {"Host": FOREIGN, "Origin": f"http://{FOREIGN}", "Sec-Fetch-Site": "same-origin"}
    with httpx.Client(base_url=server.url, timeout=30) as client:
        api = client.post("/api/games", json={"bots": "random", "humans": 2}, headers=foreign)
        assert api.status_code == 400 and api.json()["code"] == "unknown_host"
        page = client.get("/", headers={**foreign, "Accept": "text/html"})
        assert page.status_code == 400 and "published address" in page.text
        form = client.post("/games", data={"players": "3", "people": "2"}, headers=rebinding)
        assert form.status_code == 400
        for answer in (api, page, form):
            assert FOREIGN not in answer.text
            assert not any(FOREIGN in link for link in links_in(answer.text))
        # Orchestrators probe by IP or container name: the probes answer any Host.
        assert client.get("/healthz", headers=foreign).status_code == 200

        created = client.post("/api/games", json={"bots": "random", "humans": 2}).json()
        assert [invite["url"].split("/games/")[0] for invite in created["invites"]] == [
            f"http://{own}"
        ]
        ipv6 = client.get("/healthz", headers={"Host": f"[::1]:{free_port}"})
        assert ipv6.status_code == 200
        localhost = client.get("/", headers={"Host": f"localhost:{free_port}"})
        assert localhost.status_code == 200
    assert "Traceback" not in server.log()


def test_links_are_built_on_the_public_url_whatever_the_request_host(
    launch_server: Callable[..., Any], server_command: Callable[..., list[str]], free_port: int
) -> None:
    env = {**QUIET, "ZZV_PUBLIC_URL": "https://vroom.example/"}
    server = launch_server(server_command(free_port), port=free_port, env=env)
    with httpx.Client(base_url=server.url, timeout=30, follow_redirects=True) as client:
        created = client.post("/api/games", json={"bots": "random", "humans": 2}).json()
        urls = [invite["url"] for invite in created["invites"]]
        assert urls and all(url.startswith("https://vroom.example/games/") for url in urls)
        table = client.post("/games", data={"players": "3", "people": "2"})
        assert table.status_code == 200
        links = links_in(table.text)
        assert any("/join?code=" in link for link in links)
        assert all(link.startswith("https://vroom.example/") for link in links if "/games/" in link)
        # The public name is one the server answers to.
        named = client.get("/", headers={"Host": "vroom.example"})
        assert named.status_code == 200
        assert client.get("/", headers={"Host": FOREIGN}).status_code == 400


def test_same_origin_counts_only_on_an_allowed_host() -> None:
    hosts = ("127.0.0.1", "localhost")
    rebound = Headers({"host": FOREIGN, "origin": f"http://{FOREIGN}"})
    assert not same_origin(rebound, "http", (), hosts)
    fetched = Headers({"host": FOREIGN, "sec-fetch-site": "same-origin"})
    assert not same_origin(fetched, "http", (), hosts)
    ours = Headers({"host": "localhost:8000", "origin": "http://localhost:8000"})
    assert same_origin(ours, "http", (), hosts)
    assert not same_origin(
        Headers({"host": "localhost:8000", "origin": f"http://{FOREIGN}"}), "http", (), hosts
    )
    # A client that is not a browser (no Origin, no Sec-Fetch-Site) rides no cookie.
    assert same_origin(Headers({"host": FOREIGN}), "http", (), hosts)
