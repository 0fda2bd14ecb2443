"""A seat's own actions, ``POST /api/games/{id}/<action>``: take back, say, leave, come back
and rematch. Each opens the race of the seat its Bearer token names for writing, acts, and
answers the seat's state (a rematch: the seat there)."""

from __future__ import annotations

import inspect
from collections.abc import Callable

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from fastapi.types import DecoratedCallable

from app.http.answers import json_response, seat_body
from app.http.api.models import SEAT_ERRORS, GameState, RematchSeat, SayIn, TooManyOut
from app.http.api.models import error_responses as refusals
from app.http.deps import ApiSeatDep, ClientDep, RacesDep, Seat
from app.http.previews import with_previews
from app.http.security import GAP_SECONDS, PER_MINUTE, TalkPaceDep
from app.races import seating as rematch
from app.races.unit import Race, Races

router = APIRouter(prefix="/api", tags=["races"])


async def seat_answer(seat: Seat, races: Races, act: Callable[[Race], object]) -> JSONResponse:
    """The seat's state once ``act`` changed its race opened for writing: the state ``act``
    answers when it is a coroutine, else the race's state after it."""
    async with races.open(seat.game_id, seat.token, write=True) as race:
        done = act(race)
        state = await done if inspect.isawaitable(done) else race.state()
    return json_response(with_previews(state))


def seat_action(
    action: str, summary: str, refused: str
) -> Callable[[DecoratedCallable], DecoratedCallable]:
    """The route ``POST /games/{game_id}/{action}``, documented with the refusals every
    seat's request may meet and its own 409 (``refused``: why)."""
    return router.post(
        f"/games/{{game_id}}/{action}",
        response_model=GameState,
        summary=summary,
        responses=refusals(*SEAT_ERRORS, s409=refused),
    )


@seat_action(
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


@router.post(
    "/games/{game_id}/say",
    response_model=GameState,
    summary="Say a quick message to the table (races with people)",
    responses={
        **refusals(
            *SEAT_ERRORS,
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


@seat_action(
    "leave",
    "Leave a race against bots",
    "Other people race here (`leave_with_people`): the race goes on.",
)
async def leave(seat: ApiSeatDep, races: RacesDep) -> JSONResponse:
    """End the race: it is over, and a rated race counts for you as last, marked "left"
    in your history (one that had not got past its first trick counts for nobody). Your
    place among your live races is free at once. Leaving a race that is over changes
    nothing."""
    return await seat_answer(seat, races, Race.leave)


@seat_action(
    "back",
    "Take your seat back from the bot (I'm back)",
    "Your seat is not away, or the race is over (`not_away`).",
)
async def come_back(seat: ApiSeatDep, races: RacesDep) -> JSONResponse:
    """Your seat is yours again: the bot stops playing it, your clock runs from your next
    turn, and every seat sees you back (`seats[i].away` false). A rated race that ends
    while your seat is away counts for you as left."""
    return await seat_answer(seat, races, Race.come_back)


_NO_REMATCH = refusals(
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
    responses=_NO_REMATCH,
)
async def accept(seat: ApiSeatDep, races: RacesDep, client: ClientDep) -> JSONResponse:
    """After a race with other people: the first call offers a rematch (same settings, a
    fresh deal, every racer one seat further round) and seats you; each other person's
    call accepts it and seats them (the finished race's `rematch` shows the offer and the
    answers). It starts once all accepted, or after 30 s with bots for anyone who did not
    answer or declined. The answer is your seat there: keep its `token`."""
    joined = await rematch.accept(races, seat.game_id, seat.token, client)
    return json_response(seat_body(joined.game_id, joined.token, joined.state, joined.seat), 201)


@router.post(
    "/games/{game_id}/rematch/decline",
    status_code=204,
    summary="Decline the rematch",
    responses=_NO_REMATCH,
)
async def decline(seat: ApiSeatDep, races: RacesDep) -> None:
    """No rematch for you: a bot takes your seat there (and it starts now if everyone
    else accepted)."""
    await rematch.decline(races, seat.game_id, seat.token)
