"""The start page's "Race strangers": ``POST /quick`` (a plain form) seats the browser in
the open race of that size, or a new one (:mod:`app.races.quick`), then sends it to the
table (303), which waits live for the other racers like a race with friends."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.http.deps import (
    RacesDep,
    SettingsDep,
    client_key,
)
from app.http.errors import InvalidRequest, race_status
from app.http.i18n import gettext as _
from app.http.players import browser_player
from app.http.race_words import race_sentence
from app.http.web.forms import form_fields
from app.http.web.routes import index_page
from app.http.web.seating import to_table
from app.races.errors import LobbyRefused, ServerFull
from app.races.quick import quick_race

router = APIRouter(include_in_schema=False)

QUICK_SIZES = (3, 4, 5)
"""The race sizes the start page offers strangers."""


@router.post("/quick")
async def race_strangers(request: Request, settings: SettingsDep, races: RacesDep) -> Response:
    """A seat in a race with strangers; the table (303), or the start page with the reason."""
    form = await form_fields(request)
    raw = form.get("players")
    players = int(raw) if isinstance(raw, str) and raw.isdigit() else 0
    if players not in QUICK_SIZES:
        message = _("Pick a race of 3, 4 or 5 racers.")
        status = InvalidRequest.status_code
        return await index_page(request, settings, races, message, status)
    player, player_token = await browser_player(request)
    try:
        seat = await quick_race(races, players, client_key(request), player=player.id)
    except (ServerFull, LobbyRefused) as exc:  # too_many_games: the error page, with races
        status = race_status(exc.code)
        return await index_page(request, settings, races, race_sentence(exc), status)
    return await to_table(request, settings, seat.session.id, seat.token, player_token)
