"""The table's "I'm back" button: ``POST /games/{id}/back`` (a plain form, then 303 to the
table; htmx swaps the table instead of following the redirect). A second tap, once the seat
is back, only shows the table."""

from __future__ import annotations

import contextlib

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.http.deps import GameIdPath, RacesDep, SettingsDep, cookie_name
from app.http.web.routes import (
    _is_htmx,
    _table_state,
    _vary,
    keep_page,
    missing_page,
    read_page,
    render_table,
)
from app.races.errors import NotAway, RaceError

router = APIRouter(include_in_schema=False)


@router.post("/games/{game_id}/back")
async def come_back(
    game_id: GameIdPath, request: Request, settings: SettingsDep, races: RacesDep
) -> Response:
    """Take this seat back from the bot that plays it while its person is away."""
    token = request.cookies.get(cookie_name(game_id))
    try:
        async with races.open(game_id, token, write=True) as race:
            page = read_page(request, race, settings)
            with contextlib.suppress(NotAway):  # a second tap: the table says they are back
                race.come_back()
            if not _is_htmx(request):
                response = _vary(RedirectResponse(f"/games/{race.id}", status_code=303))
            else:
                response = render_table(request, race, _table_state(race), page=page)
            return keep_page(response, request, race, page, settings)
    except RaceError as exc:
        return missing_page(request, exc, settings)
