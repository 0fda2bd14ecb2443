"""``POST /api/games/{id}/takeback``: undo your last card in a race against bots.

Thin like :mod:`app.http.api.routes`: open the race for writing, call
:meth:`app.races.unit.Race.take_back`, answer the seat's state.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.http.answers import json_response
from app.http.api.models import SEAT_ERRORS, GameState, error_responses
from app.http.deps import ApiSeatDep, RacesDep
from app.http.previews import with_previews

router = APIRouter(prefix="/api", tags=["races"])


@router.post(
    "/games/{game_id}/takeback",
    response_model=GameState,
    summary="Take back your last card (races against bots)",
    responses=error_responses(
        *SEAT_ERRORS,
        s409="Nothing can be taken back: other people race here (`takeback_with_people`), "
        "you have not played a card yet (`nothing_to_take_back`), the race is over "
        "(`takeback_race_over`), or it was not recorded from its deal "
        "(`takeback_unavailable`).",
    ),
)
async def take_back(seat: ApiSeatDep, races: RacesDep) -> JSONResponse:
    """Undo your last card and the bots' replies to it: the race is back at your previous
    turn (`turn` as it was then; `event_count` shows the shorter log) and is marked
    `practice` from now on. The bots answer your next card as they would have.

    Only in a race where you are the one person. Each call takes back one more card.
    """
    async with races.open(seat.game_id, seat.token, write=True) as race:
        state = await race.take_back()
    return json_response(with_previews(state))
