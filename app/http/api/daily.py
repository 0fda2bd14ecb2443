"""The daily deal's JSON API, ``POST /api/daily`` and ``GET /api/daily/leaderboard``, and
what the weekly cup's (:mod:`app.http.api.cup`) shares with it."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date as calendar
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import JSONResponse
from fastapi.types import DecoratedCallable
from pydantic import BeforeValidator, ConfigDict, Field

from app.http.answers import json_response, published, seat_body
from app.http.api.models import (
    CreatedGame,
    ErrorOut,
    RequestModel,
    ResponseModel,
    error_responses,
    name_responses,
)
from app.http.deps import ClientDep, RacesDep
from app.http.players import api_player, known_api_player, results_of
from app.races.daily import check_address, past_seed, start_daily, utc_day
from app.races.operations import SessionState
from app.races.record import GameSession
from app.results.daily import DailyResults

router = APIRouter(prefix="/api", tags=["daily"])


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


def dealt_answer(
    session: GameSession, state: SessionState, player_token: str, **more: object
) -> JSONResponse:
    """The answer (201) to a dealt race: a :class:`DealtGame`, and ``more``."""
    out = {**seat_body(session.id, session.token, state), "invites": []}
    return json_response({**out, "player_token": player_token, **more}, 201)


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
            **name_responses(403, 413, 422, 429, 503),
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


@counted_deal_route(router, "/daily", DailyGame, "Race today's daily deal", DailyRunningOut)
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
    body = body or DailyIn()
    if await known_api_player(request) is None:  # a refusal must make no player
        await check_address(races, client)
    player, player_token = await api_player(request)
    started = await start_daily(races, player.id, client, body.name or player.shown_name, client)
    return dealt_answer(
        started.session, started.state, player_token, date=started.day, counted=started.counted
    )


@router.get(
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
    day = utc_day(races.now()) if date is None else date.isoformat()
    player = await known_api_player(request)
    board = await DailyResults(results_of(request)).day_board(day, player.id if player else None)
    return json_response(
        {
            "date": day,
            "entries": [published(BoardEntryOut, e) for e in board.entries],
            "ranked": board.ranked,
            "you": published(BoardEntryOut, board.mine) if board.mine else None,
            "seed": await past_seed(races, day),
        }
    )
