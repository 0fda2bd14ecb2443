"""What only a seat's page needs between two requests, kept by the browser, not the race.

A race's record holds the race; a table page also remembers a few things of its own: the
notice a refused move or a preview leaves for the next view of the table (a *flash*, after
the redirect that keeps the table at its own address without JavaScript), the hint
Suggest showed for the current turn, and how many hints the person took. They live in one
small cookie per race, signed with a key derived from the server's secret so a page
cannot be handed someone else's words, and scoped to the race's pages. The cookie holds
nothing the seat did not send or may not see: its own choices, sentences about its own
view, and a move it was suggested.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from fastapi import Request, Response

PAGE_COOKIE_PREFIX = "zzv_page_"
PAGE_COOKIE_SECONDS = 24 * 3600
"""A page's memory outlives a short break, not the race's own cookie."""


@dataclass(frozen=True)
class PageState:
    """One seat's page memory of one race (see the module docstring).

    ``flash`` is ``{"turn", **notice}`` (the notice is ``error``/``preview`` sentences and
    ``submitted``, the seat's own choices); ``hint`` is ``{"turn", "action", "reason"}``
    with the action in the engine's JSON form; ``taken`` counts hints played as shown.
    """

    seat: int
    flash: dict[str, Any] | None = None
    hint: dict[str, Any] | None = None
    taken: int = 0

    def hint_for(self, turn: int) -> dict[str, Any] | None:
        """The hint shown for ``turn``, if Suggest was asked this turn."""
        return self.hint if self.hint is not None and self.hint.get("turn") == turn else None

    def flash_for(self, turn: int) -> dict[str, Any] | None:
        """The notice left for the table's view at ``turn``, if any."""
        if self.flash is None or self.flash.get("turn") != turn:
            return None
        return self.flash

    def after_move(self, turn: int, action: dict[str, Any]) -> PageState:
        """The memory once ``action`` was played at ``turn``: a hint played as shown is
        counted, and the turn's notice and hint are spent."""
        hint = self.hint_for(turn)
        taken = self.taken + (1 if hint is not None and hint["action"] == action else 0)
        return replace(self, flash=None, hint=None, taken=taken)


def cookie_name(game_id: str) -> str:
    """The page cookie of ``game_id``."""
    return f"{PAGE_COOKIE_PREFIX}{game_id}"


@lru_cache(maxsize=4)
def _key(secret: str) -> bytes:
    return hashlib.sha256(b"zzv page state\0" + secret.encode()).digest()


@lru_cache(maxsize=1024)
def _signature(secret: str, game_id: str, body: str) -> str:
    # Kept: a page's memory changes on few moves, so the body each move reads back (and
    # usually writes again unchanged) was signed before.
    mac = hmac.new(_key(secret), f"{game_id}\0{body}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:18]).decode("ascii")


def read(request: Request, game_id: str, seat: int, secret: str) -> PageState:
    """The page memory the browser sent for ``game_id``, if it is genuine and this seat's;
    an empty one otherwise."""
    raw = request.cookies.get(cookie_name(game_id), "")
    body, _, signature = raw.rpartition(".")
    empty = PageState(seat)
    if not body or not hmac.compare_digest(signature, _signature(secret, game_id, body)):
        return empty
    try:
        data = json.loads(base64.urlsafe_b64decode(body.encode("ascii")))
        state = PageState(
            seat=int(data["seat"]),
            flash=data.get("flash"),
            hint=data.get("hint"),
            taken=int(data.get("taken", 0)),
        )
    except (ValueError, KeyError, TypeError):
        return empty
    return state if state.seat == seat else empty


def write(response: Response, game_id: str, state: PageState, secret: str, *, secure: bool) -> None:
    """Give the browser ``state`` as the page memory of ``game_id``."""
    # Not dataclasses.asdict: it deep-copies the notice and the hint, only to dump them.
    data = {"seat": state.seat, "flash": state.flash, "hint": state.hint, "taken": state.taken}
    body = base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode()).decode()
    response.raw_headers.append((b"set-cookie", _set_cookie(secret, game_id, body, secure)))


@lru_cache(maxsize=1024)
def _set_cookie(secret: str, game_id: str, body: str, secure: bool) -> bytes:
    """The ``Set-Cookie`` header giving ``body`` as the page memory of ``game_id``, as
    Starlette writes it; kept, since most moves hand back the memory they were sent."""
    scratch = Response()
    scratch.set_cookie(
        cookie_name(game_id),
        f"{body}.{_signature(secret, game_id, body)}",
        path=f"/games/{game_id}",
        max_age=PAGE_COOKIE_SECONDS,
        httponly=True,
        samesite="lax",
        secure=secure,
    )
    return scratch.raw_headers[-1][1]
