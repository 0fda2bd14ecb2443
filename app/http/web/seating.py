"""Sending a browser to a race's table once it has a seat there: one redirect, three
cookies (the seat's token, the player's, and the latest race for the start page)."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import RedirectResponse

from app.http.deps import COOKIE_MAX_AGE_SECONDS, is_https, set_seat_cookie
from app.http.players import set_player_cookie
from app.settings import Settings

LAST_GAME_COOKIE = "zzv_last"
"""Remembers the browser's latest game id (not a credential) so the start page can offer
"Continue your race"; the game's token cookie stays scoped to the game's own pages."""


async def to_table(
    request: Request,
    settings: Settings,
    game_id: str,
    seat_token: str,
    player_token: str | None,
) -> RedirectResponse:
    """303 to the table of ``game_id`` with the seat's token, the player's cookie (when
    there is a player) and the latest-race cookie."""
    response = RedirectResponse(f"/games/{game_id}", status_code=303)
    set_seat_cookie(response, request, game_id, seat_token, settings)
    if player_token is not None:
        await set_player_cookie(response, request, player_token, settings)
    # Lives as long as the seat's cookie, so the link never outlives the credential.
    response.set_cookie(
        LAST_GAME_COOKIE,
        game_id,
        max_age=COOKIE_MAX_AGE_SECONDS,
        httponly=True,
        samesite="lax",
        secure=is_https(request, settings),
    )
    return response
