"""``/docs`` and ``/redoc`` work offline: vendored assets only, under a strict CSP.

Real uvicorn, real Chromium. Every request the page makes is intercepted: anything not
addressed to the server on 127.0.0.1 is recorded and aborted, so a CDN link would both fail
the assertion and leave the page blank, as it would for a player without internet.
"""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route

pytestmark = pytest.mark.browser


def _offline_page(browser: Browser, base: str) -> tuple[Page, list[str], list[str]]:
    """A page whose requests outside ``base`` are aborted; (page, foreign urls, errors)."""
    context = browser.new_context()
    page = context.new_page()
    foreign: list[str] = []
    errors: list[str] = []

    def guard(route: Route) -> None:
        url = route.request.url
        if url.startswith(base + "/") or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            foreign.append(url)
            route.abort()

    page.route("**/*", guard)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, foreign, errors


def test_swagger_ui_renders_the_operations_offline(browser: Browser, live_server: str) -> None:
    page, foreign, errors = _offline_page(browser, live_server)
    page.goto(live_server + "/docs")
    page.wait_for_selector(".opblock", timeout=30_000)
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert any("/api/games/{game_id}/actions" in p.replace("\u200b", "") for p in paths), paths
    assert foreign == []
    assert errors == []
    page.context.close()


def test_redoc_renders_the_operations_offline(browser: Browser, live_server: str) -> None:
    page, foreign, errors = _offline_page(browser, live_server)
    page.goto(live_server + "/redoc")
    page.wait_for_selector("[data-section-id^='operation/']", timeout=30_000)
    assert page.locator("[data-section-id^='operation/']").count() >= 3
    assert foreign == []
    # ReDoc's sidebar footer always tries Redocly's logo from their CDN; the CSP blocks it
    # before any request is made (the component hides the image on error). Nothing else.
    blocked_logo = [e for e in errors if "https://cdn.redoc.ly/redoc/logo-mini.svg" in e]
    assert all("Content Security Policy" in e for e in blocked_logo)
    assert [e for e in errors if e not in blocked_logo] == []
    page.context.close()


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_docs_policy_names_no_other_origin_and_no_inline_script(
    live_server: str, path: str
) -> None:
    page = httpx.get(live_server + path)
    assert page.status_code == 200
    csp = page.headers["content-security-policy"]
    script_src = next(d for d in csp.split(";") if d.strip().startswith("script-src"))
    assert script_src.split() == ["script-src", "'self'"]
    assert "http" not in csp and "cdn" not in csp
    assert "<script>" not in page.text and "<script " in page.text
    for src in ("/static/vendor/", "/static/js/docs-"):
        assert src in page.text
