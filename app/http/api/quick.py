"""``POST /api/quick``: race strangers (:func:`app.races.quick.quick_race`), then play it
like any race with friends."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Request
from fastapi.responses import JSONResponse
from pydantic import ConfigDict, Field

from app.http.answers import json_response, seat_body
from app.http.api.models import RematchSeat, RequestModel, WholeNumber, name_responses
from app.http.deps import ClientDep, RacesDep
from app.http.players import api_player
from app.races.quick import quick_race

router = APIRouter(prefix="/api", tags=["races"])


class QuickIn(RequestModel):
    """How many seats the race has (people and the bots that fill in), and your name."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"players": 4}]})

    players: WholeNumber = Field(4, ge=3, le=5, description="Number of seats, bots included.")
    name: str | None = Field(
        None, max_length=64, description='Display name, 1–20 characters; default "Player n".'
    )


class QuickGame(RematchSeat):
    """Your seat in a race with strangers: keep ``token`` secret (your seat's key)."""

    seat: int = Field(description="Your seat (0 if you opened the race).")
    player_token: str = Field(
        description="Your player token (the `X-Player-Token` you sent, or a new one)."
    )


@router.post(
    "/quick",
    status_code=201,
    response_model=QuickGame,
    summary="Race strangers",
    responses=name_responses(
        403,
        413,
        422,
        429,
        503,
        s409="You already wait in the open race (`second_seat`): one seat each.",
    ),
)
async def quick(
    request: Request,
    races: RacesDep,
    client: ClientDep,
    body: Annotated[QuickIn | None, Body()] = None,
) -> JSONResponse:
    """A seat in the race of `players` seats that is still filling up, or a new one.

    Requests for the same number of players within `ZZV_QUICK_WAIT_SECONDS` (20 s by
    default) of the race's opening share it, each at its own seat. The race waits
    (`status` `waiting`) until every seat is taken or the wait ends; then bots take the
    empty seats and it starts (`playing`). Follow it with `GET /api/games/{id}` or its
    event stream; it is played like a race with friends (with a turn clock once two or
    more people race). Send your `X-Player-Token` so the race counts in your history; a
    player who already waits in the open race is refused a second seat (409 `second_seat`).
    """
    body = body or QuickIn()
    player, player_token = await api_player(request)
    seat = await quick_race(races, body.players, client, body.name, player.id)
    out = seat_body(seat.session.id, seat.token, seat.state, seat.seat)
    return json_response({**out, "player_token": player_token}, 201)
