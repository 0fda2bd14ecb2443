"""What a phone's home screen, a browser and a crawler ask the site's root for: the web
app manifest and its icons, the iOS home-screen icon, ``/favicon.ico`` and ``robots.txt``;
and Chromium itself finding the manifest without errors and the game installable."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest
from browser_kit import phone_context
from fastapi.testclient import TestClient
from html_kit import parse_html
from playwright.sync_api import Browser

from app.http.web.site import DARK_BACKGROUND, LIGHT_BACKGROUND

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


def test_robots_keep_crawlers_to_the_public_pages(client: TestClient) -> None:
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    rules = response.text.splitlines()
    assert rules[0] == "User-agent: *"
    assert {"Disallow: /games/", "Disallow: /api/", "Disallow: /me"} <= set(rules)
    assert "Disallow: /" not in rules  # the start page, the rules and the lesson stay open


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
