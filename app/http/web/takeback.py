"""The table's "Take back" button: ``POST /games/{id}/takeback`` (a plain form; htmx swaps
the table instead of following the redirect).

The form carries the table's ``turn`` (as ``at_turn``: the move form's own ``turn`` field
stays the page's only one): a second press sent before the first one's answer
arrived finds the race at another turn and only shows the table, so a double click takes
back one card, not two. A refusal (other people race here, nothing to take back) is shown
above the table like a refused move.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.http.deps import GameIdPath, RacesDep, SettingsDep, cookie_name
from app.http.race_words import race_sentence
from app.http.web.form_body import form_fields
from app.http.web.routes import (
    _is_htmx,
    _refused,
    _table_state,
    _vary,
    _window,
    keep_page,
    missing_page,
    read_page,
    render_table,
)
from app.races.errors import RaceError, TakebackRefused

router = APIRouter(include_in_schema=False)


@router.post("/games/{game_id}/takeback")
async def take_back(
    game_id: GameIdPath, request: Request, settings: SettingsDep, races: RacesDep
) -> Response:
    """Undo this seat's last card and the bots' replies; the table (303 back to it)."""
    form = await form_fields(request)
    raw_turn = form.get("at_turn")
    turn = int(raw_turn) if isinstance(raw_turn, str) and raw_turn.isdigit() else None
    token = request.cookies.get(cookie_name(game_id))
    try:
        async with races.open(game_id, token, write=True) as race:
            page = read_page(request, race, settings)
            if turn is not None and turn != race.session.turn:
                state = _table_state(race)  # already taken back (or moved on): show it
            else:
                try:
                    state = await race.take_back(since=_window(race))
                except TakebackRefused as exc:
                    return _refused(request, race, page, settings, 409, race_sentence(exc))
            if not _is_htmx(request):
                response = _vary(RedirectResponse(f"/games/{race.id}", status_code=303))
            else:
                response = render_table(request, race, state, page=page)
            return keep_page(response, request, race, page, settings)
    except RaceError as exc:
        return missing_page(request, exc, settings)
