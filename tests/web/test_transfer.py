"""Lighter answers: compression of text responses, long-lived caching of fingerprinted files."""

from __future__ import annotations

import gzip
import re
import zlib
from pathlib import Path

import pytest
from app_kit import HX, start
from fastapi.testclient import TestClient

from app.http import compression

IMMUTABLE = "public, max-age=31536000, immutable"


def test_pages_and_fragments_are_gzipped_and_vary_on_both_headers(client: TestClient) -> None:
    game_id = start(client)
    for headers in ({}, HX):
        page = client.get(f"/games/{game_id}", headers={"Accept-Encoding": "gzip", **headers})
        assert page.status_code == 200
        assert page.headers["content-encoding"] == "gzip"
        assert int(page.headers["content-length"]) < len(page.content) / 3
        vary = {v.strip().lower() for v in page.headers["vary"].split(",")}
        assert {"hx-request", "accept-encoding"} <= vary
        assert page.headers["cache-control"] == "no-store"


def test_a_client_that_does_not_ask_gets_plain_bytes(client: TestClient) -> None:
    page = client.get("/rules", headers={"Accept-Encoding": "identity"})
    assert page.status_code == 200
    assert "content-encoding" not in page.headers
    assert int(page.headers["content-length"]) == len(page.content)


def test_json_is_compressed_too(client: TestClient) -> None:
    spec = client.get("/openapi.json", headers={"Accept-Encoding": "gzip"})
    assert spec.headers["content-encoding"] == "gzip"


def test_fingerprinted_assets_are_immutable_others_revalidate(client: TestClient) -> None:
    page = client.get("/").text
    urls = re.findall(r'(?:href|src)="(/static/[^"]+\?v=[0-9a-f]+)"', page)
    assert any("/css/" in u for u in urls) and any("/js/" in u for u in urls), urls
    assert any("/vendor/htmx-" in u for u in urls), urls
    for url in urls:
        asset = client.get(url)
        assert asset.status_code == 200
        assert asset.headers["cache-control"] == IMMUTABLE
    plain = client.get("/static/img/favicon.svg")
    assert plain.status_code == 200
    assert plain.headers["cache-control"] == "no-cache"
    assert "etag" in plain.headers


def test_a_missing_asset_is_not_cached_for_a_year(client: TestClient) -> None:
    missing = client.get("/static/css/nothing-here.css?v=0123456789")
    assert missing.status_code == 404
    assert missing.headers.get("cache-control") != IMMUTABLE


def test_a_gzipped_table_reads_back_as_the_plain_one(client: TestClient) -> None:
    game_id = start(client)
    for headers in ({}, HX):
        plain = client.get(f"/games/{game_id}", headers={"Accept-Encoding": "identity", **headers})
        raw = client.get(f"/games/{game_id}", headers={"Accept-Encoding": "gzip", **headers})
        assert raw.headers["content-encoding"] == "gzip"
        assert raw.text == plain.text  # httpx inflated it with the standard library


@pytest.mark.parametrize("isal", [True, False], ids=["isal", "zlib"])
def test_the_compressor_writes_standard_gzip(isal: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not isal:
        monkeypatch.setattr(compression, "_isal", None)
    body = (Path(__file__).parents[2] / "templates/partials/hand.html").read_bytes() * 8
    whole = compression.gzip_compressor(3)
    once = whole.compress(body) + whole.flush()
    streamed = compression.gzip_compressor(3)
    parts = [streamed.compress(body[:5000]) + streamed.flush(zlib.Z_SYNC_FLUSH)]
    parts.append(streamed.compress(body[5000:]) + streamed.flush())
    for blob in (once, b"".join(parts)):
        assert gzip.decompress(blob) == body
        assert len(blob) < len(body) / 4
    assert type(whole).__module__.startswith("isal" if isal else "zlib")
