"""The JSON API of the deals everyone gets: the daily deal (``POST /api/daily``, ``GET
/api/daily/leaderboard``) and the weekly cup's (``GET /api/cup``, ``POST /api/cup/{deal}``,
docs/cup.md)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date as calendar
from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query, Request
from fastapi.responses import JSONResponse
from fastapi.types import DecoratedCallable
from pydantic import BeforeValidator, ConfigDict, Field

from app.http.answers import json_response, published, seat_body
from app.http.api.models import CreatedGame, ErrorOut, RequestModel, ResponseModel, error_responses
from app.http.deps import ClientDep, RacesDep
from app.http.players import api_player, known_api_player, results_of
from app.races.daily import CUP_DEALS, check_address, cup_week, past_seeds, start_counted
from app.results.cup import CupBoard
from app.results.daily import Board, DailyResults
from app.results.daily_times import period_of

daily_router = APIRouter(prefix="/api", tags=["daily"])
cup_router = APIRouter(prefix="/api", tags=["cup"])


def _iso_day(value: Any) -> Any:
    """Only ``YYYY-MM-DD`` names a day (not a timestamp, not another spelling)."""
    if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise ValueError("a day is written YYYY-MM-DD")
    return calendar.fromisoformat(value)


Day = Annotated[calendar, BeforeValidator(_iso_day)]


class DailyIn(RequestModel):
    """Your name at the daily table (optional)."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"name": "Ada"}]})

    name: str | None = Field(
        None, max_length=64, description="Display name, 1–20 characters; default your player's."
    )


class DealtGame(CreatedGame):
    """A race of a deal everyone gets (the daily deal, a cup deal): like a new race
    (``POST /api/games``), with the player's token."""

    invites: list[Any] = Field(description="Always empty: the deal is raced alone.")


async def dealt_answer(
    request: Request, races: RacesDep, client: str, body: DailyIn | None, deal: int | None
) -> JSONResponse:
    """The answer (201, a :class:`DailyGame` or :class:`CupGame`) to a race of today's daily
    (``deal`` None) or of ``deal`` of this week's cup, dealt for the request's player."""
    if await known_api_player(request) is None:  # a refusal must make no player
        await check_address(races, client, deal)
    player, player_token = await api_player(request)
    name = (body.name if body else None) or player.shown_name
    started = await start_counted(races, deal, player.id, client, name, client)
    out = {**seat_body(started.session.id, started.session.token, started.state), "invites": []}
    more = {"date": started.period} if deal is None else {"week": started.period, "deal": deal}
    out |= {"player_token": player_token, **more, "counted": started.counted}
    return json_response(out, 201)


def counted_deal_route(
    router: APIRouter, path: str, model: type[DealtGame], summary: str, running: type[ErrorOut]
) -> Callable[[DecoratedCallable], DecoratedCallable]:
    """The route ``POST path`` that deals a counted deal (201 ``model``), refused with
    ``running`` (409) while the player's counted attempt at it runs."""
    return router.post(
        path,
        status_code=201,
        response_model=model,
        summary=summary,
        responses={
            **error_responses(403, 413, 422, 429, 503, names=True),
            409: {"model": running, "description": "Your counted attempt still runs."},
        },
    )


class DailyGame(DealtGame):
    """Today's daily race, like a new race (``POST /api/games``) plus the day and whether it
    is your counted attempt."""

    date: str = Field(description="The UTC date of the deal, `YYYY-MM-DD`.")
    counted: bool = Field(
        description="Your counted attempt of the day (false: practice, as `state.practice`)."
    )


class DailyRunningOut(ErrorOut):
    """409 `daily_attempt_running`: your counted attempt of today's deal still runs."""

    game_id: str = Field(description="Your counted race: finish it with the token it gave.")


class RankedOut(ResponseModel):
    """One line of a board: its rank and the player's name."""

    rank: int = Field(description="1 is best; equal lines share a rank.")
    name: str


class BoardEntryOut(RankedOut):
    """One counted result."""

    place: int = Field(description="Place in the race (1 is the winner).")
    laps: int
    tricks: int = Field(description="Tricks won in the whole race.")
    gas: int = Field(description="Gas left at the end.")
    left: bool = Field(description="The player left the race: placed last.")


class BoardOut(ResponseModel):
    """A day's board, best first (docs/daily.md: place, then laps, tricks won, gas left)."""

    date: str
    entries: list[BoardEntryOut] = Field(
        description="The best results, at most 100; equal results share a rank and are "
        "listed by name in code-point order."
    )
    ranked: int = Field(description="How many counted results the day ranks in all.")
    you: BoardEntryOut | None = Field(
        description="The counted result of the player `X-Player-Token` names, wherever it "
        "ranks (null without one, or when that player has none on this board)."
    )
    seed: int | None = Field(
        description="The day's seed, once the day's counted races closed (null before: "
        "docs/daily.md)."
    )


@counted_deal_route(daily_router, "/daily", DailyGame, "Race today's daily deal", DailyRunningOut)
async def race_daily(
    request: Request,
    races: RacesDep,
    client: ClientDep,
    body: Annotated[DailyIn | None, Body()] = None,
) -> JSONResponse:
    """Deal today's (UTC) daily race: the same cards and settings for everyone.

    Your first daily race of the day is your counted attempt (`counted` true); any later
    one that day is practice, dealt only once the counted one has ended (409
    `daily_attempt_running`, with its `game_id`, while it runs). Send your
    `X-Player-Token` so the attempt is yours; without one you get a new player and its
    `player_token`. One address starts a bounded number of counted attempts a day (429
    `daily_address_full`).
    """
    return await dealt_answer(request, races, client, body, None)


@daily_router.get(
    "/daily/leaderboard",
    response_model=BoardOut,
    summary="A day's daily leaderboard",
    responses=error_responses(422),
)
async def daily_board(
    request: Request,
    races: RacesDep,
    date: Annotated[
        Day | None, Query(description="UTC date `YYYY-MM-DD`; today if left out.")
    ] = None,
) -> JSONResponse:
    """The counted, finished results of the day's deal, ranked; the seed once the day is
    over. Send your `X-Player-Token` to find your own result in `you`."""
    day = period_of(races.now()) if date is None else date.isoformat()
    player = await known_api_player(request)
    board = await DailyResults(results_of(request)).day_board(day, player.id if player else None)
    seeds = await past_seeds(races, day)
    seed = seeds[0] if seeds else None
    return json_response({"date": day, **_ranked(BoardEntryOut, board), "seed": seed})


class CupGame(DealtGame):
    """A cup race, like a new race (``POST /api/games``) plus the week, the deal and
    whether it is your counted attempt at it."""

    week: str = Field(description="The ISO week of the cup, `YYYY-Www` (UTC).")
    deal: int = Field(description=f"The deal, 1 to {CUP_DEALS}.")
    counted: bool = Field(
        description="Your counted attempt at this deal (false: practice, as `state.practice`)."
    )


class CupRunningOut(DailyRunningOut):
    """409 `cup_attempt_running`: your counted attempt at this deal still runs."""


class CupDealOut(ResponseModel):
    """One of the week's deals, for you."""

    deal: int
    attempted: bool = Field(description="You made your counted attempt at it.")
    running: str | None = Field(description="Your counted race of it while it runs.")
    place: int | None = Field(description="Your place in your counted race, once finished.")
    laps: int | None
    points: int | None = Field(description="Its place points (docs/cup.md).")
    left: bool | None


class CupStandingOut(RankedOut):
    """One player on a week's board."""

    points: int = Field(description="Place points over the week's counted deals.")
    laps: int = Field(description="Laps over the week's counted deals.")
    deals: int = Field(description="Counted deals finished.")


class CupBoardOut(ResponseModel):
    """A week's board: points, then laps, then the earlier last finish."""

    week: str
    entries: list[CupStandingOut] = Field(description="The best, at most 100.")
    ranked: int = Field(description="How many players the week ranks in all.")
    you: CupStandingOut | None = Field(description="Your standing, wherever it ranks.")
    seeds: list[int] | None = Field(
        description="The week's deals' seeds in order, once its cup closed (null before)."
    )


class CupOut(ResponseModel):
    """This week's cup and last week's board."""

    week: str
    closes_at: float = Field(description="When this week's cup closes (Unix seconds).")
    deals: list[CupDealOut]
    board: CupBoardOut
    last_week: CupBoardOut


@cup_router.get(
    "/cup", response_model=CupOut, summary="This week's cup", responses=error_responses(503)
)
async def cup(request: Request, races: RacesDep) -> JSONResponse:
    """This week's deals with your results on them, the week's board and last week's
    board with its seeds once it closed. Send your `X-Player-Token` to see yours."""
    known = await known_api_player(request)
    player = known.id if known else None
    week = await cup_week(races, player)
    deals = [
        {"deal": d.deal, "attempted": d.attempted, "running": d.running}
        | {name: getattr(d.result, name, None) for name in ("place", "laps", "points", "left")}
        for d in week.deals
    ]
    return json_response(
        {
            "week": week.week,
            "closes_at": week.closes,
            "deals": deals,
            "board": _board(week.week, week.board, None),
            "last_week": _board(week.last, week.last_board, week.last_seeds),
        }
    )


@counted_deal_route(
    cup_router, "/cup/{deal}", CupGame, "Race a deal of this week's cup", CupRunningOut
)
async def race_cup(
    request: Request,
    races: RacesDep,
    client: ClientDep,
    deal: Annotated[int, Path(ge=1, le=CUP_DEALS, description=f"1 to {CUP_DEALS}.")],
    body: Annotated[DailyIn | None, Body()] = None,
) -> JSONResponse:
    """Deal one of this week's (ISO week, UTC) cup deals: the same cards and bots for
    everyone. Your first race of a deal is your counted attempt (`counted` true); a later
    one is practice, dealt only once the counted one ended (409 `cup_attempt_running`,
    with its `game_id`, while it runs). One address starts a bounded number of counted
    attempts at a deal a week (429 `cup_address_full`)."""
    return await dealt_answer(request, races, client, body, deal)


def _board(week: str, board: CupBoard, seeds: list[int] | None) -> dict[str, Any]:
    return {"week": week, **_ranked(CupStandingOut, board), "seeds": seeds}


def _ranked(model: type[ResponseModel], board: Board[Any]) -> dict[str, Any]:
    """A board's best ``entries``, how many it ``ranked`` and ``you``, as ``model`` s."""
    mine = published(model, board.mine) if board.mine else None
    return {
        "entries": [published(model, e) for e in board.entries],
        "ranked": board.ranked,
        "you": mine,
    }
