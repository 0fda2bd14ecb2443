"""A priority gate: an :class:`asyncio.Semaphore` whose next slot goes to the lowest
priority value, FIFO among equals (a move's start time: a move waits once, not per bot).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools


class SearchGate:
    def __init__(self, cap: int) -> None:
        if cap < 1:
            raise ValueError("A gate needs at least one slot.")
        self.cap = cap
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

    def release_all(self) -> None:
        """Give back every slot taken by :meth:`try_acquire_all`."""
        for _ in range(self.cap):
            self.release()

    def release(self) -> None:
        """Give the slot to the best waiter, or free it."""
        while self._queue:
            _, _, future = heapq.heappop(self._queue)
            if not future.done():  # skip waiters that were cancelled
                future.set_result(None)  # the slot passes on: ``holders`` stays the same
                return
        self.holders -= 1
