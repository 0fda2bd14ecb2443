"""The weekly cup (docs/daily.md, "The weekly cup"): every ISO week (UTC) :data:`CUP_DEALS`
fixed deals in the daily deal's format, each with its own seed, one counted attempt per
deal and player under the daily's rules (:func:`app.races.daily.start_counted`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import partial

from app.races.daily import (
    SEED_BITS,
    CountedDeal,
    daily_bot_key,
    daily_engine_seed,
    daily_results,
    deal_config,
    practice_of_seed,
    refuse_when_full,
    start_counted,
)
from app.races.errors import CupAddressFull, CupAttemptRunning
from app.races.operations import SessionState
from app.races.record import GameSession, keyed
from app.races.unit import Races
from app.results.cup import CupBoard, CupResults, DealResult
from app.results.daily_times import week_closes_at

CUP_DEALS = 5
"""Deals in a week's cup."""


@dataclass(frozen=True)
class CupStart:
    """A cup race just dealt: the race (with its creator's token), the creator's state, the
    week, the deal and whether this is the player's counted attempt at it."""

    session: GameSession
    state: SessionState
    week: str
    deal: int
    counted: bool


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


def published(races: Races, week: str) -> bool:
    """Whether ``week``'s seeds are public: once its cup closed."""
    return races.now() >= week_closes_at(week)


async def past_seeds(races: Races, week: str) -> list[int] | None:
    """The seeds of ``week``'s deals, in order, once published; else None."""
    if not published(races, week):
        return None
    key = await daily_results(races).daily_key()
    return [cup_seed(week, deal, key) for deal in range(1, CUP_DEALS + 1)]


async def start_cup_replay(
    races: Races, week: str, deal: int, owner: str, player: int | None = None
) -> tuple[GameSession, SessionState]:
    """A practice race of ``deal`` of a past ``week``'s cup; :class:`ValueError` while its
    seeds are secret or for a deal outside 1 to :data:`CUP_DEALS`."""
    if not published(races, week) or not 1 <= deal <= CUP_DEALS:
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


async def check_address(races: Races, deal: int, address: str) -> None:
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
) -> CupStart:
    """Deal ``deal`` of this week's cup for the results' ``player`` (client ``owner``, from
    ``address``, named ``name``) as :func:`app.races.daily.start_counted` does;
    :class:`ValueError` for a deal outside 1 to :data:`CUP_DEALS`."""
    if not 1 <= deal <= CUP_DEALS:
        raise ValueError(f"The cup has deals 1 to {CUP_DEALS}.")
    cup = _cup(races)
    week = iso_week(races.now())
    key = await daily_results(races).daily_key()
    seed = cup_seed(week, deal, key)
    where = None if address is None else await daily_results(races).address_digest(week, address)
    counted_deal = CountedDeal(
        partial(cup.attempt, week, deal, player),
        partial(cup.claim, week, deal, player),
        partial(cup.attempts_from, week, deal),
        CupAttemptRunning,
        CupAddressFull,
    )
    config = deal_config(seed, cup=week, cup_deal=deal)
    deals = daily_engine_seed(seed, key), daily_bot_key(seed, key)
    session, state, counted = await start_counted(
        races, counted_deal, config, deals, owner, name, player, where
    )
    return CupStart(session, state, week, deal, counted)


def _cup(races: Races) -> CupResults:
    return CupResults(daily_results(races).results)
