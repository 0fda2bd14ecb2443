"""A finished race's rematch in words (``partials/rematch.html``): the offer, this person's
answer and the buttons, from the message catalog in the request's language
(docs/translating.md). Only for a seat of a race people raced together."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from app.http.i18n import gettext as _
from app.http.i18n import ngettext
from app.races import operations
from app.races.record import GameSession

POLL_SECONDS = 3
"""How often a finished table looks for a rematch offer or its start (its live stream
ended with the race)."""


def people_count(state: Mapping[str, Any]) -> int:
    """How many of the state's seats are people's."""
    return sum(1 for seat in state.get("seats") or [] if seat["person"])


def rematch_context(state: Mapping[str, Any], people: int, watching: bool) -> dict[str, Any]:
    """``rematch``: None, or what the rematch box shows this seat: ``offer`` (a sentence),
    ``answer`` ("yes", "no" or None), the new race's address ``href``, the buttons' words
    and whether the box still polls."""
    if watching or people < 2 or state.get("status") != "over":
        return {"rematch": None}
    offer = state.get("rematch")
    answer = None if offer is None else offer["answers"].get(str(state["seat"]))
    rules = _("Same people and settings, a new deal, every seat moved one round.")
    if offer is None:
        line = rules
    elif answer is None:
        line = _(
            "A rematch is on offer: it starts when everyone accepts, or in 30 seconds with "
            "bots for anyone who does not."
        )
    elif answer == "yes":
        line = _("You accepted the rematch.")
    else:
        line = _("You declined the rematch.")
    return {
        "rematch": {
            "line": line,
            "answer": answer,
            "offered": offer is not None,
            "href": None if offer is None else f"/games/{offer['game_id']}",
            "label": _("Rematch") if offer is None else _("Accept the rematch"),
            "decline": _("No thanks"),
            "go": _("Go to the rematch"),
            "poll": POLL_SECONDS if answer is None else None,
        }
    }


def rematch_lobby_context(session: GameSession, state: Mapping[str, Any]) -> dict[str, Any]:
    """A waiting rematch's banner and lobby line (nothing for any other race): how many
    people are still to accept and the seconds until bots take their seats."""
    lobby = session.lobby
    if lobby.wait_seconds is None or session.config.quick or state["status"] != "waiting":
        return {}
    missing = sum(1 for seat in lobby.seats if seat.person and not seat.joined)
    deadline = lobby.deadline
    left = 0 if deadline is None else max(0, math.ceil(deadline - operations.wall_clock()))
    status = ngettext(
        "Rematch: waiting for %(n)s person to accept; bots take the seats left in %(s)s s.",
        "Rematch: waiting for %(n)s people to accept; bots take the seats left in %(s)s s.",
        missing,
    ) % {"n": missing, "s": left}
    return {"status": status, "rematch_lobby": status}
