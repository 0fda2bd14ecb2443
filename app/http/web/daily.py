"""The daily deal's page (``/daily``: today's deal and board, yesterday's board with its
seed, a race of it: 303 to the table) and the weekly cup's (``/cup``, ``/cup/{deal}``;
docs/daily.md)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.http.answers import page
from app.http.deps import RacesDep, SettingsDep, client_key
from app.http.errors import race_status
from app.http.i18n import clock, days, moment
from app.http.i18n import gettext as _
from app.http.players import browser_player, known_browser_player, results_of
from app.http.race_words import race_sentence
from app.http.web.forms import form_fields
from app.http.web.table_page import to_table
from app.races.daily import (
    CUP_DEALS,
    DAILY_BOTS,
    DAILY_PLAYERS,
    check_address,
    cup_week,
    daily_today,
    past_seeds,
    start_counted,
    start_replay,
)
from app.races.errors import (
    CupAddressFull,
    DailyAddressFull,
    DailyAttemptRunning,
    LobbyRefused,
    ServerFull,
)
from app.races.unit import Races
from app.results.daily import DailyResults
from app.results.daily_times import CLOSE_AFTER, period_before
from app.settings import Settings

router = APIRouter(include_in_schema=False)


async def _daily_page(
    request: Request, races: Races, error: str | None = None, status: int = 200
) -> Response:
    """The daily page, with why a race was refused (``error``)."""
    player = await known_browser_player(request)
    today = await daily_today(races, player.id if player else None)
    yesterday = period_before(today.day)
    seeds = await past_seeds(races, yesterday)
    context = {
        "active": "daily",
        "today": today,
        "yesterday": yesterday,
        "players": DAILY_PLAYERS,
        "bots": DAILY_BOTS,
        "streak": today.streak,
        "you": player.id if player else None,
        "yesterday_board": (await DailyResults(results_of(request)).day_board(yesterday)).entries,
        "yesterday_seed": seeds[0] if seeds else None,
        "yesterday_closes": clock(time(CLOSE_AFTER.seconds // 3600)),
        "error": error,
    }
    return page(request, "daily.html", context, status)


@router.get("/daily", response_class=HTMLResponse)
async def daily_page(request: Request, races: RacesDep) -> Response:
    """Today's deal and board, and yesterday's board with the seed to race it again."""
    return await _daily_page(request, races)


async def _to_race(
    request: Request, races: Races, settings: Settings, deal: int | None, again: str | None = None
) -> Response:
    """303 to a race of today's daily (``deal`` None) or of ``deal`` of this week's cup for
    this browser's player and client, counted or practice, or of the deal of closed period
    ``again`` (practice; "" for a malformed one); else its page with why not. A counted
    race's check of the client's address comes first, so that a refusal makes no player."""
    page_of = _daily_page if deal is None else _cup_page
    client = client_key(request)
    try:
        if again is None and await known_browser_player(request) is None:
            await check_address(races, client, deal)
        player, player_token = await browser_player(request)
        if again is None:
            started = await start_counted(races, deal, player.id, client, player.shown_name, client)
            session = started.session
        else:
            session = await start_replay(races, again, deal, client, player.id)
    except ValueError:
        not_past = _("Only a closed week's cup deals can be raced again.")
        if deal is None:
            not_past = _("Only a past day's deal can be raced again, once its board closed.")
        return await page_of(request, races, not_past, 422)
    # too_many_games: the error page, which lists the player's races to resume
    except (ServerFull, LobbyRefused, DailyAttemptRunning, DailyAddressFull, CupAddressFull) as exc:
        return await page_of(request, races, race_sentence(exc), race_status(exc.code))
    return await to_table(request, settings, session.id, session.token, player_token)


@router.post("/daily")
async def race_daily(request: Request, races: RacesDep, settings: SettingsDep) -> Response:
    """Deal today's daily race for this browser's player (counted or practice); 303 to it."""
    return await _to_race(request, races, settings, None)


@router.post("/daily/replay")
async def race_past_deal(request: Request, races: RacesDep, settings: SettingsDep) -> Response:
    """Race a past day's deal again (a practice race with the same cards); 303 to it."""
    day = (await form_fields(request)).get("date", "")
    day = day if re.fullmatch(r"\d{4}-\d{2}-\d{2}", day) else ""
    return await _to_race(request, races, settings, None, day)


async def _cup_page(
    request: Request, races: Races, error: str | None = None, status: int = 200
) -> Response:
    """The cup page, with why a race was refused (``error``)."""
    known = await known_browser_player(request)
    player = known.id if known else None
    week = await cup_week(races, player)
    context = {
        "active": "cup",
        "week": week,
        "week_days": _week_days(week.week),
        "closes": moment(datetime.fromtimestamp(week.closes, UTC)),
        "players": DAILY_PLAYERS,
        "bots": DAILY_BOTS,
        "you": player,
        "last_week": week.last,
        "last_week_days": _week_days(week.last),
        "last_board": week.last_board.entries,
        "last_seeds": week.last_seeds,
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
    return await _cup_page(request, races)


@router.post("/cup/{deal}")
async def race_cup(request: Request, deal: str, races: RacesDep, settings: SettingsDep) -> Response:
    """Deal a cup deal for this browser's player (counted or practice); 303 to it."""
    number = int(deal) if deal.isdecimal() else 0
    if not 1 <= number <= CUP_DEALS:
        message = _("The cup has deals 1 to %(count)s.") % {"count": CUP_DEALS}
        return await _cup_page(request, races, message, 404)

    return await _to_race(request, races, settings, number)


@router.post("/cup/replay/{week}/{deal}")
async def race_past_cup_deal(
    request: Request, week: str, deal: str, races: RacesDep, settings: SettingsDep
) -> Response:
    """Race a closed week's cup deal again (practice, the same cards); 303 to it."""
    valid = re.fullmatch(r"\d{4}-W\d{2}", week) and deal.isdecimal()
    return await _to_race(
        request, races, settings, int(deal) if valid else 0, week if valid else ""
    )
