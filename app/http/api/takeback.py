"""``POST /api/games/{id}/takeback``: undo your last card in a race against bots.

Thin like :mod:`app.http.api.routes`: open the race for writing, call
:meth:`app.races.unit.Race.take_back`, answer the seat's state
(:mod:`app.http.api.seat_action`).
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.http.api.seat_action import seat_action, seat_answer
from app.http.deps import ApiSeatDep, RacesDep
from app.races.unit import Race

router = APIRouter(prefix="/api", tags=["races"])


@seat_action(
    router,
    "takeback",
    "Take back your last card (races against bots)",
    "Nothing can be taken back: other people race here (`takeback_with_people`), "
    "you have not played a card yet (`nothing_to_take_back`), the race is over "
    "(`takeback_race_over`), or it was not recorded from its deal "
    "(`takeback_unavailable`).",
)
async def take_back(seat: ApiSeatDep, races: RacesDep) -> JSONResponse:
    """Undo your last card and the bots' replies to it: the race is back at your previous
    turn (`turn` as it was then; `event_count` shows the shorter log) and is marked
    `practice` from now on. The bots answer your next card as they would have.

    Only in a race where you are the one person. Each call takes back one more card.
    """
    return await seat_answer(seat, races, Race.take_back)
