"""``POST /api/games/{id}/back``: take your seat back from the bot that plays it while you
are away (your clock ran out on two turns in a row)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.http.answers import json_response
from app.http.api.models import SEAT_ERRORS, GameState, error_responses
from app.http.deps import ApiSeatDep, RacesDep
from app.http.previews import with_previews

router = APIRouter(prefix="/api", tags=["races"])


@router.post(
    "/games/{game_id}/back",
    response_model=GameState,
    summary="Take your seat back from the bot (I'm back)",
    responses=error_responses(
        *SEAT_ERRORS,
        s409="Your seat is not away, or the race is over (`not_away`).",
    ),
)
async def come_back(seat: ApiSeatDep, races: RacesDep) -> JSONResponse:
    """Your seat is yours again: the bot stops playing it, your clock runs from your next
    turn, and every seat sees you back (`seats[i].away` false). A rated race that ends
    while your seat is away counts for you as left."""
    async with races.open(seat.game_id, seat.token, write=True) as race:
        race.come_back()
        state = race.state()
    return json_response(with_previews(state))
