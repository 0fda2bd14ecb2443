"""What the table's page draws from a seat's (or a spectator's) state beyond the view models
of :mod:`app.http.web.table`; nothing here opens a race."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

from fastapi import Request
from fastapi.responses import RedirectResponse, Response

from app.http.addresses import public_base_url
from app.http.answers import is_htmx, page
from app.http.deps import COOKIE_MAX_AGE_SECONDS, is_https, set_seat_cookie
from app.http.i18n import gettext as _
from app.http.i18n import ngettext
from app.http.players import set_player_cookie
from app.http.web import table
from app.http.web.labels import Viewer, is_viewer, people_names, seat_name
from app.http.web.page_state import PageState, keep_cookie
from app.http.web.table import SPECTATOR, SPECTATOR_RECENT, table_context
from app.http.web.talk import is_muted, talk_context
from app.http.web.timeline import PLAY_KINDS
from app.races import operations
from app.races.leaving import aborted
from app.races.operations import SessionState, can_take_back, seed_shown
from app.races.record import GameSession
from app.races.unit import Race
from app.settings import Settings
from engine import EventKind

LAST_GAME_COOKIE = "zzv_last"
"""Remembers the browser's latest game id (not a credential) so the start page can offer
"Continue your race"; the game's token cookie stays scoped to the game's own pages."""

REFRESH_SECONDS = 4
"""How often a table waiting for others reloads itself when JavaScript is off."""


def table_url(game_id: str) -> str:
    return f"/games/{game_id}"


async def to_table(
    request: Request, settings: Settings, game_id: str, seat_token: str, player_token: str | None
) -> RedirectResponse:
    """303 to the table of ``game_id`` with the seat's token, the player's cookie (if any)
    and the latest-race cookie."""
    response = RedirectResponse(table_url(game_id), status_code=303)
    set_seat_cookie(response, request, game_id, seat_token, settings)
    if player_token is not None:
        await set_player_cookie(response, request, player_token, settings)
    # Lives as long as the seat's cookie, so the link never outlives the credential.
    secure = is_https(request, settings)
    keep_cookie(response, LAST_GAME_COOKIE, game_id, COOKIE_MAX_AGE_SECONDS, secure)
    return response


class Ended(NamedTuple):
    headline: str
    line: str


def ended_early(session: GameSession, state: SessionState) -> Ended | None:
    """How ``state``'s reader is told that ``session`` ended because people left it
    (docs/ratings.md, "Leaving is losing"), or None when it did not."""
    if not session.left or session.game.is_over:
        return None
    reader = table.seat_viewer(state)
    if any(is_viewer(seat, reader) for seat in session.left):
        player = session.lobby.seats[reader.seat].player
        counts = player is not None and not session.practice and not aborted(session)
        if counts:
            return Ended(_("You left this race."), _("It counts as a last place in your results."))
        return Ended(_("You left this race."), _("It counts in no result."))
    names = ", ".join(seat_name(seat, reader) for seat in session.left)
    line = _("%(names)s left before the end, so the race stopped here.") % {"names": names}
    return Ended(_("This race is over."), line)


def lobby_context(session: GameSession, state: SessionState) -> dict[str, Any]:
    """What the table says of a race waiting for friends, of a waiting "Race strangers" race
    (``quick_lobby``), of a waiting rematch (``rematch_lobby``) and of a race that was left
    (``ended``), with the header's status and the tab's title saying so; nothing for any
    other race."""
    lobby, waiting = session.lobby, state["status"] == "waiting"
    context: dict[str, Any] = (
        {"title": _("Waiting for friends · Zoom Zoom Vroom")} if waiting else {}
    )
    missing = sum(1 for seat in lobby.seats if seat.person and not seat.joined)
    deadline = lobby.deadline
    left = 0 if deadline is None else max(0, math.ceil(deadline - operations.wall_clock()))
    if waiting and session.config.quick:
        taken = sum(1 for seat in lobby.seats if seat.joined)
        context["status"] = _(
            "Looking for racers: %(taken)s of %(seats)s seats taken. "
            "Bots take the rest in %(left)s s at most."
        ) % {"taken": taken, "seats": len(lobby.seats), "left": left}
        context["quick_lobby"] = {"taken": taken, "seats": len(lobby.seats), "seconds_left": left}
        context["title"] = _("Looking for racers · Zoom Zoom Vroom")
    elif waiting and lobby.wait_seconds is not None:
        context["status"] = context["rematch_lobby"] = ngettext(
            "Rematch: waiting for %(n)s person to accept; bots take the seats left in %(s)s s.",
            "Rematch: waiting for %(n)s people to accept; bots take the seats left in %(s)s s.",
            missing,
        ) % {"n": missing, "s": left}
    elif waiting and state["seat"] == 0:
        context["status"] = ngettext(
            "Waiting for %(num)s friend to join; start now and bots take the empty seats.",
            "Waiting for %(num)s friends to join; start now and bots take the empty seats.",
            missing,
        ) % {"num": missing}
    elif waiting:
        context["status"] = ngettext(
            "Waiting for %(num)s friend to join, or for the race's creator to start it.",
            "Waiting for %(num)s friends to join, or for the race's creator to start it.",
            missing,
        ) % {"num": missing}
    ended = ended_early(session, state)
    if ended is not None:
        context |= {"ended": ended, "status": ended.headline, "my_turn": False}
        context["title"] = _("Race over") + " · Zoom Zoom Vroom"
    return context


def seat_context(
    request: Request, race: Race, state: SessionState, memory: PageState | None, **extra: Any
) -> dict[str, Any]:
    """What every table draws, the race's and the lesson's; no event stream or refresh in a
    solo race against bots (nothing changes without its person) nor in a finished one."""
    session, seat = race.session, race.seat
    base = table_url(session.id) + ("/watch" if seat is None else "")
    lobby = session.lobby
    shared = lobby.paced or sum(s.person for s in lobby.seats) > 1 or seat is None
    waiting = session.status == "waiting" or session.game.current_seat != seat
    live = shared and session.status != "over"
    site = public_base_url(request)  # worked out once: it builds the request's URL
    inviting = seat == 0 and session.status == "waiting" and lobby.wait_seconds is None
    hint = None if memory is None else memory.hint_for(state["turn"])
    return {
        **table_context(state, **extra),
        "live_events": f"{base}/events" if live else None,
        "live_table": f"{base}?live=1",
        "refresh_seconds": REFRESH_SECONDS if live and waiting else None,
        "invites": lobby.invite_links(site, session.id) if inviting else [],
        "watch_link": None if seat is None else f"{site}games/{session.id}/watch",
        "suggestion": hint["reason"] if hint else None,
        "suggestions_taken": 0 if memory is None else memory.taken,
        "seed": session.seed if state["game_over"] and seed_shown(session) else None,
        "config": session.config,
        # How many people the same deal again seats (the presser first; friends get new
        # invite links): a spectator races it against bots.
        "again": 1 if seat is None else max(1, lobby.people()),
        "can_take_back": seat is not None and can_take_back(session, seat),
        "talk": talk_context(state, is_muted(request), race.now),
        **lobby_context(session, state),
    }


TableContext = Callable[..., dict[str, Any]]
"""What a table draws: ``context(request, race, state, memory, **notice)``."""


def render_table(
    request: Request,
    race: Race,
    state: SessionState,
    memory: PageState | None = None,
    status_code: int = 200,
    context: TableContext = seat_context,
    **extra: Any,
) -> Response:
    """The table page (or the ``#table`` fragment for htmx), drawn from ``context``'s."""
    block = "table" if is_htmx(request) else None
    drawn = context(request, race, state, memory, **extra)
    return page(request, "game.html", drawn, status_code, block)


def window(race: Race) -> Callable[[GameSession], int]:
    """The index of the first event the table narrates: the deal of the round holding the
    seat's last card (a spectator's: the latest few events), or 0 once the race is over."""

    def first(session: GameSession) -> int:
        log = session.events
        if race.seat is None:
            since: int | None = max(0, len(log) - SPECTATOR_RECENT)
        else:
            since = log.find_last(PLAY_KINDS, race.seat)
        if session.game.is_over or since is None:
            return 0
        return log.find_last({EventKind.ROUND_DEALT}, before=since + 1) or 0

    return first


def table_state(race: Race) -> SessionState:
    """The seat's state a table is drawn from (its delivery cursor left alone)."""
    return race.state(since=window(race), deliver=False)


def seat_viewer(race: Race) -> Viewer:
    """The reader of the race's sentences (a spectator's: :data:`SPECTATOR`), naming seats as
    the table does."""
    seat = SPECTATOR if race.seat is None else race.seat
    return Viewer(seat, people_names(race.session.lobby.public_seats()))
