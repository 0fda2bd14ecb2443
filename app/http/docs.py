"""The API's documentation pages, ``/docs`` (Swagger UI) and ``/redoc`` (ReDoc), from
vendored copies under ``static/vendor/`` booted by static scripts: offline, and under a CSP
that names no other origin and allows no inline script (inline styles only: both UIs style
from JavaScript)."""

from __future__ import annotations

from html import escape

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from app.http.web.templating import asset_url

SWAGGER_UI_VERSION = "5.35.0"  # swagger-ui-dist (npm), in static/vendor/swagger-ui-<version>/
REDOC_VERSION = "2.5.4"  # redoc's (npm) standalone bundle, in static/vendor/redoc-<version>/

OPENAPI_URL = "/openapi.json"

DOCS_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

router = APIRouter(include_in_schema=False)


def _page(title: str, styles: list[str], root_id: str, scripts: list[str]) -> HTMLResponse:
    links = "".join(f'<link rel="stylesheet" href="{escape(asset_url(s))}">' for s in styles)
    tags = "".join(f'<script src="{escape(asset_url(s))}" defer></script>' for s in scripts)
    body = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title>"
        f'<link rel="icon" href="/static/img/favicon.svg" type="image/svg+xml">{links}{tags}'
        f'</head><body><div id="{root_id}" data-openapi="{OPENAPI_URL}"></div></body></html>'
    )
    headers = {"Content-Security-Policy": DOCS_CSP, "Cache-Control": "no-cache"}
    return HTMLResponse(body, headers=headers)


@router.get("/docs", response_class=HTMLResponse)
async def swagger_ui() -> HTMLResponse:
    """Swagger UI for the JSON API: try every call from the browser."""
    base = f"vendor/swagger-ui-{SWAGGER_UI_VERSION}"
    return _page(
        "Zoom Zoom Vroom online — API",
        [f"{base}/swagger-ui.css"],
        "swagger-ui",
        [f"{base}/swagger-ui-bundle.js", "js/docs-swagger.js"],
    )


@router.get("/redoc", response_class=HTMLResponse)
async def redoc() -> HTMLResponse:
    """ReDoc for the JSON API: the same schema as one readable page."""
    return _page(
        "Zoom Zoom Vroom online — API reference",
        [],
        "redoc",
        [f"vendor/redoc-{REDOC_VERSION}/redoc.standalone.js", "js/docs-redoc.js"],
    )
