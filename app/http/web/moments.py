"""The moments of a race: a lap, the race's end and a big play, each shown once over the
trick at the instant the staged reveal reaches its event (static/js/table.js), with the
words a screen reader hears at the same time.

Only public events make a moment, so a moment tells nothing the event log does not. Its
words come from the message catalog (docs/translating.md), in the request's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.http.i18n import gettext as _
from app.http.web.labels import Me, is_viewer, seat_name
from app.http.web.narration import EventDict
from engine import LAPS_TO_WIN, EventKind

BIG_PLAY = 10
"""A trick the viewer wins with a final number this high or higher is a big play (a card's
printed number alone tops out at 5: it took gas and speed)."""


@dataclass(frozen=True, slots=True)
class Moment:
    """One moment: its kind (``lap``, ``win``, ``lose`` or ``big``), whether it is the
    viewer's own, its headline and line, and ``at``, the 1-based number of the event that
    makes it (the table's feed items carry the same number)."""

    kind: str
    mine: bool
    headline: str
    line: str
    at: int


def moments(events: Sequence[EventDict], first_at: int, me: Me) -> list[Moment]:
    """The moments among ``events`` (the first of which is event number ``first_at``)."""
    found: list[Moment] = []
    for offset, event in enumerate(events):
        moment = _moment(event, first_at + offset, me)
        if moment is not None:
            found.append(moment)
    return found


def _moment(event: EventDict, at: int, me: Me) -> Moment | None:
    kind = event["kind"]
    seat = event["seat"]
    mine = is_viewer(seat, me)
    if kind == EventKind.LAP_GAINED:
        laps = {"laps": int(event["laps"]), "total": LAPS_TO_WIN}
        if mine:
            line = _("You cross the line: lap %(laps)s of %(total)s.") % laps
            return Moment("lap", True, _("Lap!"), line, at)
        name = seat_name(seat, me)
        line = _("Lap %(laps)s of %(total)s for %(name)s.") % {**laps, "name": name}
        return Moment("lap", False, _("%(name)s laps") % {"name": name}, line, at)
    if kind == EventKind.GAME_WON:
        if mine:
            line = _("First past the flag: the race is yours.")
            return Moment("win", True, _("You win!"), line, at)
        line = _("%(name)s takes the flag.") % {"name": seat_name(seat, me)}
        return Moment("lose", False, _("Race over"), line, at)
    if kind == EventKind.TRICK_WON and mine:
        final = int(event["final"])
        if final >= BIG_PLAY:
            line = _("Your %(final)s takes the trick.") % {"final": final}
            return Moment("big", True, _("Big play!"), line, at)
    return None
