"""The daily deal: one deal a day (UTC), the same for everyone, one counted attempt each.

Every day has its own public seed, derived from the date and the server's daily key (a
secret made once in the results database, :meth:`app.results.daily.DailyResults.daily_key`,
so nobody can work a day's seed out before the day, and every worker, before and after a
restart, deals the same cards all day). The cards come from a shuffle seed derived from
the public seed with the same key (:func:`daily_engine_seed`), so whoever holds a past
day's seed races exactly that deal on this server (:func:`start_replay`). The settings are
fixed:
:data:`DAILY_PLAYERS` racers, the person and :data:`DAILY_BOTS` bots, base rules
(:data:`DAILY_VARIANTS`). The seed stays hidden in the race and its record (a finished
attempt must not let anyone practise today's cards); a day's board shows it once the day
closed (:func:`published`).

A player's first daily race of a day is their counted attempt (a row in the results,
:class:`app.results.daily.DailyResults`, that no second request can also claim); every
later one that day is practice from the start, and is dealt only once the counted attempt
has ended. The board ranks the counted attempts once ended
(:data:`app.results.daily.BOARD_ORDER`). A take-back makes a counted attempt practice, and
it then leaves the board.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import partial

from app.races.counted import CountedDeal, make_practice, refuse_when_full, start_counted
from app.races.errors import DailyAddressFull, DailyAttemptRunning
from app.races.operations import SessionState
from app.races.record import GameConfig, GameSession
from app.races.streaks import Streak, streak_of
from app.races.unit import Races
from app.results.daily import DailyResults, DayBoard
from app.results.daily_times import closes_at
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


def daily_seed(day: str, key: bytes) -> int:
    """The public seed of ``day``'s deal under the daily ``key`` (known only to the server
    until a past day's board shows it).

    >>> daily_seed("2026-12-01", b"k") != daily_seed("2026-12-02", b"k")
    True
    """
    digest = hmac.new(key, f"daily:{day}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def daily_engine_seed(seed: int, key: bytes) -> int:
    """The shuffle seed of the daily deal whose public seed is ``seed``."""
    digest = hmac.new(key, f"deal:{seed}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def daily_bot_key(seed: int, key: bytes) -> int:
    """The bots' randomness in every race of the daily deal whose public seed is ``seed``:
    the same for everyone (the board compares people against the same bots), and secret
    like the deal itself.

    >>> daily_bot_key(7, b"k") == daily_bot_key(7, b"k") != daily_bot_key(8, b"k")
    True
    """
    digest = hmac.new(key, f"bots:{seed}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def daily_config(day: str, key: bytes) -> GameConfig:
    """The settings of ``day``'s daily race."""
    return GameConfig(
        players=DAILY_PLAYERS,
        bots=DAILY_BOTS,
        variants=DAILY_VARIANTS,
        seed=daily_seed(day, key),
        daily=day,
    )


@dataclass(frozen=True)
class DailyToday:
    """Today's deal as one player sees it: the board (their own result on it once their
    counted attempt has finished, unless a take-back made it practice), whether they made
    their counted attempt, and that race's id while it runs, so that they can go back to it."""

    day: str
    board: DayBoard
    attempted: bool
    running: str | None
    running_counts: bool
    """Whether that running race is still the counted attempt (a take-back makes it
    practice)."""
    streak: Streak
    """The player's daily streak (:func:`daily_streak`)."""


async def daily_streak(races: Races, player: int | None, attempted: bool | None = None) -> Streak:
    """``player``'s streak as of today (the clock of ``races``); None: someone new.
    ``attempted`` says whether they made today's counted attempt (None: look it up)."""
    day = utc_day(races.now())
    if player is None:
        return streak_of([], day)
    daily = _daily(races)
    if attempted is None:
        attempted = await daily.counted_attempt(day, player) is not None
    return streak_of(await daily.finished_days(player), day, attempted)


async def daily_today(races: Races, player: int | None) -> DailyToday:
    """Today's deal as ``player`` (a results player id; None: someone new) sees it."""
    daily = _daily(races)
    day = utc_day(races.now())
    attempt = None if player is None else await daily.counted_attempt(day, player)
    board = await daily.day_board(day, player)
    live = None if attempt is None or board.mine else await races.running(attempt)
    return DailyToday(
        day,
        board,
        attempt is not None,
        None if live is None else live.id,
        live is not None and not live.practice,
        await daily_streak(races, player, attempt is not None),
    )


async def start_replay(
    races: Races, day: str, owner: str, player: int | None = None
) -> tuple[GameSession, SessionState]:
    """A practice race of a past ``day``'s deal (same settings, same cards; on no board
    and in no rating). Raises :class:`ValueError` for a day whose counted attempts have not
    closed yet (:func:`app.results.daily_times.closes_at`: its seed is still secret)."""
    if not published(races, day):
        raise ValueError("Only a past day's deal can be raced again, once its board closed.")
    key = await _daily(races).daily_key()
    return await practice_of_seed(races, daily_seed(day, key), key, owner, player)


async def practice_of_seed(
    races: Races, seed: int, key: bytes, owner: str, player: int | None
) -> tuple[GameSession, SessionState]:
    """A practice race of the published deal ``seed`` (a past day's or a closed cup
    week's, derived under the daily ``key``): the same cards and bots as its counted races."""
    config = GameConfig(players=DAILY_PLAYERS, bots=DAILY_BOTS, variants=DAILY_VARIANTS, seed=seed)
    session, _ = await races.create(
        config,
        owner,
        player=player,
        engine_seed=daily_engine_seed(seed, key),
        bot_key=daily_bot_key(seed, key),
    )
    return session, await make_practice(races, session)


def published(races: Races, day: str) -> bool:
    """Whether ``day``'s seed and replay are public: once its counted attempts closed."""
    return races.now() >= closes_at(day)


async def past_seed(races: Races, day: str) -> int | None:
    """The seed of ``day``'s deal once published (:func:`published`), else None."""
    if not published(races, day):
        return None
    return daily_seed(day, await _daily(races).daily_key())


def _daily(races: Races) -> DailyResults:
    if races.results is None:
        raise RuntimeError("The daily deal needs the results store.")
    return DailyResults(races.results)


async def start_daily(
    races: Races, player: int, owner: str, name: str | None = None, address: str | None = None
) -> DailyStart:
    """Deal today's daily race for the results' ``player`` (client ``owner``, from client
    ``address``; seat name ``name``): their counted attempt if they have none today, else
    practice once the counted attempt has ended.

    Raises what :meth:`Races.create` raises, :class:`LobbyRefused` for a name that does not
    fit, :class:`DailyAttemptRunning` while the player's counted attempt still runs (no
    practice copy of the deal before it ends), and :class:`DailyAddressFull` for a counted
    attempt from an address that started its day's share
    (:attr:`Settings.daily_attempts_per_address`).
    """
    daily = _daily(races)
    day = utc_day(races.now())
    key = await daily.daily_key()
    config = daily_config(day, key)
    assert config.seed is not None
    where = None if address is None else await daily.address_digest(day, address)
    deals = daily_engine_seed(config.seed, key), daily_bot_key(config.seed, key)
    deal = CountedDeal(
        partial(daily.counted_attempt, day, player),
        partial(daily.claim, day, player),
        partial(daily.attempts_from, day),
        DailyAttemptRunning,
        DailyAddressFull,
    )
    session, state, counted = await start_counted(
        races, deal, config, deals, owner, name, player, where
    )
    return DailyStart(session, state, day, counted)


async def check_address(races: Races, address: str) -> None:
    """Raise :class:`DailyAddressFull` when client ``address`` has started its share of
    today's counted attempts (checked before a new player is made for one)."""
    daily = _daily(races)
    day = utc_day(races.now())
    where = await daily.address_digest(day, address)
    await refuse_when_full(races, partial(daily.attempts_from, day), DailyAddressFull, where)


__all__ = [
    "DAILY_BOTS",
    "DAILY_PLAYERS",
    "DAILY_VARIANTS",
    "DailyStart",
    "DailyToday",
    "check_address",
    "daily_config",
    "daily_engine_seed",
    "daily_seed",
    "daily_streak",
    "daily_today",
    "day_before",
    "past_seed",
    "published",
    "start_daily",
    "start_replay",
    "utc_day",
]
