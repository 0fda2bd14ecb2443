"""A player's counted attempt at a deal everyone gets (the daily's, a cup week's deal;
docs/daily.md): the first race of the deal counts (a results row no second request can
also claim), a later one is practice, dealt once the counted one ended; an address starts
only its share (:attr:`app.settings.Settings.daily_attempts_per_address`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from app.races.errors import DailyAttemptRunning, LobbyRefused, RaceError
from app.races.lobby import LobbyError
from app.races.operations import SessionState
from app.races.record import GameConfig, GameSession
from app.races.unit import Races


@dataclass(frozen=True)
class CountedDeal:
    """Where one format keeps one player's counted attempt at one deal."""

    attempt: Callable[[], Awaitable[str | None]]
    """The race id of the player's counted attempt, if they made one."""
    claim: Callable[[str, datetime, str | None], Awaitable[bool]]
    """Make a race id (started at a time, from an address digest) the counted attempt;
    False, and nothing written, when the player already has one."""
    attempts_from: Callable[[str], Awaitable[int]]
    """How many counted attempts came from an address digest."""
    running: type[DailyAttemptRunning]
    """Raised with the counted attempt's id while it still runs."""
    full: Callable[[int], RaceError]
    """The refusal for an address that started its share (given the share)."""


async def refuse_when_full(
    races: Races,
    attempts_from: Callable[[str], Awaitable[int]],
    full: Callable[[int], RaceError],
    where: str,
) -> None:
    """Raise ``full`` when address digest ``where`` started its share of counted attempts
    (``attempts_from`` counts them)."""
    cap = races.settings.daily_attempts_per_address
    if await attempts_from(where) >= cap:
        raise full(cap)


async def start_counted(
    races: Races,
    deal: CountedDeal,
    config: GameConfig,
    deals: tuple[int, int],
    owner: str,
    name: str | None,
    player: int,
    where: str | None,
) -> tuple[GameSession, SessionState, bool]:
    """Deal ``config`` (with ``deals``: the engine seed and the bots' key) for ``player``
    (client ``owner``, named ``name``, from address digest ``where``): the counted attempt
    if they have none, else practice; the race, its creator's state and whether it counts.
    Raises what :meth:`Races.create` raises, :class:`LobbyRefused` for a name that does
    not fit, ``deal.running`` while the counted attempt runs and ``deal.full``."""
    now = races.now()
    attempt = await deal.attempt()
    await _refuse_while_running(races, deal, attempt)
    counted = attempt is None
    if counted and where is not None:
        await refuse_when_full(races, deal.attempts_from, deal.full, where)
    engine_seed, bot_key = deals
    try:
        session, state = await races.create(
            config, owner, name, player=player, engine_seed=engine_seed, bot_key=bot_key
        )
    except LobbyError as exc:
        raise LobbyRefused(exc.code, **exc.params) from exc
    if counted:
        counted = await deal.claim(session.id, datetime.fromtimestamp(now, UTC), where)
        if not counted:  # another request claimed the deal meanwhile: it may still run
            try:
                await _refuse_while_running(races, deal, await deal.attempt())
            except DailyAttemptRunning:
                await races.store.wipe(session.id)
                raise
    if not counted:
        state = await make_practice(races, session)
    return session, state, counted


async def make_practice(races: Races, session: GameSession) -> SessionState:
    """Make the just-dealt ``session`` practice; its creator's state."""
    async with races.open(session.id, session.token, write=True) as race:
        race.mark_practice()
        return race.state()


async def _refuse_while_running(races: Races, deal: CountedDeal, attempt: str | None) -> None:
    running = None if attempt is None else await races.running(attempt)
    if attempt is not None and running is not None and not running.practice:
        raise deal.running(attempt)
