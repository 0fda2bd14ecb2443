"""Why a race operation was refused: exceptions with a stable ``code`` and the values its
sentence names (``params``: never a token, a hidden card or anything else the person did
not already send or see). :mod:`app.http.errors` gives each code its status and
:mod:`app.http.race_words` its sentence. A class is kept for what the web layer tells
apart; any other refusal is a :class:`RaceError` with its code."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from app.storage.interface import CapLimit
from engine import Refusal


class RaceError(Exception):
    """Base of every refusal: its ``code`` (the class's, or a more precise one given), its
    sentence's ``params`` and what the JSON body says beside the code (``extra``)."""

    code: str = "race_error"

    def __init_subclass__(cls, code: str = "") -> None:
        super().__init_subclass__()
        cls.code = code or cls.code

    def __init__(
        self, code: str | None = None, extra: dict[str, Any] | None = None, /, **params: Any
    ) -> None:
        self.code = code or self.code
        self.params = params
        self.extra = extra or {}
        super().__init__(self.code)

    def body(self) -> dict[str, Any]:
        return {"code": self.code, **self.extra}


class CapReached(RaceError):
    """A refusal for a client or an address that reached its ``cap``."""

    def __init__(self, cap: int) -> None:
        super().__init__(cap=cap)


E = TypeVar("E", bound=RaceError)


def _refusal(name: str, code: str, base: type[E]) -> type[E]:
    return type(name, (base,), {"__module__": __name__, "code": code or base.code})


GameNotFound = _refusal("GameNotFound", "not_found", RaceError)
"""Unknown race id or wrong token: deliberately indistinguishable."""
GameExpired = _refusal("GameExpired", "expired", RaceError)
"""The race existed but expired or was evicted (``cause`` "restart": :data:`GameLost`)."""
GameLost = _refusal("GameLost", "", GameExpired)
RaceNotStarted = _refusal("RaceNotStarted", "not_started", RaceError)
ServerFull = _refusal("ServerFull", "server_full", RaceError)
TakebackRefused = _refusal("TakebackRefused", "", RaceError)
"""``takeback_with_people``, ``nothing_to_take_back``, ``takeback_race_over`` or
``takeback_unavailable`` (the race's recording does not reproduce it)."""
NotAway = _refusal("NotAway", "not_away", RaceError)
RematchRefused = _refusal("RematchRefused", "rematch_unavailable", RaceError)
"""``rematch_unavailable`` (not a finished race with people), ``rematch_answered``,
``rematch_started`` (without this seat) or ``no_rematch`` (none offered yet)."""
RaceNotOver = _refusal("RaceNotOver", "race_not_over", RaceError)
ReviewNotRequested = _refusal("ReviewNotRequested", "review_not_requested", RaceError)
"""No review of this seat was asked for, or the one asked for was lost with a restart."""
NotReviewed = _refusal("NotReviewed", "decision_not_reviewed", RaceError)


class IllegalMove(RaceError, code="illegal_action"):
    """``refusal`` is the engine's reason (sent as ``reason``: its code, rule and parameters)."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(None, {"reason": refusal.as_json()})
        self.refusal = refusal


class LobbyRefused(RaceError):
    """What the lobby refused, with its code and parameters (``invite_used``,
    ``invite_not_found``, ``race_started``, ``invalid_name``, ``invalid_request``), or
    ``second_seat``: one player, one seat, one hand."""


class StaleTurn(RaceError, code="stale_turn"):
    """The action's ``turn`` is not the current one, or (``not_your_turn``) another seat is
    to move: sent with the seat's current ``state`` so the client can resync at once."""

    def __init__(self, state: Mapping[str, Any], code: str | None = None, **params: Any) -> None:
        super().__init__(code, {"state": state}, **params)


class TooManyGames(RaceError, code="too_many_games"):
    """The player (``limit`` "player") or the players behind its address ("address") hold
    their cap of unfinished races; ``races``: the player's own, oldest first, to resume."""

    def __init__(self, limit: CapLimit, cap: int, races: tuple[str, ...] = ()) -> None:
        extra = {"limit": limit, "cap": cap, "races": list(races)}
        super().__init__(None, extra, limit=limit, cap=cap)


class DailyAttemptRunning(RaceError, code="daily_attempt_running"):
    """The player's counted attempt at the deal (``game_id``, to resume) still runs."""

    def __init__(self, game_id: str) -> None:
        super().__init__(None, {"game_id": game_id})


CupAttemptRunning = _refusal("CupAttemptRunning", "cup_attempt_running", DailyAttemptRunning)
TooManyReviews = _refusal("TooManyReviews", "too_many_reviews", CapReached)
CupAddressFull = _refusal("CupAddressFull", "cup_address_full", CapReached)
DailyAddressFull = _refusal("DailyAddressFull", "daily_address_full", CapReached)


class TalkRefused(RaceError):
    """``unknown_message`` (not a preset one), ``talk_without_people`` (nobody but bots to
    read it) or ``talk_race_over``."""


class TalkTooFast(RaceError, code="talk_too_fast"):
    """``retry_after``: whole seconds until the seat may send again."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(None, {"retry_after": retry_after}, retry_after=retry_after)
        self.retry_after = retry_after
