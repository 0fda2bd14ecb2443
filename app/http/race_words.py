"""The sentence for each refusal (a race's :class:`app.races.errors.RaceError`, the lobby's
:class:`~app.races.errors.LobbyRefused`, the engine's :class:`engine.Refusal`), from the message
catalog in the request's language, keyed by the refusal's code; the API sends it as
``message`` beside the code."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.http.i18n import N_, ngettext
from app.http.i18n import gettext as _
from app.races.errors import IllegalMove, LobbyRefused, RaceError
from engine import Refusal, Suit
from engine.cards import RACER_NAME

Params = Mapping[str, Any]


# The codes whose sentence depends on their params: the key of that sentence here.
_VARIANTS: dict[str, Callable[[Params], str]] = {
    "expired": lambda p: "expired:restart" if p.get("cause") == "restart" else "expired",
    "stale_turn": lambda p: "stale_turn:ahead" if "now" in p else "stale_turn",
    "too_many_games": lambda p: f"too_many_games:{p['limit']}",
}

_SENTENCES = {
    "race_error": N_("That cannot be done with this race."),
    "expired": N_("This race has expired. Start a new one."),
    "expired:restart": N_(
        "The server restarted and this race could not be kept. Sorry! Start a new one."
    ),
    "stale_turn": N_("That move was for an earlier turn; here is the race as it stands now."),
    "stale_turn:ahead": N_(
        "That move is for turn %(turn)s, which has not come yet: the race is at turn "
        "%(now)s. Here is the race as it stands now."
    ),
    "too_many_games:player": N_(
        "You already have %(cap)s races running, the most one player may hold. Carry on "
        "with one of them, or wait for one you left to expire, then start again."
    ),
    "too_many_games:address": N_(
        "%(cap)s races are already running from your network (a school, an office or a phone "
        "network shares one address), the most one address may hold. Try again when some of "
        "them have finished."
    ),
    "not_found": N_("No race was found for this id and these credentials."),
    "not_your_turn": N_("It is not your turn; here is the race as it stands now."),
    "not_started": N_("The race has not started yet: it starts when everyone joined or on Start."),
    "not_creator": N_("Only the person who created this race can start it."),
    "invite_used": N_("This invite was already used to join."),
    "race_started": N_("This race has started without this seat; a bot took it."),
    "invite_not_found": N_("This invite does not belong to this race."),
    "invalid_name": N_("A name has 1 to %(most)s printable characters; pick another."),
    "invalid_request": N_("Between 1 and %(players)s people can race."),
    "second_seat": N_(
        "You already have a seat in this race: one player takes one seat, so nobody sees "
        "two hands. Go back to your seat, or open another race."
    ),
    "server_full": N_("The track is full right now. Try again in a minute."),
    "move_not_kept": N_(
        "The server could not keep that move in time. Nothing was played: try again."
    ),
    "takeback_with_people": N_(
        "Take-backs are only for races against bots: other people race here, and their "
        "turns cannot be undone for them."
    ),
    "takeback_race_over": N_("The race is over, so nothing can be taken back. Race again!"),
    "nothing_to_take_back": N_("There is nothing to take back: you have not played a card."),
    "takeback_unavailable": N_("This race cannot be taken back (it was not recorded)."),
    "leave_with_people": N_("Other people race here: this race goes on until it is finished."),
    "race_not_over": N_(
        "This race is not over yet: a review can only look back at a finished race."
    ),
    "review_not_requested": N_(
        "No review of your race was asked for yet: ask for one with POST first."
    ),
    "decision_not_reviewed": N_(
        "That decision is not in your finished review: review the race first."
    ),
    "daily_attempt_running": N_(
        "Your counted race of today's deal is still running: finish it first (go back to it "
        "from the daily page, or with the token its answer gave you). Practice races of "
        "today's deal come after it."
    ),
    "daily_address_full": N_(
        "%(cap)s counted races of today's deal were already started from your network "
        "address today, the most one address may start. A new day's deal comes at midnight "
        "UTC."
    ),
    "cup_attempt_running": N_(
        "Your counted race of this cup deal is still running: finish it first (go back to it "
        "from the cup page, or with the token its answer gave you). Practice races of the "
        "deal come after it."
    ),
    "cup_address_full": N_(
        "%(cap)s counted races of this cup deal were already started from your network "
        "address this week, the most one address may start. A new cup comes on Monday (UTC)."
    ),
    "not_away": N_("Your seat is already yours: no bot is playing it."),
    "rematch_unavailable": N_("A rematch is for a finished race with other people in it."),
    "rematch_answered": N_("You already answered this rematch."),
    "rematch_started": N_("The rematch started without you: a bot took your seat."),
    "no_rematch": N_("Nobody offered a rematch of this race yet."),
    "unknown_message": N_("That is not one of the quick messages: pick one of the buttons."),
    "talk_without_people": N_(
        "Quick messages are for races with other people: only bots race with you here."
    ),
    "talk_race_over": N_("The race is over, so the table no longer takes messages. Race again!"),
    "talk_too_fast": N_(
        "That was a lot of messages at once: wait %(retry_after)s s before the next one."
    ),
}


def race_sentence(error: RaceError | LobbyRefused) -> str:
    """The sentence that says why, in the request's language."""
    if isinstance(error, IllegalMove):
        return refusal_sentence(error.refusal)
    if error.code == "too_many_reviews":
        cap = error.params["cap"]
        return ngettext(
            "You already have %(num)s review in progress; wait for one to finish.",
            "You already have %(num)s reviews in progress; wait for one to finish.",
            cap,
        ) % {"num": cap}
    variant = _VARIANTS.get(error.code)
    return _(_SENTENCES[variant(error.params) if variant else error.code]) % dict(error.params)


# Filled with the refusal's params, the racer of its ``suit`` and the ``name`` quoted.
_REFUSALS = {
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
    return _(_REFUSALS[refusal.code]) % params
