"""FastAPI dependencies shared by the API and the web routes (typed ``Annotated`` aliases).

Use them as parameter types::

    @router.get("/games/{game_id}")
    async def read(player: ApiPlayerDep, settings: SettingsDep) -> Response: ...

* :data:`SettingsDep` — the app's :class:`~app.settings.Settings`;
* :data:`RacesDep` — the app's :class:`~app.races.unit.Races` (``races.open(...)`` is the
  one way a route touches a race);
* :data:`LiveDep` — a race's live streams for the request's client;
* :data:`ApiSeatDep` — the race named by the ``game_id`` path parameter and the Bearer
  token sent with it (``Authorization: Bearer <token>``: API clients); checked when the
  route opens the race.

Browsers are authenticated by the ``zzv_<game_id>`` cookie (:func:`cookie_name`); the web
routes look the game up themselves, because they answer a missing game with a page of
their own rather than an error.

Opening a race raises :class:`~app.races.errors.GameNotFound` (404, also for a wrong token)
or :class:`~app.races.errors.GameExpired` (410). Set the browser's cookie with
:func:`set_session_cookie` after :meth:`app.races.unit.Races.create`.
"""

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
from app.races.record import GameSession
from app.races.unit import Races
from app.settings import Settings

GAME_ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
"""Shape of a game id in paths (ids are URL-safe base64)."""

COOKIE_PREFIX = "zzv_"


def app_state(name: str) -> Any:
    """A dependency on what the running app keeps as ``app.state.<name>`` (its settings,
    store, races, hub, ...), typed by the ``Annotated`` alias it goes in."""

    async def kept(request: Request) -> Any:
        return getattr(request.app.state, name)

    return Depends(kept)


def client_key(request: Request) -> str:
    """The client's address: what rate limits, the per-client race cap and the cap on open
    streams count against.

    Behind a reverse proxy this is the address the proxy reports (uvicorn's proxy headers,
    trusted only from ``FORWARDED_ALLOW_IPS``).
    """
    return request.client.host if request.client else "unknown"


async def _client(request: Request) -> str:
    return client_key(request)


# The dependencies are coroutines: FastAPI runs a plain function in a worker thread, which
# would cost a thread hop per dependency per request.
ClientDep = Annotated[str, Depends(_client)]
"""The client's address (see :func:`client_key`)."""

HubDep = Annotated[LiveHub, app_state("hub")]
"""The app's live-update hub."""

StreamGateDep = Annotated[StreamGate, app_state("stream_gate")]
"""The app's per-client cap on open event streams."""

SettingsDep = Annotated[Settings, app_state("settings")]
"""The app's settings."""

StoreDep = Annotated[SessionStore, app_state("store")]
"""The app's game store."""

RacesDep = Annotated[Races, app_state("races")]
"""The app's races (:class:`~app.races.unit.Races`)."""


@dataclass(frozen=True, slots=True)
class LiveStreams:
    """A race's live streams for this request's client: followed through the app's hub
    (:func:`app.live.streams.follow`), counted against the client's cap on open streams
    (:func:`app.live.streams.open_stream`)."""

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


async def _live_streams(
    request: Request, races: RacesDep, hub: HubDep, gate: StreamGateDep
) -> LiveStreams:
    return LiveStreams(races, hub, gate, client_key(request))


LiveDep = Annotated[LiveStreams, Depends(_live_streams)]
"""A race's live streams for this client (:class:`LiveStreams`)."""

GameIdPath = Annotated[
    str,
    Path(
        pattern=GAME_ID_PATTERN,
        description="The race's id, as returned on creation.",
        examples=["q8VhJ0m3cX4yQw1b"],
    ),
]
"""A ``game_id`` path parameter."""

_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="PlayerToken",
    description="The `token` returned when the race was created.",
)


async def bearer_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str | None:
    """The token from ``Authorization: Bearer <token>``, or None."""
    return credentials.credentials if credentials is not None else None


@dataclass(frozen=True, slots=True)
class Seat:
    """A race's id and the token a request sent for it (not checked yet: opening the race
    checks it against the race's head)."""

    game_id: str
    token: str


async def api_seat(
    game_id: GameIdPath, token: Annotated[str | None, Depends(bearer_token)]
) -> Seat:
    """The race named in the path and the API client's Bearer token.

    No token at all is 401 whatever the id; a wrong token is the same 404 as an unknown id
    (when the route opens the race).
    """
    if token is None:
        raise Unauthorized()
    return Seat(game_id, token)


def cookie_name(game_id: str) -> str:
    """Name of the cookie holding the token of ``game_id``."""
    return f"{COOKIE_PREFIX}{game_id}"


def cookie_path(game_id: str) -> str:
    """Path the game's cookie is scoped to (its pages only: no cookie pile-up)."""
    return f"/games/{game_id}"


ApiSeatDep = Annotated[Seat, Depends(api_seat)]
"""The race of the path and the Bearer token sent for it (401 without one)."""


def is_https(request: Request, settings: Settings) -> bool:
    """Whether cookies must be ``Secure``: request came over https or settings force it."""
    return settings.secure_cookies or request.url.scheme == "https"


#: Cookies outlive a browser restart so that "come back later" finds the race; the store's
#: idle expiry still decides when the race itself is gone (then the page says so).
COOKIE_MAX_AGE_SECONDS = 7 * 24 * 3600


def set_session_cookie(
    response: Response, request: Request, session: GameSession, settings: Settings
) -> None:
    """Give the browser the creator's token of ``session`` (see :func:`set_seat_cookie`)."""
    set_seat_cookie(response, request, session.id, session.token, settings)


def set_seat_cookie(
    response: Response, request: Request, game_id: str, token: str, settings: Settings
) -> None:
    """Give the browser a seat's ``token`` for ``game_id``: HttpOnly, SameSite=Lax, Secure
    over https, scoped to the race's pages."""
    response.set_cookie(
        cookie_name(game_id),
        token,
        path=cookie_path(game_id),
        max_age=COOKIE_MAX_AGE_SECONDS,
        httponly=True,
        samesite="lax",
        secure=is_https(request, settings),
    )


def clear_session_cookie(
    response: Response, request: Request, game_id: str, settings: Settings
) -> None:
    """Remove the browser's cookie for ``game_id`` (e.g. once it expired)."""
    response.delete_cookie(
        cookie_name(game_id),
        path=cookie_path(game_id),
        httponly=True,
        samesite="lax",
        secure=is_https(request, settings),
    )
