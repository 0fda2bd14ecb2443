"""The JSON API of results: your player (``/api/me``, named by ``X-Player-Token``, never
by a cookie) and the ratings leaderboard."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Request
from fastapi.responses import JSONResponse
from pydantic import ConfigDict, Field

from app.http.addresses import public_base_url
from app.http.answers import published
from app.http.api.models import RequestModel, ResponseModel
from app.http.deps import RacesDep
from app.http.errors import AppError
from app.http.i18n import gettext as _
from app.http.players import PLAYER_HEADER, api_player, api_token, known_api_player, results_of
from app.http.race_words import race_sentence
from app.races.daily import daily_streak
from app.races.errors import LobbyRefused
from app.races.lobby import NAME_MAX, clean_name
from app.races.unit import Races
from app.results.store import HistoryEntry, PlayerInfo
from app.vocabulary import BotLevel

router = APIRouter(prefix="/api", tags=["results"])


class NoPlayer(AppError, status=401, code="no_player"):
    """``/api/me`` without a token the server knows (401)."""

    @classmethod
    def default_message(cls) -> str:
        return _(
            "Send your player token as `%(header)s` (the `player_token` of a race you "
            "created or joined, or of `POST /api/me`)."
        ) % {"header": PLAYER_HEADER}


class InvalidName(AppError, status=422, code="invalid_name"):
    """A display name that does not fit."""


class RatingOut(ResponseModel):
    """A rating: the number shown, the model's skill and uncertainty, rated races."""

    display: int = Field(description="`1000 + 40 × (mu − 3 sigma)`, rounded (docs/ratings.md).")
    mu: float
    sigma: float
    races: int = Field(description="Rated races: finished, not practice.")


class HistoryOut(ResponseModel):
    """One finished race of yours."""

    game_id: str
    finished_at: datetime
    players: int = Field(description="Racers at the table, people and bots.")
    people: int
    bots: BotLevel
    place: int = Field(description="Your place: 1 is first; equal results share a place.")
    status: Literal["finished", "left"] = Field(
        description="`left`: you stopped playing (docs/ratings.md), placed last."
    )
    practice: bool
    rating_before: int | None = Field(description="Your shown rating before (null: practice).")
    rating_after: int | None
    replay_url: str


class LevelRecordOut(ResponseModel):
    """Your record against one bot level: races alone against those bots."""

    races: int
    wins: int
    streak: int


class DailyStreakOut(ResponseModel):
    """Your days in a row with a finished daily deal (docs/daily.md, "Your streak")."""

    current: int = Field(
        description="Days in a row up to today, or up to yesterday while today's counted "
        "race is still to finish (0: none)."
    )
    best: int = Field(description="The longest run of days in a row ever.")
    today: bool = Field(description="Today's counted race finished (it is in `current`).")


class MeOut(ResponseModel):
    """Your player: name, rating, record per bot level, daily streak and history (newest
    first)."""

    name: str
    show_on_leaderboard: bool
    rating: RatingOut
    records: dict[str, LevelRecordOut]
    daily_streak: DailyStreakOut
    history: list[HistoryOut]
    player_token: str = Field(description="The token this answer is about (keep it secret).")


class MeIn(RequestModel):
    """Your display name, and whether it shows on the leaderboard."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"name": "Ada", "show": True}]})

    name: str | None = Field(
        None,
        max_length=64,
        description=f"1 to {NAME_MAX} characters; empty: a generated name (colour, racer, number).",
    )
    show: bool | None = Field(None, description="Show your name and rating on the leaderboard.")


class BoardEntryOut(ResponseModel):
    rank: int
    name: str
    rating: int
    races: int


class LeaderboardOut(ResponseModel):
    """The best ratings of players who chose to show on it."""

    entries: list[BoardEntryOut]


def history_out(entry: HistoryEntry, base_url: str) -> dict[str, Any]:
    # The fields in the model's order; the three the entry keeps otherwise are filled after.
    return {name: getattr(entry, name, None) for name in HistoryOut.model_fields} | {
        "finished_at": entry.finished_at.isoformat(),
        "status": "left" if entry.left else "finished",
        "replay_url": f"{base_url.rstrip('/')}/games/{entry.game_id}/replay",
    }


async def me_body(request: Request, races: Races, player: PlayerInfo, token: str) -> dict[str, Any]:
    """The whole ``/api/me`` answer for ``player`` (today by the clock of ``races``)."""
    results, base_url = results_of(request), public_base_url(request)
    records = await results.level_records(player.id)
    streak = await daily_streak(races, player.id)
    return {
        "name": player.shown_name,
        "show_on_leaderboard": player.show_on_leaderboard,
        "rating": {"display": player.display, **asdict(player.rating), "races": player.races},
        "records": {level: published(LevelRecordOut, r) for level, r in records.items()},
        "daily_streak": published(DailyStreakOut, streak),
        "history": [history_out(entry, base_url) for entry in await results.history(player.id)],
        "player_token": token,
    }


def chosen_name(raw: str | None) -> str | None:
    """A name as typed, cleaned (None: none chosen); :class:`InvalidName` if it does not fit."""
    try:
        name = clean_name(raw, 0)
    except LobbyRefused as exc:
        raise InvalidName(race_sentence(exc)) from exc
    return None if not (raw or "").strip() else name


@router.get(
    "/me",
    response_model=MeOut,
    summary="Your player: rating, record and history",
    responses={401: {"description": "No known `X-Player-Token` (`no_player`)."}},
)
async def get_me(request: Request, races: RacesDep) -> JSONResponse:
    """Your name, rating, record per bot level, daily streak, and every finished race
    (newest first)."""
    token = api_token(request)
    player = await known_api_player(request)
    if player is None or token is None:
        raise NoPlayer()
    return JSONResponse(await me_body(request, races, player, token))


_SET_ME: dict[str, Any] = {
    "response_model": MeOut,
    "summary": "Set your name (a new player when you send no token)",
    "responses": {422: {"description": "A name that does not fit (`invalid_name`)."}},
}


@router.put("/me", operation_id="put_me", **_SET_ME)
@router.post("/me", operation_id="post_me", **_SET_ME)
async def set_me(request: Request, races: RacesDep, body: Annotated[MeIn, Body()]) -> JSONResponse:
    """Set your display name and whether it shows on the leaderboard. Without a known
    `X-Player-Token` this makes you a new player (keep the answer's `player_token`)."""
    name = chosen_name(body.name)
    player, token = await api_player(request)
    kept = name if body.name is not None else player.name
    player = await results_of(request).rename(player.id, kept, show_on_leaderboard=body.show)
    return JSONResponse(await me_body(request, races, player, token))


@router.get("/leaderboard", response_model=LeaderboardOut, summary="The ratings leaderboard")
async def leaderboard(request: Request) -> JSONResponse:
    """The best ratings (at least one rated race) of players who chose to show."""
    best = await results_of(request).leaderboard()
    entries = [
        {"rank": rank, "name": p.shown_name, "rating": p.display, "races": p.races}
        for rank, p in enumerate(best, 1)
    ]
    return JSONResponse({"entries": entries})
