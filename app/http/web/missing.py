"""The page a browser gets when it has no race at an address: unknown (404), cleared from
the track or lost in a restart (410), each with a way to a new race (:mod:`app.http.errors`
answers every race's refusal with it first).
"""

from __future__ import annotations

from fastapi import Depends, Request
from fastapi.responses import Response

from app.http.answers import is_htmx, page
from app.http.deps import clear_session_cookie
from app.races.errors import GameExpired, GameLost, RaceError
from app.settings import Settings


async def _forget_gone_seat(request: Request) -> None:
    request.state.forget_gone_seat = True


FORGETS_GONE_SEAT = Depends(_forget_gone_seat)
"""A route's ``dependencies=[...]``: when its race is gone, clear the seat's cookie."""


def missing_race_page(request: Request, error: RaceError) -> Response | None:
    """The page explaining why this browser has no race here (htmx is asked to load it whole),
    or None when ``error`` is another refusal; a route that :data:`FORGETS_GONE_SEAT` also
    loses the seat's cookie of a race that is gone."""
    if isinstance(error, GameLost | GameExpired):
        status, why = 410, "lost" if isinstance(error, GameLost) else "expired"
    elif error.code == "not_found":
        status, why = 404, "not_found"
    else:
        return None
    response = page(request, "expired.html", {"why": why}, status)
    if is_htmx(request):
        response.headers["HX-Refresh"] = "true"
    game_id = request.path_params.get("game_id")
    forget = getattr(request.state, "forget_gone_seat", False)
    if forget and isinstance(error, GameExpired) and isinstance(game_id, str):
        settings: Settings = request.app.state.settings
        clear_session_cookie(response, request, game_id, settings)
    return response
