"""The weekly cup's page: ``GET /cup`` (this week's deals, its board, last week's board
with its seeds) and ``POST /cup/{deal}`` (race a deal: 303 to the table)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.http.answers import page
from app.http.deps import RacesDep, SettingsDep, client_key
from app.http.errors import race_status
from app.http.i18n import days, moment
from app.http.i18n import gettext as _
from app.http.players import browser_player, known_browser_player, results_of
from app.http.race_words import race_sentence
from app.http.web.table_page import to_table
from app.races.daily import (
    CUP_DEALS,
    DAILY_BOTS,
    DAILY_PLAYERS,
    cup_week,
    past_seeds,
    start_cup,
    start_cup_replay,
    week_before,
)
from app.races.daily import check_cup_address as check_address
from app.races.errors import CupAddressFull, CupAttemptRunning, LobbyRefused, ServerFull
from app.races.unit import Races
from app.results.cup import CupResults

router = APIRouter(include_in_schema=False)


async def _page(
    request: Request, races: Races, error: str | None = None, status: int = 200
) -> Response:
    """The cup page, with why a race was refused (``error``)."""
    known = await known_browser_player(request)
    player = known.id if known else None
    week = await cup_week(races, player)
    last = week_before(week.week)
    context = {
        "active": "cup",
        "week": week.week,
        "week_days": _week_days(week.week),
        "closes": moment(datetime.fromtimestamp(week.closes, UTC)),
        "deals": week.deals,
        "players": DAILY_PLAYERS,
        "bots": DAILY_BOTS,
        "you": player,
        "board": week.board.entries,
        "mine": week.board.mine,
        "ranked": week.board.ranked,
        "last_week": last,
        "last_week_days": _week_days(last),
        "last_board": (await CupResults(results_of(request)).board(last, player)).entries,
        "last_seeds": await past_seeds(races, last),
        "error": error,
    }
    return page(request, "cup.html", context, status)


def _week_days(week: str) -> str:
    """An ISO week ("2024-W40") as its days, Monday to Sunday."""
    monday = date.fromisoformat(f"{week}-1")
    return days(monday, monday + timedelta(days=6))


@router.get("/cup", response_class=HTMLResponse)
async def cup_page(request: Request, races: RacesDep) -> Response:
    """This week's deals and board, and last week's board with its seeds."""
    return await _page(request, races)


@router.post("/cup/{deal}")
async def race_cup(request: Request, deal: str, races: RacesDep, settings: SettingsDep) -> Response:
    """Deal a cup deal for this browser's player (counted or practice); 303 to it."""
    number = int(deal) if deal.isdigit() else 0
    if not 1 <= number <= CUP_DEALS:
        message = _("The cup has deals 1 to %(count)s.") % {"count": CUP_DEALS}
        return await _page(request, races, message, 404)
    client = client_key(request)
    try:
        if await known_browser_player(request) is None:  # a refusal must make no player
            await check_address(races, number, client)
        player, player_token = await browser_player(request)
        started = await start_cup(races, player.id, number, client, player.shown_name, client)
    except (ServerFull, LobbyRefused, CupAttemptRunning, CupAddressFull) as exc:
        return await _page(request, races, race_sentence(exc), race_status(exc.code))
    session = started.session
    return await to_table(request, settings, session.id, session.token, player_token)


@router.post("/cup/replay/{week}/{deal}")
async def race_past_deal(
    request: Request, week: str, deal: str, races: RacesDep, settings: SettingsDep
) -> Response:
    """Race a closed week's cup deal again (practice, the same cards); 303 to it."""
    player, player_token = await browser_player(request)
    try:
        if not re.fullmatch(r"\d{4}-W\d{2}", week) or not deal.isdigit():
            raise ValueError(week)
        session, _state = await start_cup_replay(
            races, week, int(deal), client_key(request), player=player.id
        )
    except ValueError:
        message = _("Only a closed week's cup deals can be raced again.")
        return await _page(request, races, message, 422)
    except ServerFull as exc:
        return await _page(request, races, race_sentence(exc), race_status(exc.code))
    return await to_table(request, settings, session.id, session.token, player_token)
