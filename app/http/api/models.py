"""Pydantic models of everything the JSON API accepts and returns (and so of ``/docs``), all
closed. A seat's state (:data:`GameState`) and the events are made from the engine's and the
race layer's ``TypedDict`` s, so a field added there is in the schema at once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, get_type_hints

from annotated_types import Ge, Le
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, create_model, model_validator
from typing_extensions import TypedDict

from app.races.lobby import Invite
from app.races.operations import SessionState
from app.races.record import RecordedAction
from app.vocabulary import ActionTypeId, BotLevel, RacerSuitId, SuitId, TalkCode, ZeroEffectId
from engine import EVENT_PAYLOADS, EventKind, VariantsData


def _whole_number(value: Any) -> Any:
    # JSON Schema counts 4.0 as an integer; accept it, but never booleans or strings.
    return int(value) if isinstance(value, float) and value.is_integer() else value


WholeNumber = Annotated[int, BeforeValidator(_whole_number)]


class RequestModel(BaseModel):
    """A request body: strict types, no field it does not name."""

    model_config = ConfigDict(extra="forbid", strict=True)


class ResponseModel(BaseModel):
    """An answer's body: no field it does not name (nor do the engine's shapes it holds)."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class VariantsIn(RequestModel):
    """Optional rule variants (all off by default)."""

    larger_hands: bool = Field(False, description="Deal 7 cards; one is carried over (R18).")
    zero_suit: RacerSuitId | None = Field(
        None, description="Racer suit replaced by the 0 suit (R19/R20); null = variant off."
    )
    zero_five: bool = Field(False, description="Everyone gets a one-shot 0/5 card (R21/R22).")


class CreateGame(RequestModel):
    """Settings of a new race. The human always sits at seat 0."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"players": 4, "bots": "normal"},
                {
                    "players": 5,
                    "bots": "hard",
                    "variants": {"larger_hands": True, "zero_suit": "chippy", "zero_five": True},
                    "seed": 7,
                },
            ]
        }
    )

    players: WholeNumber = Field(4, ge=3, le=5, description="Number of seats, bots included.")
    bots: BotLevel | None = Field(None, description="Bot strength; the server default if null.")
    variants: VariantsIn = Field(default_factory=VariantsIn)
    seed: Annotated[int, Ge(0), Le(2**53), BeforeValidator(_whole_number)] | None = Field(
        None,
        description="Replay a seed on this server (a race with a chosen seed is practice); "
        "drawn at random when null.",
    )
    humans: WholeNumber = Field(
        1,
        ge=1,
        le=5,
        description=(
            "How many seats are people: you at seat 0 and `humans - 1` friends, each invited "
            "with a single-use code (see `invites`). The other seats are bots."
        ),
    )

    @model_validator(mode="after")
    def _humans_fit(self) -> CreateGame:
        if self.humans > self.players:
            raise ValueError("`humans` cannot exceed `players`.")
        return self


class JoinIn(RequestModel):
    """Take an invited seat with its single-use code."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"code": "…", "name": "Ada"}]})

    code: str = Field(min_length=1, max_length=64, description="The invite's code.")
    name: str | None = Field(
        None, max_length=64, description='Display name, 1–20 characters; default "Player n".'
    )


class ActionIn(RequestModel):
    """One whole turn, in the engine's Action JSON."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"type": "play", "suit": "salty", "gas": 2},
                {"type": "tune_up", "suit": "jelly"},
                {"type": "play", "suit": "zero", "gas": 0, "zero_effect": "speed"},
                {"type": "zero_five", "value": 0, "gas": 1, "discard": "lichen"},
            ]
        }
    )

    type: ActionTypeId
    suit: SuitId | None = Field(None, description="Card played (face up or down); null for 0/5.")
    gas: WholeNumber = Field(0, ge=0, le=5, description="Gas spent on a face-up card.")
    zero_effect: ZeroEffectId | None = Field(None, description="Only when playing a `zero`.")
    value: Literal[0, 5] | None = Field(None, description="Only for the 0/5 card.")
    discard: SuitId | None = Field(None, description="Only for the 0/5 card: card laid face down.")


class MoveIn(RequestModel):
    """A move: the action plus the ``turn`` counter of the state it answers."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"turn": 0, "action": {"type": "play", "suit": "salty", "gas": 1}}]
        }
    )

    turn: WholeNumber = Field(
        ge=0, le=2**31, description="The `turn` of the latest state received."
    )
    action: ActionIn


class SayIn(RequestModel):
    """A quick message to the table: one of the preset ones, no free text."""

    code: TalkCode


def _event_shape(kind: EventKind) -> Any:
    """One kind of event as JSON (:meth:`engine.events.Event.to_dict`): ``kind``, ``seat``
    (null for the whole table) and its payload's keys."""
    payload = EVENT_PAYLOADS[kind]
    fields = {"kind": Literal[kind.value], "seat": int | None, **get_type_hints(payload)}
    shape: Any = TypedDict(payload.__name__, fields)  # type: ignore[misc]
    shape.__doc__ = payload.__doc__
    return shape


if TYPE_CHECKING:
    EventOut = dict[str, Any]
else:
    EventOut = Annotated[
        Union[tuple(_event_shape(kind) for kind in EventKind)],  # noqa: UP007
        Field(discriminator="kind"),
    ]

# What the API says of the session's and the table's fields beyond their types; the two
# fields set to None by a state that has nothing to say are optional.
_DESCRIBED = {
    "turn": "Echo it in the next move; it grows by one per move of a person (or of the "
    "autopilot for them).",
    "status": "`waiting` for invited people (moves refused), `playing`, `over`.",
    "clock": "The person to move's time; null for bots.",
    "rematch": "Once the race is over: its rematch, when somebody offered one.",
    "last_mover": "The person whose own move made the latest change (null: a join, the "
    "start or the clock).",
    "watch": "A bots-only race paced for spectators.",
    "practice": "A practice race (a take-back was used, or it started from a reviewed "
    "position): never counted in ratings or daily leaderboards.",
    "said": "The race's latest quick messages, oldest first (a few are kept).",
    "events": "Everything that happened since the last response.",
    "event_count": "Events so far; `GET ?since=n` replays from index n.",
    "notice": "A sentence for the player about the server, e.g. that the hard bots are "
    "thinking faster because the server is busy; null when there is nothing to say.",
}
_OPTIONAL = frozenset({"rematch", "notice"})


def _game_state() -> type[ResponseModel]:
    """The model of a seat's state, field for field :class:`app.races.operations.SessionState`."""
    hints = get_type_hints(SessionState)
    stale = set(_DESCRIBED) - set(hints)
    if stale:
        raise TypeError(f"SessionState has no fields {sorted(stale)}")
    # The race layer keeps the events as plain dicts; the API gives their precise shapes.
    hints["events"] = list[EventOut]
    fields: dict[str, Any] = {
        name: (hint, Field(None if name in _OPTIONAL else ..., description=_DESCRIBED.get(name)))
        for name, hint in hints.items()
    }
    return create_model(
        "GameState",
        __base__=ResponseModel,
        __doc__="A seat's view: the engine's observation of that seat plus session and "
        "table fields.",
        **fields,
    )


if TYPE_CHECKING:
    GameState = ResponseModel
else:
    GameState = _game_state()


PLAYER_TOKEN_DESCRIPTION = (
    "Your player token: the `X-Player-Token` you sent, or a new one when you sent none (or "
    "one the server does not know). Send it on every race you create or join, and to "
    "`/api/me`, so your results, rating and history stay yours; keep it secret."
)


class CreatedGame(ResponseModel):
    """A new race: keep ``token`` secret and send it as ``Authorization: Bearer <token>``."""

    game_id: str
    token: str
    state: GameState
    invites: list[Invite] = Field(description="One per invited seat (1 … humans-1).")
    player_token: str = Field(description=PLAYER_TOKEN_DESCRIPTION)


class RematchSeat(ResponseModel):
    """Your seat in a rematch: ``token`` is its own credential."""

    game_id: str
    seat: int
    token: str
    state: GameState


class JoinedGame(RematchSeat):
    """A seat taken by invite: ``token`` is this seat's own credential."""

    player_token: str = Field(description=PLAYER_TOKEN_DESCRIPTION)


class RecordSettings(ResponseModel):
    """The settings a race was started with."""

    players: int
    bots: BotLevel
    variants: VariantsData


class GameRecord(ResponseModel):
    """The public record; complete (with the seed) once the race is over."""

    game_id: str
    complete: bool
    settings: RecordSettings
    practice: bool = Field(description="A practice race: never counted in results.")
    seed: int | None = Field(description="Shown once the race is over.")
    winner: int | None
    turn: int
    events: list[EventOut]
    commitment: str | None = Field(
        description="sha256 of `zzv-deal-1:{deal_seed}:{salt}` in hex, from the race's "
        "start (null when the deal is fixed: the lesson)."
    )
    deal_seed: int | None = Field(
        None, description="Once over: the engine seed the deal was made from."
    )
    salt: str | None = Field(None, description="Once over: the commitment's secret salt.")
    actions: list[RecordedAction] | None = Field(
        None, description="Once over: every action in order, to replay the race."
    )
    bot_key: int | None = Field(
        None,
        description="Once over: the secret the race's bots drew their randomness from; a "
        "bot decision's seed is the big-endian blake2b-64 of `{bot_key}:{seat}:{n}`, n "
        "counting the race's bot decisions from 0.",
    )
    par: dict[str, dict[str, Any]] | None = Field(
        None, description="Once over and worked out: the hard bot's result in people's seats."
    )


class ErrorOut(ResponseModel):
    """Every error: a stable ``code`` and a sentence for people."""

    code: str
    message: str


class ResumeOut(ResponseModel):
    """One of the player's unfinished races and where to resume it (with its own token)."""

    game_id: str
    url: str


class TooManyOut(ErrorOut):
    """A 429. For ``too_many_games``, which cap was reached and the player's own unfinished
    races, oldest first (an `X-Player-Token` names the player)."""

    limit: Literal["player", "address"] | None = Field(
        None, description="`player`: the player's own cap; `address`: the client address's."
    )
    cap: int | None = None
    races: list[ResumeOut] | None = None
    retry_after: int | None = Field(
        None, description="`talk_too_fast`: seconds before this seat may send a message."
    )


class FieldProblem(ResponseModel):
    """Where and why a request did not match the schema."""

    loc: list[str]
    msg: str
    type: str


class InvalidRequestOut(ErrorOut):
    """422: the request does not match the schema."""

    errors: list[FieldProblem]


class NameRefusedOut(ErrorOut):
    """422: a malformed request (``invalid_request``, with ``errors``) or a display name
    that does not fit (``invalid_name``, no ``errors``)."""

    errors: list[FieldProblem] | None = None


class IllegalActionOut(ErrorOut):
    """400 `illegal_action`: the rules do not allow the action now, or it is malformed."""

    reason: dict[str, str | int | None] = Field(
        description="Why, as data: the refusal's `code` (docs/bot-api.md), the `rule` id of "
        "docs/rules.md it comes from (null for malformed input) and the values the "
        'sentence names, e.g. `{"code": "suit_face_up", "rule": "R7", "suit": "beans"}`.'
    )


class StaleTurnOut(ErrorOut):
    """409: the move was not for the current turn (an earlier one or one to come) or not
    yours; ``state`` is the race as it is now (absent for `not_started`, `invite_used` and
    `race_started`)."""

    state: GameState | None = None


class Health(ResponseModel):
    """Liveness answer."""

    status: Literal["ok"]
    games: int | None = Field(description="Live races; null while the store is unreachable.")


class BotPoolReadiness(ResponseModel):
    """The hard bots' worker processes and search queue, as ``/readyz`` reports them."""

    pool: Literal["idle", "ready", "broken"] = Field(
        description="`idle`: not started yet (they start with the first hard move)."
    )
    workers: int
    alive: int = Field(description="Worker processes running now (they start on demand).")
    replaced: int = Field(description="Broken pools replaced since the server started.")
    searches_in_flight: int
    searches_waiting: int
    cap: int = Field(description="Most hard searches run at once by this process.")


class Readiness(ResponseModel):
    """Readiness answer: whether this server can take races now, and each check's result."""

    status: Literal["ready", "unavailable"] = Field(
        description="`unavailable` (with status 503) while any check fails."
    )
    games: int | None = Field(description="Live races; null while the store is unreachable.")
    store: Literal["ok", "unreachable"]
    results: Literal["ok", "unreachable"]
    bots: BotPoolReadiness


SEAT_ERRORS = (401, 403, 404, 410, 413, 422, 429)  # of any request on a seat


def error_responses(
    *statuses: int, names: bool = False, **refused: str
) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses=`` entries for the given error statuses, and the route's own
    refusals (``refused``, by status as ``s409="..."``) with the plain error body; with
    ``names``, 422 may also be a refused display name."""
    models: dict[int, type[BaseModel]] = {
        400: IllegalActionOut,
        422: NameRefusedOut if names else InvalidRequestOut,
        409: StaleTurnOut,
        429: TooManyOut,
    }
    described = {
        400: "Illegal action (`illegal_action`): a sentence, and the `reason` as data.",
        401: "No `Authorization: Bearer <token>` sent (`unauthorized`).",
        403: "Cross-site request refused (`cross_site_request`).",
        404: "Unknown race or wrong token (`not_found`), deliberately indistinguishable.",
        409: "Stale `turn` (`stale_turn`) or another seat is to move (`not_your_turn`); "
        "`state` holds the current race. In the lobby: `not_started`.",
        410: "The race expired (`expired`); start a new one.",
        413: "Request body too large (`payload_too_large`).",
        422: "Malformed request (`invalid_request`) or a display name that does not fit "
        "(`invalid_name`: 1–20 printable characters once trimmed)."
        if names
        else "Malformed request (`invalid_request`).",
        429: (
            "Too many requests (`rate_limited`), or too many unfinished races for this "
            "player or client address (`too_many_games`, with the player's own `races` to "
            "resume); see `Retry-After`."
        ),
        503: (
            "Every game slot is busy (`server_full`), or the game server is unavailable "
            "(`unavailable`); see `Retry-After`."
        ),
    }
    out: dict[int | str, dict[str, Any]] = {
        s: {"model": models.get(s, ErrorOut), "description": described[s]} for s in statuses
    }
    for key, text in refused.items():
        out[int(key.removeprefix("s"))] = {"model": ErrorOut, "description": text}
    return out
