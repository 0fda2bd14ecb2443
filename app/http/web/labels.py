"""How the table names suits, seats, the move form's choices and small phrases: printed card
data from the engine (names, values, seat colours), no game rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.http.i18n import N_
from app.http.i18n import gettext as _
from app.races.lobby import default_name
from engine.cards import RACER_NAME, SEAT_COLOURS, SUIT_VALUE, VEHICLE_NAME, Suit

#: The id used for the per-player 0/5 card in forms and icons (it is not a :class:`Suit`).
ZERO_FIVE = "zero_five"


@dataclass(frozen=True, slots=True)
class SuitInfo:
    """How one suit looks and reads. The racers' names are printed ones; the words about a
    card (its effect, the 0/5 card's names) are the catalog's, in the request's language."""

    id: str
    printed_short: str
    printed_racer: str
    printed_vehicle: str

    @property
    def icon(self) -> str:
        """Fragment id of the suit's symbol in ``static/img/icons.svg``."""
        return f"suit-{self.id}"

    @property
    def short(self) -> str:
        """The card's short name ("Lichen"; the 0/5 card's in the request's language)."""
        return _("0/5 card") if self.id == ZERO_FIVE else self.printed_short

    @property
    def racer(self) -> str:
        return _("the 0/5 card") if self.id == ZERO_FIVE else self.printed_racer

    @property
    def vehicle(self) -> str:
        return _("your one-shot booster") if self.id == ZERO_FIVE else self.printed_vehicle

    @property
    def effect(self) -> str:
        return _(_EFFECTS.get(self.id, _NO_EFFECT))


_EFFECTS = {
    "lichen": N_("Knocks every face-up 4 and 5 in this trick down to 0."),
    "salty": N_("Grabs 1 gas from the middle, ready to spend at once."),
    "chippy": N_("No trick up its sleeve: a steady 3."),
    "zero": N_("Pick one: +1 speed for the rest of the round, or one removed gas back."),
    ZERO_FIVE: N_("Once per race: win back removed gas. Counts 5 once you have a lap."),
}
_NO_EFFECT = N_("No effect. Drops to 0 when a 1 is in the trick.")


SUITS: dict[str, SuitInfo] = {
    suit.value: SuitInfo(suit.value, suit.name.title(), RACER_NAME[suit], VEHICLE_NAME[suit])
    for suit in Suit
}
SUITS[ZERO_FIVE] = SuitInfo(ZERO_FIVE, "0/5 card", "the 0/5 card", "your one-shot booster")

ZERO_EFFECT_LABELS = {"speed": N_("+1 speed this round"), "gas": N_("1 removed gas back")}
ZERO_FIVE_LABELS = {0: N_("wins back up to 2 removed gas"), 5: N_("wins back 1 removed gas")}
"""The move form's labels of the 0 card's effects and the 0/5 card's values, as written (the
template translates them)."""


#: Every suit in the order the rules page lists them.
RULES_SUIT_ORDER: tuple[str, ...] = (*(suit.value for suit in Suit), ZERO_FIVE)

#: The number printed on each suit's cards, by suit id (what the templates print).
PRINTED_VALUES: dict[str, int] = {suit.value: value for suit, value in SUIT_VALUE.items()}


def seat_colour(seat: int) -> str:
    """The seat's colour name, also its CSS class suffix (``seat-pink``)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who reads the table: ``seat`` is the reader's own ("You"; a spectator's matches none);
    ``names`` holds, per seat, the display name of a person sitting there, or None for a
    bot's seat, which keeps its colour (a solo race against bots has no names at all)."""

    seat: int
    names: tuple[str | None, ...] = ()


Me = int | Viewer
"""The reader of a sentence: a bare seat (every other seat named by its colour) or a
:class:`Viewer` that knows the people's display names."""


def viewer(me: Me) -> Viewer:
    return me if isinstance(me, Viewer) else Viewer(me)


def _own_seat(me: Me) -> int:
    # Not viewer(me).seat: a bare seat would build a Viewer on every word of every sentence.
    return me.seat if isinstance(me, Viewer) else me


def is_viewer(seat: int | None, me: Me) -> bool:
    return seat is not None and seat == _own_seat(me)


def people_names(seats: Sequence[Mapping[str, Any]]) -> tuple[str | None, ...]:
    """What each public seat is called: the name a person chose, None for a bot or a person
    who chose none ("Player 2"), whose seat keeps its colour. A name that could be read as
    somebody else (another person's, a colour, "You", "Nobody") gets its seat's colour."""
    by_seat = {
        int(s["seat"]): str(s["name"])
        for s in seats
        if s["person"] and str(s["name"]) != default_name(int(s["seat"]))
    }
    taken = [name.casefold() for name in by_seat.values()]
    reserved = {"you", "nobody", *(colour.casefold() for colour in SEAT_COLOURS)}
    # ... and the same words in the request's language.
    reserved |= {_("You").casefold(), _("Nobody").casefold()}
    reserved |= {colour_name(seat).casefold() for seat in range(len(SEAT_COLOURS))}
    names: list[str | None] = [None] * len(seats)
    for seat, name in by_seat.items():
        clash = name.casefold() in reserved or taken.count(name.casefold()) > 1
        names[seat] = f"{name} ({colour_name(seat)})" if clash else name
    return tuple(names)


def seat_name(seat: int | None, me: Me = 0) -> str:
    """ "You" for the reader, a person's display name (``me`` knows it), else the colour."""
    if seat is None:
        return _("Nobody")
    if seat == _own_seat(me):
        return _("You")
    if isinstance(me, Viewer) and seat < len(me.names):
        name = me.names[seat]
        if name is not None:
            return name
    return colour_name(seat)


_COLOUR_NAMES = {
    "pink": N_("Pink"),
    "orange": N_("Orange"),
    "yellow": N_("Yellow"),
    "blue": N_("Blue"),
    "purple": N_("Purple"),
}


def colour_name(seat: int) -> str:
    return _(_COLOUR_NAMES[seat_colour(seat)])


def names(seats: Sequence[int], me: Me) -> str:
    """Seat names joined as a sentence does: "You, Orange and Teal"."""
    return and_list([seat_name(s, me) for s in seats])


def and_list(words: Sequence[str]) -> str:
    """Words joined as a sentence lists them: "Jelly, Beans and Salty"."""
    if len(words) <= 1:
        return "".join(words)
    return _("%(first)s and %(last)s") % {"first": ", ".join(words[:-1]), "last": words[-1]}
