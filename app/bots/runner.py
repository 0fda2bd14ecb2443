"""Where the bots' turns run: light bots on the event loop (a thread hop costs more than
their decisions); a hard bot's search in the shared worker processes (:mod:`app.bots.pool`),
``cap`` at once, the rest queued by move start on a budget cut to the queue
(:func:`search_budget_ms`); a dead worker's decision is retried once on a fresh pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import heapq
import itertools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass
from typing import Any, Protocol

import anyio.to_thread

from app import metrics
from app.bots import pool as bot_pool
from app.settings import Settings
from engine import MAX_DECISIONS, Action, Game, SeatView
from engine.bots import DEFAULT_BOT_BUDGET_MS, decide, make_bot

log = logging.getLogger("zzv.bots")

HUMAN_SEAT = 0
"""The race's creator's seat (people at other seats: :meth:`BotTable.bots_may_move`)."""

STARVED_ROLLOUTS = 10
"""A hard search that ran fewer rollouts than this is counted and logged as starved."""

NOTICE = "Hard bots are thinking faster: the server is busy."
"""Shown with races against hard bots while searches are being shortened."""

NOTICE_HOLD_SECONDS = 10.0
"""How long :data:`NOTICE` stays up after the last shortened search (a move is answered
once its queue drained: "now" alone would rarely show it)."""

SearchResult = tuple[dict[str, Any], int | None]
"""A search's chosen action (as a dict) and its rollouts (None: no search was needed)."""


@dataclass(frozen=True)
class SearchRequest:
    """One hard decision: the seat's view (never more), its seed, budget, the pool's size,
    whether it spreads over every worker, the other hard bots' seats (public)."""

    observation: SeatView
    seed: int
    budget_ms: int
    workers: int
    wide: bool
    hard_seats: tuple[int, ...] = ()


class _HasLevel(Protocol):
    @property
    def bots(self) -> str: ...


class BotTable(Protocol):
    """What the runner needs of a race (:class:`app.races.operations.GameSession` has it)."""

    game: Game
    bot_key: int
    bot_decisions: int
    bot_budget_ms: int

    @property
    def config(self) -> _HasLevel: ...

    def record_events(self, events: list[Any]) -> None: ...

    def record_action(self, seat: int, action: Action) -> None: ...

    def bots_may_move(self, seat: int) -> bool: ...


def bot_seed(bot_key: int, seat: int, decision: int) -> int:
    """A decision's seed from the race's bots' key (not the deal's: two races of one deal
    meet different moves), the seat and the decision number."""
    digest = hashlib.blake2b(f"{bot_key}:{seat}:{decision}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


HARD_MOVE_TARGET_SECONDS = 1.6
"""How long the bots' replies to one move may take in all when searches queue: each budget
is cut so the move's remaining searches fit (aim: 2 s at p99 under load)."""


def search_budget_ms(
    base_ms: int,
    waiting: int,
    cap: int,
    floor_ms: int,
    left_ms: float | None = None,
    searches_left: int = 1,
) -> int:
    """A hard search's budget, ``waiting`` queued behind it: ``base_ms`` scaled by
    ``cap / (cap + waiting)`` (wait plus search stay under two budgets), at most its share
    of ``left_ms`` among ``searches_left``, within ``[floor_ms, base_ms]``."""
    scaled = base_ms * cap // (cap + max(0, waiting))
    if left_ms is not None:
        scaled = min(scaled, int(left_ms // max(1, searches_left)))
    return max(min(base_ms, floor_ms), min(base_ms, scaled))


def choose_bot_action(
    level: str, game: Game, seat: int, seed: int, budget_ms: int = DEFAULT_BOT_BUDGET_MS
) -> Action:
    """A decision in this thread by a fresh bot seeing only its seat's view."""
    options: dict[str, Any] = {"time_budget_ms": budget_ms} if level == "hard" else {}
    return make_bot(level, seed, **options).choose(game.view(seat))


async def search_in_pool(request: SearchRequest) -> SearchResult:
    """One hard search in the shared pool, in one process or (wide) spread over all of them
    from a server thread; retried once on a broken pool."""

    async def run() -> SearchResult:
        pool = bot_pool.get_pool(request.workers)
        options = {"time_budget_ms": request.budget_ms, "hard_seats": request.hard_seats}
        job = functools.partial(decide, "hard", request.seed, request.observation, **options)
        if request.wide:
            wide_job = functools.partial(job, workers=request.workers, map_jobs=pool.map)
            return await anyio.to_thread.run_sync(wide_job)
        return await asyncio.get_running_loop().run_in_executor(pool, job)

    try:
        return await run()
    except BrokenProcessPool:
        log.warning("a bot worker process died; replacing the pool and retrying")
        return await run()


class SearchGate:
    """A priority gate: an :class:`asyncio.Semaphore` whose next slot goes to the lowest
    priority value, FIFO among equals (a move's start time: a move waits once, not per bot)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap  # at least 1: the settings' caps are counts
        self.holders = 0
        """Slots held now (never above ``cap``)."""
        self.waiting = 0
        """Acquirers queued now."""
        self._queue: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    async def acquire(self, priority: float) -> None:
        """Wait for a slot; lower ``priority`` values are served first."""
        if self.holders < self.cap and not self.waiting:
            self.holders += 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._queue, (priority, next(self._order), future))
        self.waiting += 1
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release()  # the slot was handed over as we were cancelled: pass it on
            raise
        finally:
            self.waiting -= 1

    def try_acquire_all(self) -> bool:
        """Take every slot at once if the gate is idle (nobody holds or waits); else False."""
        if self.holders or self.waiting:
            return False
        self.holders = self.cap
        return True

    def release(self) -> None:
        """Give the slot to the best waiter, or free it."""
        while self._queue:
            _, _, future = heapq.heappop(self._queue)
            if not future.done():  # skip waiters that were cancelled
                future.set_result(None)  # the slot passes on: ``holders`` stays the same
                return
        self.holders -= 1


class BotRunner:
    def __init__(self, settings: Settings | None = None) -> None:
        self.workers = 2 if settings is None else settings.hard_bot_workers
        self.cap = 2 if settings is None else settings.hard_searches_in_flight or self.workers
        self.floor_ms = 30 if settings is None else settings.hard_budget_floor_ms
        self.search: Callable[[SearchRequest], Awaitable[SearchResult]] = search_in_pool
        """How a hard search runs (tests replace it to hold searches at will)."""
        self.peak_in_flight = 0
        self.starved = 0
        self._last_shortened = -1e9
        self._gate: tuple[asyncio.AbstractEventLoop, SearchGate] | None = None

    @property
    def in_flight(self) -> int:
        """Hard searches running now."""
        return self._gate[1].holders if self._gate else 0

    @property
    def waiting(self) -> int:
        """Hard decisions queued for a search slot now."""
        return self._gate[1].waiting if self._gate else 0

    @contextlib.asynccontextmanager
    async def _slot(self, move_started: float) -> AsyncIterator[bool]:
        """Hold search slots, earlier moves first; yields whether the search goes wide (all
        slots: nobody else searches or waits, every worker is up)."""
        # One event loop per server process; tests run apps on several loops in turn, and
        # a gate's futures belong to one loop.
        loop = asyncio.get_running_loop()
        if self._gate is None or self._gate[0] is not loop:
            self._gate = (loop, SearchGate(self.cap))
        gate = self._gate[1]
        warm = self.workers > 1 and bot_pool.warmed(self.workers)
        wide = warm and gate.try_acquire_all()
        if not wide:
            queued = time.perf_counter()
            metrics.HARD_WAITING.set(gate.waiting + 1)
            try:
                await gate.acquire(move_started)
            finally:
                metrics.HARD_WAITING.set(gate.waiting)
            metrics.HARD_WAIT_SECONDS.observe(time.perf_counter() - queued)
        self.peak_in_flight = max(self.peak_in_flight, gate.holders)
        metrics.HARD_IN_FLIGHT.set(gate.holders)
        try:
            yield wide
        finally:
            for _ in range(gate.cap if wide else 1):  # a wide search holds every slot
                gate.release()
            metrics.HARD_IN_FLIGHT.set(gate.holders)

    async def run_bots(self, table: BotTable) -> None:
        """Let the bots move until a person is to play or the race is over (or longer than
        a race lasts: a bug, logged); light bots without yielding the event loop."""
        level, game = table.config.bots, table.game
        move_started = time.monotonic()
        for done in range(MAX_DECISIONS):
            seat = game.current_seat
            if seat is None or not table.bots_may_move(seat):
                return
            seed = bot_seed(table.bot_key, seat, table.bot_decisions)
            table.bot_decisions += 1
            started = time.perf_counter()
            try:
                if level == "hard":
                    left = max(1, game.players - 1 - done)
                    action = await self._hard_decision(table, seat, seed, move_started, left)
                else:
                    budget = table.bot_budget_ms
                    action = choose_bot_action(level, game, seat, seed, budget_ms=budget)
                events = game.apply(action, seat=seat)
            except Exception as exc:
                # A faulty bot must not freeze the race: play the first legal turn. Log the
                # error's type only: its message may name the bot's (hidden) cards.
                failed = {"bots": level, "seat": seat, "error": type(exc).__name__}
                log.error("bot failed; played a fallback turn", extra=failed)
                action = game.legal_actions()[0]
                events = game.apply(action, seat=seat)
            table.record_action(seat, action)
            if level != "hard":  # a hard decision counts itself, its queueing left out
                metrics.BOT_DECISIONS.labels(level).inc()
                metrics.BOT_THINK_SECONDS.labels(level).observe(time.perf_counter() - started)
            table.record_events(events)
        log.error("bots did not hand the turn back after %d decisions", MAX_DECISIONS)

    async def _hard_decision(
        self, table: BotTable, seat: int, seed: int, move_started: float, searches_left: int
    ) -> Action:
        game = table.game
        legal = game.legal_actions()
        if len(legal) == 1:  # nothing to think about: no search, no queue
            metrics.BOT_DECISIONS.labels("hard").inc()
            return legal[0]
        observation = game.view(seat)
        hard_seats = tuple(s for s in range(game.players) if s != seat and table.bots_may_move(s))
        queued = time.perf_counter()
        async with self._slot(move_started) as wide:
            left_ms = (HARD_MOVE_TARGET_SECONDS - (time.monotonic() - move_started)) * 1000
            budget = search_budget_ms(
                table.bot_budget_ms, self.waiting, self.cap, self.floor_ms, left_ms, searches_left
            )
            if budget < table.bot_budget_ms:
                self._last_shortened = time.monotonic()
            started = time.perf_counter()
            request = SearchRequest(observation, seed, budget, self.workers, wide, hard_seats)
            action, rollouts = await self.search(request)
            metrics.BOT_THINK_SECONDS.labels("hard").observe(time.perf_counter() - started)
        metrics.BOT_DECISIONS.labels("hard").inc()
        metrics.HARD_BUDGET_MS.observe(budget)
        if rollouts is None:
            return Action.from_dict(action)
        metrics.HARD_ROLLOUTS.observe(rollouts)
        # Counts and budget only, nothing about the position or any hand; one line per
        # search at debug level: the hard-load benchmark reads them.
        counts = {"rollouts": rollouts, "budget_ms": budget}
        waited = {"wait_ms": round((started - queued) * 1e3), "wide": wide}
        log.debug("hard bot searched", extra=counts | waited)
        if rollouts < STARVED_ROLLOUTS:
            self.starved += 1
            metrics.HARD_STARVED.inc()
            queue = {"waiting": self.waiting, "in_flight": self.in_flight}
            log.warning("hard bot search ran almost no rollouts", extra=counts | queue)
        return Action.from_dict(action)

    def notice(self, level: str) -> str | None:
        """:data:`NOTICE` for a race with hard bots while searches are being shortened."""
        recent = time.monotonic() - self._last_shortened < NOTICE_HOLD_SECONDS
        return NOTICE if level == "hard" and recent else None

    def readiness(self) -> dict[str, Any]:
        """The worker pool's state for ``/readyz`` (a broken pool is replaced on next use)."""
        status = bot_pool.status()
        if status.state == "broken":
            bot_pool.get_pool(status.workers)  # replace it now rather than on the next move
            status = bot_pool.status()
        pool = asdict(status)
        queue = {"searches_in_flight": self.in_flight, "searches_waiting": self.waiting}
        return {"pool": pool.pop("state"), **pool, **queue, "cap": self.cap}
