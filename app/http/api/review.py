"""The review API (docs/review.md): the hard bot's search looks back at a seat's decisions
in a finished race. Each request reviews the seat its token names only: another seat's
token reads that seat's own review, never this one."""

from __future__ import annotations

from typing import Annotated, cast

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse

from app.http.answers import seat_body
from app.http.api.models import error_responses
from app.http.deps import ApiSeatDep, ClientDep, RacesDep, SettingsDep
from app.http.review_words import with_reasons
from app.races import review
from app.races.review import Budget, Reviews

router = APIRouter(prefix="/api", tags=["review"])

MovePath = Annotated[int, Path(ge=0, le=100_000, description="The decision's `move` index.")]


_NOT_FOUND = "Unknown race or wrong token (`not_found`)."
_NOT_OVER = "The race is not over (`race_not_over`)."


def reviews_of(request: Request) -> Reviews:
    """The app's :class:`~app.races.review.Reviews`, made on first use."""
    kept = request.app.state
    if getattr(kept, "reviews", None) is None:
        kept.reviews = Reviews(
            kept.races,
            workers=kept.settings.review_workers,
            per_client=kept.settings.reviews_per_client,
            budget=Budget(worlds=kept.settings.review_worlds),
        )
    return cast(Reviews, kept.reviews)


@router.post(
    "/games/{game_id}/review",
    status_code=202,
    summary="Ask for a review of your race",
    responses=error_responses(
        401,
        410,
        422,
        s404=_NOT_FOUND,
        s409=_NOT_OVER,
        s429="Too many reviews in progress for this client (`too_many_reviews`).",
    ),
)
async def ask_review(
    request: Request, seat: ApiSeatDep, races: RacesDep, client: ClientDep
) -> JSONResponse:
    """Start the review of your seat's decisions (and the par race of your seat) once the
    race is over: 409 `race_not_over` before. Answers 202 with the review's status; a
    review already kept comes back `done` at once."""
    async with races.open(seat.game_id, seat.token) as race:
        body = reviews_of(request).request(race.session, race.own_seat, client)
    return JSONResponse(with_reasons(body), status_code=202)


@router.get(
    "/games/{game_id}/review",
    summary="Read the review of your race",
    responses=error_responses(
        401,
        410,
        422,
        s409=_NOT_OVER,
        s404=_NOT_FOUND + " No review asked for (`review_not_requested`).",
    ),
)
async def read_review(request: Request, seat: ApiSeatDep, races: RacesDep) -> JSONResponse:
    """`{"status": "running" | "done", "progress", "decisions", "summary"}`; 404
    `review_not_requested` before a POST. `played` and `best` are actions in the form
    `POST /actions` takes; values are chances of winning the race, from 0 to 1."""
    async with races.open(seat.game_id, seat.token) as race:
        body = reviews_of(request).status(race.session, race.own_seat)
    return JSONResponse(with_reasons(body))


@router.post(
    "/games/{game_id}/review/{move}/practice",
    status_code=201,
    summary="Try again from a reviewed decision",
    responses=error_responses(
        401,
        410,
        422,
        429,
        503,
        s404=_NOT_FOUND + " No such decision in a finished review (`decision_not_reviewed`).",
    ),
)
async def try_again(
    seat: ApiSeatDep, move: MovePath, races: RacesDep, settings: SettingsDep, client: ClientDep
) -> JSONResponse:
    """A practice race from just before the decision `move` of your finished review: the
    same hidden deal, the bots as they were, you at your seat. Answers like `POST /games`:
    the new race's `game_id`, your `token` and your first `state`."""
    async with races.open(seat.game_id, seat.token) as race:
        practice = review.practice_from(race.session, race.own_seat, move, settings.turn_seconds)
    _, state = await races.store_and_begin(practice, client)
    return JSONResponse(seat_body(practice.id, practice.token, state), status_code=201)
