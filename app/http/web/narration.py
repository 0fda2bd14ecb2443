"""One plain sentence per public event, told from one seat's point of view, in the request's
language (docs/translating.md). :data:`NARRATORS` is keyed by :class:`engine.EventKind`: a
new kind of event without a sentence is one missing key (and one failing test)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.http.i18n import N_, ngettext
from app.http.i18n import gettext as _
from app.http.web.labels import SUITS, Me, is_viewer, names, seat_name
from engine import (
    LAPS_TO_WIN,
    CardPlayed,
    EventKind,
    GasTaken,
    GasToMiddle,
    RoundDealt,
    TrickAllTunedUp,
    TuneUpShare,
    ZeroEffectChosen,
)
from engine.options import counted_as_played

EventDict = Mapping[str, Any]
"""A public event as JSON: ``kind``, ``seat`` and the keys of the kind's payload type
(``engine.EVENT_PAYLOADS``)."""

Narrator = Callable[[int | None, Any, Me], str]

_TOLD: dict[str, tuple[str, str]] = {
    "leads": (N_("You lead the first trick."), N_("%(name)s leads the first trick.")),
    "leads_round": (N_("You lead round %(round)s."), N_("%(name)s leads round %(round)s.")),
    "plays": (
        N_("You play %(card)s (%(value)s) with %(gas)s gas and speed %(speed)s: %(final)s."),
        N_("%(name)s plays %(card)s (%(value)s) with %(gas)s gas and speed %(speed)s: %(final)s."),
    ),
    "plays_struck": (
        N_(
            "You play %(card)s (%(value)s, counted %(counts)s because a Lichen is face up "
            "in this trick) with %(gas)s gas and speed %(speed)s: %(final)s."
        ),
        N_(
            "%(name)s plays %(card)s (%(value)s, counted %(counts)s because a Lichen is "
            "face up in this trick) with %(gas)s gas and speed %(speed)s: %(final)s."
        ),
    ),
    "tunes_up": (
        N_("You tune up: a card goes face down."),
        N_("%(name)s tunes up: a card goes face down."),
    ),
    "plays_zero_five": (
        N_(
            "You play the 0/5 card as %(value)s, winning back %(gained)s gas, with %(gas)s gas "
            "and speed %(speed)s: %(final)s."
        ),
        N_(
            "%(name)s plays the 0/5 card as %(value)s, winning back %(gained)s gas, with "
            "%(gas)s gas and speed %(speed)s: %(final)s."
        ),
    ),
    "discards": (N_("You discard a card face down."), N_("%(name)s discards a card face down.")),
    "grabs_gas": (
        N_("You grab %(amount)s gas from the middle."),
        N_("%(name)s grabs %(amount)s gas from the middle."),
    ),
    "full_for_salty": (
        N_(
            "Your tank is full, so the %(removed)s gas Salty takes from the middle leaves the game."
        ),
        N_(
            "%(name)s's tank is full, so the %(removed)s gas Salty takes from the middle leaves "
            "the game."
        ),
    ),
    "zero_speed": (
        N_("You take +1 speed for the rest of the round."),
        N_("%(name)s takes +1 speed for the rest of the round."),
    ),
    "zero_gas": (
        N_("You win back %(gained)s gas from the removed pile."),
        N_("%(name)s wins back %(gained)s gas from the removed pile."),
    ),
    "zero_full": (
        N_("You asked for removed gas, but your tank is full: it stays removed."),
        N_("%(name)s asked for removed gas, but their tank is full: it stays removed."),
    ),
    "share_whole": (
        N_("Tune Up payout: You take the %(pot)s gas in the middle."),
        N_("Tune Up payout: %(name)s takes the %(pot)s gas in the middle."),
    ),
    "share_full": (
        N_("Tune Up payout: your tank is full, so the %(pot)s gas in the middle leaves the game."),
        N_(
            "Tune Up payout: %(name)s's tank is full, so the %(pot)s gas in the middle "
            "leaves the game."
        ),
    ),
    "share_fills_removed": (
        N_(
            "Tune Up payout: You fill up with %(got)s of the %(pot)s gas in the middle; "
            "%(removed)s gas leaves the game."
        ),
        N_(
            "Tune Up payout: %(name)s fills up with %(got)s of the %(pot)s gas in the "
            "middle; %(removed)s gas leaves the game."
        ),
    ),
    "share_fills": (
        N_("Tune Up payout: You fill up with %(got)s of the %(pot)s gas in the middle."),
        N_("Tune Up payout: %(name)s fills up with %(got)s of the %(pot)s gas in the middle."),
    ),
    "wins_trick": (
        N_("You win trick %(trick)s with %(final)s."),
        N_("%(name)s wins trick %(trick)s with %(final)s."),
    ),
    "speed_up": (
        N_("You move up to speed %(speed)s."),
        N_("%(name)s moves up to speed %(speed)s."),
    ),
    "lap": (
        N_("You complete a lap (%(laps)s of %(total)s)!"),
        N_("%(name)s completes a lap (%(laps)s of %(total)s)!"),
    ),
    "wins_race": (N_("You win the race!"), N_("%(name)s wins the race!")),
    "won_race": (N_("You won the race!"), N_("%(name)s won the race.")),
}
"""What a seat does, told to that seat ("You ...") and to everyone else (``%(name)s``), each
written whole so a language can bend its verb (and everything else) as it needs; the
narration's and the table's banner's."""


def say(seat: int | None, me: Me, told: str, values: Mapping[str, object]) -> str:
    """The :data:`_TOLD` sentence ``told`` of ``seat``, as ``me`` reads it."""
    you, other = _TOLD[told]
    if is_viewer(seat, me):
        return _(you) % values
    return _(other) % {**values, "name": seat_name(seat, me)}


def _told(told: str, **more: object) -> Narrator:
    """The narrator of an event told as :data:`_TOLD` ``told``, from its fields and ``more``."""
    return lambda seat, event, me: say(seat, me, told, {**event, **more})


def _round_dealt(seat: int | None, event: RoundDealt, me: Me) -> str:
    cards = event["hand_size"]
    dealt = ngettext(
        "Round %(round)s: everyone is dealt up to %(num)s card.",
        "Round %(round)s: everyone is dealt up to %(num)s cards.",
        cards,
    ) % {"round": event["round"], "num": cards}
    return f"{dealt} {say(event['lead'], me, 'leads', {})}"


def _card_played(seat: int | None, event: CardPlayed, me: Me) -> str:
    counts = counted_as_played(event)
    told = "plays_struck" if counts < event["value"] else "plays"
    return say(seat, me, told, {**event, "card": SUITS[event["suit"]].short, "counts": counts})


def _gas_taken(seat: int | None, event: GasTaken, me: Me) -> str:
    return say(seat, me, "grabs_gas" if event["amount"] else "full_for_salty", event)


def _zero_effect(seat: int | None, event: ZeroEffectChosen, me: Me) -> str:
    if event["choice"] == "speed":
        return say(seat, me, "zero_speed", event)
    return say(seat, me, "zero_gas" if event["gained"] else "zero_full", event)


_WAYS = {2: N_("two"), 3: N_("three"), 4: N_("four"), 5: N_("five")}
"""How many ways a shared middle is split, in words."""


_GONE = {
    (True, True): N_(
        "the odd %(odd)s gas cannot be split %(ways)s ways and %(full)s gas does not fit "
        "a full tank, so it leaves the game"
    ),
    (True, False): N_("the odd %(odd)s gas cannot be split %(ways)s ways, so it leaves the game"),
    (False, True): N_("%(full)s gas does not fit a full tank, so it leaves the game"),
}
"""Why gas leaves the game at a shared payout, by (odd units left, gas past a full tank)."""


def _tune_up_share(seat: int | None, event: TuneUpShare, me: Me) -> str:
    """The Tune Up payout: who could not take their whole share (full tank) and why any gas
    leaves the game (the odd units that cannot be split evenly, or a full tank)."""
    seats: list[int] = event["seats"]
    each: int = event["each"]
    gained: list[int] = event["gained"]
    middle: int = event["middle_before"]
    if len(seats) == 1:
        values = {"got": gained[0], "pot": middle, "removed": event["removed"]}
        if gained[0] == each:
            told = "share_whole"
        elif gained[0] == 0:
            told = "share_full"
        else:
            told = "share_fills_removed" if event["removed"] else "share_fills"
        return say(seats[0], me, told, values)
    split = _(_WAYS[len(seats)]) if len(seats) in _WAYS else str(len(seats))
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
    reason = _GONE.get((bool(odd), bool(full)))
    if reason is None:
        return text + "."
    return text + "; " + _(reason) % {"odd": odd, "full": full, "ways": split} + "."


def _trick_all_tuned_up(seat: int | None, event: TrickAllTunedUp, me: Me) -> str:
    return _("Everyone tuned up: nobody wins trick %(trick)s.") % {"trick": event["trick"]}


def _gas_to_middle(seat: int | None, event: GasToMiddle, me: Me) -> str:
    if not event["amount"]:
        return _("No gas was spent; the middle holds %(middle)s.") % event
    return _("The %(amount)s gas on the cards slides into the middle (now %(middle)s).") % event


NARRATORS: dict[EventKind, Narrator] = {
    EventKind.ROUND_DEALT: _round_dealt,
    EventKind.CARD_PLAYED: _card_played,
    EventKind.TUNED_UP: _told("tunes_up"),
    EventKind.ZERO_FIVE_PLAYED: _told("plays_zero_five"),
    EventKind.CARD_DISCARDED: _told("discards"),
    EventKind.GAS_TAKEN: _gas_taken,
    EventKind.ZERO_EFFECT: _zero_effect,
    EventKind.TUNE_UP_SHARE: _tune_up_share,
    EventKind.TRICK_WON: _told("wins_trick"),
    EventKind.TRICK_ALL_TUNED_UP: _trick_all_tuned_up,
    EventKind.GAS_TO_MIDDLE: _gas_to_middle,
    EventKind.SPEED_GAINED: _told("speed_up"),
    EventKind.LAP_GAINED: _told("lap", total=LAPS_TO_WIN),
    EventKind.GAME_WON: _told("wins_race"),
}


def narrate(event: EventDict, me: Me = 0) -> str:
    """One plain sentence for a public event, as ``me`` reads it."""
    # The kinds are a StrEnum: the event's plain string finds its narrator without an
    # enum built per event (a table narrates dozens of events per answer).
    return NARRATORS[event["kind"]](event["seat"], event, me)
