"""A seat's state with its turn's previews (:func:`engine.options.seat_options`), each card
that cannot go face up given its refusal (R7) as a sentence in the request's language."""

from __future__ import annotations

from typing import Any, TypeVar, cast

from app.http.i18n import gettext as _
from engine import Observation, Refusal, Suit
from engine.cards import RACER_NAME
from engine.options import observed_options
from engine.shapes import TableView

View = TypeVar("View", bound=TableView)


def with_previews(view: View) -> View:
    """A copy of ``view`` (an observation, or a state built on one) whose ``card_options``
    and ``zero_five_option`` follow ``legal_actions``, where clients have always found them:
    empty (``[]`` and ``None``) unless the view's seat is the one to move."""
    cards, zero_five = observed_options(cast(Observation, view)).previews(blocked_sentence)
    shown: dict[str, Any] = {}
    for key, value in view.items():
        if key in ("card_options", "zero_five_option"):
            continue
        shown[key] = value
        if key == "legal_actions":
            shown["card_options"] = cards
            shown["zero_five_option"] = zero_five
    return cast(View, shown)


def blocked_sentence(refusal: Refusal) -> str:
    """Why a card cannot go face up now (``suit_face_up``, R7), in short."""
    return _("%(racer)s is already face up in this trick.") % {
        "racer": RACER_NAME[Suit(str(refusal.as_dict()["suit"]))]
    }
