"""The daily deal's page: ``GET /daily`` (today's deal, its board, yesterday's board with
its seed) and ``POST /daily`` (race today's deal: 303 to the table)."""

from __future__ import annotations

import re
from datetime import date, time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.http.deps import (
    RacesDep,
    SettingsDep,
    client_key,
)
from app.http.errors import race_status
from app.http.i18n import clock
from app.http.i18n import gettext as _
from app.http.players import browser_player, known_browser_player, results_of
from app.http.race_words import race_sentence
from app.http.web.daily_words import share_words, standing_words
from app.http.web.forms import form_fields
from app.http.web.routes import to_table
from app.http.web.streak_words import best_words, streak_words
from app.http.web.templating import templates
from app.races.daily import (
    DAILY_BOTS,
    DAILY_PLAYERS,
    check_address,
    daily_today,
    day_before,
    past_seed,
    start_daily,
    start_replay,
)
from app.races.errors import DailyAddressFull, DailyAttemptRunning, LobbyRefused, ServerFull
from app.races.unit import Races
from app.results.daily import DailyResults
from app.results.daily_times import CLOSE_AFTER
from app.settings import Settings

router = APIRouter(include_in_schema=False)


async def _context(request: Request, races: Races, settings: Settings) -> dict[str, Any]:
    player = await known_browser_player(request)
    today = await daily_today(races, player.id if player else None)
    yesterday = day_before(today.day)
    mine = today.board.mine
    return {
        "active": "daily",
        "today": today.day,
        "yesterday": yesterday,
        "players": DAILY_PLAYERS,
        "bots": DAILY_BOTS,
        "attempted": today.attempted,
        "running": today.running,
        "running_counts": today.running_counts,
        "streak": streak_words(today.streak),
        "best_streak": best_words(today.streak),
        "you": player.id if player else None,
        "board": today.board.entries,
        "standing": standing_words(mine, today.board.ranked) if mine else None,
        "share": share_words(today.day, mine, today.board.ranked) if mine else None,
        "yesterday_board": await DailyResults(results_of(request)).board(yesterday),
        "yesterday_seed": await past_seed(races, yesterday),
        "yesterday_closes": clock(time(CLOSE_AFTER.seconds // 3600)),
    }


@router.get("/daily", response_class=HTMLResponse)
async def daily_page(request: Request, races: RacesDep, settings: SettingsDep) -> Response:
    """Today's deal and board, and yesterday's board with the seed to race it again."""
    context = await _context(request, races, settings)
    response = templates.TemplateResponse(request, "daily.html", context)
    response.headers["Cache-Control"] = "no-store"
    return response


@router.post("/daily")
async def race_daily(request: Request, races: RacesDep, settings: SettingsDep) -> Response:
    """Deal today's daily race for this browser's player (counted or practice); 303 to it."""
    client = client_key(request)
    try:
        if await known_browser_player(request) is None:  # a refusal must make no player
            await check_address(races, client)
        player, player_token = await browser_player(request)
        started = await start_daily(races, player.id, client, player.shown_name, client)
    # too_many_games: the error page, which lists the player's races to resume
    except (ServerFull, LobbyRefused, DailyAttemptRunning, DailyAddressFull) as exc:
        return await _page(request, races, settings, race_sentence(exc), race_status(exc.code))
    return await to_table(
        request, settings, started.session.id, started.session.token, player_token
    )


@router.post("/daily/replay")
async def race_past_deal(request: Request, races: RacesDep, settings: SettingsDep) -> Response:
    """Race a past day's deal again (a practice race with the same cards); 303 to it."""
    form = await form_fields(request)
    raw = form.get("date")
    day = raw if isinstance(raw, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", raw) else ""
    player, player_token = await browser_player(request)
    try:
        date.fromisoformat(day)
        session, _state = await start_replay(races, day, client_key(request), player=player.id)
    except ValueError:
        message = _("Only a past day's deal can be raced again, once its board closed.")
        return await _page(request, races, settings, message, 422)
    except ServerFull as exc:
        return await _page(request, races, settings, race_sentence(exc), race_status(exc.code))
    return await to_table(request, settings, session.id, session.token, player_token)


async def _page(
    request: Request, races: Races, settings: Settings, error: str, status: int
) -> Response:
    context = {**await _context(request, races, settings), "error": error}
    return templates.TemplateResponse(request, "daily.html", context, status_code=status)
