"""The HTML side of racing with friends: the invite's page (``/games/{id}/join``), the
creator's Start, the seat's and the spectators' live streams, the public table
(``/games/{id}/watch``) and "Watch the bots race" (``POST /watch``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sse_starlette.sse import EventSourceResponse

from app.http.answers import page
from app.http.deps import GameIdPath, LiveDep, RacesDep, SettingsDep, cookie_name, set_seat_cookie
from app.http.errors import race_status
from app.http.i18n import gettext as _
from app.http.players import cookie_token, known_browser_player, results_of, set_player_cookie
from app.http.race_look import look
from app.http.race_words import race_sentence
from app.http.web.forms import form_fields
from app.http.web.labels import seat_colour
from app.http.web.routes import start_and_redirect
from app.http.web.table_page import render_table, table_state, table_url
from app.http.web.table_request import TableDep
from app.http.web.talk import is_muted, live_render
from app.live.streams import Message
from app.races.errors import GameExpired, GameNotFound, LobbyRefused, RaceError
from app.races.record import GameConfig
from app.races.unit import Races

router = APIRouter(include_in_schema=False)

WATCH_PLAYERS = 4
"""Seats of a "Watch the bots race" race."""


async def _until_over(stream: AsyncIterator[Message]) -> AsyncIterator[Message]:
    """``stream``'s messages, then ``over`` once the race is over or gone: an
    ``EventSource`` reconnects to a stream that simply ends, the page closes it on ``over``."""
    async for message in stream:
        yield message
    yield {"event": "over", "data": "1"}


async def _has_seat(request: Request, races: Races, game_id: str) -> bool:
    """Whether this browser already sits in ``game_id`` (then an invite must not replace it)."""
    token = request.cookies.get(cookie_name(game_id))
    if not token:
        return False
    return not isinstance(await look(races, game_id, token, lambda race: True), RaceError)


def _join_page(
    request: Request, game_id: str, code: str | None, status: int = 200, seat: int = 1, **shown: Any
) -> Response:
    """The invite's page for ``seat``; ``shown``: the ``error`` and the ``name`` typed."""
    # Who the seat is until a name is typed: its colour, as every screen calls it.
    context = {"game_id": game_id, "code": code, "error": None, "name": None, **shown}
    context["default_name"] = seat_colour(seat).capitalize()
    return page(request, "join.html", context, status)


def _gone(request: Request, game_id: str) -> Response:
    gone = _("This race is not on the track any more: it finished long ago or never existed.")
    return _join_page(request, game_id, None, 404, error=gone)


@router.get("/games/{game_id}/join", response_class=HTMLResponse)
async def join_form(game_id: GameIdPath, request: Request, races: RacesDep) -> Response:
    """The invite's page: pick a name (or not) and take the seat."""
    code = request.query_params.get("code") or None
    try:
        async with races.open(game_id, None, spectator=True) as race:
            open_seat = next((s.index for s in race.session.lobby.open_invites()), 1)
    except (GameNotFound, GameExpired):
        return _gone(request, game_id)
    if await _has_seat(request, races, game_id):
        return RedirectResponse(table_url(game_id), status_code=303)
    return _join_page(request, game_id, code, seat=open_seat)


@router.post("/games/{game_id}/join")
async def join(
    game_id: GameIdPath, request: Request, races: RacesDep, settings: SettingsDep
) -> Response:
    """Take the invited seat: a cookie with the seat's own token, then the table (303)."""
    fields = await form_fields(request)
    code, name = fields.get("code", ""), fields.get("name")
    if await _has_seat(request, races, game_id):
        return RedirectResponse(table_url(game_id), status_code=303)
    known = await known_browser_player(request)
    player_token = await cookie_token(request) if known is not None else None
    try:
        async with races.open(game_id, None, write=True, spectator=True) as race:
            token = await race.join(code[:64], name, player=known.id if known else None)
            if known is None or player_token is None:  # a new player only for a seat taken
                known, player_token = await results_of(request).create_player()
                race.claim_seat(known.id)
    except (GameNotFound, GameExpired):
        return _gone(request, game_id)
    except LobbyRefused as exc:
        keep = code if exc.code == "invalid_name" else None
        status = race_status(exc.code)
        return _join_page(request, game_id, keep, status, error=race_sentence(exc), name=name)
    response = RedirectResponse(table_url(game_id), status_code=303)
    set_seat_cookie(response, request, game_id, token, settings)
    await set_player_cookie(response, request, player_token, settings)
    return response


@router.post("/games/{game_id}/start")
async def start(table: TableDep) -> Response:
    """The creator's Start button: bots take the empty seats; back to the table (303)."""
    async with table.open(write=True) as race:
        await race.start()
    return RedirectResponse(table_url(table.game_id), status_code=303)


@router.get("/games/{game_id}/events")
async def seat_events(game_id: GameIdPath, request: Request, live: LiveDep) -> EventSourceResponse:
    """This seat's live stream: ``changed`` whenever its table changed through somebody
    else (the page then reloads the table; its own moves it has already drawn)."""
    token = request.cookies.get(cookie_name(game_id))
    async with live.races.open(game_id, token) as race:
        seat = race.seat
    return await live.answer(game_id, token, live_render(seat, is_muted(request)), _until_over)


@router.get("/games/{game_id}/watch", response_class=HTMLResponse)
async def watch(
    game_id: GameIdPath, request: Request, races: RacesDep, live: bool = False
) -> Response:
    """The public table: every seat's public numbers and cards, nobody's hand."""
    try:
        async with races.open(game_id, None, spectator=True) as race:
            state = table_state(race)
    except (GameNotFound, GameExpired):
        return _gone(request, game_id)
    return render_table(request, race, state, animate=live)


@router.get("/games/{game_id}/watch/events")
async def watch_events(game_id: GameIdPath, request: Request, live: LiveDep) -> EventSourceResponse:
    """The public table's live stream: ``changed`` on every change of play, ``said`` for
    each quick message (none in a browser that muted them), ``over`` at the end."""
    async with live.races.open(game_id, None, spectator=True):  # 404 now, not in the stream
        pass
    return await live.answer(game_id, None, live_render(None, is_muted(request)), _until_over)


@router.post("/watch")
async def watch_bots(request: Request, settings: SettingsDep, races: RacesDep) -> Response:
    """ "Watch the bots race": a race of bots only, one move every few moments (303)."""
    config = GameConfig(players=WATCH_PLAYERS, bots=settings.default_bot_level, watch=True)
    return await start_and_redirect(request, races, settings, config)
