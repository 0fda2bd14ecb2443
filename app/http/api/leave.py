"""``POST /api/games/{id}/leave``: leave a race against bots (it then counts as last)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.http.answers import json_response
from app.http.api.models import SEAT_ERRORS, GameState, error_responses
from app.http.deps import ApiSeatDep, RacesDep
from app.http.previews import with_previews

router = APIRouter(prefix="/api", tags=["races"])


@router.post(
    "/games/{game_id}/leave",
    response_model=GameState,
    summary="Leave a race against bots",
    responses=error_responses(
        *SEAT_ERRORS,
        s409="Other people race here (`leave_with_people`): the race goes on.",
    ),
)
async def leave(seat: ApiSeatDep, races: RacesDep) -> JSONResponse:
    """End the race: it is over, and a rated race counts for you as last, marked "left"
    in your history (one that had not got past its first trick counts for nobody). Your
    place among your live races is free at once. Leaving a race that is over changes
    nothing."""
    async with races.open(seat.game_id, seat.token, write=True) as race:
        race.leave()
        state = race.state()
    return json_response(with_previews(state))
