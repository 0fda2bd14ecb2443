"""Who is away at a table, in words: every seat and watcher reads that a bot plays an away
person's seat; the away person also gets the "I'm back" button (``partials/away.html``).
Words from the message catalog in the request's language (docs/translating.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.http.i18n import gettext as _
from app.http.web.labels import Me, is_viewer, seat_name


def away_context(seats: Sequence[Mapping[str, Any]], me: Me, playing: bool) -> dict[str, Any]:
    """``away_notes``, one sentence per away seat (the reader's own first), and
    ``away_me``, whether the reader's own seat is away (they may take it back)."""
    away = [s["seat"] for s in seats if s.get("away")] if playing else []
    mine = [seat for seat in away if is_viewer(seat, me)]
    notes = [_("You are away: a bot is playing your seat until you are back.") for _s in mine]
    notes += [
        _("%(name)s is away: a bot is playing.") % {"name": seat_name(seat, me)}
        for seat in away
        if not is_viewer(seat, me)
    ]
    return {"away_notes": notes, "away_me": bool(mine), "back_label": _("I'm back")}
