"""Rematch: at the end of a race with people, the same people race again.

The first person to ask (:func:`accept`) opens the new race: same settings, a fresh deal,
every racer one seat further round (:func:`app.races.lobby.rotated`), the presser seated,
each other person's seat held for them. The finished race keeps the offer
(:attr:`app.races.lobby.Lobby.rematch`: the new race's id and each person's answer), so
every person's table offers it. The new race starts once every person accepted, when the
last one still to answer declined (:func:`decline`: a bot takes their seat), or after
``Settings.rematch_wait_seconds`` (30 s), with bots for whoever did not answer (the
lobby's wait, as a race with strangers has).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from app.races.errors import LobbyRefused, RematchRefused
from app.races.lobby import Lobby, rotated
from app.races.operations import SessionState
from app.races.record import GameSession
from app.races.unit import Race, Races


@dataclass(frozen=True)
class Rematched:
    """A seat in the rematch: its race, the seat, the seat's new token and first state."""

    game_id: str
    seat: int
    token: str
    state: SessionState


def offered(session: GameSession) -> bool:
    """Whether ``session`` may have a rematch: it is over, people raced, it was not the
    bots' show."""
    lobby = session.lobby
    return session.status == "over" and lobby.people() > 1 and not lobby.paced


async def accept(races: Races, game_id: str, token: str | None, owner: str) -> Rematched:
    """The person holding ``token`` in finished race ``game_id`` accepts its rematch, or
    offers it when nobody did yet (the new race then counts against client ``owner``).

    Raises :class:`RematchRefused`: ``rematch_unavailable`` (not a finished race with
    people), ``rematch_answered`` (this seat answered already), ``rematch_started`` (it
    started without this seat); and what :meth:`Races.create` raises for a new race.
    """
    async with races.open(game_id, token, write=True) as old:
        seat = old.own_seat
        session = old.session
        if not offered(session):
            raise RematchRefused()
        offer = session.lobby.rematch
        if offer is None:
            return await _open(races, old, seat, owner)
        if str(seat) in offer["answers"]:
            raise RematchRefused("rematch_answered")
        async with races.open(offer["game_id"], None, write=True, spectator=True) as new:
            joined = await _join(new, session, seat)
        old.note_rematch(offer["game_id"], seat, "yes")
        return joined


async def decline(races: Races, game_id: str, token: str | None) -> None:
    """The person holding ``token`` in finished race ``game_id`` declines its rematch: a
    bot takes their seat there. Raises :class:`RematchRefused` (``no_rematch``,
    ``rematch_answered``)."""
    async with races.open(game_id, token, write=True) as old:
        seat = old.own_seat
        offer = old.session.lobby.rematch
        if offer is None:
            raise RematchRefused("no_rematch")
        if str(seat) in offer["answers"]:
            raise RematchRefused("rematch_answered")
        async with races.open(offer["game_id"], None, write=True, spectator=True) as new:
            if not new.session.lobby.started:
                await new.close_seat(rotated(seat, len(new.session.lobby.seats)))
        old.note_rematch(offer["game_id"], seat, "no")


async def _open(races: Races, old: Race, seat: int, owner: str) -> Rematched:
    lobby = old.session.lobby
    config = replace(old.config, seed=None, quick=False)

    def seats(creator_digest: str) -> Lobby:
        wait = races.settings.rematch_wait_seconds
        return Lobby.rematch_of(lobby, seat, creator_digest, wait)

    created, state = await races.create(config, owner, seats=seats)
    old.note_rematch(created.id, seat, "yes")
    return Rematched(created.id, rotated(seat, len(lobby.seats)), created.token, state)


async def _join(new: Race, old: GameSession, seat: int) -> Rematched:
    place = new.session.lobby.seats[rotated(seat, len(old.lobby.seats))]
    if place.code is None:
        raise RematchRefused("rematch_started")
    was = old.lobby.seats[seat]
    try:
        token = await new.join(place.code, was.name, player=was.player)
    except LobbyRefused as exc:
        raise RematchRefused("rematch_started") from exc
    return Rematched(new.id, place.index, token, new.state())


__all__ = ["Rematched", "accept", "decline", "offered"]
