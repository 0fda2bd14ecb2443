"""Seats in races that wait for people (docs/api.md). Race strangers: whoever asks for a
race of the same size within a short wait shares it. A quick race is a race with friends
whose every seat but the first has an invite code only the server knows; the store's slot
per size (:meth:`Backend.claim <app.storage.policy.Backend.claim>`,
atomic) names the race still filling up, so every worker sends the next request there. A
request takes the first open seat under the race's lock, or deals a race and holds the
slot (joining the other one if a request held it first); when the wait ends, bots fill
the rest (:func:`app.races.operations.settle`). Rematch: the first person to ask opens
the new race (same settings, a fresh deal, everyone one seat further round,
:func:`app.races.lobby.rotated`); the finished race keeps the offer and the answers
(:attr:`app.races.lobby.Lobby.rematch`). The new race starts once every person answered,
or after its wait with bots for the rest."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from app.races.errors import GameExpired, GameNotFound, LobbyRefused, RematchRefused
from app.races.lobby import Lobby, rotated
from app.races.record import GameConfig, GameSession
from app.races.unit import Races, Seated

SLOT_MARGIN_SECONDS = 5.0
"""How much longer than the wait a slot may point at its race (its time to live only
cleans up)."""

_ATTEMPTS = 4
"""Rounds of "join the open race, else open one" before a request gives up sharing."""


def slot_name(players: int) -> str:
    return f"slot:quick:{players}"


async def quick_race(
    races: Races, players: int, owner: str, name: str | None = None, player: int | None = None
) -> Seated:
    """A seat in the open quick race of ``players`` seats, or in a new one, for client
    ``owner`` named ``name`` (the results' ``player``, if known); ``second_seat``
    (changing nothing) when ``player`` already waits in the open race."""
    store = races.store
    slot = slot_name(players)
    ttl = races.settings.quick_wait_seconds + SLOT_MARGIN_SECONDS
    bots = races.settings.default_bot_level
    config = GameConfig(players=players, bots=bots, people=players, quick=True)

    async def opened() -> Seated:
        session, state = await races.create(config, owner, name, player=player)
        return Seated(session.id, 0, session.token, state)

    for _ in range(_ATTEMPTS):
        held = await store.held(slot)
        if held is not None:
            joined = await _join(races, held, name, player)
            if joined is not None:
                if joined.state["status"] != "waiting":
                    await store.release(slot, held)
                return joined
            await store.release(slot, held)
            continue
        created = await opened()
        if await store.claim(slot, created.game_id, ttl) == created.game_id:
            return created
        await store.wipe(created.game_id)  # another request opened one just now: join it
    # Every round lost a race to another request (a burst): race with whoever comes next.
    return await opened()


async def _join(races: Races, game_id: str, name: str | None, player: int | None) -> Seated | None:
    try:
        async with races.open(game_id, None, write=True, spectator=True) as race:
            session = race.session
            invites = session.lobby.open_invites()
            if not session.config.quick or session.status != "waiting" or not invites:
                return None
            code = invites[0].code
            assert code is not None
            token = await race.join(code, name, player=player)
            return Seated(session.id, race.own_seat, token, race.state())
    except (GameNotFound, GameExpired):
        return None
    except LobbyRefused as exc:
        # A second seat for a player who waits here, or a name that does not fit: refused,
        # the race and its slot as they were. Any other refusal: the race filled up.
        if exc.code in ("second_seat", "invalid_name"):
            raise
        return None


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
