"""One plain sentence per public event, told from one seat's point of view, in the
request's language (the message catalog, docs/translating.md).

Owned by the web layer. :data:`NARRATORS` is a table keyed by :class:`engine.EventKind`,
so a new kind of event without a sentence is one missing key (and one failing test), not
a silent "something happened".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.http.i18n import gettext as _
from app.http.i18n import ngettext
from app.http.web.labels import SUITS, Me, is_viewer, names, seat_name
from engine import (
    LAPS_TO_WIN,
    CardDiscarded,
    CardPlayed,
    EventKind,
    GameWon,
    GasTaken,
    GasToMiddle,
    LapGained,
    RoundDealt,
    SpeedGained,
    TrickAllTunedUp,
    TrickWon,
    TunedUp,
    TuneUpShare,
    ZeroEffectChosen,
    ZeroFivePlayed,
)

EventDict = Mapping[str, Any]
"""A public event as JSON: ``kind``, ``seat`` and the keys of the kind's payload type
(``engine.EVENT_PAYLOADS``)."""

Narrator = Callable[[int | None, Any, Me], str]
"""Builds the sentence for one event from its seat and payload, as seen by ``me``;
each narrator declares its kind's payload type, so ``mypy`` checks every key it reads."""


def _say(seat: int | None, me: Me, you: str, other: str, **values: object) -> str:
    """``you`` when ``seat`` is the reader's own, else ``other`` with the seat's name as
    ``%(name)s``: each sentence is written whole for both, so a language can bend its verb
    (and everything else) as it needs."""
    if is_viewer(seat, me):
        return you % values
    return other % {"name": seat_name(seat, me), **values}


def _round_dealt(seat: int | None, event: RoundDealt, me: Me) -> str:
    lead = event["lead"]
    cards = event["hand_size"]
    dealt = ngettext(
        "Round %(round)s: everyone is dealt up to %(num)s card.",
        "Round %(round)s: everyone is dealt up to %(num)s cards.",
        cards,
    ) % {"round": event["round"], "num": cards}
    leads = _say(lead, me, _("You lead the first trick."), _("%(name)s leads the first trick."))
    return f"{dealt} {leads}"


def _card_played(seat: int | None, event: CardPlayed, me: Me) -> str:
    # A final below card + gas + speed means a Lichen in the trick struck the card (R9).
    counts = event["final"] - event["gas"] - event["speed"]
    values = {
        "card": SUITS[event["suit"]].short,
        "value": event["value"],
        "counts": counts,
        "gas": event["gas"],
        "speed": event["speed"],
        "final": event["final"],
    }
    if counts < event["value"]:
        return _say(
            seat,
            me,
            _(
                "You play %(card)s (%(value)s, counted %(counts)s because a Lichen is face up "
                "in this trick) with %(gas)s gas and speed %(speed)s: %(final)s."
            ),
            _(
                "%(name)s plays %(card)s (%(value)s, counted %(counts)s because a Lichen is "
                "face up in this trick) with %(gas)s gas and speed %(speed)s: %(final)s."
            ),
            **values,
        )
    return _say(
        seat,
        me,
        _("You play %(card)s (%(value)s) with %(gas)s gas and speed %(speed)s: %(final)s."),
        _("%(name)s plays %(card)s (%(value)s) with %(gas)s gas and speed %(speed)s: %(final)s."),
        **values,
    )


def _tuned_up(seat: int | None, event: TunedUp, me: Me) -> str:
    return _say(
        seat,
        me,
        _("You tune up: a card goes face down."),
        _("%(name)s tunes up: a card goes face down."),
    )


def _zero_five_played(seat: int | None, event: ZeroFivePlayed, me: Me) -> str:
    return _say(
        seat,
        me,
        _(
            "You play the 0/5 card as %(value)s, winning back %(gained)s gas, with %(gas)s gas "
            "and speed %(speed)s: %(final)s."
        ),
        _(
            "%(name)s plays the 0/5 card as %(value)s, winning back %(gained)s gas, with "
            "%(gas)s gas and speed %(speed)s: %(final)s."
        ),
        value=event["value"],
        gained=event["gained"],
        gas=event["gas"],
        speed=event["speed"],
        final=event["final"],
    )


def _card_discarded(seat: int | None, event: CardDiscarded, me: Me) -> str:
    return _say(
        seat, me, _("You discard a card face down."), _("%(name)s discards a card face down.")
    )


def _gas_taken(seat: int | None, event: GasTaken, me: Me) -> str:
    if event["amount"]:
        return _say(
            seat,
            me,
            _("You grab %(amount)s gas from the middle."),
            _("%(name)s grabs %(amount)s gas from the middle."),
            amount=event["amount"],
        )
    return _say(
        seat,
        me,
        _("Your tank is full, so the %(removed)s gas Salty takes from the middle leaves the game."),
        _(
            "%(name)s's tank is full, so the %(removed)s gas Salty takes from the middle leaves "
            "the game."
        ),
        removed=event["removed"],
    )


def _zero_effect(seat: int | None, event: ZeroEffectChosen, me: Me) -> str:
    if event["choice"] == "speed":
        return _say(
            seat,
            me,
            _("You take +1 speed for the rest of the round."),
            _("%(name)s takes +1 speed for the rest of the round."),
        )
    if event["gained"]:
        return _say(
            seat,
            me,
            _("You win back %(gained)s gas from the removed pile."),
            _("%(name)s wins back %(gained)s gas from the removed pile."),
            gained=event["gained"],
        )
    return _say(
        seat,
        me,
        _("You asked for removed gas, but your tank is full: it stays removed."),
        _("%(name)s asked for removed gas, but their tank is full: it stays removed."),
    )


def ways(n: int) -> str:
    """How many ways a shared middle is split, in words ("two")."""
    if n == 2:
        return _("two")
    if n == 3:
        return _("three")
    if n == 4:
        return _("four")
    if n == 5:
        return _("five")
    return str(n)


def _tune_up_share(seat: int | None, event: TuneUpShare, me: Me) -> str:
    """The Tune Up payout, saying who could not take their whole share (full tank) and why
    any gas leaves the game: the odd units that cannot be split evenly, or a full tank."""
    seats: list[int] = event["seats"]
    each: int = event["each"]
    gained: list[int] = event["gained"]
    middle: int = event["middle_before"]
    if len(seats) == 1:
        return _single_share(seats[0], gained[0], each, middle, event["removed"], me)
    split = ways(len(seats))
    if each == 0:
        return _(
            "Tune Up payout: nobody gets the %(pot)s gas in the middle: split %(ways)s ways "
            "between %(names)s it rounds down to 0, so it leaves the game."
        ) % {"pot": middle, "ways": split, "names": names(seats, me)}
    text = _("Tune Up payout: %(names)s split the %(pot)s gas in the middle, %(each)s each") % {
        "names": names(seats, me),
        "pot": middle,
        "each": each,
    }
    short = [
        _("%(name)s only had room for %(got)s") % {"name": seat_name(tuner, me), "got": got}
        for tuner, got in zip(seats, gained, strict=True)
        if got < each
    ]
    if short:
        text += " (" + "; ".join(short) + ")"
    odd = middle - each * len(seats)
    full = event["removed"] - odd
    gone = {"odd": odd, "full": full, "ways": split}
    if odd and full:
        reason = _(
            "the odd %(odd)s gas cannot be split %(ways)s ways and %(full)s gas does not fit "
            "a full tank, so it leaves the game"
        )
    elif odd:
        reason = _("the odd %(odd)s gas cannot be split %(ways)s ways, so it leaves the game")
    elif full:
        reason = _("%(full)s gas does not fit a full tank, so it leaves the game")
    else:
        return text + "."
    return text + "; " + reason % gone + "."


def _single_share(seat: int, got: int, each: int, pot: int, removed: int, me: Me) -> str:
    """The payout sentence when only one player tuned up."""
    if got == each:
        return _say(
            seat,
            me,
            _("Tune Up payout: You take the %(pot)s gas in the middle."),
            _("Tune Up payout: %(name)s takes the %(pot)s gas in the middle."),
            pot=pot,
        )
    if got == 0:
        return _say(
            seat,
            me,
            _(
                "Tune Up payout: your tank is full, so the %(pot)s gas in the middle leaves "
                "the game."
            ),
            _(
                "Tune Up payout: %(name)s's tank is full, so the %(pot)s gas in the middle "
                "leaves the game."
            ),
            pot=pot,
        )
    if removed:
        return _say(
            seat,
            me,
            _(
                "Tune Up payout: You fill up with %(got)s of the %(pot)s gas in the middle; "
                "%(removed)s gas leaves the game."
            ),
            _(
                "Tune Up payout: %(name)s fills up with %(got)s of the %(pot)s gas in the "
                "middle; %(removed)s gas leaves the game."
            ),
            got=got,
            pot=pot,
            removed=removed,
        )
    return _say(
        seat,
        me,
        _("Tune Up payout: You fill up with %(got)s of the %(pot)s gas in the middle."),
        _("Tune Up payout: %(name)s fills up with %(got)s of the %(pot)s gas in the middle."),
        got=got,
        pot=pot,
    )


def _trick_won(seat: int | None, event: TrickWon, me: Me) -> str:
    return _say(
        seat,
        me,
        _("You win trick %(trick)s with %(final)s."),
        _("%(name)s wins trick %(trick)s with %(final)s."),
        trick=event["trick"],
        final=event["final"],
    )


def _trick_all_tuned_up(seat: int | None, event: TrickAllTunedUp, me: Me) -> str:
    return _("Everyone tuned up: nobody wins trick %(trick)s.") % {"trick": event["trick"]}


def _gas_to_middle(seat: int | None, event: GasToMiddle, me: Me) -> str:
    if not event["amount"]:
        return _("No gas was spent; the middle holds %(middle)s.") % {"middle": event["middle"]}
    return _("The %(amount)s gas on the cards slides into the middle (now %(middle)s).") % {
        "amount": event["amount"],
        "middle": event["middle"],
    }


def _speed_gained(seat: int | None, event: SpeedGained, me: Me) -> str:
    return _say(
        seat,
        me,
        _("You move up to speed %(speed)s."),
        _("%(name)s moves up to speed %(speed)s."),
        speed=event["speed"],
    )


def _lap_gained(seat: int | None, event: LapGained, me: Me) -> str:
    return _say(
        seat,
        me,
        _("You complete a lap (%(laps)s of %(total)s)!"),
        _("%(name)s completes a lap (%(laps)s of %(total)s)!"),
        laps=event["laps"],
        total=LAPS_TO_WIN,
    )


def _game_won(seat: int | None, event: GameWon, me: Me) -> str:
    return _say(seat, me, _("You win the race!"), _("%(name)s wins the race!"))


NARRATORS: dict[EventKind, Narrator] = {
    EventKind.ROUND_DEALT: _round_dealt,
    EventKind.CARD_PLAYED: _card_played,
    EventKind.TUNED_UP: _tuned_up,
    EventKind.ZERO_FIVE_PLAYED: _zero_five_played,
    EventKind.CARD_DISCARDED: _card_discarded,
    EventKind.GAS_TAKEN: _gas_taken,
    EventKind.ZERO_EFFECT: _zero_effect,
    EventKind.TUNE_UP_SHARE: _tune_up_share,
    EventKind.TRICK_WON: _trick_won,
    EventKind.TRICK_ALL_TUNED_UP: _trick_all_tuned_up,
    EventKind.GAS_TO_MIDDLE: _gas_to_middle,
    EventKind.SPEED_GAINED: _speed_gained,
    EventKind.LAP_GAINED: _lap_gained,
    EventKind.GAME_WON: _game_won,
}
"""The sentence builder of every event kind."""


def narrate(event: EventDict, me: Me = 0) -> str:
    """One plain sentence for a public event, from the point of view of seat ``me``
    (a :class:`app.http.web.labels.Viewer` also names the people who joined the race)."""
    # The kinds are a StrEnum: the event's plain string finds its narrator without an
    # enum built per event (a table narrates dozens of events per answer).
    return NARRATORS[event["kind"]](event["seat"], event, me)
