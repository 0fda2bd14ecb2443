"""Quick messages (docs/api.md): a person at a race with other people says one of a few
preset codes (:data:`app.vocabulary.TalkCode`; the words are the web layer's). It changes
nothing in the game and names no card; the race keeps the latest :data:`KEPT`."""

from __future__ import annotations

from typing import cast, get_args

from app.races.errors import TalkRefused
from app.races.record import GameSession, Said
from app.vocabulary import TalkCode

CODES: tuple[str, ...] = get_args(TalkCode)
"""Every message code, in the order the table offers them."""

KEPT = 12
"""How many of a race's latest messages it keeps (older ones are dropped)."""


def refusal(session: GameSession, seat: int, code: str) -> TalkRefused | None:
    """Why ``seat`` may not say ``code`` now (None: it may)."""
    if code not in CODES:
        return TalkRefused("unknown_message")
    if session.lobby.people() <= 1:
        return TalkRefused("talk_without_people")
    if session.status == "over":
        return TalkRefused("talk_race_over")
    if not session.lobby.is_person(seat):
        return TalkRefused("talk_without_people")
    return None


def say(session: GameSession, seat: int, code: str, now: float) -> Said:
    """Add ``seat``'s message ``code`` (at wall-clock ``now``) to the race and return it;
    :class:`TalkRefused` (changing nothing) as :func:`refusal` says."""
    refused = refusal(session, seat, code)
    if refused is not None:
        raise refused
    session.said_count += 1
    message: Said = {
        "n": session.said_count,
        "seat": seat,
        "code": cast(TalkCode, code),  # one of CODES: refusal() said so
        "at": round(now, 3),
        "after": len(session.events),
    }
    session.said = [*session.said[-(KEPT - 1) :], message]
    return message


def mark(said: list[Said]) -> int:
    """The number of the latest of ``said`` (0 for none): what makes messages news."""
    return int(said[-1]["n"]) if said else 0
