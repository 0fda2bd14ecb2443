"""A seat's state with its turn's previews, worded for people: the races' previews
(:func:`app.races.previews.with_previews`) with each card that cannot go face up given
its reason (R7) as a sentence from the message catalog, in the request's language."""

from __future__ import annotations

from typing import Any, TypeVar, cast

from app.http.i18n import gettext as _
from app.races import previews
from engine import Suit
from engine.cards import RACER_NAME
from engine.view import TableView

View = TypeVar("View", bound=TableView)


def with_previews(view: View) -> View:
    """``view`` with its ``card_options`` and ``zero_five_option``, every blocked card's
    ``blocked_reason`` a sentence."""
    shown = cast(dict[str, Any], previews.with_previews(view))
    options = shown.get("card_options")
    if options:
        shown["card_options"] = [
            option
            if option["can_play_face_up"]
            else {**option, "blocked_reason": blocked_sentence(option["suit"])}
            for option in options
        ]
    return cast(View, shown)


def blocked_sentence(suit: str) -> str:
    """Why ``suit`` cannot go face up now: one of its racer is face up in the trick (R7).

    >>> blocked_sentence("jelly")
    'Jelly the Raccoon is already face up in this trick.'
    """
    return _("%(racer)s is already face up in this trick.") % {"racer": RACER_NAME[Suit(suit)]}
