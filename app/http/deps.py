"""FastAPI dependencies shared by the API and the web routes, as ``Annotated`` parameter
types, and the browser's seat cookies. An API client names its seat with a Bearer token
(:data:`ApiSeatDep`), a browser with the ``zzv_<game_id>`` cookie (:func:`cookie_name`);
either is checked when the route opens the race (404 for a wrong token, as for no race)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Path, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sse_starlette.sse import EventSourceResponse

from app.http.errors import Unauthorized
from app.live.hub import LiveHub, StreamGate
from app.live.streams import Message, follow, open_stream
from app.races.operations import SessionState, SessionStore
from app.races.unit import Races
from app.settings import Settings

GAME_ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"  # ids are URL-safe base64


def app_state(name: str) -> Any:
    """A dependency on ``app.state.<name>``, typed by the ``Annotated`` alias it goes in."""

    async def kept(request: Request) -> Any:
        return getattr(request.app.state, name)

    return Depends(kept)


def client_key(request: Request) -> str:
    """The client's address, which limits and caps count against (behind a proxy, the one
    it reports: uvicorn trusts proxy headers only from ``FORWARDED_ALLOW_IPS``)."""
    return request.client.host if request.client else "unknown"


async def _client(request: Request) -> str:
    return client_key(request)


# The dependencies are coroutines: FastAPI runs a plain function in a worker thread, which
# would cost a thread hop per dependency per request.
ClientDep = Annotated[str, Depends(_client)]
SettingsDep = Annotated[Settings, app_state("settings")]
StoreDep = Annotated[SessionStore, app_state("store")]
RacesDep = Annotated[Races, app_state("races")]  # ``races.open(...)``: how a route reaches a race


@dataclass(frozen=True, slots=True)
class LiveStreams:
    """A race's live streams for this request's client (:func:`app.live.streams.follow`),
    counted against the client's cap on open streams."""

    races: Races
    hub: LiveHub
    gate: StreamGate
    client: str

    async def answer(
        self,
        game_id: str,
        token: str | None,
        render: Callable[[SessionState], Message | None],
        until: Callable[[AsyncIterator[Message]], AsyncIterator[Message]] | None = None,
    ) -> EventSourceResponse:
        """The stream of the seat ``token`` opens (the public view when None), each state
        as ``render`` makes it a message, cut short by ``until`` where given."""
        stream = follow(self.races, self.hub, game_id, token, render)
        return await open_stream(self.gate, self.client, until(stream) if until else stream)


async def _live_streams(request: Request, races: RacesDep) -> LiveStreams:
    kept = request.app.state
    return LiveStreams(races, kept.hub, kept.stream_gate, client_key(request))


LiveDep = Annotated[LiveStreams, Depends(_live_streams)]

GameIdPath = Annotated[
    str,
    Path(
        pattern=GAME_ID_PATTERN,
        description="The race's id, as returned on creation.",
        examples=["q8VhJ0m3cX4yQw1b"],
    ),
]

_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="PlayerToken",
    description="The `token` returned when the race was created.",
)


@dataclass(frozen=True, slots=True)
class Seat:
    """A race's id and the token a request sent for it (checked when the race is opened)."""

    game_id: str
    token: str


async def api_seat(
    game_id: GameIdPath, bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
) -> Seat:
    """The race named in the path and the Bearer token: 401 without one, whatever the id."""
    if bearer is None:
        raise Unauthorized()
    return Seat(game_id, bearer.credentials)


def cookie_name(game_id: str) -> str:
    return f"zzv_{game_id}"


ApiSeatDep = Annotated[Seat, Depends(api_seat)]


def is_https(request: Request, settings: Settings) -> bool:
    return settings.secure_cookies or request.url.scheme == "https"


# Cookies outlive a browser restart so that "come back later" finds the race; the store's
# idle expiry still decides when the race itself is gone (then the page says so).
COOKIE_MAX_AGE_SECONDS = 7 * 24 * 3600


def _seat_cookie(request: Request, game_id: str, settings: Settings) -> dict[str, Any]:
    # The race's pages only (no cookie pile-up); never read by scripts.
    secure = is_https(request, settings)
    return {"path": f"/games/{game_id}", "httponly": True, "samesite": "lax", "secure": secure}


def set_seat_cookie(
    response: Response, request: Request, game_id: str, token: str, settings: Settings
) -> None:
    """Give the browser a seat's ``token`` for ``game_id``."""
    cookie = _seat_cookie(request, game_id, settings)
    response.set_cookie(cookie_name(game_id), token, max_age=COOKIE_MAX_AGE_SECONDS, **cookie)


def clear_session_cookie(
    response: Response, request: Request, game_id: str, settings: Settings
) -> None:
    response.delete_cookie(cookie_name(game_id), **_seat_cookie(request, game_id, settings))
