"""Who is playing, without signup: a player token, the player's only credential (the
database keeps its SHA-256 only). A browser carries it in the ``zzv_player`` cookie, signed
with :meth:`app.results.store.ResultsStore.signing_key` so a cookie the server did not give
is refused before any lookup; an API client sends ``X-Player-Token``, and the API never
reads the cookie, so a browser's ambient credentials cannot drive it cross-site."""

from __future__ import annotations

import hashlib

from fastapi import Request, Response
from itsdangerous import BadSignature, Signer

from app.http.deps import is_https
from app.results.store import PlayerInfo, ResultsStore
from app.settings import Settings

PLAYER_COOKIE = "zzv_player"
PLAYER_HEADER = "X-Player-Token"
# The longest lifetime browsers allow a cookie; renewed whenever it is set again.
PLAYER_COOKIE_MAX_AGE_SECONDS = 400 * 24 * 3600

TOKEN_MAX_CHARS = 128


def results_of(request: Request) -> ResultsStore:
    results: ResultsStore = request.app.state.results
    return results


def _signer(key: bytes) -> Signer:
    # The value is ``<token>.<base64url of the token's HMAC-SHA256, unpadded>``.
    return Signer(key, sep=".", key_derivation="none", digest_method=hashlib.sha256)


def sign(key: bytes, token: str) -> str:
    """The cookie's value for ``token``: the token and its signature."""
    return _signer(key).sign(token).decode()


def verify(key: bytes, value: str) -> str | None:
    try:
        return _signer(key).unsign(value).decode()
    except BadSignature:
        return None


def api_token(request: Request) -> str | None:
    """The ``X-Player-Token`` an API client sent, if any (an absurdly long one is ignored)."""
    token = request.headers.get(PLAYER_HEADER, "").strip()
    return token if token and len(token) <= TOKEN_MAX_CHARS else None


async def cookie_token(request: Request) -> str | None:
    """The token of the browser's signed ``zzv_player`` cookie, if it carries a good one."""
    value = request.cookies.get(PLAYER_COOKIE)
    if not value:
        return None
    return verify(await results_of(request).signing_key(), value)


async def api_player(request: Request) -> tuple[PlayerInfo, str]:
    """The API client's player and token: the one ``X-Player-Token`` names, else new."""
    return await results_of(request).identify(api_token(request))


async def known_api_player(request: Request) -> PlayerInfo | None:
    """The player ``X-Player-Token`` names, if it names one (a look that creates nobody)."""
    return await results_of(request).player_for(api_token(request))


async def browser_player(request: Request) -> tuple[PlayerInfo, str]:
    """The browser's player and token: the one its cookie names, else new."""
    return await results_of(request).identify(await cookie_token(request))


async def known_browser_player(request: Request) -> PlayerInfo | None:
    """The browser's player if its cookie names one (a look that creates nobody)."""
    return await results_of(request).player_for(await cookie_token(request))


async def set_player_cookie(
    response: Response, request: Request, token: str, settings: Settings
) -> None:
    """Give the browser its signed player cookie (for every page of the site)."""
    key = await results_of(request).signing_key()
    response.set_cookie(
        PLAYER_COOKIE,
        sign(key, token),
        path="/",
        max_age=PLAYER_COOKIE_MAX_AGE_SECONDS,
        httponly=True,
        samesite="lax",
        secure=is_https(request, settings),
    )
