"""The moves of a race, kept server-side so the race can be rebuilt move by move.

The public log cannot rebuild a race: a Tune Up (R7) and the 0/5 card's discard (R22)
are face down there. The server keeps each applied action, with its seat, beside the
log, in :class:`app.races.record.GameSession`'s saved data. It is as secret as the hands
(it names every face-down card) and never leaves the server.

Every route that moves a race applies an action and hands the events to
``GameSession.record_events``, so the action is read back from those events and the
mover's hand just before: the events give the kind, the face-up card, the gas and the
0's effect; the card that left the hand gives a Tune Up's card and the 0/5 discard.
``Game.apply`` removes a card with ``list.remove`` and a new deal only appends to the
hands (R17, R18), so the mover's hand after the move starts with its old hand less that
one card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from engine import Action, ActionType, Event, EventKind, Suit, ZeroEffect

_MOVES = (EventKind.CARD_PLAYED, EventKind.TUNED_UP, EventKind.ZERO_FIVE_PLAYED)
SEPARATOR = "|"
"""Between the fields of a kept move; the seat comes first."""


def encode(seat: int, action: Action) -> str:
    """A kept move as one short string (a race keeps a few hundred).

    >>> encode(2, Action.play(Suit.ZERO, 1, ZeroEffect.GAS))
    '2|play|zero|1|gas||'
    >>> move = Action.zero_five(5, 2, Suit.JELLY)
    >>> decode(encode(1, move)) == (1, move)
    True
    """
    data = action.to_dict()
    parts = [str(seat), data["type"], data["suit"] or "", str(data["gas"])]
    parts += [data["zero_effect"] or "", "" if data["value"] is None else str(data["value"])]
    parts.append(data["discard"] or "")
    return SEPARATOR.join(parts)


def decode(kept: str) -> tuple[int, Action]:
    """The seat and action :func:`encode` kept."""
    seat, kind, suit, gas, effect, value, discard = kept.split(SEPARATOR)
    return int(seat), Action(
        ActionType(kind),
        Suit(suit) if suit else None,
        int(gas),
        ZeroEffect(effect) if effect else None,
        int(value) if value else None,
        Suit(discard) if discard else None,
    )


def _card_gone(before: Sequence[Suit], after: Sequence[Suit]) -> Suit:
    """The card that left ``before`` (see the module docstring)."""
    kept = list(after[: len(before) - 1])
    for i, card in enumerate(before):
        if list(before[:i]) + list(before[i + 1 :]) == kept:
            return card
    raise ValueError("The hand after the move does not follow from the hand before it.")


def action_of(
    events: Sequence[Event], hand_before: Sequence[Suit], hand_after: Sequence[Suit]
) -> tuple[int, Action] | None:
    """The seat and action that produced ``events`` (one ``Game.apply``), or None when the
    events are no move (the opening deal)."""
    move = next((e for e in events if e.kind in _MOVES), None)
    if move is None or move.seat is None:
        return None
    data = cast(dict[str, Any], move.data)
    if move.kind is EventKind.TUNED_UP:
        return move.seat, Action.tune_up(_card_gone(hand_before, hand_after))
    if move.kind is EventKind.ZERO_FIVE_PLAYED:
        gone = _card_gone(hand_before, hand_after)
        return move.seat, Action.zero_five(int(data["value"]), int(data["gas"]), gone)
    suit = Suit(str(data["suit"]))
    effect = None
    if suit is Suit.ZERO:
        chosen = next(e for e in events if e.kind is EventKind.ZERO_EFFECT)
        effect = ZeroEffect(str(cast(dict[str, Any], chosen.data)["choice"]))
    return move.seat, Action.play(suit, int(data["gas"]), effect)
