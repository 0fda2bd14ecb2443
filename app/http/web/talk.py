"""The table talk's forms: ``POST /games/{id}/say`` (a quick message) and
``POST /games/{id}/mute`` (hide the other people's messages in this browser), plus what a
live table's stream sends when somebody else spoke (:func:`live_render`).

Like the move form: without JavaScript each form is a plain POST answered with ``303`` back
to the table; htmx gets just the new line to append. A refusal goes through the one
exception handler (429 with a sentence when the seat speaks too often); to htmx a refused
message (too soon, or the race ended meanwhile) answers its status with the sentence
alone, for the talk's status line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import escape

from app.http.answers import redirect_or_fragment, see_other, vary
from app.http.deps import GameIdPath, SettingsDep, is_https
from app.http.errors import race_status
from app.http.players import PLAYER_COOKIE_MAX_AGE_SECONDS
from app.http.race_words import race_sentence
from app.http.talk_pace import TalkPaceDep
from app.http.web.forms import form_fields
from app.http.web.table_page import table_url
from app.http.web.table_request import TableDep
from app.http.web.talk_view import MUTE_COOKIE, heard, new_lines_fragment
from app.live.streams import Message
from app.races.errors import RaceError, TalkRefused, TalkTooFast
from app.races.operations import SessionState, play_signature

router = APIRouter(include_in_schema=False)

CHANGED: Message = {"event": "changed", "data": "1"}
"""A live table's "reload me": something else than talk changed."""


@router.post("/games/{game_id}/say")
async def say(table: TableDep, pace: TalkPaceDep) -> Response:
    """This seat says a quick message; back to the table (303), or the new line (htmx)."""
    refused: TalkTooFast | TalkRefused | None = None
    async with table.open(write=True) as race:
        try:
            code = table.fields.get("code", "")
            await race.say(code, pace=lambda seat: pace.check(race.id, seat))
        except (TalkTooFast, TalkRefused) as exc:
            if not table.htmx:
                raise
            refused = exc
        state = race.state(since=lambda session: len(session.events), deliver=False)
    if refused is not None:
        return _talk_status(refused)
    return redirect_or_fragment(table.request, table_url(table.game_id), lambda: _said(state))


def _said(state: SessionState) -> Response:
    """The line just said, to append, and the talk's status line emptied."""
    fragment = new_lines_fragment(state, state["said"][-1:])
    status = '<p id="talk-status" class="talk-status" role="status" hx-swap-oob="true"></p>'
    return vary(HTMLResponse(fragment + status))


def _talk_status(refusal: RaceError) -> Response:
    """The refusal's sentence alone, with its status, for the talk's status line (htmx puts
    it in ``#talk-status``, not among the lines)."""
    sentence = str(escape(race_sentence(refusal)))
    response = HTMLResponse(sentence, status_code=race_status(refusal.code))
    response.headers.update({"HX-Retarget": "#talk-status", "HX-Reswap": "innerHTML"})
    if isinstance(refusal, TalkTooFast):
        response.headers["Retry-After"] = str(refusal.retry_after)
    return vary(response)


@router.post("/games/{game_id}/mute")
async def mute(game_id: GameIdPath, request: Request, settings: SettingsDep) -> Response:
    """Hide (``mute=on``) or show again (``mute=off``) the other people's quick messages in
    this browser, on every race; back to the table or the watch page (303)."""
    fields = await form_fields(request)
    back = f"/games/{game_id}" + ("/watch" if fields.get("back") == "watch" else "")
    response = see_other(back)
    if fields.get("mute") == "on":
        response.set_cookie(
            MUTE_COOKIE,
            "1",
            path="/",
            max_age=PLAYER_COOKIE_MAX_AGE_SECONDS,
            httponly=True,
            samesite="lax",
            secure=is_https(request, settings),
        )
    else:
        response.delete_cookie(MUTE_COOKIE, path="/")
    return response


def live_render(
    seat: int | None, muted: bool, table_news: Callable[[SessionState], bool]
) -> Callable[[SessionState], Message | None]:
    """A live table's render for :func:`app.live.streams.follow`: ``changed`` (reload the
    table) when ``table_news`` says a change of play is news to it, else ``said`` with the
    lines of what the others said since (none when ``muted``; its own messages the page
    already shows)."""
    seen = _Seen()

    def render(state: SessionState) -> Message | None:
        others = [m for m in heard(state, muted) if m["seat"] != seat]
        news = [m for m in others if seen.said is not None and m["n"] > seen.said]
        played = play_signature(state) != seen.play
        seen.play, seen.said = play_signature(state), others[-1]["n"] if others else 0
        if played and table_news(state):
            return CHANGED
        if news:
            return {"event": "said", "data": new_lines_fragment(state, news)}
        return None

    return render


@dataclass
class _Seen:
    """What a live table was last sent: the play's signature, the others' last message."""

    play: tuple[Any, ...] | None = None
    said: int | None = None
