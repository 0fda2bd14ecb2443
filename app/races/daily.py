"""The daily deal and the weekly cup (docs/daily.md): one deal a UTC day, :data:`CUP_DEALS`
an ISO week, the same for everyone, dealt from public seeds keyed with the results' daily key
(secret until the period's board closes), one counted attempt per deal and player
(:func:`start_counted`), and the daily streak (:func:`streak_of`) from the stored results.
A deal is named by its period (a day or a week) and, in the cup, its number (None: the daily)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from app.races.errors import (
    CupAddressFull,
    CupAttemptRunning,
    DailyAddressFull,
    DailyAttemptRunning,
)
from app.races.operations import SessionState
from app.races.record import GameConfig, GameSession, keyed
from app.races.unit import Races
from app.results.cup import CupBoard, CupResults, DealResult
from app.results.daily import DayBoard
from app.results.daily_times import closes_at, is_week, period_before, period_of
from app.vocabulary import BotLevel
from engine import Variants

DAILY_PLAYERS = 4  # the person and three bots
DAILY_BOTS: BotLevel = "normal"
DAILY_VARIANTS = Variants()  # the base game
SEED_BITS = 53  # a daily seed is below 2**53 like any seed a person can type
CUP_DEALS = 5
"""Deals in a week's cup."""


@dataclass(frozen=True, slots=True)
class Streak:
    """A player's daily streak as of one day."""

    current: int
    """Days in a row up to today, or up to yesterday while today is not among them."""
    best: int
    """The longest run of days in a row ever."""
    today: bool
    """Today's counted attempt finished (it is in :attr:`current`)."""
    attempted: bool = False
    """Today's counted attempt is made, finished or not."""


def streak_of(days: Iterable[str], today: str, attempted: bool = False) -> Streak:
    """The streak, as of ``today``, of the finished ``days`` (``YYYY-MM-DD``; days after
    ``today`` are not counted)."""
    end = date.fromisoformat(today)
    finished = sorted({d for d in map(date.fromisoformat, days) if d <= end})
    best = run = 0
    for index, day in enumerate(finished):
        run = run + 1 if index and day - finished[index - 1] == timedelta(days=1) else 1
        best = max(best, run)
    last = finished[-1] if finished else None
    alive = last is not None and end - last <= timedelta(days=1)
    return Streak(run if alive else 0, best, last == end, attempted or last == end)


@dataclass(frozen=True)
class CountedStart:
    """A daily or cup race just dealt: the race (with its creator's token), the creator's
    state, whether this is the player's counted attempt, and the deal's day or week."""

    session: GameSession
    state: SessionState
    counted: bool
    period: str


def deals_of(period: str) -> list[int | None]:
    """The deals of a week's cup in order, or a day's daily deal (None)."""
    return list(range(1, CUP_DEALS + 1)) if is_week(period) else [None]


def public_seed(key: bytes, period: str, deal: int | None = None) -> int:
    """The public seed of ``deal`` of week ``period``'s cup (None: of day ``period``'s daily)
    under the daily ``key``."""
    return keyed(key, f"daily:{period}" if deal is None else f"cup:{period}:{deal}", SEED_BITS)


def daily_bot_key(seed: int, key: bytes) -> int:
    """The bots' key in every race of the deal of public ``seed``: the same for everyone
    (the board compares people against the same bots), secret like the deal."""
    return keyed(key, f"bots:{seed}")


@dataclass(frozen=True)
class DailyToday:
    """Today's deal as one player sees it: the board, whether they made their counted
    attempt, and that race's id while it runs (to go back to it)."""

    day: str
    board: DayBoard
    attempted: bool
    running: str | None
    running_counts: bool
    """Whether that running race still counts (a take-back makes it practice)."""
    streak: Streak


async def daily_streak(races: Races, player: int | None, attempted: bool | None = None) -> Streak:
    """``player``'s streak (None: someone new) as of today; ``attempted`` says whether they
    made today's counted attempt (None: look it up)."""
    day = period_of(races.now())
    if player is None:
        return streak_of([], day)
    daily = counted_results(races)
    if attempted is None:
        attempted = await daily.attempt(day, None, player) is not None
    return streak_of(await daily.finished_days(player), day, attempted)


async def daily_today(races: Races, player: int | None) -> DailyToday:
    """Today's deal as ``player`` (a results player id; None: someone new) sees it."""
    daily = counted_results(races)
    day = period_of(races.now())
    attempt = None if player is None else await daily.attempt(day, None, player)
    board = await daily.day_board(day, player)
    live = None if attempt is None or board.mine else await races.running(attempt)
    made = attempt is not None
    running = None if live is None else live.id
    counts = live is not None and not live.practice
    return DailyToday(day, board, made, running, counts, await daily_streak(races, player, made))


async def past_seeds(races: Races, period: str) -> list[int] | None:
    """The seeds of ``period``'s deals (:func:`deals_of`), in order, once it closed; else None."""
    if races.now() < closes_at(period):
        return None
    key = await counted_results(races).daily_key()
    return [public_seed(key, period, deal) for deal in deals_of(period)]


async def start_replay(
    races: Races, period: str, deal: int | None, owner: str, player: int | None = None
) -> GameSession:
    """A practice race of ``deal`` of a closed ``period`` (:func:`deals_of`): the same cards
    and bots as its counted races; :class:`ValueError` while its seeds are secret or for a
    deal the period has not."""
    if races.now() < closes_at(period) or deal not in deals_of(period):
        raise ValueError("Only a closed day's or week's deals can be raced again.")
    key = await counted_results(races).daily_key()
    seed = public_seed(key, period, deal)
    session, _ = await _create(races, seed, key, owner, None, player)
    await make_practice(races, session)
    return session


async def _create(
    races: Races,
    seed: int,
    key: bytes,
    owner: str,
    name: str | None,
    player: int | None,
    **which: Any,
) -> tuple[GameSession, SessionState]:
    """Deal the daily format's deal of public ``seed`` (``which``: its ``daily`` day, or its
    ``cup`` week and ``cup_deal``; none for practice), its cards and bots under ``key``."""
    config = GameConfig(DAILY_PLAYERS, DAILY_BOTS, DAILY_VARIANTS, seed, **which)
    engine_seed, bot_key = keyed(key, f"deal:{seed}"), daily_bot_key(seed, key)
    return await races.create(config, owner, name, player, engine_seed, bot_key)


def counted_results(races: Races) -> CupResults:
    """The results' daily and cup tables."""
    assert races.results is not None, "the app always has its results store"
    return CupResults(races.results)


async def check_address(races: Races, address: str, deal: int | None = None) -> None:
    """Raise :class:`DailyAddressFull` (:class:`CupAddressFull`) when client ``address``
    started its share of the counted attempts at today's daily (``deal`` of this week's
    cup), checked before a new player is made for one."""
    period = period_of(races.now(), deal is not None)
    where = await counted_results(races).address_digest(period, address)
    await _refuse_when_full(races, period, deal, where)


async def _refuse_when_full(races: Races, period: str, deal: int | None, where: str) -> None:
    cap = races.settings.daily_attempts_per_address
    if await counted_results(races).attempts_from(period, deal, where) >= cap:
        raise (DailyAddressFull if deal is None else CupAddressFull)(cap)


async def start_counted(
    races: Races,
    deal: int | None,
    player: int,
    owner: str,
    name: str | None = None,
    address: str | None = None,
) -> CountedStart:
    """Deal today's daily (``deal`` None) or ``deal`` of this week's cup for the results'
    ``player`` (client ``owner``, named ``name``, from ``address``): the counted attempt if
    they have none, else practice. Raises what :meth:`Races.create` raises,
    :class:`LobbyRefused` for a name that does not fit, :class:`DailyAttemptRunning`
    (:class:`CupAttemptRunning`) while the counted attempt runs, and
    :class:`DailyAddressFull` (:class:`CupAddressFull`)."""
    period = period_of(races.now(), deal is not None)
    daily = counted_results(races)
    key = await daily.daily_key()
    where = None if address is None else await daily.address_digest(period, address)
    now = races.now()
    attempt = await daily.attempt(period, deal, player)
    await _refuse_while_running(races, deal, attempt)
    counted = attempt is None
    if counted and where is not None:
        await _refuse_when_full(races, period, deal, where)
    which = {"daily": period} if deal is None else {"cup": period, "cup_deal": deal}
    seed = public_seed(key, period, deal)
    session, state = await _create(races, seed, key, owner, name, player, **which)
    if counted:
        at = datetime.fromtimestamp(now, UTC)
        counted = await daily.claim(period, deal, player, session.id, at, where)
        if not counted:  # another request claimed the deal meanwhile: it may still run
            try:
                await _refuse_while_running(races, deal, await daily.attempt(period, deal, player))
            except DailyAttemptRunning:
                await races.store.wipe(session.id)
                raise
    if not counted:
        state = await make_practice(races, session)
    return CountedStart(session, state, counted, period)


async def make_practice(races: Races, session: GameSession) -> SessionState:
    """Make the just-dealt ``session`` practice; its creator's state."""
    async with races.open(session.id, session.token, write=True) as race:
        race.mark_practice()
        return race.state()


async def _refuse_while_running(races: Races, deal: int | None, attempt: str | None) -> None:
    running = None if attempt is None else await races.running(attempt)
    if running is not None and not running.practice:
        raise (DailyAttemptRunning if deal is None else CupAttemptRunning)(running.id)


@dataclass(frozen=True)
class CupDeal:
    """One deal of the week as one player sees it."""

    deal: int
    attempted: bool
    running: str | None
    """The player's counted race of the deal while it runs and still counts."""
    result: DealResult | None


@dataclass(frozen=True)
class CupWeek:
    """This week's cup as one player sees it, and last week's board and seeds."""

    week: str
    closes: float
    """When the week's cup closes (wall-clock seconds)."""
    deals: list[CupDeal]
    board: CupBoard
    last: str
    last_board: CupBoard
    last_seeds: list[int] | None
    """Last week's deals' seeds once its cup closed."""


async def cup_week(races: Races, player: int | None) -> CupWeek:
    """This week's cup as ``player`` (a results player id; None: someone new) sees it."""
    cup = counted_results(races)
    week = period_of(races.now(), week=True)
    attempts = {} if player is None else await cup.attempts(week, player)
    results = {} if player is None else {r.deal: r for r in await cup.results_of(week, player)}
    deals = []
    for deal in range(1, CUP_DEALS + 1):
        game_id = attempts.get(deal)
        live = None if game_id is None or deal in results else await races.running(game_id)
        running = None if live is None or live.practice else live.id
        deals.append(CupDeal(deal, game_id is not None, running, results.get(deal)))
    board = await cup.board(week, player)
    last = period_before(week)
    last_board = await cup.board(last, player)
    return CupWeek(
        week, closes_at(week), deals, board, last, last_board, await past_seeds(races, last)
    )
