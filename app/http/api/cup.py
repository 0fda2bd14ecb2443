"""The weekly cup's JSON API: ``GET /api/cup`` and ``POST /api/cup/{deal}`` (docs/cup.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from app.http.answers import json_response, published
from app.http.api.daily import (
    DailyIn,
    DailyRunningOut,
    DealtGame,
    RankedOut,
    counted_deal_route,
    dealt_answer,
)
from app.http.api.models import ResponseModel, error_responses
from app.http.deps import ClientDep, RacesDep
from app.http.players import api_player, known_api_player, results_of
from app.races.cup import CUP_DEALS, check_address, cup_week, past_seeds, start_cup, week_before
from app.results.cup import CupBoard, CupResults

router = APIRouter(prefix="/api", tags=["cup"])


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


@router.get(
    "/cup", response_model=CupOut, summary="This week's cup", responses=error_responses(503)
)
async def cup(request: Request, races: RacesDep) -> JSONResponse:
    """This week's deals with your results on them, the week's board and last week's
    board with its seeds once it closed. Send your `X-Player-Token` to see yours."""
    known = await known_api_player(request)
    player = known.id if known else None
    week = await cup_week(races, player)
    last = week_before(week.week)
    deals = [
        {"deal": d.deal, "attempted": d.attempted, "running": d.running}
        | {name: getattr(d.result, name, None) for name in ("place", "laps", "points", "left")}
        for d in week.deals
    ]
    last_board = await CupResults(results_of(request)).board(last, player)
    return json_response(
        {
            "week": week.week,
            "closes_at": week.closes,
            "deals": deals,
            "board": _board(week.week, week.board, None),
            "last_week": _board(last, last_board, await past_seeds(races, last)),
        }
    )


@counted_deal_route(router, "/cup/{deal}", CupGame, "Race a deal of this week's cup", CupRunningOut)
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
    body = body or DailyIn()
    if await known_api_player(request) is None:  # a refusal must make no player
        await check_address(races, deal, client)
    player, player_token = await api_player(request)
    name = body.name or player.shown_name
    started = await start_cup(races, player.id, deal, client, name, client)
    more = {"week": started.week, "deal": started.deal, "counted": started.counted}
    return dealt_answer(started.session, started.state, player_token, **more)


def _board(week: str, board: CupBoard, seeds: list[int] | None) -> dict[str, Any]:
    return {
        "week": week,
        "entries": [published(CupStandingOut, s) for s in board.entries],
        "ranked": board.ranked,
        "you": published(CupStandingOut, board.mine) if board.mine else None,
        "seeds": seeds,
    }
