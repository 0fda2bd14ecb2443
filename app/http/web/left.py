"""A race ended because a person left it (docs/ratings.md, "Leaving is losing"): its game
never finished, so its table says the race is over in place of the turn it stopped at.
It is the page "Leave" lands on, and what a later visit or another seat sees.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.http.i18n import gettext as _
from app.http.web.labels import is_viewer, seat_name
from app.http.web.table import seat_viewer
from app.races.leaving import aborted
from app.races.operations import SessionState
from app.races.record import GameSession


@dataclass(frozen=True, slots=True)
class Ended:
    """What the table says of a race that was left: its headline and one line."""

    headline: str
    line: str


def ended_early(session: GameSession, state: SessionState) -> Ended | None:
    """How ``state``'s reader is told that ``session`` ended because people left it, or
    None when it did not (still running, or finished by its last card)."""
    if not session.left or session.game.is_over:
        return None
    reader = seat_viewer(state)
    if any(is_viewer(seat, reader) for seat in session.left):
        player = session.lobby.seats[reader.seat].player
        counts = player is not None and not session.practice and not aborted(session)
        line = (
            _("It counts as a last place in your results.")
            if counts
            else _("It counts in no result.")
        )
        return Ended(_("You left this race."), line)
    names = ", ".join(seat_name(seat, reader) for seat in session.left)
    line = _("%(names)s left before the end, so the race stopped here.") % {"names": names}
    return Ended(_("This race is over."), line)


def ended_context(session: GameSession, state: SessionState) -> dict[str, Any]:
    """The table's context for a race that was left (``ended``, and the header's status
    and the tab's title saying so); nothing for any other race."""
    ended = ended_early(session, state)
    if ended is None:
        return {}
    return {
        "ended": ended,
        "status": ended.headline,
        "title": _("Race over") + " · Zoom Zoom Vroom",
        "my_turn": False,
    }
