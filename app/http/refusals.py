"""The sentence for each of the engine's refusal codes (:class:`engine.Refusal`), from the
message catalog in the request's language; the API sends it as ``message`` beside the
code."""

from __future__ import annotations

from collections.abc import Callable

from app.http.i18n import gettext as _
from engine import Refusal, Suit
from engine.cards import RACER_NAME


def _racer(refusal: Refusal) -> dict[str, object]:
    return {"racer": RACER_NAME[Suit(str(refusal.param("suit")))]}


# Each code's words are written out whole, so the extractor finds every one of them.
_SENTENCES: dict[str, Callable[[Refusal], str]] = {
    "race_over": lambda r: _("The race is over: no more cards can be played."),
    "not_your_turn": lambda r: (
        _("It is not seat %(seat)s's turn: seat %(current)s is to play.") % r.as_dict()
    ),
    "not_an_action": lambda r: _("That is not an action."),
    "not_legal": lambda r: _("That move is not one of the legal moves now."),
    "gas_not_whole": lambda r: _("Gas spent must be a whole number, 0 or more."),
    "value_only_for_zero_five": lambda r: _("Only the 0/5 card takes a value and a discard."),
    "choose_card": lambda r: _("Choose which card to play."),
    "card_not_in_hand": lambda r: _("You have no %(racer)s card in your hand.") % _racer(r),
    "suit_face_up": lambda r: (
        _("%(racer)s is already face up in this trick: play another suit face up, or tune up.")
        % _racer(r)
    ),
    "choose_zero_effect": lambda r: _(
        "Choose the 0 card's effect: +1 speed, or one removed gas back."
    ),
    "zero_nothing_removed": lambda r: _(
        "No gas has been removed from the game yet, so the 0 can only give +1 speed."
    ),
    "effect_only_for_zero": lambda r: _("Only a 0 card has an effect to choose."),
    "choose_tune_up_card": lambda r: _("Choose which card to lay face down."),
    "tune_up_no_gas": lambda r: _("A Tune Up cannot carry gas: it is face down and cannot win."),
    "tune_up_no_effect": lambda r: _(
        "A Tune Up is just a card laid face down: it has no effect to choose."
    ),
    "gas_over_supply": lambda r: (
        _("You can spend at most %(most)s gas on this card.") % r.as_dict()
    ),
    "zero_five_not_in_race": lambda r: _("The 0/5 card is not used in this race."),
    "zero_five_used": lambda r: _("You have already used your 0/5 card."),
    "zero_five_tank_full": lambda r: _("Your tank is full: the 0/5 card needs room for gas."),
    "zero_five_nothing_removed": lambda r: _(
        "No gas has been removed from the game yet, so the 0/5 card cannot be played."
    ),
    "zero_five_in_trick": lambda r: _("Another 0/5 card is already in this trick."),
    "zero_five_value": lambda r: _("The 0/5 card is played either as 0 or as 5."),
    "zero_five_needs_lap": lambda r: _(
        "The 0/5 card can only be played as 5 once you have completed a lap."
    ),
    "zero_five_with_card": lambda r: _(
        "The 0/5 card is played from beside your hand, not with a card from it."
    ),
    "zero_five_choose_discard": lambda r: _("Choose a card from your hand to discard face down."),
    "discard_not_in_hand": lambda r: _("You have no %(racer)s card to discard.") % _racer(r),
    "action_not_object": lambda r: _("An action must be a JSON object."),
    "action_unknown_fields": lambda r: _("Unknown action field(s): %(fields)s.") % r.as_dict(),
    "action_type_unknown": lambda r: _("The action type must be play, tune_up or zero_five."),
    "gas_not_integer": lambda r: _("Gas must be a whole number."),
    "zero_five_value_not_integer": lambda r: _("The 0/5 card's value must be 0 or 5."),
    "no_such_card": lambda r: (
        _("There is no card called %(name)s (%(field)s).")
        % {"name": repr(r.param("name")), "field": r.param("field")}
    ),
    "zero_effect_unknown": lambda r: _("The 0 card's effect must be gas or speed."),
}


def refusal_sentence(refusal: Refusal) -> str:
    """The sentence that says why, in the request's language.

    >>> refusal_sentence(Refusal.of("card_not_in_hand", suit="jelly"))
    'You have no Jelly the Raccoon card in your hand.'
    """
    return _SENTENCES[refusal.code](refusal)
