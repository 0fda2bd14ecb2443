"""What a phone's home screen, a browser, a crawler and a chat app's link preview ask the
site for: the web app manifest and its icons, the iOS home-screen icon, ``/favicon.ico``,
``robots.txt`` and each page's preview tags; and Chromium itself finding the manifest
without errors and the game installable."""

from __future__ import annotations

import re
import struct
from collections.abc import Callable
from pathlib import Path

import pytest
from app_kit import start
from browser_kit import phone_context
from fastapi import FastAPI
from fastapi.testclient import TestClient
from html_kit import parse_html
from playwright.sync_api import Browser

from app.http.web.site import DARK_BACKGROUND, LIGHT_BACKGROUND
from engine.cards import SUIT_ORDER

CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "app.css"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size_and_alpha(data: bytes) -> tuple[int, int, bool]:
    """Width, height and whether the PNG has an alpha channel (from its IHDR chunk)."""
    assert data[:8] == PNG_SIGNATURE
    width, height, _, colour_type = struct.unpack(">IIBB", data[16:26])
    return width, height, colour_type in (4, 6)


def test_the_manifest_names_the_game_and_its_icons_exist(client: TestClient) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["name"] == "Zoom Zoom Vroom" and manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    sizes = set()
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200 and image.headers["content-type"] == icon["type"]
        if icon["type"] == "image/png":
            width, height, _ = png_size_and_alpha(image.content)
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add(width)
    assert {192, 512} <= sizes  # what Android asks for


def test_every_page_links_the_manifest_icon_and_theme_colours(client: TestClient) -> None:
    """The theme colours are the pages' own backgrounds, light and dark."""
    css = CSS.read_text(encoding="utf-8")
    backgrounds = re.findall(r"--bg: (#[0-9a-f]{6});", css)
    assert backgrounds[:2] == [LIGHT_BACKGROUND, DARK_BACKGROUND]
    for path in ("/", "/rules", "/learn"):
        head = parse_html(client.get(path).text).find("head")
        links = {a.attrs.get("rel"): a.attrs.get("href") for a in head.find_all("link")}
        assert links["manifest"] == "/manifest.webmanifest", path
        assert links["apple-touch-icon"] == "/apple-touch-icon.png", path
        themes = {
            m.attrs.get("media"): m.attrs.get("content")
            for m in head.find_all("meta")
            if m.attrs.get("name") == "theme-color"
        }
        assert themes == {
            "(prefers-color-scheme: light)": LIGHT_BACKGROUND,
            "(prefers-color-scheme: dark)": DARK_BACKGROUND,
        }, path


def test_the_home_screen_icon_is_an_opaque_square(client: TestClient) -> None:
    """iOS asks the root for it, rounds its corners itself and paints transparency black."""
    response = client.get("/apple-touch-icon.png")
    assert response.status_code == 200 and response.headers["content-type"] == "image/png"
    assert png_size_and_alpha(response.content) == (180, 180, False)


def test_favicon_ico_leads_to_the_sites_icon(client: TestClient) -> None:
    response = client.get("/favicon.ico", follow_redirects=False)
    assert response.status_code == 301
    icon = client.get(response.headers["location"])
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"


def test_robots_keep_crawlers_off_the_api_and_players_pages(client: TestClient) -> None:
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    rules = response.text.splitlines()
    assert rules[0] == "User-agent: *"
    assert {"Disallow: /api/", "Disallow: /me"} <= set(rules)
    # The start page, the rules and the lesson stay open, and so do shared races' links,
    # which some chat apps' preview fetchers would otherwise not read.
    assert not [rule for rule in rules if rule in ("Disallow: /", "Disallow: /games/")]


def _preview(html: str) -> dict[str, str]:
    """A page's link-preview tags (``og:*`` and ``twitter:*``) by name."""
    head = parse_html(html).find("head")
    return {
        (m.attrs.get("property") or m.attrs.get("name") or ""): m.attrs.get("content") or ""
        for m in head.find_all("meta")
        if (m.attrs.get("property") or m.attrs.get("name") or "").startswith(("og:", "twitter:"))
    }


def test_a_shared_link_previews_the_page_and_the_game_never_a_race(
    app_with: Callable[..., FastAPI],
) -> None:
    """The preview names the page and shows the game's picture at the public address;
    on a race's page it says nothing of its cards."""
    with TestClient(app_with(public_url="https://vroom.example/"), follow_redirects=False) as c:
        game_id = start(c, seed=3)
        for path in ("/", "/rules", f"/games/{game_id}", f"/games/{game_id}/replay"):
            page = c.get(path)
            tags = _preview(page.text)
            title = parse_html(page.text).find("title").text()
            assert tags["og:title"] == title and tags["og:site_name"] == "Zoom Zoom Vroom"
            image = tags["og:image"]
            assert image == "https://vroom.example/static/img/screenshot-table.png", path
            assert c.get(image.removeprefix("https://vroom.example")).status_code == 200
            assert tags["twitter:card"] == "summary_large_image"
            words = " ".join(tags.values()).lower()
            assert not [suit.value for suit in SUIT_ORDER if suit.value in words], path
        # An error page is not shared (and one refusing a foreign Host builds no address).
        assert _preview(c.get("/no-such-page").text) == {}


@pytest.mark.browser
def test_chromium_reads_the_manifest_and_could_install_the_game(
    browser: Browser, live_server: str
) -> None:
    context = phone_context(browser)
    page = context.new_page()
    page.goto(live_server + "/")
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == live_server + "/manifest.webmanifest"
    assert manifest["errors"] == []
    found = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # A test browser's profile is an incognito one, which alone keeps it from installing.
    assert [error["errorId"] for error in found] == ["in-incognito"]
    context.close()
