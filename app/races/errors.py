"""Why a race operation was refused: plain exceptions with a stable ``code`` and a sentence.

The races know nothing of HTTP. :mod:`app.http.errors` maps each ``code`` to a status and
renders the sentence as JSON for the API or as a page for browsers. Sentences never name a
token, a hidden card or anything else the person did not already send or see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.storage.interface import CapLimit
from engine import Refusal


class RaceError(Exception):
    """Base of every refusal: a stable machine ``code`` and a human ``message``."""

    code: str = "race_error"
    message: str = "That cannot be done with this race."

    def __init__(self, message: str | None = None) -> None:
        """Use the class's sentence unless a more precise one is given."""
        self.message = message or type(self).message
        super().__init__(self.message)

    def body(self) -> dict[str, Any]:
        """The refusal as JSON-ready data."""
        return {"code": self.code, "message": self.message}


class GameNotFound(RaceError):
    """Unknown race id or wrong token: deliberately indistinguishable."""

    code = "not_found"
    message = "No race was found for this id and these credentials."


class GameExpired(RaceError):
    """The race existed but expired or was evicted."""

    code = "expired"
    message = "This race has expired. Start a new one."


class GameLost(GameExpired):
    """The race was lost because the server was stopped without saving it."""

    message = "The server restarted and this race could not be kept. Sorry! Start a new one."


class IllegalMove(RaceError):
    """An action that the rules do not allow now, or that is not an action at all;
    ``refusal`` is the engine's reason (the web layer words it from its catalog)."""

    code = "illegal_action"
    message = "That move is not allowed right now."

    def __init__(self, refusal: Refusal) -> None:
        """Carry the engine's ``refusal``."""
        super().__init__()
        self.refusal = refusal

    def body(self) -> dict[str, Any]:
        """The refusal, with the engine's reason as data: its code, rule and parameters."""
        reason = {"code": self.refusal.code, "rule": self.refusal.rule, **self.refusal.as_dict()}
        return {**super().body(), "reason": reason}


class StaleTurn(RaceError):
    """The action's ``turn`` is not the current one: a double submit or an old page."""

    code = "stale_turn"
    message = "That move was for an earlier turn; here is the race as it stands now."

    def __init__(self, state: Mapping[str, Any], message: str | None = None) -> None:
        """Carry the seat's current state so the client can resync at once."""
        super().__init__(message)
        self.state = state

    @classmethod
    def ahead(cls, state: Mapping[str, Any], turn: int, now: int) -> StaleTurn:
        """A move for ``turn``, which the race (at turn ``now``) has not reached."""
        return cls(
            state,
            f"That move is for turn {turn}, which has not come yet: the race is at turn "
            f"{now}. Here is the race as it stands now.",
        )

    def body(self) -> dict[str, Any]:
        """The refusal with the current state."""
        return {**super().body(), "state": self.state}


class NotYourTurn(StaleTurn):
    """A seat tried to move while another seat is to move (with the current state)."""

    code = "not_your_turn"
    message = "It is not your turn; here is the race as it stands now."


class RaceNotStarted(RaceError):
    """A move in the lobby, before the race started."""

    code = "not_started"
    message = "The race has not started yet: it starts when everyone joined or on Start."


class NotCreator(RaceError):
    """Only the seat that created the race may start it early."""

    code = "not_creator"
    message = "Only the person who created this race can start it."


class LobbyRefused(RaceError):
    """A join the lobby refused: ``invite_used``, ``invite_not_found``, ``race_started``,
    ``invalid_name`` (the lobby's own code and sentence) or ``second_seat``
    (:class:`SecondSeat`)."""

    def __init__(self, code: str, message: str) -> None:
        """Take the lobby's code and sentence."""
        super().__init__(message)
        self.code = code


class SecondSeat(LobbyRefused):
    """A player who already sits in the race asked for another seat in it (a second quick
    match request, their own invite): one player, one seat, one hand."""

    code = "second_seat"
    message = (
        "You already have a seat in this race: one player takes one seat, so nobody sees "
        "two hands. Go back to your seat, or open another race."
    )

    def __init__(self) -> None:
        """The refusal's own code and sentence."""
        super().__init__(self.code, self.message)


class ServerFull(RaceError):
    """Every race slot is in active use; creation is refused for now."""

    code = "server_full"
    message = "The track is full right now. Try again in a minute."


class TooManyGames(RaceError):
    """The player already holds its cap of unfinished races (``limit`` "player"), or the
    players behind its client address together hold theirs (``limit`` "address"). ``races``
    are the ids of the player's own unfinished races, oldest first: theirs to resume."""

    code = "too_many_games"

    def __init__(self, limit: CapLimit, cap: int, races: tuple[str, ...] = ()) -> None:
        """``cap`` is the number of live races the ``limit`` allows."""
        if limit == "player":
            message = (
                f"You already have {cap} races running, the most one player may hold. Carry "
                "on with one of them, or wait for one you left to expire, then start again."
            )
        else:
            message = (
                f"{cap} races are already running from your network (a school, an office or "
                "a phone network shares one address), the most one address may hold. Try "
                "again when some of them have finished."
            )
        super().__init__(message)
        self.limit = limit
        self.cap = cap
        self.races = races

    def body(self) -> dict[str, Any]:
        """The refusal with the cap reached and the player's unfinished races' ids."""
        return {**super().body(), "limit": self.limit, "cap": self.cap, "races": list(self.races)}


class MoveNotKept(RaceError):
    """The race's lock was lost before the move could be saved (the server was too slow,
    or the store went away): nothing was kept, so the move may be sent again."""

    code = "move_not_kept"
    message = "The server could not keep that move in time. Nothing was played: try again."


class TakebackRefused(RaceError):
    """A take-back that cannot be granted: ``takeback_with_people`` (other people race
    here), ``nothing_to_take_back`` (no card of yours yet) or ``takeback_race_over``."""

    def __init__(self, code: str, message: str) -> None:
        """Keep the precise code with its sentence."""
        super().__init__(message)
        self.code = code


class LeaveRefused(RaceError):
    """Leaving is for a race against bots: where other people race, it goes on without
    anyone leaving it by hand (their turn clock plays for an absent person)."""

    code = "leave_with_people"
    message = "Other people race here: this race goes on until it is finished."


class NotAway(RaceError):
    """ "I'm back" from a seat that is not away (or in a race that is over)."""

    code = "not_away"
    message = "Your seat is already yours: no bot is playing it."


class RematchRefused(RaceError):
    """A rematch that cannot be offered, accepted or declined; ``code`` says why."""

    code = "rematch_unavailable"
    message = "A rematch is for a finished race with other people in it."

    def __init__(self, code: str | None = None, message: str | None = None) -> None:
        """One of :data:`REMATCH_REFUSALS` by its code (the class's own by default)."""
        code = code or type(self).code
        super().__init__(message or REMATCH_REFUSALS.get(code))
        self.code = code


REMATCH_REFUSALS = {
    "rematch_unavailable": RematchRefused.message,
    "rematch_answered": "You already answered this rematch.",
    "rematch_started": "The rematch started without you: a bot took your seat.",
    "no_rematch": "Nobody offered a rematch of this race yet.",
}
"""The sentences of :class:`RematchRefused`, by code."""


class RaceNotOver(RaceError):
    """A review (or a par race) asked for while the race is still on."""

    code = "race_not_over"
    message = "This race is not over yet: a review can only look back at a finished race."


class ReviewNotRequested(RaceError):
    """No review of this seat was asked for, or the one asked for was lost with a restart."""

    code = "review_not_requested"
    message = "No review of your race was asked for yet: ask for one with POST first."


class ReviewUnavailable(RaceError):
    """The race was kept before its moves were: it cannot be rebuilt move by move."""

    code = "review_unavailable"
    message = "This race was saved before the server kept its moves, so it cannot be reviewed."


class TooManyReviews(RaceError):
    """The client already has its cap of reviews in progress."""

    code = "too_many_reviews"

    def __init__(self, cap: int) -> None:
        super().__init__(
            f"You already have {cap} review{'s' if cap != 1 else ''} in progress; "
            "wait for one to finish."
        )


class NotReviewed(RaceError):
    """ "Try again from here" names a decision the seat's finished review does not hold."""

    code = "decision_not_reviewed"
    message = "That decision is not in your finished review: review the race first."


class DailyAttemptRunning(RaceError):
    """The player's counted daily attempt of the day still runs: no practice copy of the
    deal is dealt before it ends."""

    code = "daily_attempt_running"
    message = (
        "Your counted race of today's deal is still running: finish it first (go back to it "
        "from the daily page, or with the token its answer gave you). Practice races of "
        "today's deal come after it."
    )

    def __init__(self, game_id: str) -> None:
        """``game_id`` is the running counted attempt, to resume."""
        super().__init__()
        self.game_id = game_id

    def body(self) -> dict[str, Any]:
        """The refusal with the id of the race to resume."""
        return {**super().body(), "game_id": self.game_id}


class DailyAddressFull(RaceError):
    """The client address has started its day's share of counted daily attempts."""

    code = "daily_address_full"

    def __init__(self, cap: int) -> None:
        """``cap`` is the counted daily attempts one address may start a day."""
        super().__init__(
            f"{cap} counted races of today's deal were already started from your network "
            "address today, the most one address may start. A new day's deal comes at "
            "midnight UTC."
        )
        self.cap = cap
