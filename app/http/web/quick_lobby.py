"""What the table says while a "Race strangers" race waits for its racers."""

from __future__ import annotations

import math
from typing import Any

from app.http.i18n import gettext as _
from app.races import operations
from app.races.operations import SessionState
from app.races.record import GameSession


def quick_lobby_context(session: GameSession, state: SessionState) -> dict[str, Any]:
    """The waiting quick race's banner and lobby facts (nothing for any other race): how
    many seats are taken and the seconds until bots take the rest."""
    if not session.config.quick or state["status"] != "waiting":
        return {}
    lobby = session.lobby
    taken = sum(1 for seat in lobby.seats if seat.joined)
    deadline = lobby.deadline
    left = 0 if deadline is None else max(0, math.ceil(deadline - operations.wall_clock()))
    status = _(
        "Looking for racers: %(taken)s of %(seats)s seats taken. "
        "Bots take the rest in %(left)s s at most."
    ) % {"taken": taken, "seats": len(lobby.seats), "left": left}
    return {
        "quick_lobby": {"taken": taken, "seats": len(lobby.seats), "seconds_left": left},
        "status": status,
        "title": _("Looking for racers · Zoom Zoom Vroom"),
    }
