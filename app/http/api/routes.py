"""The JSON API's races: create, invite, race strangers, read, move, follow live. Each route
opens the race once (:meth:`app.races.unit.Races.open`), with the Bearer token only (never a
cookie, so a browser's ambient credentials cannot drive the API cross-site)."""

from __future__ import annotations

from typing import Annotated

import orjson
from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import JSONResponse
from pydantic import ConfigDict, Field
from sse_starlette.sse import EventSourceResponse

from app.http.addresses import public_base_url
from app.http.answers import json_response, seat_body
from app.http.api.models import (
    CreatedGame,
    CreateGame,
    GameRecord,
    GameState,
    JoinedGame,
    JoinIn,
    MoveIn,
    RematchSeat,
    RequestModel,
    WholeNumber,
    error_responses,
)
from app.http.api.seat_action import seat_answer
from app.http.deps import ApiSeatDep, ClientDep, GameIdPath, LiveDep, RacesDep, SettingsDep
from app.http.players import api_player, api_token, known_api_player, results_of
from app.http.previews import with_previews
from app.live.streams import Message
from app.races.errors import IllegalMove
from app.races.operations import SessionState
from app.races.record import GameConfig
from app.races.seating import quick_race
from app.races.unit import Race
from engine import Action, IllegalAction, Variants

router = APIRouter(prefix="/api", tags=["races"])


@router.post(
    "/games",
    status_code=201,
    response_model=CreatedGame,
    summary="Start a race",
    responses=error_responses(403, 413, 422, 429, 503),
)
async def create_game(
    request: Request,
    races: RacesDep,
    settings: SettingsDep,
    client: ClientDep,
    body: Annotated[CreateGame | None, Body()] = None,
) -> JSONResponse:
    """Deal a new race with you at seat 0; bots that lead play before this returns.

    Send your `X-Player-Token` (the `player_token` of an earlier answer) so the race counts
    in your history and rating.

    Keep the returned `token` secret: it is the only key to your seat. With `humans` > 1
    the race waits in its lobby (`status` `waiting`) until every invited seat joined or
    you start it; send each friend one of `invites`.
    """
    body = body or CreateGame()
    config = GameConfig(
        players=body.players,
        bots=body.bots or settings.default_bot_level,
        variants=Variants(**body.variants.model_dump()),
        seed=body.seed,
        people=body.humans,
    )
    player, player_token = await api_player(request)
    session, state = await races.create(config, client, player=player.id)
    invites = session.lobby.invite_links(public_base_url(request), session.id)
    out = seat_body(session.id, session.token, state, invites=invites, player_token=player_token)
    return json_response(out, 201)


@router.get(
    "/games/{game_id}",
    response_model=GameState,
    summary="Read the race",
    responses=error_responses(401, 404, 410, 422),
)
async def get_game(
    seat: ApiSeatDep,
    races: RacesDep,
    since: Annotated[
        int | None, Query(ge=0, le=2**31, description="Replay events from this index instead.")
    ] = None,
) -> JSONResponse:
    """Your seat's view now, with the events since the previous response."""
    async with races.open(seat.game_id, seat.token, deliver=True) as race:
        state = race.state(since)
    return json_response(with_previews(state))


@router.post(
    "/games/{game_id}/actions",
    response_model=GameState,
    summary="Play a turn",
    responses=error_responses(400, 401, 403, 404, 409, 410, 413, 422, 429),
)
async def post_action(seat: ApiSeatDep, move: MoveIn, races: RacesDep) -> JSONResponse:
    """Apply your action and the bots' replies up to the next person's turn (or the end).

    `turn` must equal the latest state's `turn`: a repeated or concurrent submission gets
    409 `stale_turn` with the current state, and at most one of them is applied. A move
    while another seat is to move gets 409 `not_your_turn`.
    """
    try:
        action = Action.from_dict(move.action.model_dump())
    except IllegalAction as exc:
        raise IllegalMove(exc.refusal) from exc
    return await seat_answer(seat, races, lambda race: race.play(move.turn, action))


@router.post(
    "/games/{game_id}/join",
    status_code=201,
    response_model=JoinedGame,
    summary="Take an invited seat",
    responses=error_responses(
        403,
        413,
        422,
        429,
        s404="Unknown race (`not_found`) or invite (`invite_not_found`).",
        s409="Invite already used (`invite_used`), the race started without this seat "
        "(`race_started`), or your `X-Player-Token` already sits in this race (`second_seat`).",
    ),
)
async def join_game(
    request: Request, game_id: GameIdPath, body: JoinIn, races: RacesDep
) -> JSONResponse:
    """Sit at the seat an invite holds (no token needed: the code is the invitation).

    The answer's `token` is your seat's own credential; the code stops working.
    """
    player_token = api_token(request)
    known = await known_api_player(request)
    async with races.open(game_id, None, write=True, spectator=True) as race:
        token = await race.join(body.code, body.name, player=known.id if known else None)
        if known is None or player_token is None:  # a new player only for a seat taken
            known, player_token = await results_of(request).create_player()
            race.claim_seat(known.id)
        out = seat_body(game_id, token, race.state(), race.seat, player_token=player_token)
    return json_response(out, 201)


@router.post(
    "/games/{game_id}/start",
    response_model=GameState,
    summary="Start before everyone joined",
    responses=error_responses(
        401, 404, 410, 413, 422, 429, s403="Only the creator may start (`not_creator`)."
    ),
)
async def start_game_now(seat: ApiSeatDep, races: RacesDep) -> JSONResponse:
    """Creator only: start now; bots take the seats nobody joined and their invites expire."""
    return await seat_answer(seat, races, Race.start)


@router.get(
    "/games/{game_id}/events",
    summary="Follow your seat live (Server-Sent Events)",
    response_class=EventSourceResponse,
    responses={
        200: {
            "content": {
                "text/event-stream": {
                    "schema": {
                        "type": "object",
                        "properties": {
                            "event": {"type": "string", "enum": ["state"]},
                            "data": {
                                "type": "string",
                                "contentMediaType": "application/json",
                                "description": "The seat's state (see GameState).",
                            },
                        },
                        "required": ["event", "data"],
                    }
                }
            },
            "description": "An `event: state` message (data: your seat's state as JSON, its "
            "events since the previous message) now and whenever it changes; the stream "
            "ends after the race is over.",
        },
        **error_responses(401, 404, 410, 422, 429),
    },
)
async def follow_game(seat: ApiSeatDep, live: LiveDep) -> EventSourceResponse:
    """Your seat's state as Server-Sent Events, so a client can play without polling."""

    def render(state: SessionState) -> Message:
        return {"event": "state", "data": orjson.dumps(with_previews(state)).decode()}

    async with live.races.open(seat.game_id, seat.token):  # 404/410 now, not inside the stream
        pass
    return await live.answer(seat.game_id, seat.token, render)


@router.get(
    "/games/{game_id}/record",
    response_model=GameRecord,
    summary="The race's public record",
    responses=error_responses(401, 404, 410, 422),
)
async def get_record(seat: ApiSeatDep, races: RacesDep) -> JSONResponse:
    """Settings, every public event and the deal's `commitment`; once the race is over,
    also the seed, the `deal_seed`, the `salt`, every action (`actions`) and the bots' key
    (`bot_key`): docs/fair-play.md.

    While the race runs nothing in it tells a face-down card; once it is over `deal_seed`
    and `actions` replay the whole race with the engine, and `commitment` is
    `sha256("zzv-deal-1:{deal_seed}:{salt}")` in hex.
    """
    async with races.open(seat.game_id, seat.token) as race:
        record = race.record()
    return json_response(record)


class QuickIn(RequestModel):
    """How many seats the race has (people and the bots that fill in), and your name."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"players": 4}]})

    players: WholeNumber = Field(4, ge=3, le=5, description="Number of seats, bots included.")
    name: str | None = Field(
        None, max_length=64, description='Display name, 1–20 characters; default "Player n".'
    )


class QuickGame(RematchSeat):
    """Your seat in a race with strangers: keep ``token`` secret (your seat's key)."""

    seat: int = Field(description="Your seat (0 if you opened the race).")
    player_token: str = Field(
        description="Your player token (the `X-Player-Token` you sent, or a new one)."
    )


@router.post(
    "/quick",
    status_code=201,
    response_model=QuickGame,
    summary="Race strangers",
    responses=error_responses(
        403,
        413,
        422,
        429,
        503,
        names=True,
        s409="You already wait in the open race (`second_seat`): one seat each.",
    ),
)
async def quick(
    request: Request,
    races: RacesDep,
    client: ClientDep,
    body: Annotated[QuickIn | None, Body()] = None,
) -> JSONResponse:
    """A seat in the race of `players` seats that is still filling up, or a new one.

    Requests for the same number of players within `ZZV_QUICK_WAIT_SECONDS` (20 s by
    default) of the race's opening share it, each at its own seat. The race waits
    (`status` `waiting`) until every seat is taken or the wait ends; then bots take the
    empty seats and it starts (`playing`). Follow it with `GET /api/games/{id}` or its
    event stream; it is played like a race with friends (with a turn clock once two or
    more people race). Send your `X-Player-Token` so the race counts in your history; a
    player who already waits in the open race is refused a second seat (409 `second_seat`).
    """
    body = body or QuickIn()
    player, player_token = await api_player(request)
    seat = await quick_race(races, body.players, client, body.name, player.id)
    out = seat_body(seat.game_id, seat.token, seat.state, seat.seat, player_token=player_token)
    return json_response(out, 201)
