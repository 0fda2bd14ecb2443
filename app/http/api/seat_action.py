"""The one shape of a seat's own action in the API, ``POST /api/games/{id}/<action>``
(come back, leave, take back): the seat its Bearer token names, its race opened for
writing, the action, and the seat's state as the answer."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from fastapi.types import DecoratedCallable

from app.http.answers import json_response
from app.http.api.models import SEAT_ERRORS, GameState, error_responses
from app.http.deps import Seat
from app.http.previews import with_previews
from app.races.operations import SessionState
from app.races.unit import Race, Races


def seat_action(
    router: APIRouter, action: str, summary: str, refused: str
) -> Callable[[DecoratedCallable], DecoratedCallable]:
    """The route ``POST /games/{game_id}/{action}`` on ``router``, documented with the
    refusals every seat's request may meet and its own 409 (``refused``: why)."""
    return router.post(
        f"/games/{{game_id}}/{action}",
        response_model=GameState,
        summary=summary,
        responses=error_responses(*SEAT_ERRORS, s409=refused),
    )


async def seat_answer(
    seat: Seat, races: Races, act: Callable[[Race], Awaitable[SessionState]]
) -> JSONResponse:
    """The seat's state as ``act`` leaves it, on the seat's race opened for writing."""
    async with races.open(seat.game_id, seat.token, write=True) as race:
        state = await act(race)
    return json_response(with_previews(state))
