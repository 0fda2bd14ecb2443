"""The page a browser gets when it has no race at an address: unknown (404), cleared from
the track or lost in a restart (410), each with a way to a new race (:mod:`app.http.errors`
answers every race's refusal with it first).
"""

from __future__ import annotations

from fastapi import Depends, Request
from fastapi.responses import Response

from app.http.answers import is_htmx, page
from app.http.deps import clear_session_cookie
from app.http.i18n import gettext as _
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
    if isinstance(error, GameLost):
        status, heading = 410, _("The server restarted and this race was lost")
        message = _(
            "The game server was stopped before it could save the races in progress. "
            "Sorry! Start another: it only takes a click."
        )
    elif isinstance(error, GameExpired):
        status, heading = 410, _("This race has been cleared from the track")
        message = _(
            "Races left alone for a while make room for new ones. Start another: it only "
            "takes a click."
        )
    elif error.code == "not_found":
        status, heading = 404, _("We could not find this race")
        message = _(
            "It may have been played in another browser, or the link is incomplete. "
            "Races live in the browser that started them."
        )
    else:
        return None
    response = page(request, "expired.html", {"heading": heading, "message": message}, status)
    if is_htmx(request):
        response.headers["HX-Refresh"] = "true"
    game_id = request.path_params.get("game_id")
    forget = getattr(request.state, "forget_gone_seat", False)
    if forget and isinstance(error, GameExpired) and isinstance(game_id, str):
        settings: Settings = request.app.state.settings
        clear_session_cookie(response, request, game_id, settings)
    return response
