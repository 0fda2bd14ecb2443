"""The one function that builds a seat's view of the game (boardgame.io's ``playerView``).

Everything a page, an API response or a bot learns about a game passes through
:func:`observe`; it copies out only what that seat may know: its own hand, public
numbers and face-up cards. Face-down identities, other hands, the deck order and the
generator state never appear.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.actions import Action, ActionType
from engine.cards import (
    MAX_GAS,
    RACER_NAME,
    STRUCK_BY_LICHEN,
    SUIT_ORDER,
    SUIT_VALUE,
    Suit,
    ZeroEffect,
)

if TYPE_CHECKING:
    from engine.game import Game

_SORT_KEY = {suit: (SUIT_VALUE[suit], i) for i, suit in enumerate(SUIT_ORDER)}


def observe(game: Game, seat: int) -> dict[str, Any]:
    """Return ``seat``'s view of ``game`` as JSON-ready data.

    >>> from engine import new_game
    >>> view = observe(new_game(players=3, seed=2), 1)
    >>> len(view["hand"]), "hands" in view, view["players"][0]["hand_size"]
    (6, False, 6)
    """
    from engine.game import copy_record, public_play

    if type(seat) is not int or not 0 <= seat < game.players:
        raise ValueError(f"There is no seat {seat!r} in this race.")
    lichen = game.lichen_in_trick()
    my_turn = game.current_seat == seat
    plays = [public_play(p, lichen) for p in game.plays]
    best = _best(plays)
    copies: dict[str, int] = {}
    for card in game.variants.deck(game.players):
        copies[card.value] = copies.get(card.value, 0) + 1
    return {
        "seat": seat,
        "players_count": game.players,
        "variants": game.variants.to_dict(),
        "hand": [card.value for card in sorted(game.hands[seat], key=_SORT_KEY.__getitem__)],
        "zero_five_available": game.variants.zero_five and game.zero_five[seat],
        "players": [
            {
                "seat": s,
                "gas": game.gas[s],
                "speed": game.speed[s],
                "laps": game.laps[s],
                "hand_size": len(game.hands[s]),
                "zero_five_available": game.variants.zero_five and game.zero_five[s],
            }
            for s in range(game.players)
        ],
        "middle": game.middle,
        "removed": game.removed,
        "round": game.round,
        "trick": game.trick,
        "lead": game.lead,
        "current_seat": game.current_seat,
        "game_over": game.is_over,
        "winner": game.winner,
        "trick_plays": plays,
        "blocked_suits": [suit.value for suit in game.blocked_suits()],
        "best": best,
        "round_tricks": [copy_record(r) for r in game.round_tricks],
        "last_trick": None if game.last_trick is None else copy_record(game.last_trick),
        "deck": {"size": sum(copies.values()), "copies": copies},
        "set_aside": len(game.set_aside),
        "legal_actions": [a.to_dict() for a in game.legal_actions()] if my_turn else [],
        "card_options": _card_options(game, seat, plays, lichen) if my_turn else [],
        "zero_five_option": _zero_five_option(game, seat, plays, lichen) if my_turn else None,
    }


def _best(plays: list[dict[str, Any]]) -> dict[str, int] | None:
    """The face-up card now winning: highest final, the earlier card on a tie (R13)."""
    best: dict[str, int] | None = None
    for play in plays:
        final = play["final"]
        if final is not None and (best is None or final > best["final"]):
            best = {"seat": play["seat"], "final": final}
    return best


def _best_after(plays: list[dict[str, Any]], striking: bool) -> dict[str, int] | None:
    """The current leader if a 1 were added now (``striking``), else as things stand."""
    if not striking:
        return _best(plays)
    struck = []
    for play in plays:
        if play["final"] is not None and play["value"] in STRUCK_BY_LICHEN:
            play = {**play, "final": play["final"] - play["effective_value"]}
        struck.append(play)
    return _best(struck)


def _card_options(
    game: Game, seat: int, plays: list[dict[str, Any]], lichen: bool
) -> list[dict[str, Any]]:
    """Per distinct card in hand: whether it may go face up, why not, and preview numbers."""
    blocked = set(game.blocked_suits())
    gas = game.gas[seat]
    speed = game.speed[seat]
    options = []
    for suit in sorted(set(game.hands[seat]), key=_SORT_KEY.__getitem__):
        value = SUIT_VALUE[suit]
        can = suit not in blocked
        gas_max = gas
        if suit is Suit.SALTY and game.middle > 0:
            gas_max = min(MAX_GAS, gas + 1)
        zero_previews: dict[str, dict[str, int]] = {}
        if suit is Suit.ZERO:
            zero_previews["speed"] = {"speed": speed + 1, "gas_max": gas}
            if game.removed:
                zero_previews["gas"] = {"speed": speed, "gas_max": min(MAX_GAS, gas + 1)}
        options.append(
            {
                "suit": suit.value,
                "value": value,
                "can_play_face_up": can,
                "blocked_reason": None
                if can
                else f"{RACER_NAME[suit]} is already face up in this trick.",
                "effective_value": 0 if lichen and value in STRUCK_BY_LICHEN else value,
                "speed": speed,
                "gas_max": gas_max,
                "best_other": _best_after(plays, suit is Suit.LICHEN and not lichen),
                "zero_effect_choices": [ZeroEffect(k).value for k in zero_previews],
                "zero_previews": zero_previews,
            }
        )
    return options


def _zero_five_option(
    game: Game, seat: int, plays: list[dict[str, Any]], lichen: bool
) -> dict[str, Any] | None:
    """The 0/5 card's choices now, or ``None`` if it cannot be played this turn."""
    if not game.zero_five_playable(seat):
        return None
    values = [0, 5] if game.laps[seat] >= 1 else [0]
    gas_max = {}
    for value in values:
        probe = Action(ActionType.ZERO_FIVE, None, 0, None, value, None)
        gas_max[str(value)] = game.supply_after_effect(seat, probe)
    return {
        "values": values,
        "gas_max": gas_max,
        "effective_value": {str(v): 0 if lichen and v in STRUCK_BY_LICHEN else v for v in values},
        "speed": game.speed[seat],
        "best_other": _best(plays),
    }
