"""The daily deal (docs/daily.md): one deal a UTC day, the same for everyone, dealt from a
public seed keyed with the results' daily key (secret until the day's board closes), one
counted attempt each (:func:`start_counted`), and the streak of days in a row with a
finished one, worked out from the stored results at each read. The weekly cup ("The
weekly cup"): every ISO week (UTC) :data:`CUP_DEALS` fixed deals in the daily's format,
each with its own seed, one counted attempt per deal and player under the same rules."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import partial
from typing import Any

from app.races.errors import (
    CupAddressFull,
    CupAttemptRunning,
    DailyAddressFull,
    DailyAttemptRunning,
    RaceError,
)
from app.races.operations import SessionState
from app.races.record import GameConfig, GameSession, keyed
from app.races.unit import Races
from app.results.cup import CupBoard, CupResults, DealResult
from app.results.daily import DailyResults, DayBoard
from app.results.daily_times import closes_at, week_closes_at
from app.vocabulary import BotLevel
from engine import Variants

DAILY_PLAYERS = 4  # the person and three bots
DAILY_BOTS: BotLevel = "normal"
DAILY_VARIANTS = Variants()  # the base game
SEED_BITS = 53  # a daily seed is below 2**53 like any seed a person can type
CUP_DEALS = 5
"""Deals in a week's cup."""


def deal_config(seed: int, **which: Any) -> GameConfig:
    """The settings of the daily format's deal of public ``seed`` (``which``: its ``daily``
    day, or its ``cup`` week and ``cup_deal``; none for practice)."""
    return GameConfig(DAILY_PLAYERS, DAILY_BOTS, DAILY_VARIANTS, seed, **which)


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


def utc_day(moment: float) -> str:
    """The UTC date of wall-clock ``moment``, as ``YYYY-MM-DD``."""
    return datetime.fromtimestamp(moment, UTC).date().isoformat()


def day_before(day: str) -> str:
    """The date before ``day``."""
    return (date.fromisoformat(day) - timedelta(days=1)).isoformat()


def daily_seed(day: str, key: bytes) -> int:
    """The public seed of ``day``'s deal under the daily ``key``."""
    return keyed(key, f"daily:{day}", SEED_BITS)


def daily_engine_seed(seed: int, key: bytes) -> int:
    """The shuffle seed of the daily deal whose public seed is ``seed``."""
    return keyed(key, f"deal:{seed}")


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
    day = utc_day(races.now())
    if player is None:
        return streak_of([], day)
    daily = daily_results(races)
    if attempted is None:
        attempted = await daily.counted_attempt(day, player) is not None
    return streak_of(await daily.finished_days(player), day, attempted)


async def daily_today(races: Races, player: int | None) -> DailyToday:
    """Today's deal as ``player`` (a results player id; None: someone new) sees it."""
    daily = daily_results(races)
    day = utc_day(races.now())
    attempt = None if player is None else await daily.counted_attempt(day, player)
    board = await daily.day_board(day, player)
    live = None if attempt is None or board.mine else await races.running(attempt)
    made = attempt is not None
    running = None if live is None else live.id
    counts = live is not None and not live.practice
    return DailyToday(day, board, made, running, counts, await daily_streak(races, player, made))


async def start_replay(
    races: Races, day: str, owner: str, player: int | None = None
) -> tuple[GameSession, SessionState]:
    """A practice race of a past ``day``'s deal; :class:`ValueError` while its seed is
    still secret (until the day's counted attempts closed)."""
    if races.now() < closes_at(day):
        raise ValueError("Only a past day's deal can be raced again, once its board closed.")
    key = await daily_results(races).daily_key()
    return await practice_of_seed(races, daily_seed(day, key), key, owner, player)


async def practice_of_seed(
    races: Races, seed: int, key: bytes, owner: str, player: int | None
) -> tuple[GameSession, SessionState]:
    """A practice race of the published deal ``seed`` (a past day's or a closed cup week's,
    under the daily ``key``): the same cards and bots as its counted races."""
    session, _ = await _create(races, deal_config(seed), key, owner, None, player)
    return session, await make_practice(races, session)


async def _create(
    races: Races, config: GameConfig, key: bytes, owner: str, name: str | None, player: int | None
) -> tuple[GameSession, SessionState]:
    """Deal ``config``: its seed's deal and bots under the daily ``key``."""
    assert config.seed is not None
    engine_seed, bot_key = daily_engine_seed(config.seed, key), daily_bot_key(config.seed, key)
    return await races.create(config, owner, name, player, engine_seed, bot_key)


async def past_seed(races: Races, day: str) -> int | None:
    """The seed of ``day``'s deal once its counted attempts closed, else None."""
    if races.now() < closes_at(day):
        return None
    return daily_seed(day, await daily_results(races).daily_key())


def daily_results(races: Races) -> DailyResults:
    """The results' daily tables (the daily key, the addresses' digests, the attempts)."""
    if races.results is None:
        raise RuntimeError("The daily deal and the cup need the results store.")
    return DailyResults(races.results)


async def start_daily(
    races: Races, player: int, owner: str, name: str | None = None, address: str | None = None
) -> CountedStart:
    """Deal today's daily race for the results' ``player`` (client ``owner``, from
    ``address``, named ``name``) as :func:`start_counted` does."""
    daily = daily_results(races)
    day = utc_day(races.now())
    key = await daily.daily_key()
    deal = CountedDeal(
        day,
        partial(daily.counted_attempt, day, player),
        partial(daily.claim, day, player),
        partial(daily.attempts_from, day),
        DailyAttemptRunning,
        DailyAddressFull,
    )
    config = deal_config(daily_seed(day, key), daily=day)
    return await start_counted(races, deal, config, key, owner, name, player, address)


async def check_address(races: Races, address: str) -> None:
    """Raise :class:`DailyAddressFull` when client ``address`` started its share of today's
    counted attempts (checked before a new player is made for one)."""
    daily = daily_results(races)
    day = utc_day(races.now())
    where = await daily.address_digest(day, address)
    await refuse_when_full(races, partial(daily.attempts_from, day), DailyAddressFull, where)


@dataclass(frozen=True)
class CountedDeal:
    """Where one format keeps one player's counted attempt at one deal."""

    period: str
    """The deal's day or week (what an address's digest is taken for)."""
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
    key: bytes,
    owner: str,
    name: str | None,
    player: int,
    address: str | None,
) -> CountedStart:
    """Deal ``config`` (its seed's deal and bots under the daily ``key``) for ``player``
    (client ``owner``, named ``name``, from ``address``): the counted attempt if they have
    none, else practice. Raises what
    :meth:`Races.create` raises, :class:`LobbyRefused` for a name that does not fit,
    ``deal.running`` while the counted attempt runs and ``deal.full``."""
    daily = daily_results(races)
    where = None if address is None else await daily.address_digest(deal.period, address)
    now = races.now()
    attempt = await deal.attempt()
    await _refuse_while_running(races, deal, attempt)
    counted = attempt is None
    if counted and where is not None:
        await refuse_when_full(races, deal.attempts_from, deal.full, where)
    session, state = await _create(races, config, key, owner, name, player)
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
    return CountedStart(session, state, counted, deal.period)


async def make_practice(races: Races, session: GameSession) -> SessionState:
    """Make the just-dealt ``session`` practice; its creator's state."""
    async with races.open(session.id, session.token, write=True) as race:
        race.mark_practice()
        return race.state()


async def _refuse_while_running(races: Races, deal: CountedDeal, attempt: str | None) -> None:
    running = None if attempt is None else await races.running(attempt)
    if running is not None and not running.practice:
        raise deal.running(running.id)


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
    """This week's cup as one player sees it."""

    week: str
    closes: float
    """When the week's cup closes (wall-clock seconds)."""
    deals: list[CupDeal]
    board: CupBoard


def iso_week(moment: float) -> str:
    """The ISO week (UTC) of wall-clock ``moment``, as ``YYYY-Www``."""
    year, week, _ = datetime.fromtimestamp(moment, UTC).date().isocalendar()
    return f"{year}-W{week:02d}"


def week_before(week: str) -> str:
    """The ISO week before ``week``."""
    year, number, _ = (date.fromisoformat(f"{week}-1") - timedelta(days=7)).isocalendar()
    return f"{year}-W{number:02d}"


def cup_seed(week: str, deal: int, key: bytes) -> int:
    """The public seed of ``deal`` of ``week``'s cup under the daily ``key``."""
    return keyed(key, f"cup:{week}:{deal}", SEED_BITS)


async def past_seeds(races: Races, week: str) -> list[int] | None:
    """The seeds of ``week``'s deals, in order, once published; else None."""
    if races.now() < week_closes_at(week):
        return None
    key = await daily_results(races).daily_key()
    return [cup_seed(week, deal, key) for deal in range(1, CUP_DEALS + 1)]


async def start_cup_replay(
    races: Races, week: str, deal: int, owner: str, player: int | None = None
) -> tuple[GameSession, SessionState]:
    """A practice race of ``deal`` of a past ``week``'s cup; :class:`ValueError` while its
    seeds are secret or for a deal outside 1 to :data:`CUP_DEALS`."""
    if races.now() < week_closes_at(week) or not 1 <= deal <= CUP_DEALS:
        raise ValueError("Only a closed week's cup deals can be raced again.")
    key = await daily_results(races).daily_key()
    return await practice_of_seed(races, cup_seed(week, deal, key), key, owner, player)


async def cup_week(races: Races, player: int | None) -> CupWeek:
    """This week's cup as ``player`` (a results player id; None: someone new) sees it."""
    cup = _cup(races)
    week = iso_week(races.now())
    attempts = {} if player is None else await cup.attempts(week, player)
    results = {} if player is None else {r.deal: r for r in await cup.results_of(week, player)}
    deals = []
    for deal in range(1, CUP_DEALS + 1):
        game_id = attempts.get(deal)
        live = None if game_id is None or deal in results else await races.running(game_id)
        running = None if live is None or live.practice else live.id
        deals.append(CupDeal(deal, game_id is not None, running, results.get(deal)))
    return CupWeek(week, week_closes_at(week), deals, await cup.board(week, player))


async def check_cup_address(races: Races, deal: int, address: str) -> None:
    """Raise :class:`CupAddressFull` when client ``address`` has started its share of this
    week's counted attempts at ``deal`` (checked before a new player is made for one)."""
    week = iso_week(races.now())
    where = await daily_results(races).address_digest(week, address)
    await refuse_when_full(
        races, partial(_cup(races).attempts_from, week, deal), CupAddressFull, where
    )


async def start_cup(
    races: Races,
    player: int,
    deal: int,
    owner: str,
    name: str | None = None,
    address: str | None = None,
) -> CountedStart:
    """Deal ``deal`` of this week's cup for the results' ``player`` (client ``owner``, from
    ``address``, named ``name``) as :func:`start_counted` does;
    :class:`ValueError` for a deal outside 1 to :data:`CUP_DEALS`."""
    if not 1 <= deal <= CUP_DEALS:
        raise ValueError(f"The cup has deals 1 to {CUP_DEALS}.")
    cup = _cup(races)
    week = iso_week(races.now())
    key = await daily_results(races).daily_key()
    counted_deal = CountedDeal(
        week,
        partial(cup.attempt, week, deal, player),
        partial(cup.claim, week, deal, player),
        partial(cup.attempts_from, week, deal),
        CupAttemptRunning,
        CupAddressFull,
    )
    config = deal_config(cup_seed(week, deal, key), cup=week, cup_deal=deal)
    return await start_counted(races, counted_deal, config, key, owner, name, player, address)


def _cup(races: Races) -> CupResults:
    return CupResults(daily_results(races).results)
