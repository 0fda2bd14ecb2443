"""``POST /games/{id}/rematch/decline``: the "No thanks" beside a rematch offer (a plain
form, then 303 back to the finished race's table, which says so). Offering and accepting
is the table's Rematch button (:func:`app.http.web.routes.rematch`)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.http.deps import GameIdPath, RacesDep, SettingsDep, cookie_name
from app.http.web.routes import missing_page
from app.races import rematch
from app.races.errors import RaceError

router = APIRouter(include_in_schema=False)


@router.post("/games/{game_id}/rematch/decline")
async def decline(
    game_id: GameIdPath, request: Request, settings: SettingsDep, races: RacesDep
) -> Response:
    """Decline this race's rematch: a bot takes this person's seat there."""
    try:
        await rematch.decline(races, game_id, request.cookies.get(cookie_name(game_id)))
    except RaceError as exc:
        return missing_page(request, exc, settings)
    return RedirectResponse(f"/games/{game_id}", status_code=303)
