"""Why a race operation was refused: plain exceptions with a stable ``code`` and the values
its sentence names (``params``).

The races know nothing of HTTP and speak no language. :mod:`app.http.errors` maps each
``code`` to a status, and :mod:`app.http.race_words` words it from the message catalog, as
JSON for the API or as a page for browsers. Parameters never name a token, a hidden card
or anything else the person did not already send or see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.storage.interface import CapLimit
from engine import Refusal


class RaceError(Exception):
    """Base of every refusal: a stable machine ``code`` and its sentence's ``params``."""

    code: str = "race_error"

    def __init__(self, **params: Any) -> None:
        """Keep the values the refusal's sentence names (``str()`` is the code, for logs)."""
        self.params = params
        super().__init__(self.code)

    def body(self) -> dict[str, Any]:
        """The refusal as JSON-ready data, less its sentence (the web layer's to add)."""
        return {"code": self.code}


class GameNotFound(RaceError):
    """Unknown race id or wrong token: deliberately indistinguishable."""

    code = "not_found"


class GameExpired(RaceError):
    """The race existed but expired or was evicted."""

    code = "expired"


class GameLost(GameExpired):
    """The race was lost because the server was stopped without saving it."""

    def __init__(self) -> None:
        """An expiry whose cause was a restart."""
        super().__init__(cause="restart")


class IllegalMove(RaceError):
    """An action that the rules do not allow now, or that is not an action at all;
    ``refusal`` is the engine's reason."""

    code = "illegal_action"

    def __init__(self, refusal: Refusal) -> None:
        """Carry the engine's ``refusal``."""
        super().__init__()
        self.refusal = refusal

    def body(self) -> dict[str, Any]:
        """The refusal, with the engine's reason as data: its code, rule and parameters."""
        return {**super().body(), "reason": self.refusal.as_json()}


class StaleTurn(RaceError):
    """The action's ``turn`` is not the current one: a double submit or an old page."""

    code = "stale_turn"

    def __init__(self, state: Mapping[str, Any], **params: Any) -> None:
        """Carry the seat's current state so the client can resync at once."""
        super().__init__(**params)
        self.state = state

    @classmethod
    def ahead(cls, state: Mapping[str, Any], turn: int, now: int) -> StaleTurn:
        """A move for ``turn``, which the race (at turn ``now``) has not reached."""
        return cls(state, turn=turn, now=now)

    def body(self) -> dict[str, Any]:
        """The refusal with the current state."""
        return {**super().body(), "state": self.state}


class NotYourTurn(StaleTurn):
    """A seat tried to move while another seat is to move (with the current state)."""

    code = "not_your_turn"


class RaceNotStarted(RaceError):
    """A move in the lobby, before the race started."""

    code = "not_started"


class NotCreator(RaceError):
    """Only the seat that created the race may start it early."""

    code = "not_creator"


class LobbyRefused(RaceError):
    """A join the lobby refused: ``invite_used``, ``invite_not_found``, ``race_started``,
    ``invalid_name``, ``invalid_request`` (the lobby's own code and parameters) or
    ``second_seat`` (:class:`SecondSeat`)."""

    def __init__(self, code: str, **params: Any) -> None:
        """Take the lobby's code and parameters."""
        self.code = code
        super().__init__(**params)


class SecondSeat(LobbyRefused):
    """A player who already sits in the race asked for another seat in it (a second quick
    match request, their own invite): one player, one seat, one hand."""

    code = "second_seat"

    def __init__(self) -> None:
        """The refusal's own code."""
        super().__init__(self.code)


class ServerFull(RaceError):
    """Every race slot is in active use; creation is refused for now."""

    code = "server_full"


class TooManyGames(RaceError):
    """The player already holds its cap of unfinished races (``limit`` "player"), or the
    players behind its client address together hold theirs (``limit`` "address"). ``races``
    are the ids of the player's own unfinished races, oldest first: theirs to resume."""

    code = "too_many_games"

    def __init__(self, limit: CapLimit, cap: int, races: tuple[str, ...] = ()) -> None:
        """``cap`` is the number of live races the ``limit`` allows."""
        super().__init__(limit=limit, cap=cap)
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


class TakebackRefused(RaceError):
    """A take-back that cannot be granted: ``takeback_with_people`` (other people race
    here), ``nothing_to_take_back`` (no card of yours yet), ``takeback_race_over`` or
    ``takeback_unavailable`` (the race's recording does not reproduce it)."""

    def __init__(self, code: str) -> None:
        """Keep the precise code."""
        self.code = code
        super().__init__()


class LeaveRefused(RaceError):
    """Leaving is for a race against bots: where other people race, it goes on without
    anyone leaving it by hand (their turn clock plays for an absent person)."""

    code = "leave_with_people"


class NotAway(RaceError):
    """ "I'm back" from a seat that is not away (or in a race that is over)."""

    code = "not_away"


class RematchRefused(RaceError):
    """A rematch that cannot be offered, accepted or declined: ``rematch_unavailable`` (not
    a finished race with other people), ``rematch_answered``, ``rematch_started`` (without
    this seat) or ``no_rematch`` (none offered yet)."""

    code = "rematch_unavailable"

    def __init__(self, code: str | None = None) -> None:
        """The refusal of ``code`` (the class's own by default)."""
        self.code = code or type(self).code
        super().__init__()


class RaceNotOver(RaceError):
    """A review (or a par race) asked for while the race is still on."""

    code = "race_not_over"


class ReviewNotRequested(RaceError):
    """No review of this seat was asked for, or the one asked for was lost with a restart."""

    code = "review_not_requested"


class TooManyReviews(RaceError):
    """The client already has its cap of reviews in progress."""

    code = "too_many_reviews"

    def __init__(self, cap: int) -> None:
        """``cap`` is the reviews one client may have in progress."""
        super().__init__(cap=cap)


class NotReviewed(RaceError):
    """ "Try again from here" names a decision the seat's finished review does not hold."""

    code = "decision_not_reviewed"


class DailyAttemptRunning(RaceError):
    """The player's counted daily attempt of the day still runs: no practice copy of the
    deal is dealt before it ends."""

    code = "daily_attempt_running"

    def __init__(self, game_id: str) -> None:
        """``game_id`` is the running counted attempt, to resume."""
        super().__init__()
        self.game_id = game_id

    def body(self) -> dict[str, Any]:
        """The refusal with the id of the race to resume."""
        return {**super().body(), "game_id": self.game_id}


class CupAttemptRunning(DailyAttemptRunning):
    """The player's counted attempt at this cup deal still runs: no practice copy of the
    deal is dealt before it ends."""

    code = "cup_attempt_running"


class CupAddressFull(RaceError):
    """The client address has started its week's share of counted attempts at a cup deal."""

    code = "cup_address_full"

    def __init__(self, cap: int) -> None:
        """``cap`` is the counted attempts at one cup deal one address may start a week."""
        super().__init__(cap=cap)
        self.cap = cap


class DailyAddressFull(RaceError):
    """The client address has started its day's share of counted daily attempts."""

    code = "daily_address_full"

    def __init__(self, cap: int) -> None:
        """``cap`` is the counted daily attempts one address may start a day."""
        super().__init__(cap=cap)
        self.cap = cap


class TalkRefused(RaceError):
    """A quick message that cannot be sent: ``unknown_message`` (not one of the preset
    ones), ``talk_without_people`` (nobody but bots to read it) or ``talk_race_over``."""

    def __init__(self, code: str) -> None:
        """Keep the precise code."""
        self.code = code
        super().__init__()


class TalkTooFast(RaceError):
    """A seat sent quick messages faster than a table allows (one every few seconds, a
    handful a minute): nothing was sent."""

    code = "talk_too_fast"

    def __init__(self, retry_after: int) -> None:
        """``retry_after`` is whole seconds until this seat may send again."""
        super().__init__(retry_after=retry_after)
        self.retry_after = retry_after

    def body(self) -> dict[str, Any]:
        """The refusal with the seconds to wait."""
        return {**super().body(), "retry_after": self.retry_after}
