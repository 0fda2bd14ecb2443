"""What a browser, a phone's home screen or a crawler asks the site's root for: the web
app manifest, the home-screen icon (``static/img/favicon.svg`` drawn by Chromium), the
favicon and ``robots.txt``. That keeps crawlers off the API and a player's own page but
not ``/games/``: a race is kept by its seat's cookie, and chat apps' link-preview fetchers
obey ``robots.txt``, so a shared invite or replay would lose its preview.
"""

from __future__ import annotations

from typing import Any, Final

from fastapi import APIRouter
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, RedirectResponse

from app.http.assets import REVALIDATE
from app.paths import STATIC_DIR

router = APIRouter(include_in_schema=False)

#: The page background of the light and the dark theme (``--bg`` in static/css/app.css).
LIGHT_BACKGROUND: Final = "#f2eee4"
DARK_BACKGROUND: Final = "#101217"

MANIFEST: Final[dict[str, Any]] = {
    "name": "Zoom Zoom Vroom",
    "short_name": "Zoom Vroom",
    "description": "A quick trick-taking race card game against computer racers or friends.",
    "start_url": "/",
    "scope": "/",
    "display": "standalone",
    "background_color": LIGHT_BACKGROUND,
    "theme_color": LIGHT_BACKGROUND,
    "icons": [
        {"src": "/static/img/icon-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "/static/img/icon-512.png", "sizes": "512x512", "type": "image/png"},
        {"src": "/static/img/favicon.svg", "sizes": "any", "type": "image/svg+xml"},
    ],
}

ROBOTS: Final = """User-agent: *
Disallow: /api/
Disallow: /me
"""

_FRESH = {"Cache-Control": REVALIDATE}


@router.get("/manifest.webmanifest")
async def manifest() -> JSONResponse:
    """The web app manifest."""
    return JSONResponse(MANIFEST, media_type="application/manifest+json", headers=_FRESH)


@router.get("/apple-touch-icon.png")
async def home_screen_icon() -> FileResponse:
    """The icon iOS asks the root for when a page is added to the home screen."""
    return FileResponse(STATIC_DIR / "img" / "apple-touch-icon.png", headers=_FRESH)


@router.get("/favicon.ico")
async def favicon() -> RedirectResponse:
    """Browsers and feed readers ask for it whatever the page links: the site's icon."""
    return RedirectResponse("/static/img/favicon.svg", status_code=301)


@router.get("/robots.txt")
async def robots() -> PlainTextResponse:
    """What crawlers may read: everything but the API and a player's own page."""
    return PlainTextResponse(ROBOTS, headers=_FRESH)
