"""``POST /api/games/{id}/say``: a quick message to the table, in a race with people.

Thin like :mod:`app.http.api.routes`: open the race for writing, call
:meth:`app.races.unit.Race.say` with the seat's pace, answer the seat's state (whose
``said`` ends with the message).
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.http.answers import json_response
from app.http.api.models import GameState, SayIn, TooManyOut, error_responses
from app.http.deps import ApiSeatDep, RacesDep
from app.http.previews import with_previews
from app.http.talk_pace import GAP_SECONDS, PER_MINUTE, TalkPaceDep

router = APIRouter(prefix="/api", tags=["races"])


@router.post(
    "/games/{game_id}/say",
    response_model=GameState,
    summary="Say a quick message to the table (races with people)",
    responses={
        **error_responses(
            401,
            403,
            404,
            410,
            413,
            422,
            s409="Nobody but bots races here (`talk_without_people`), or the race is over "
            "(`talk_race_over`).",
        ),
        429: {
            "model": TooManyOut,
            "description": f"This seat sent a message less than {GAP_SECONDS} s ago, or "
            f"{PER_MINUTE} in the last minute (`talk_too_fast`, with `retry_after` and "
            "`Retry-After`); or too many requests from this client (`rate_limited`).",
        },
    },
)
async def say(seat: ApiSeatDep, body: SayIn, races: RacesDep, pace: TalkPaceDep) -> JSONResponse:
    """Say one of the preset messages (`hello`, `well_played`, `oops`, `thinking`,
    `good_race`) to everyone at the table and watching: it reaches their event streams at
    once and stays in `said` (the race's latest few). Only a person's seat in a race with
    other people may speak, one message every few seconds. A message changes nothing in
    the race and says nothing about any card."""
    async with races.open(seat.game_id, seat.token, write=True) as race:
        await race.say(body.code, pace=lambda at: pace.check(race.id, at))
        state = race.state()
    return json_response(with_previews(state))
