"""Hints: what a move would score, and the normal bot's move with a reason, from one seat's
observation and options (:func:`engine.options.seat_options`), never another hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple, cast

from app.http.i18n import N_
from app.http.i18n import gettext as _
from app.http.web.labels import PRINTED_VALUES, SUITS, Me, seat_name
from engine import Observation
from engine.bots import make_bot
from engine.cards import TRICKS_PER_ROUND
from engine.options import Best, observed_options, trick_stake

Obs = Mapping[str, Any]

SUGGESTING_BOT = "normal"


class Preview(NamedTuple):
    """What a move would do now: its final number (None for a Tune Up), the best other card
    to beat and the gas left after it."""

    final: int | None
    best: Best | None
    gas_left: int

    def beats(self) -> bool:
        """Whether the card would lead the trick now (a tie goes to the earlier card)."""
        return self.final is not None and (self.best is None or self.final > self.best.final)


def preview(obs: Obs, action: Mapping[str, Any]) -> Preview | None:
    options = observed_options(cast(Observation, obs))
    gas = int(action.get("gas") or 0)
    if action["type"] == "tune_up":
        return Preview(None, options.best, int(obs["players"][obs["seat"]]["gas"]))
    if action["type"] == "zero_five":
        choice = options.zero_five
        played = None if choice is None else choice.at(action.get("value"))
        if choice is None or played is None:
            return None
        return Preview(choice.final(played, gas), choice.best_other, played.gas_max - gas)
    card = options.card(action.get("suit"))
    if card is None or not card.face_up:
        return None
    effect = action.get("zero_effect")
    return Preview(card.final(gas, effect), card.best_other, card.most_gas(effect) - gas)


def _card_words(action: Mapping[str, Any]) -> str:
    """ "Jelly (4)", "Jelly (4) + 2 gas" or "the 0/5 card as 5"."""
    if action["type"] == "zero_five":
        card = _("the 0/5 card as %(value)s") % {"value": action["value"]}
    else:
        suit = str(action["suit"])
        card = f"{SUITS[suit].short} ({PRINTED_VALUES[suit]})"
    gas = int(action.get("gas") or 0)
    return _("%(card)s + %(gas)s gas") % {"card": card, "gas": gas} if gas else card


def _rival(best: Best, me: Me) -> str:
    return _("%(name)s's %(final)s") % {"name": seat_name(best.seat, me), "final": best.final}


def preview_sentence(obs: Obs, action: Mapping[str, Any], me: Me | None = None) -> str:
    """The score preview without JavaScript: "Jelly (4) + 2 gas scores 7: beats Yellow's 6"
    (``me`` names the seats; by default the observing seat, with colours)."""
    me = int(obs["seat"]) if me is None else me
    seen = preview(obs, action)
    if seen is None:
        return _("That card cannot go face up now; it can still be a Tune Up.")
    if seen.final is None:
        return _("A Tune Up scores nothing; you keep your %(gas)s gas.") % {"gas": seen.gas_left}
    values = {"card": _card_words(action), "final": seen.final}
    best = seen.best
    if best is None:
        return _("%(card)s scores %(final)s: nothing face up to beat yet.") % values
    values["rival"] = _rival(best, me)
    if seen.beats():
        return _("%(card)s scores %(final)s: beats %(rival)s.") % values
    return _("%(card)s scores %(final)s: does not beat %(rival)s.") % values


_TUNE_UP_REASONS = {  # (is there a card to beat, is there gas in the middle)
    (True, True): N_(
        "Tune Up with %(card)s rather than chase %(rival)s: %(middle)s gas waits in the middle."
    ),
    (True, False): N_("Tune Up with %(card)s rather than chase %(rival)s: you hold %(left)s gas."),
    (False, True): N_(
        "Tune Up with %(card)s and keep your cards: %(middle)s gas waits in the middle."
    ),
    (False, False): N_("Tune Up with %(card)s and keep your cards: you hold %(left)s gas."),
}

_PLAY_REASONS = {  # (what the card does to the trick, is it the round's last trick)
    ("leads", True): N_("Leads with %(card)s, scoring %(final)s."),
    ("leads", False): N_(
        "Leads with %(card)s, scoring %(final)s, keeping %(left)s gas for trick %(trick)s."
    ),
    ("beats", True): N_("Beats %(rival)s with %(card)s, scoring %(final)s to take the lap."),
    ("beats", False): N_(
        "Beats %(rival)s with %(card)s, scoring %(final)s, keeping %(left)s gas for trick "
        "%(trick)s."
    ),
    ("lets", True): N_("Lets %(rival)s stand: %(card)s goes in cheaply."),
    ("lets", False): N_(
        "Lets %(rival)s stand: %(card)s goes in cheaply, keeping %(left)s gas for trick %(trick)s."
    ),
}


def reason(obs: Obs, action: Mapping[str, Any], me: Me | None = None) -> str:
    """What ``action`` does for the seat: "Beats Yellow's 6 with …" (``me`` as above)."""
    me = int(obs["seat"]) if me is None else me
    seen = preview(obs, action)
    card = _card_words(action)
    if seen is None:
        return _("Plays %(card)s.") % {"card": card}
    last = trick_stake(int(obs["trick"])) == "lap"
    best = seen.best
    values: dict[str, Any] = {
        "left": seen.gas_left,
        "trick": TRICKS_PER_ROUND,
        "final": seen.final,
        "rival": None if best is None else _rival(best, me),
    }
    if action["type"] == "tune_up":
        values["card"] = SUITS[str(action["suit"])].short
        values["middle"] = int(obs.get("middle") or 0)
        return _(_TUNE_UP_REASONS[best is not None, bool(values["middle"])]) % values
    values["card"] = card
    does = "leads" if best is None else "beats" if seen.beats() else "lets"
    return _(_PLAY_REASONS[does, last]) % values


def suggest(obs: Observation, seed: int, me: Me | None = None) -> dict[str, Any]:
    """The normal bot's move for the observing seat: its ``action`` (engine JSON) and its
    :func:`reason`, as the page's hint keeps them; ``ValueError`` when it is not that seat's
    turn."""
    action = dict(make_bot(SUGGESTING_BOT, seed).choose(obs).to_dict())
    return {"action": action, "reason": reason(obs, action, me)}
