"""Rematch (docs/api.md): the first person to ask opens the new race (same settings, a
fresh deal, everyone one seat further round, :func:`app.races.lobby.rotated`); the finished
race keeps the offer and the answers (:attr:`app.races.lobby.Lobby.rematch`). The new race
starts once every person answered, or after its wait with bots for the rest."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from app.races.errors import LobbyRefused, RematchRefused
from app.races.lobby import Lobby, rotated
from app.races.record import GameSession
from app.races.unit import Races, Seated


def offered(session: GameSession) -> bool:
    """Whether ``session`` may have a rematch: over, with people, not the bots' show."""
    lobby = session.lobby
    return session.status == "over" and lobby.people() > 1 and not lobby.paced


async def accept(races: Races, game_id: str, token: str | None, owner: str) -> Seated:
    """The person holding ``token`` in finished race ``game_id`` accepts its rematch, or
    offers it (a new race of client ``owner``)."""
    async with races.open(game_id, token, write=True) as old:
        seat = old.own_seat
        session = old.session
        if not offered(session):
            raise RematchRefused()
        lobby = session.lobby
        players = len(lobby.seats)
        offer = lobby.rematch
        if offer is None:
            config = replace(old.config, seed=None, quick=False)
            wait = races.settings.rematch_wait_seconds
            seats = partial(Lobby.rematch_of, lobby, seat, wait_seconds=wait)
            created, state = await races.create(config, owner, seats=seats)
            old.note_rematch(created.id, seat, "yes")
            return Seated(created.id, rotated(seat, players), created.token, state)
        if str(seat) in offer["answers"]:
            raise RematchRefused("rematch_answered")
        async with races.open(offer["game_id"], None, write=True, spectator=True) as new:
            place = new.session.lobby.seats[rotated(seat, players)]
            if place.code is None:
                raise RematchRefused("rematch_started")
            was = lobby.seats[seat]
            try:
                taken = await new.join(place.code, was.name, player=was.player)
            except LobbyRefused as exc:
                raise RematchRefused("rematch_started") from exc
            joined = Seated(new.id, place.index, taken, new.state())
        old.note_rematch(offer["game_id"], seat, "yes")
        return joined


async def decline(races: Races, game_id: str, token: str | None) -> None:
    """The person holding ``token`` in finished race ``game_id`` declines its rematch (a bot
    takes their seat there)."""
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
