"""The results' pages: "Your races" (``/me``), the ratings leaderboard, and the one-time
import of the record a browser kept before results lived on the server. Reading a page
creates no player; setting a name or importing a record does (the signed player cookie).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse

from app.http.answers import page
from app.http.api.results import InvalidName, chosen_name
from app.http.deps import RacesDep, SettingsDep
from app.http.i18n import gettext as _
from app.http.players import browser_player, known_browser_player, results_of, set_player_cookie
from app.http.web.forms import form_fields
from app.http.web.labels import Viewer, people_names
from app.http.web.table import SPECTATOR
from app.races.daily import daily_streak
from app.races.lobby import NAME_MAX
from app.races.unit import Races
from app.results.store import LevelRecord
from engine.bots import BOT_LEVELS

router = APIRouter(include_in_schema=False)

IMPORT_MAX_COUNT = 1_000_000
"""Largest count a browser's old record may claim per figure (anything above is refused)."""


async def _me_page(request: Request, races: Races, status: int = 200, **extra: Any) -> Response:
    """Your races, with ``extra`` (a name refused: the ``error`` and what was ``typed``)."""
    player = await known_browser_player(request)
    results = results_of(request)
    context = {
        "active": "me",
        "player": player,
        "streak": await daily_streak(races, player.id if player else None),
        "history": await results.history(player.id) if player else [],
        "records": await results.level_records(player.id) if player else {},
        "name_max": NAME_MAX,
        **extra,
    }
    return page(request, "me.html", context, status)


@router.get("/me", response_class=HTMLResponse)
async def your_races(request: Request, races: RacesDep) -> Response:
    """Your races: rating, daily streak, every finished race, record per bot level, name."""
    return await _me_page(request, races)


@router.post("/me")
async def set_name(request: Request, races: RacesDep, settings: SettingsDep) -> Response:
    """The name form: your display name and whether it shows on the leaderboard (303)."""
    form = await form_fields(request)
    typed, show = form.get("name", ""), form.get("show") == "on"
    try:
        name = chosen_name(typed)
    except InvalidName as exc:
        return await _me_page(request, races, 422, error=exc.message, typed=typed)
    player, token = await browser_player(request)
    await results_of(request).rename(player.id, name, show_on_leaderboard=show)
    response = RedirectResponse("/me", status_code=303)
    await set_player_cookie(response, request, token, settings)
    return response


def _old_record(body: Any) -> dict[str, LevelRecord] | None:
    """The browser's old record (``{level: {races, wins, streak}}``), or None if not one."""
    if not isinstance(body, dict) or not isinstance(body.get("record"), dict):
        return None
    record: dict[str, LevelRecord] = {}
    for level, entry in body["record"].items():
        if level not in BOT_LEVELS or not isinstance(entry, dict):
            return None
        figures = [entry.get(key, 0) for key in ("races", "wins", "streak")]
        good = all(type(n) is int and 0 <= n <= IMPORT_MAX_COUNT for n in figures)
        if not good or figures[1] > figures[0] or figures[2] > figures[1]:
            return None
        record[level] = LevelRecord(*figures)
    return record


@router.post("/me/import")
async def import_record(request: Request, settings: SettingsDep) -> Response:
    """Keep the record per bot level this browser kept itself (the page's script sends it
    once, then forgets it); a second import is refused politely (``imported`` false)."""
    try:
        body = await request.json()
    except ValueError:
        body = None
    record = _old_record(body)
    if record is None:
        shape = '{"record": {level: {"races", "wins", "streak"}}}'
        message = _("Send %(shape)s with counts.") % {"shape": shape}
        return JSONResponse({"code": "invalid_request", "message": message}, status_code=422)
    player, token = await browser_player(request)
    imported = await results_of(request).import_browser_record(player.id, record)
    response = JSONResponse({"imported": imported})
    await set_player_cookie(response, request, token, settings)
    return response


@router.get("/leaderboard", response_class=HTMLResponse)
async def leaderboard(request: Request) -> Response:
    """The best ratings of players who chose to show."""
    player = await known_browser_player(request)
    entries = await results_of(request).leaderboard()
    context = {"active": "leaderboard", "entries": entries, "player": player}
    return page(request, "leaderboard.html", context)


async def stored_replay(request: Request, game_id: str) -> tuple[dict[str, Any], Viewer] | None:
    """A finished race's public record from the results (the live race is gone), read as
    its seat by the browser that sat there, else as a spectator; None if not kept."""
    results = results_of(request)
    record = await results.finished_record(game_id)
    seats = await results.finished_seats(game_id)
    if record is None or not seats:
        return None
    player = await known_browser_player(request)
    public = [{"seat": s.seat, "name": s.name, "person": s.bot_level is None} for s in seats]
    mine = [s.seat for s in seats if player is not None and s.player_id == player.id]
    return record, Viewer(mine[0] if mine else SPECTATOR, people_names(public))


async def browser_records(request: Request) -> dict[str, LevelRecord]:
    """The record per bot level of the browser's player (empty for a browser unknown)."""
    player = await known_browser_player(request)
    return await results_of(request).level_records(player.id) if player else {}
