"""The JSON API under ``/api``: create a race, read it, move, fetch its record.

Routes stay thin: validate the body, look the session up, call :mod:`app.sessions`, answer.
Authentication is ``Authorization: Bearer <token>`` only (never a cookie), so the API cannot
be driven cross-site by a browser's ambient credentials.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Query
from fastapi.responses import JSONResponse

from app.api.models import (
    CreatedGame,
    CreateGame,
    GameRecord,
    GameState,
    MoveIn,
    error_responses,
)
from app.deps import ApiSessionDep, SettingsDep, StoreDep
from app.errors import IllegalMove
from app.sessions import (
    GameConfig,
    play_turn,
    read_record,
    read_state,
    session_state,
    start_game_async,
)
from engine import Action, IllegalAction, Variants

router = APIRouter(prefix="/api", tags=["races"])


def _json(content: Any, status_code: int = 200) -> JSONResponse:
    # Returning a Response skips FastAPI's re-validation of the (large) state on every move;
    # the response models still document it, and the tests validate real answers against them.
    return JSONResponse(content, status_code=status_code)


@router.post(
    "/games",
    status_code=201,
    response_model=CreatedGame,
    summary="Start a race",
    responses=error_responses(403, 413, 422, 429, 503),
)
async def create_game(
    store: StoreDep,
    settings: SettingsDep,
    body: Annotated[CreateGame | None, Body()] = None,
) -> JSONResponse:
    """Deal a new race with the human at seat 0; bots that lead play before this returns.

    Keep the returned `token` secret: it is the only key to the race.
    """
    body = body or CreateGame()
    config = GameConfig(
        players=body.players,
        bots=body.bots or settings.default_bot_level,
        variants=Variants(
            larger_hands=body.variants.larger_hands,
            zero_suit=body.variants.zero_suit,  # type: ignore[arg-type]  # Suit validates it
            zero_five=body.variants.zero_five,
        ),
        seed=body.seed,
    )
    session = await start_game_async(store, config, settings)
    async with session.lock:
        state = session_state(session)
    return _json({"game_id": session.id, "token": session.token, "state": state}, 201)


@router.get(
    "/games/{game_id}",
    response_model=GameState,
    summary="Read the race",
    responses=error_responses(401, 404, 410, 422),
)
async def get_game(
    session: ApiSessionDep,
    since: Annotated[
        int | None,
        Query(ge=0, le=2**31, description="Replay events from this index instead."),
    ] = None,
) -> JSONResponse:
    """The human's view now, with the events since the previous response."""
    return _json(await read_state(session, since))


@router.post(
    "/games/{game_id}/actions",
    response_model=GameState,
    summary="Play a turn",
    responses=error_responses(400, 401, 403, 404, 409, 410, 413, 422, 429),
)
async def post_action(session: ApiSessionDep, move: MoveIn) -> JSONResponse:
    """Apply the human's action and the bots' replies up to the human's next turn (or the end).

    `turn` must equal the latest state's `turn`: a repeated or concurrent submission gets
    409 with the current state, and at most one of them is applied.
    """
    try:
        action = Action.from_dict(move.action.model_dump())
    except IllegalAction as exc:
        raise IllegalMove(str(exc)) from exc
    return _json(await play_turn(session, move.turn, action))


@router.get(
    "/games/{game_id}/record",
    response_model=GameRecord,
    summary="The race's public record",
    responses=error_responses(401, 404, 410, 422),
)
async def get_record(session: ApiSessionDep) -> JSONResponse:
    """Settings and every public event; the seed too once the race is over.

    Face-down cards never appear, not even after the end.
    """
    return _json(await read_record(session))
