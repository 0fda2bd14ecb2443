"""``POST /api/games/{id}/back``: take your seat back from the bot that plays it while you
are away (your clock ran out on two turns in a row)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.http.api.seat_action import seat_action, seat_answer
from app.http.deps import ApiSeatDep, RacesDep
from app.races.operations import SessionState
from app.races.unit import Race

router = APIRouter(prefix="/api", tags=["races"])


@seat_action(
    router,
    "back",
    "Take your seat back from the bot (I'm back)",
    "Your seat is not away, or the race is over (`not_away`).",
)
async def come_back(seat: ApiSeatDep, races: RacesDep) -> JSONResponse:
    """Your seat is yours again: the bot stops playing it, your clock runs from your next
    turn, and every seat sees you back (`seats[i].away` false). A rated race that ends
    while your seat is away counts for you as left."""
    return await seat_answer(seat, races, _come_back)


async def _come_back(race: Race) -> SessionState:
    race.come_back()
    return race.state()
