"""``POST /api/games/{id}/leave``: leave a race against bots (it then counts as last)."""

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
    "leave",
    "Leave a race against bots",
    "Other people race here (`leave_with_people`): the race goes on.",
)
async def leave(seat: ApiSeatDep, races: RacesDep) -> JSONResponse:
    """End the race: it is over, and a rated race counts for you as last, marked "left"
    in your history (one that had not got past its first trick counts for nobody). Your
    place among your live races is free at once. Leaving a race that is over changes
    nothing."""
    return await seat_answer(seat, races, _leave)


async def _leave(race: Race) -> SessionState:
    race.leave()
    return race.state()
