"""``POST /games/{id}/leave``: the "Leave" form beside each race a refused start lists
(a plain form, then the race's table, which says it was left)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.http.deps import GameIdPath, RacesDep, SettingsDep, cookie_name
from app.http.web.routes import missing_page
from app.races.errors import RaceError

router = APIRouter(include_in_schema=False)


@router.post("/games/{game_id}/leave")
async def leave(
    game_id: GameIdPath, request: Request, settings: SettingsDep, races: RacesDep
) -> Response:
    """Leave this browser's seat of a race against bots (see :meth:`Race.leave`); 303 to
    the race's table, which now says the race is over (:mod:`app.http.web.left`)."""
    token = request.cookies.get(cookie_name(game_id))
    try:
        async with races.open(game_id, token, write=True) as race:
            race.leave()
    except RaceError as exc:
        return missing_page(request, exc, settings)
    return RedirectResponse(f"/games/{game_id}", status_code=303)
