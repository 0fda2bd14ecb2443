"""What a seat's page needs between two requests, kept by the browser: the notice a refused
move or a preview leaves for the table's next view (a *flash*, after the redirect without
JavaScript), the hint Suggest showed this turn, and how many hints the person took. One
cookie per race, signed with the server's secret salted with the race's id, so a page cannot
be handed someone else's words; it holds nothing the seat did not send or may not see."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from types import SimpleNamespace
from typing import Any

import orjson
from fastapi import Request, Response
from itsdangerous import BadData, URLSafeSerializer

PAGE_COOKIE_PREFIX = "zzv_page_"
PAGE_COOKIE_SECONDS = 24 * 3600
"""A page's memory outlives a short break, not the race's own cookie."""


@dataclass(frozen=True)
class PageState:
    """One seat's page memory of one race: ``flash`` is ``{"turn", **notice}`` (sentences and
    the seat's own choices), ``hint`` is ``{"turn", "action", "reason"}`` (the action as
    engine JSON), ``taken`` counts hints played as shown."""

    seat: int
    flash: dict[str, Any] | None = None
    hint: dict[str, Any] | None = None
    taken: int = 0

    def hint_for(self, turn: int) -> dict[str, Any] | None:
        return self.hint if self.hint is not None and self.hint.get("turn") == turn else None

    def flash_for(self, turn: int) -> dict[str, Any] | None:
        return self.flash if self.flash is not None and self.flash.get("turn") == turn else None

    def after_move(self, turn: int, action: dict[str, Any]) -> PageState:
        """The memory once ``action`` was played at ``turn``: a hint played as shown counts;
        the turn's notice and hint are spent."""
        hint = self.hint_for(turn)
        taken = self.taken + (1 if hint is not None and hint["action"] == action else 0)
        return replace(self, flash=None, hint=None, taken=taken)


_JSON = SimpleNamespace(loads=orjson.loads, dumps=lambda data: orjson.dumps(data).decode())
"""orjson as itsdangerous takes a serializer (several times faster than its default json);
text, so the serializer signs and answers text."""


@lru_cache(maxsize=1024)
def _signer(secret: str, game_id: str) -> URLSafeSerializer:
    # Kept per race: a table's requests sign and check with the same one.
    return URLSafeSerializer(secret, salt=f"zzv page state {game_id}", serializer=_JSON)


def read(request: Request, game_id: str, seat: int, secret: str) -> PageState:
    """The page memory the browser sent for ``game_id`` if it is genuine and this seat's, else
    an empty one."""
    raw = request.cookies.get(PAGE_COOKIE_PREFIX + game_id)
    try:
        state = PageState(**_signer(secret, game_id).loads(raw)) if raw else None
    except (BadData, TypeError):  # not signed here, or not what write() signs
        state = None
    return state if state is not None and state.seat == seat else PageState(seat)


def write(response: Response, game_id: str, state: PageState, secret: str, *, secure: bool) -> None:
    # Not dataclasses.asdict: it deep-copies the notice and the hint, only to dump them.
    data = {"seat": state.seat, "flash": state.flash, "hint": state.hint, "taken": state.taken}
    name, signed = PAGE_COOKIE_PREFIX + game_id, _signer(secret, game_id).dumps(data)
    keep_cookie(response, name, signed, PAGE_COOKIE_SECONDS, secure, path=f"/games/{game_id}")


def keep_cookie(
    response: Response, name: str, value: str, max_age: int, secure: bool, path: str = "/"
) -> None:
    """Have the browser keep ``name`` out of scripts' reach, sent on same-site requests only."""
    response.set_cookie(
        name, value, path=path, max_age=max_age, httponly=True, samesite="lax", secure=secure
    )
