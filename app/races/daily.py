"""The daily deal: one deal a day (UTC), the same for everyone, one counted attempt each.

Every day has its own public seed, derived from the date and the server secret (so
nobody can work it out before the day, and the same server deals the same cards for it
all day long; the race's cards then come from the seed as every race's do:
:func:`app.races.record.derive_engine_seed`). The deal's settings are fixed:
:data:`DAILY_PLAYERS` racers, the person and :data:`DAILY_BOTS` bots, base rules
(:data:`DAILY_VARIANTS`). The seed stays hidden in the race and its record (a finished
attempt must not let anyone practise today's cards); yesterday's board shows it.

A player's first daily race of a day is their counted attempt (a row in the results,
:class:`app.results.daily.DailyResults`, that no second request can also claim); every
later one that day is practice from the start. The board ranks the counted attempts once
finished (:data:`app.results.daily.BOARD_ORDER`). A take-back makes a counted attempt
practice, and it then leaves the board.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from app.races.errors import LobbyRefused
from app.races.lobby import LobbyError
from app.races.operations import SessionState
from app.races.record import GameConfig, GameSession
from app.races.unit import Races
from app.results.daily import DailyResults
from app.settings import Settings
from app.vocabulary import BotLevel
from engine import Variants

DAILY_PLAYERS = 4
"""Racers at the daily table: the person and three bots."""

DAILY_BOTS: BotLevel = "normal"
"""The daily bots' level."""

DAILY_VARIANTS = Variants()
"""The daily deal's rules: the base game, no variant."""

SEED_BITS = 53
"""A daily seed is below ``2**53`` like any seed a person can type."""


@dataclass(frozen=True)
class DailyStart:
    """A daily race just dealt: the race (with its creator's token), the creator's state,
    the day and whether this is the player's counted attempt."""

    session: GameSession
    state: SessionState
    day: str
    counted: bool


def utc_day(moment: float) -> str:
    """The UTC date of wall-clock ``moment``, as ``YYYY-MM-DD``.

    >>> utc_day(0.0), utc_day(86399.9), utc_day(86400.0)
    ('1970-01-01', '1970-01-01', '1970-01-02')
    """
    return datetime.fromtimestamp(moment, UTC).date().isoformat()


def day_before(day: str) -> str:
    """The date before ``day``.

    >>> day_before("2026-03-01")
    '2026-02-28'
    """
    return (date.fromisoformat(day) - timedelta(days=1)).isoformat()


def daily_seed(day: str, settings: Settings) -> int:
    """The public seed of ``day``'s deal: keyed with the server secret, so it is known
    only to this server (and to whoever reads a past day's board)."""
    key = settings.seed_secret.get_secret_value().encode()
    digest = hmac.new(key, f"daily:{day}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def daily_config(day: str, settings: Settings) -> GameConfig:
    """The settings of ``day``'s daily race."""
    return GameConfig(
        players=DAILY_PLAYERS,
        bots=DAILY_BOTS,
        variants=DAILY_VARIANTS,
        seed=daily_seed(day, settings),
        daily=day,
    )


def replay_config(day: str, settings: Settings) -> GameConfig:
    """A race of ``day``'s deal that is not a daily attempt (a past day's "race this deal"):
    the same settings and seed, counted like any race."""
    config = daily_config(day, settings)
    return GameConfig(players=config.players, bots=config.bots, variants=config.variants,
                      seed=config.seed)  # fmt: skip


async def start_daily(races: Races, player: int, owner: str, name: str | None = None) -> DailyStart:
    """Deal today's daily race for the results' ``player`` (client ``owner``; seat name
    ``name``): their counted attempt if they have none today, else practice.

    Raises what :meth:`Races.create` raises, and :class:`LobbyRefused` for a name that
    does not fit.
    """
    results = races.results
    if results is None:
        raise RuntimeError("The daily deal needs the results store.")
    daily = DailyResults(results)
    now = races.now()
    day = utc_day(now)
    counted = await daily.counted_attempt(day, player) is None
    try:
        session, state = await races.create(
            daily_config(day, races.settings), owner, name, player=player
        )
    except LobbyError as exc:
        raise LobbyRefused(exc.code, exc.message) from exc
    if counted:
        counted = await daily.claim(day, player, session.id, datetime.fromtimestamp(now, UTC))
    if not counted:
        async with races.open(session.id, session.token, write=True) as race:
            race.mark_practice()
            state = race.state()
    return DailyStart(session, state, day, counted)


__all__ = [
    "DAILY_BOTS",
    "DAILY_PLAYERS",
    "DAILY_VARIANTS",
    "DailyStart",
    "daily_config",
    "daily_seed",
    "day_before",
    "replay_config",
    "start_daily",
    "utc_day",
]
