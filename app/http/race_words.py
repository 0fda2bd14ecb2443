"""The sentence for each race refusal (:class:`app.races.errors.RaceError` and the
lobby's :class:`~app.races.lobby.LobbyError`), from the message catalog in the request's
language, keyed by the refusal's code; the API sends it as ``message`` beside the code."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.http.i18n import gettext as _
from app.http.i18n import ngettext
from app.http.refusals import refusal_sentence
from app.races.errors import IllegalMove, RaceError
from app.races.lobby import LobbyError

Params = Mapping[str, Any]


def _expired(p: Params) -> str:
    if p.get("cause") == "restart":
        return _("The server restarted and this race could not be kept. Sorry! Start a new one.")
    return _("This race has expired. Start a new one.")


def _stale(p: Params) -> str:
    if "now" in p:
        return _(
            "That move is for turn %(turn)s, which has not come yet: the race is at turn "
            "%(now)s. Here is the race as it stands now."
        ) % dict(p)
    return _("That move was for an earlier turn; here is the race as it stands now.")


def _too_many_games(p: Params) -> str:
    if p["limit"] == "player":
        return _(
            "You already have %(cap)s races running, the most one player may hold. Carry on "
            "with one of them, or wait for one you left to expire, then start again."
        ) % dict(p)
    return _(
        "%(cap)s races are already running from your network (a school, an office or a phone "
        "network shares one address), the most one address may hold. Try again when some of "
        "them have finished."
    ) % dict(p)


# Each code's words are written out whole, so the extractor finds every one of them.
_SENTENCES: dict[str, Callable[[Params], str]] = {
    "race_error": lambda p: _("That cannot be done with this race."),
    "not_found": lambda p: _("No race was found for this id and these credentials."),
    "expired": _expired,
    "stale_turn": _stale,
    "not_your_turn": lambda p: _("It is not your turn; here is the race as it stands now."),
    "not_started": lambda p: _(
        "The race has not started yet: it starts when everyone joined or on Start."
    ),
    "not_creator": lambda p: _("Only the person who created this race can start it."),
    "invite_used": lambda p: _("This invite was already used to join."),
    "race_started": lambda p: _("This race has started without this seat; a bot took it."),
    "invite_not_found": lambda p: _("This invite does not belong to this race."),
    "invalid_name": lambda p: (
        _("A name has 1 to %(most)s printable characters; pick another.") % dict(p)
    ),
    "invalid_request": lambda p: _("Between 1 and %(players)s people can race.") % dict(p),
    "second_seat": lambda p: _(
        "You already have a seat in this race: one player takes one seat, so nobody sees "
        "two hands. Go back to your seat, or open another race."
    ),
    "server_full": lambda p: _("The track is full right now. Try again in a minute."),
    "too_many_games": _too_many_games,
    "move_not_kept": lambda p: _(
        "The server could not keep that move in time. Nothing was played: try again."
    ),
    "takeback_with_people": lambda p: _(
        "Take-backs are only for races against bots: other people race here, and their "
        "turns cannot be undone for them."
    ),
    "takeback_race_over": lambda p: _(
        "The race is over, so nothing can be taken back. Race again!"
    ),
    "nothing_to_take_back": lambda p: _(
        "There is nothing to take back: you have not played a card."
    ),
    "takeback_unavailable": lambda p: _("This race cannot be taken back (it was not recorded)."),
    "leave_with_people": lambda p: _(
        "Other people race here: this race goes on until it is finished."
    ),
    "race_not_over": lambda p: _(
        "This race is not over yet: a review can only look back at a finished race."
    ),
    "review_not_requested": lambda p: _(
        "No review of your race was asked for yet: ask for one with POST first."
    ),
    "too_many_reviews": lambda p: (
        ngettext(
            "You already have %(num)s review in progress; wait for one to finish.",
            "You already have %(num)s reviews in progress; wait for one to finish.",
            p["cap"],
        )
        % {"num": p["cap"]}
    ),
    "decision_not_reviewed": lambda p: _(
        "That decision is not in your finished review: review the race first."
    ),
    "daily_attempt_running": lambda p: _(
        "Your counted race of today's deal is still running: finish it first (go back to it "
        "from the daily page, or with the token its answer gave you). Practice races of "
        "today's deal come after it."
    ),
    "daily_address_full": lambda p: (
        _(
            "%(cap)s counted races of today's deal were already started from your network "
            "address today, the most one address may start. A new day's deal comes at midnight "
            "UTC."
        )
        % dict(p)
    ),
    "cup_attempt_running": lambda p: _(
        "Your counted race of this cup deal is still running: finish it first (go back to it "
        "from the cup page, or with the token its answer gave you). Practice races of the "
        "deal come after it."
    ),
    "cup_address_full": lambda p: (
        _(
            "%(cap)s counted races of this cup deal were already started from your network "
            "address this week, the most one address may start. A new cup comes on Monday (UTC)."
        )
        % dict(p)
    ),
    "not_away": lambda p: _("Your seat is already yours: no bot is playing it."),
    "rematch_unavailable": lambda p: _("A rematch is for a finished race with other people in it."),
    "rematch_answered": lambda p: _("You already answered this rematch."),
    "rematch_started": lambda p: _("The rematch started without you: a bot took your seat."),
    "no_rematch": lambda p: _("Nobody offered a rematch of this race yet."),
    "unknown_message": lambda p: _(
        "That is not one of the quick messages: pick one of the buttons."
    ),
    "talk_without_people": lambda p: _(
        "Quick messages are for races with other people: only bots race with you here."
    ),
    "talk_race_over": lambda p: _(
        "The race is over, so the table no longer takes messages. Race again!"
    ),
    "talk_too_fast": lambda p: (
        _("That was a lot of messages at once: wait %(retry_after)s s before the next one.")
        % dict(p)
    ),
}


def race_sentence(error: RaceError | LobbyError) -> str:
    """The sentence that says why, in the request's language.

    >>> from app.races.errors import TooManyReviews
    >>> race_sentence(TooManyReviews(1))
    'You already have 1 review in progress; wait for one to finish.'
    """
    if isinstance(error, IllegalMove):
        return refusal_sentence(error.refusal)
    return _SENTENCES[error.code](error.params)
