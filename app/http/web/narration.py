"""One plain-English sentence per public event, told from one seat's point of view.

Owned by the web layer. :data:`NARRATORS` is a table keyed by :class:`engine.EventKind`,
so a new kind of event without a sentence is one missing key (and one failing test), not
a silent "something happened".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.http.web.labels import SUITS, ZERO_FIVE, Me, gas, is_viewer, names, seat_name, verb
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


def _round_dealt(seat: int | None, event: RoundDealt, me: Me) -> str:
    lead = event["lead"]
    return (
        f"Round {event['round']}: everyone is dealt up to {event['hand_size']} cards. "
        f"{seat_name(lead, me)} {verb(lead, me, 'lead', 'leads')} the first trick."
    )


def _card_played(seat: int | None, event: CardPlayed, me: Me) -> str:
    # A final below card + gas + speed means a Lichen in the trick struck the card (R9).
    counts = event["final"] - event["gas"] - event["speed"]
    value = f"{event['value']}"
    if counts < event["value"]:
        value += f", counted {counts} because a Lichen is face up in this trick"
    return (
        f"{seat_name(seat, me)} {verb(seat, me, 'play', 'plays')} "
        f"{SUITS[event['suit']].short} ({value}) with {gas(event['gas'])}"
        f" and speed {event['speed']}: {event['final']}."
    )


def _tuned_up(seat: int | None, event: TunedUp, me: Me) -> str:
    return f"{seat_name(seat, me)} {verb(seat, me, 'tune', 'tunes')} up: a card goes face down."


def _zero_five_played(seat: int | None, event: ZeroFivePlayed, me: Me) -> str:
    return (
        f"{seat_name(seat, me)} {verb(seat, me, 'play', 'plays')} "
        f"{SUITS[ZERO_FIVE].racer} as {event['value']}, "
        f"winning back {gas(event['gained'])}, with {gas(event['gas'])} and speed "
        f"{event['speed']}: {event['final']}."
    )


def _card_discarded(seat: int | None, event: CardDiscarded, me: Me) -> str:
    return f"{seat_name(seat, me)} {verb(seat, me, 'discard', 'discards')} a card face down."


def _gas_taken(seat: int | None, event: GasTaken, me: Me) -> str:
    if event["amount"]:
        grabs = verb(seat, me, "grab", "grabs")
        return f"{seat_name(seat, me)} {grabs} {gas(event['amount'])} from the middle."
    whose = "Your" if is_viewer(seat, me) else f"{seat_name(seat, me)}'s"
    return (
        f"{whose} tank is full, so the {gas(event['removed'])} Salty takes from the middle "
        "leaves the game."
    )


def _zero_effect(seat: int | None, event: ZeroEffectChosen, me: Me) -> str:
    who = seat_name(seat, me)
    if event["choice"] == "speed":
        return f"{who} {verb(seat, me, 'take', 'takes')} +1 speed for the rest of the round."
    if event["gained"]:
        wins = verb(seat, me, "win", "wins")
        return f"{who} {wins} back {gas(event['gained'])} from the removed pile."
    whose = "your" if is_viewer(seat, me) else "their"
    return f"{who} asked for removed gas, but {whose} tank is full: it stays removed."


WAYS = {2: "two", 3: "three", 4: "four", 5: "five"}
"""How many ways a shared middle is split, in words."""


def _tune_up_share(seat: int | None, event: TuneUpShare, me: Me) -> str:
    """The Tune Up payout, saying who could not take their whole share (full tank) and why
    any gas leaves the game: the odd units that cannot be split evenly, or a full tank."""
    seats: list[int] = event["seats"]
    each: int = event["each"]
    gained: list[int] = event["gained"]
    middle: int = event["middle_before"]
    pot = gas(middle)
    gone = f"; {gas(event['removed'])} leaves the game." if event["removed"] else "."
    if len(seats) == 1:
        return _single_share(seats[0], gained[0], each, pot, gone, me)
    ways = WAYS.get(len(seats), str(len(seats)))
    if each == 0:
        return (
            f"Tune Up payout: nobody gets the {pot} in the middle: split {ways} ways between "
            f"{names(seats, me)} it rounds down to 0, so it leaves the game."
        )
    text = f"Tune Up payout: {names(seats, me)} split the {pot} in the middle, {each} each"
    short = [
        f"{seat_name(tuner, me)} only had room for {got}"
        for tuner, got in zip(seats, gained, strict=True)
        if got < each
    ]
    if short:
        text += " (" + "; ".join(short) + ")"
    odd = middle - each * len(seats)
    full = event["removed"] - odd
    reasons = [f"the odd {gas(odd)} cannot be split {ways} ways"] if odd else []
    if full:
        reasons.append(f"{gas(full)} does not fit a full tank")
    if not reasons:
        return text + "."
    return text + "; " + " and ".join(reasons) + ", so it leaves the game."


def _single_share(seat: int, got: int, each: int, pot: str, gone: str, me: Me) -> str:
    """The payout sentence when only one player tuned up."""
    who = seat_name(seat, me)
    if got == each:
        return f"Tune Up payout: {who} {verb(seat, me, 'take', 'takes')} the {pot} in the middle."
    if got == 0:
        tank = "your" if is_viewer(seat, me) else f"{who}'s"
        return f"Tune Up payout: {tank} tank is full, so the {pot} in the middle leaves the game."
    fills = verb(seat, me, "fill", "fills")
    return f"Tune Up payout: {who} {fills} up with {got} of the {pot} in the middle{gone}"


def _trick_won(seat: int | None, event: TrickWon, me: Me) -> str:
    wins = verb(seat, me, "win", "wins")
    return f"{seat_name(seat, me)} {wins} trick {event['trick']} with {event['final']}."


def _trick_all_tuned_up(seat: int | None, event: TrickAllTunedUp, me: Me) -> str:
    return f"Everyone tuned up: nobody wins trick {event['trick']}."


def _gas_to_middle(seat: int | None, event: GasToMiddle, me: Me) -> str:
    if not event["amount"]:
        return f"No gas was spent; the middle holds {event['middle']}."
    return (
        f"The {gas(event['amount'])} on the cards slides into the middle (now {event['middle']})."
    )


def _speed_gained(seat: int | None, event: SpeedGained, me: Me) -> str:
    moves = verb(seat, me, "move", "moves")
    return f"{seat_name(seat, me)} {moves} up to speed {event['speed']}."


def _lap_gained(seat: int | None, event: LapGained, me: Me) -> str:
    completes = verb(seat, me, "complete", "completes")
    return f"{seat_name(seat, me)} {completes} a lap ({event['laps']} of {LAPS_TO_WIN})!"


def _game_won(seat: int | None, event: GameWon, me: Me) -> str:
    return f"{seat_name(seat, me)} {verb(seat, me, 'win', 'wins')} the race!"


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
