"""``POST /api/games/{id}/rematch`` and ``.../rematch/decline``: after a race with people,
the same people race again (:mod:`app.races.rematch`)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.http.answers import json_response
from app.http.api.models import SEAT_ERRORS, RematchSeat, error_responses
from app.http.deps import ApiSeatDep, ClientDep, RacesDep
from app.http.previews import with_previews
from app.races import rematch

router = APIRouter(prefix="/api", tags=["races"])

_REFUSED = error_responses(
    *SEAT_ERRORS,
    s409="Not a finished race with other people (`rematch_unavailable`), you answered "
    "already (`rematch_answered`), it started without you (`rematch_started`), or nobody "
    "offered one (`no_rematch`).",
)


@router.post(
    "/games/{game_id}/rematch",
    response_model=RematchSeat,
    status_code=201,
    summary="Rematch the same people (offer, or accept the offer)",
    responses=_REFUSED,
)
async def accept(seat: ApiSeatDep, races: RacesDep, client: ClientDep) -> JSONResponse:
    """After a race with other people: the first call offers a rematch (same settings, a
    fresh deal, every racer one seat further round) and seats you; each other person's
    call accepts it and seats them (the finished race's `rematch` shows the offer and the
    answers). It starts once all accepted, or after 30 s with bots for anyone who did not
    answer or declined. The answer is your seat there: keep its `token`."""
    joined = await rematch.accept(races, seat.game_id, seat.token, client)
    body = {
        "game_id": joined.game_id,
        "seat": joined.seat,
        "token": joined.token,
        "state": with_previews(joined.state),
    }
    return json_response(body, 201)


@router.post(
    "/games/{game_id}/rematch/decline",
    status_code=204,
    summary="Decline the rematch",
    responses=_REFUSED,
)
async def decline(seat: ApiSeatDep, races: RacesDep) -> None:
    """No rematch for you: a bot takes your seat there (and it starts now if everyone
    else accepted)."""
    await rematch.decline(races, seat.game_id, seat.token)
