"""The HTML side of racing with friends: joining by invite, starting, live tables, watching.

Owned by the web layer, thin like :mod:`app.http.web.routes` (whose table rendering it reuses):

* ``GET/POST /games/{id}/join`` — the invite's page: an optional name, then a seat of
  one's own (a cookie with that seat's token); a used or unknown invite says so (409/404);
* ``POST /games/{id}/start`` — the creator starts before everyone joined;
* ``GET /games/{id}/events`` — the seat's live stream (cookie-authenticated): an
  ``event: changed`` message tells the page to reload its table, nothing more; once the
  race is over (or gone) an ``event: over`` message ends it, and the page closes its
  ``EventSource`` (``sse-close``) instead of reconnecting;
* ``GET /games/{id}/watch`` (+ ``/events``) — the public table, live, with no hand;
* ``POST /watch`` — "Watch the bots race": a bots-only race paced for people.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.http.deps import (
    GameIdPath,
    HubDep,
    SettingsDep,
    StoreDep,
    StreamGateDep,
    client_key,
    cookie_name,
    set_seat_cookie,
)
from app.http.errors import GameExpired, GameNotFound, LobbyRefused
from app.http.web.routes import lookup, render_table, start_and_redirect
from app.http.web.templating import templates
from app.live.streams import Message, follow, open_stream, settle
from app.races.lobby import default_name
from app.races.operations import (
    SessionState,
    find_player,
    find_public,
    join_race,
    read_config,
    read_state,
    start_race,
)
from app.races.record import GameConfig

router = APIRouter(include_in_schema=False)

WATCH_PLAYERS = 4
"""Seats of a "Watch the bots race" race."""

_CHANGED: Message = {"event": "changed", "data": "1"}
_OVER: Message = {"event": "over", "data": "1"}


async def _until_over(stream: AsyncIterator[Message]) -> AsyncIterator[Message]:
    """A page's stream: ``stream``'s messages, then ``over`` once it ended (the race is
    over or gone). A browser's ``EventSource`` reconnects to a stream that simply ends;
    the page closes it on ``over`` instead, so a finished race holds no connection."""
    async for message in stream:
        yield message
    yield _OVER


async def _has_seat(request: Request, store: StoreDep, game_id: str) -> bool:
    """Whether this browser already sits in ``game_id`` (then an invite must not replace it)."""
    try:
        await find_player(store, game_id, request.cookies.get(cookie_name(game_id)))
    except GameNotFound:
        return False
    return True


def _join_page(
    request: Request,
    game_id: str,
    code: str | None,
    *,
    error: str | None = None,
    name: str | None = None,
    seat: int = 1,
    status_code: int = 200,
) -> Response:
    context: dict[str, Any] = {
        "game_id": game_id,
        "code": code,
        "error": error,
        "name": name,
        "default_name": default_name(seat),
    }
    response = templates.TemplateResponse(request, "join.html", context, status_code=status_code)
    response.headers["Cache-Control"] = "no-store"
    return response


def _gone(request: Request, game_id: str) -> Response:
    return _join_page(
        request,
        game_id,
        None,
        error="This race is not on the track any more: it finished long ago or never existed.",
        status_code=404,
    )


@router.get("/games/{game_id}/join", response_class=HTMLResponse)
async def join_form(game_id: GameIdPath, request: Request, store: StoreDep) -> Response:
    """The invite's page: pick a name (or not) and take the seat."""
    code = request.query_params.get("code") or None
    try:
        spectator = await find_public(store, game_id)
        await read_config(spectator)  # loads the seats, changes nothing
    except (GameNotFound, GameExpired):
        return _gone(request, game_id)
    if await _has_seat(request, store, game_id):
        return RedirectResponse(f"/games/{game_id}", status_code=303)
    open_seat = next((s.index for s in spectator.session.lobby.open_invites()), 1)
    return _join_page(request, game_id, code, seat=open_seat)


@router.post("/games/{game_id}/join")
async def join(
    game_id: GameIdPath, request: Request, store: StoreDep, settings: SettingsDep, hub: HubDep
) -> Response:
    """Take the invited seat: a cookie with the seat's own token, then the table (303)."""
    fields = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
    code, name = fields.get("code", ""), fields.get("name")
    if await _has_seat(request, store, game_id):
        return RedirectResponse(f"/games/{game_id}", status_code=303)
    try:
        _player, token = await join_race(store, game_id, code[:64], name)
    except (GameNotFound, GameExpired):
        return _gone(request, game_id)
    except LobbyRefused as exc:
        keep = code if exc.code == "invalid_name" else None
        return _join_page(
            request, game_id, keep, error=exc.message, name=name, status_code=exc.status_code
        )
    await hub.publish(game_id)
    response = RedirectResponse(f"/games/{game_id}", status_code=303)
    set_seat_cookie(response, request, game_id, token, settings)
    return response


@router.post("/games/{game_id}/start")
async def start(game_id: GameIdPath, request: Request, store: StoreDep, hub: HubDep) -> Response:
    """The creator's Start button: bots take the empty seats; back to the table (303)."""
    found = await lookup(request, store, game_id)
    if isinstance(found, Response):
        return found
    await start_race(found)
    await hub.publish(game_id)
    return RedirectResponse(f"/games/{game_id}", status_code=303)


@router.get("/games/{game_id}/events")
async def seat_events(
    game_id: GameIdPath, request: Request, store: StoreDep, hub: HubDep, gate: StreamGateDep
) -> Response:
    """This seat's live stream: ``changed`` whenever its table changed through somebody
    else (the page then reloads the table; its own moves it has already drawn)."""
    found = await lookup(request, store, game_id)
    if isinstance(found, Response):
        return found
    seat = found.seat

    def render(state: SessionState) -> Message | None:
        return None if state["last_mover"] == seat else _CHANGED

    stream = follow(found, hub, render)
    return await open_stream(gate, client_key(request), _until_over(stream))


@router.get("/games/{game_id}/watch", response_class=HTMLResponse)
async def watch(
    game_id: GameIdPath, request: Request, store: StoreDep, hub: HubDep, live: bool = False
) -> Response:
    """The public table: every seat's public numbers and cards, nobody's hand."""
    try:
        spectator = await find_public(store, game_id)
        await settle(spectator, hub)
        state = await read_state(spectator, since=0)
    except (GameNotFound, GameExpired):
        return _gone(request, game_id)
    return render_table(request, spectator, state, animate=live)


@router.get("/games/{game_id}/watch/events")
async def watch_events(
    game_id: GameIdPath, request: Request, store: StoreDep, hub: HubDep, gate: StreamGateDep
) -> Response:
    """The public table's live stream: ``changed`` on every change, ``over`` at the end."""
    spectator = await find_public(store, game_id)
    stream = follow(spectator, hub, lambda _state: _CHANGED)
    return await open_stream(gate, client_key(request), _until_over(stream))


@router.post("/watch")
async def watch_bots(request: Request, settings: SettingsDep, store: StoreDep) -> Response:
    """ "Watch the bots race": a race of bots only, one move every few moments (303)."""
    config = GameConfig(players=WATCH_PLAYERS, bots=settings.default_bot_level, watch=True)
    return await start_and_redirect(request, store, settings, config)
