"""Hints for the human: what a move would score, and the normal bot's move with a reason.

Everything here reads one seat's observation (``Game.observation(seat)``) and an action in
the engine's JSON form; nothing sees another hand. The numbers come from the turn's
previews (``card_options``, ``zero_five_option``: effective value, speed, gas available
after the card's effect, best other card; :mod:`app.races.previews` adds them to a bare
observation), so no rule is worked out twice: a
card's final number is its effective value plus speed plus the gas poured on it, as the
observation states them.

>>> from engine import new_game
>>> game = new_game(players=3, seed=4)
>>> obs = game.observation(game.current_seat)
>>> hint = suggest(obs, seed=1)
>>> hint.action in obs["legal_actions"] and hint.reason[0].isupper()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from app.http.previews import with_previews
from app.http.web.labels import PRINTED_VALUES, SUITS, Me, seat_name
from engine import Observation
from engine.bots import make_bot
from engine.cards import TRICKS_PER_ROUND

Obs = Mapping[str, Any]

SUGGESTING_BOT = "normal"
"""The bot level whose move a suggestion is."""


@dataclass(frozen=True, slots=True)
class Preview:
    """What a move would do now: its final number (``None`` for a Tune Up), the best
    other card it has to beat (``{"seat", "final"}`` or ``None``) and the gas left after it."""

    final: int | None
    best: Mapping[str, int] | None
    gas_left: int

    def beats(self) -> bool:
        """Whether the card would lead the trick now (a tie goes to the earlier card)."""
        return self.final is not None and (self.best is None or self.final > self.best["final"])


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The suggested action (engine JSON, one of the legal actions) and why, in one line."""

    action: dict[str, Any]
    reason: str


def _option(obs: Obs, suit: str) -> Mapping[str, Any] | None:
    for option in obs.get("card_options") or []:
        if option["suit"] == suit:
            return option  # type: ignore[no-any-return]
    return None


def preview(obs: Obs, action: Mapping[str, Any]) -> Preview | None:
    """The preview of ``action`` from the observation, or ``None`` if it offers none."""
    if "card_options" not in obs:  # a bare observation: the previews a page would show
        obs = cast(Obs, with_previews(cast(Observation, obs)))
    me = obs["players"][obs["seat"]]
    gas = int(action.get("gas") or 0)
    if action["type"] == "tune_up":
        return Preview(None, obs.get("best"), int(me["gas"]))
    if action["type"] == "zero_five":
        option = obs.get("zero_five_option")
        key = str(action.get("value"))
        if not option or key not in option["gas_max"]:
            return None
        final = int(option["effective_value"][key]) + int(option["speed"]) + gas
        return Preview(final, option["best_other"], int(option["gas_max"][key]) - gas)
    option = _option(obs, str(action.get("suit")))
    if option is None or not option["can_play_face_up"]:
        return None
    speed, gas_max = int(option["speed"]), int(option["gas_max"])
    effect = action.get("zero_effect")
    if effect and effect in option["zero_previews"]:
        speed = int(option["zero_previews"][effect]["speed"])
        gas_max = int(option["zero_previews"][effect]["gas_max"])
    final = int(option["effective_value"]) + speed + gas
    return Preview(final, option["best_other"], gas_max - gas)


def _card_words(action: Mapping[str, Any]) -> str:
    """ "Jelly (4)" or "the 0/5 card as 5"."""
    if action["type"] == "zero_five":
        return f"the 0/5 card as {action['value']}"
    suit = str(action["suit"])
    return f"{SUITS[suit].short} ({PRINTED_VALUES[suit]})"


def preview_sentence(obs: Obs, action: Mapping[str, Any], me: Me | None = None) -> str:
    """The score preview of the move form, worked out on the server (for JavaScript off):
    "Jelly (4) + 2 gas scores 7: beats Yellow's 6" (``me`` names the seats; by default
    the observing seat, with colours)."""
    me = int(obs["seat"]) if me is None else me
    seen = preview(obs, action)
    if seen is None:
        return "That card cannot go face up now; it can still be a Tune Up."
    if seen.final is None:
        return f"A Tune Up scores nothing; you keep your {seen.gas_left} gas."
    gas = int(action.get("gas") or 0)
    poured = f" + {gas} gas" if gas else ""
    best = seen.best
    if best is None:
        against = "nothing face up to beat yet"
    else:
        verb = "beats" if seen.beats() else "does not beat"
        against = f"{verb} {seat_name(best['seat'], me)}'s {best['final']}"
    return f"{_card_words(action)}{poured} scores {seen.final}: {against}."


def reason(obs: Obs, action: Mapping[str, Any], me: Me | None = None) -> str:
    """One line saying what ``action`` does for the seat: "Beats Yellow's 6 with …"
    (``me`` names the seats; by default the observing seat, with colours)."""
    me = int(obs["seat"]) if me is None else me
    seen = preview(obs, action)
    if seen is None:
        return f"Plays {_card_words(action)}."
    last = int(obs["trick"]) == TRICKS_PER_ROUND
    gas = int(action.get("gas") or 0)
    poured = f" + {gas} gas" if gas else ""
    keep = "" if last else f", keeping {seen.gas_left} gas for trick {TRICKS_PER_ROUND}"
    best = seen.best
    rival = None if best is None else f"{seat_name(best['seat'], me)}'s {best['final']}"
    if action["type"] == "tune_up":
        card = SUITS[str(action["suit"])].short
        against = f"rather than chase {rival}" if rival else "and keep your cards"
        middle = int(obs.get("middle") or 0)
        pot = (
            f"{middle} gas waits in the middle" if middle else "you hold " + f"{seen.gas_left} gas"
        )
        return f"Tune Up with {card} {against}: {pot}."
    card = _card_words(action)
    if best is None:
        return f"Leads with {card}{poured}, scoring {seen.final}{keep}."
    if seen.beats():
        prize = " to take the lap" if last else ""
        return f"Beats {rival} with {card}{poured}, scoring {seen.final}{prize}{keep}."
    return f"Lets {rival} stand: {card} goes in cheaply{keep}."


def hint(obs: Observation, seed: int, me: Me | None = None) -> tuple[dict[str, Any], str]:
    """:func:`suggest` as ``(action, reason)``, the form the table page keeps as its hint
    (:class:`app.http.web.page_state.PageState`)."""
    found = suggest(obs, seed, me)
    return found.action, found.reason


def suggest(obs: Observation, seed: int, me: Me | None = None) -> Suggestion:
    """The normal bot's move for the observing seat, with its :func:`reason` (``me``
    names the other seats, as in :func:`reason`).

    Raises ``ValueError`` when it is not that seat's turn.
    """
    action = dict(make_bot(SUGGESTING_BOT, seed).choose(obs).to_dict())
    return Suggestion(action, reason(obs, action, me))
