"""The sentence for each of the engine's refusal codes (:class:`engine.Refusal`), in the
request's language; the API sends it as ``message`` beside the code."""

from __future__ import annotations

from app.http.i18n import N_
from app.http.i18n import gettext as _
from engine import Refusal, Suit
from engine.cards import RACER_NAME

# Filled with the refusal's params, the racer of its ``suit`` and the ``name`` quoted.
_SENTENCES = {
    "race_over": N_("The race is over: no more cards can be played."),
    "not_your_turn": N_("It is not seat %(seat)s's turn: seat %(current)s is to play."),
    "not_an_action": N_("That is not an action."),
    "not_legal": N_("That move is not one of the legal moves now."),
    "gas_not_whole": N_("Gas spent must be a whole number, 0 or more."),
    "value_only_for_zero_five": N_("Only the 0/5 card takes a value and a discard."),
    "choose_card": N_("Choose which card to play."),
    "card_not_in_hand": N_("You have no %(racer)s card in your hand."),
    "suit_face_up": N_(
        "%(racer)s is already face up in this trick: play another suit face up, or tune up."
    ),
    "choose_zero_effect": N_("Choose the 0 card's effect: +1 speed, or one removed gas back."),
    "zero_nothing_removed": N_(
        "No gas has been removed from the game yet, so the 0 can only give +1 speed."
    ),
    "effect_only_for_zero": N_("Only a 0 card has an effect to choose."),
    "choose_tune_up_card": N_("Choose which card to lay face down."),
    "tune_up_no_gas": N_("A Tune Up cannot carry gas: it is face down and cannot win."),
    "tune_up_no_effect": N_("A Tune Up is just a card laid face down: it has no effect to choose."),
    "gas_over_supply": N_("You can spend at most %(most)s gas on this card."),
    "zero_five_not_in_race": N_("The 0/5 card is not used in this race."),
    "zero_five_used": N_("You have already used your 0/5 card."),
    "zero_five_tank_full": N_("Your tank is full: the 0/5 card needs room for gas."),
    "zero_five_nothing_removed": N_(
        "No gas has been removed from the game yet, so the 0/5 card cannot be played."
    ),
    "zero_five_in_trick": N_("Another 0/5 card is already in this trick."),
    "zero_five_value": N_("The 0/5 card is played either as 0 or as 5."),
    "zero_five_needs_lap": N_(
        "The 0/5 card can only be played as 5 once you have completed a lap."
    ),
    "zero_five_with_card": N_(
        "The 0/5 card is played from beside your hand, not with a card from it."
    ),
    "zero_five_choose_discard": N_("Choose a card from your hand to discard face down."),
    "discard_not_in_hand": N_("You have no %(racer)s card to discard."),
    "action_not_object": N_("An action must be a JSON object."),
    "action_unknown_fields": N_("Unknown action field(s): %(fields)s."),
    "action_type_unknown": N_("The action type must be play, tune_up or zero_five."),
    "gas_not_integer": N_("Gas must be a whole number."),
    "zero_five_value_not_integer": N_("The 0/5 card's value must be 0 or 5."),
    "no_such_card": N_("There is no card called %(name)s (%(field)s)."),
    "zero_effect_unknown": N_("The 0 card's effect must be gas or speed."),
}


def refusal_sentence(refusal: Refusal) -> str:
    """The sentence that says why, in the request's language."""
    params: dict[str, object] = {**refusal.as_dict()}
    if "suit" in params:
        params["racer"] = RACER_NAME[Suit(str(params["suit"]))]
    if "name" in params:
        params["name"] = repr(params["name"])
    return _(_SENTENCES[refusal.code]) % params
