"""The daily deal's sentences for its player on ``/daily``: where their counted result
stands, and the line they may share (docs/daily.md)."""

from __future__ import annotations

from app.http.i18n import day as written_day
from app.http.i18n import gettext as _
from app.http.i18n import ngettext, ordinal
from app.results.daily import BoardEntry


def standing_words(mine: BoardEntry, ranked: int) -> str:
    """Where a counted result stands, for its player.

    >>> standing_words(BoardEntry(2, "Ada", 1, 2, 7, 3, 1, "g"), 9)
    'You are #2 of 9 on the board: 1st in your race, 2 laps, 7 tricks won, 3 gas left.'
    >>> standing_words(BoardEntry(1, "Ada", 3, 1, 1, 0, 1, "g"), 1)
    'You are #1 of 1 on the board: 3rd in your race, 1 lap, 1 trick won, 0 gas left.'
    """
    place = (_("left your race (%(place)s)") if mine.left else _("%(place)s in your race")) % {
        "place": ordinal(mine.place)
    }
    return _("You are #%(rank)s of %(ranked)s on the board: %(place)s, %(figures)s.") % {
        "rank": mine.rank,
        "ranked": ranked,
        "place": place,
        "figures": _figures(mine),
    }


def share_words(day: str, mine: BoardEntry, ranked: int) -> str:
    """A counted result as its player may post it: the day, the rank and the race's
    figures (nothing of the cards, which stay secret while the day lasts).

    >>> print(share_words("2026-12-04", BoardEntry(2, "Ada", 1, 2, 7, 3, 1, "g"), 9))
    ... # doctest: +NORMALIZE_WHITESPACE
    Zoom Zoom Vroom daily deal, Dec 4, 2026: #2 of 9 (1st in my race, 2 laps, 7 tricks won,
    3 gas left)
    """
    place = (_("left my race (%(place)s)") if mine.left else _("%(place)s in my race")) % {
        "place": ordinal(mine.place)
    }
    return _(
        "Zoom Zoom Vroom daily deal, %(day)s: #%(rank)s of %(ranked)s (%(place)s, %(figures)s)"
    ) % {
        "day": written_day(day),
        "rank": mine.rank,
        "ranked": ranked,
        "place": place,
        "figures": _figures(mine),
    }


def _figures(entry: BoardEntry) -> str:
    """The figures of a result after its place.

    >>> _figures(BoardEntry(3, "Ada", 4, 1, 2, 0, 1, "g", left=True))
    '1 lap, 2 tricks won, 0 gas left'
    """
    return _("%(laps)s, %(tricks)s won, %(gas)s gas left") % {
        "laps": ngettext("%(num)s lap", "%(num)s laps", entry.laps) % {"num": entry.laps},
        "tricks": ngettext("%(num)s trick", "%(num)s tricks", entry.tricks) % {"num": entry.tricks},
        "gas": entry.gas,
    }


__all__ = ["share_words", "standing_words"]
