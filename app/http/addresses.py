"""Where the links the server hands out point: invites, shared replays, link previews."""

from __future__ import annotations

from starlette.requests import Request

from app.settings import Settings


def public_base_url(request: Request) -> str:
    """Where links handed to people point, ending in ``/``: ``ZZV_PUBLIC_URL`` when set,
    else the request's own address (whose Host the trusted-host check has accepted)."""
    settings: Settings = request.app.state.settings
    if settings.public_url is not None:
        return settings.public_url.rstrip("/") + "/"
    return str(request.base_url)
