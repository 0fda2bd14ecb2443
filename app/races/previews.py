"""The previews and sentences of a person's turn, added to a view when a response is rendered.

The engine's observation (:func:`engine.observe`) is data only: what the seat knows. What
a person needs to choose a card (may each card go face up and why not, what it would
count, the gas that could go on it, the 0/5 card's choices) is built here, from that
data alone, and only for a response a person receives: the API's JSON and the table's
HTML. Bots never pay for it.

:func:`with_previews` adds ``card_options`` and ``zero_five_option`` right after
``legal_actions``, where clients have always found them.

>>> from engine import new_game, observe
>>> game = new_game(players=3, seed=2)
>>> seat = game.current_seat
>>> shown = with_previews(observe(game, seat))
>>> [key for key in shown][-3:]
['legal_actions', 'card_options', 'zero_five_option']
>>> with_previews(observe(game, (seat + 1) % 3))["card_options"]
[]
"""

from __future__ import annotations

from typing import Any, TypeVar, cast

from engine import (
    MAX_GAS,
    Action,
    ActionType,
    CardOption,
    Leader,
    PublicPlay,
    Suit,
    ZeroEffect,
    ZeroFiveOption,
    ZeroPreview,
    effective_value,
    supply_after_effect,
)
from engine.cards import SUIT_VALUE
from engine.seat_view import leader
from engine.view import TableView

View = TypeVar("View", bound=TableView)

_PLAY, _ZERO_FIVE = ActionType.PLAY.value, ActionType.ZERO_FIVE.value
_LICHEN = Suit.LICHEN.value


def with_previews(view: View) -> View:
    """``view`` (an observation, or a state built on one) with the turn's previews: a copy
    whose ``card_options`` and ``zero_five_option`` follow ``legal_actions``; empty (``[]``
    and ``None``) unless the view's seat is the one to move."""
    options, zero_five = previews(view)
    shown: dict[str, Any] = {}
    for key, value in view.items():
        if key in ("card_options", "zero_five_option"):
            continue
        shown[key] = value
        if key == "legal_actions":
            shown["card_options"] = options
            shown["zero_five_option"] = zero_five
    return cast(View, shown)


def previews(view: TableView) -> tuple[list[CardOption], ZeroFiveOption | None]:
    """The card options and the 0/5 card's option of ``view``'s seat, if it is to move."""
    seat = view.get("seat")
    if not isinstance(seat, int) or view["current_seat"] != seat:
        return [], None
    plays = view["trick_plays"]
    lichen = any(p["type"] == _PLAY and p["suit"] == _LICHEN for p in plays)
    return _card_options(view, seat, plays, lichen), _zero_five_option(view, seat, plays, lichen)


def _best_after(plays: list[PublicPlay], striking: bool) -> Leader | None:
    """The current leader if a 1 were added now (``striking``, R9), else as things stand."""
    if not striking:
        return leader(plays)
    struck = []
    for play in plays:
        final, value = play["final"], play["value"]
        if final is not None and value is not None:
            play = {**play, "final": final - value + effective_value(value, True)}
        struck.append(play)
    return leader(struck)


def _card_options(
    view: TableView, seat: int, plays: list[PublicPlay], lichen: bool
) -> list[CardOption]:
    """Per distinct card in hand: whether it may go face up (R7), why not, and what it
    would count (R8, R9, R10, R20)."""
    blocked = set(view["blocked_suits"])
    me = view["players"][seat]
    gas, speed, middle, removed = me["gas"], me["speed"], view["middle"], view["removed"]
    options: list[CardOption] = []
    for name in dict.fromkeys(view["hand"]):  # the hand is sorted already
        suit = Suit(name)
        value = SUIT_VALUE[suit]
        can = name not in blocked
        zero_previews: dict[str, ZeroPreview] = {}
        if suit is Suit.ZERO:
            for effect in ZeroEffect.SPEED, ZeroEffect.GAS:
                if effect is ZeroEffect.GAS and not removed:
                    continue  # R20: nothing removed, nothing to take back
                gas_max = supply_after_effect(Action.play(suit, 0, effect), gas, middle, removed)
                zero_previews[effect.value] = {
                    "speed": speed + 1 if effect is ZeroEffect.SPEED else speed,
                    "gas_max": gas_max,
                }
        options.append(
            {
                "suit": name,
                "value": value,
                "can_play_face_up": can,
                "blocked_reason": None,  # worded by the web layer (app/http/previews.py)
                "effective_value": effective_value(value, lichen),
                "speed": speed,
                "gas_max": supply_after_effect(Action.play(suit), gas, middle, removed),
                "best_other": _best_after(plays, suit is Suit.LICHEN and not lichen),
                "zero_effect_choices": list(zero_previews),
                "zero_previews": zero_previews,
            }
        )
    return options


def _zero_five_option(
    view: TableView, seat: int, plays: list[PublicPlay], lichen: bool
) -> ZeroFiveOption | None:
    """The 0/5 card's choices now (R21, R22), or ``None`` if it cannot be played now."""
    me = view["players"][seat]
    gas, removed = me["gas"], view["removed"]
    playable = (
        me["zero_five_available"]
        and gas < MAX_GAS
        and removed > 0
        and not any(p["type"] == _ZERO_FIVE for p in plays)
    )
    if not playable:
        return None
    values = [0, 5] if me["laps"] >= 1 else [0]
    gas_max = {}
    for value in values:
        probe = Action(ActionType.ZERO_FIVE, None, 0, None, value, None)
        gas_max[str(value)] = supply_after_effect(probe, gas, view["middle"], removed)
    return {
        "values": values,
        "gas_max": gas_max,
        "effective_value": {str(v): effective_value(v, lichen) for v in values},
        "speed": me["speed"],
        "best_other": leader(plays),
    }
