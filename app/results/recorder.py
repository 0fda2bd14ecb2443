"""Delivers the finishes a race's save left in the live store's outbox to the results,
each exactly once (recorded, idempotently, then cleared): right after the save
(:meth:`Recorder.deliver`), and in the background with back-off (:meth:`Recorder.run`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

from app.results.errors import ResultsUnavailable
from app.results.store import Finish, ResultsStore

log = logging.getLogger("zzv.results")

FIRST_WAIT_SECONDS = 0.5
"""The first pause after a delivery failed; each failure in a row doubles it, up to
:data:`LONGEST_WAIT_SECONDS`."""
LONGEST_WAIT_SECONDS = 8.0

IDLE_LOOK_SECONDS = 60.0
"""How often an idle recorder looks at the outbox anyway (another process's leftovers)."""


class Outbox(Protocol):
    """Where the finishes wait (the live races' store: :mod:`app.storage.interface`)."""

    async def outbox(self) -> dict[str, bytes]: ...

    async def clear_outbox(self, game_id: str) -> None: ...


class Recorder:
    def __init__(self, results: ResultsStore, outbox: Outbox) -> None:
        self.results = results
        self.outbox = outbox
        self._task: asyncio.Task[None] | None = None
        self._wake: asyncio.Event | None = None

    async def deliver(self, game_id: str, message: bytes) -> bool:
        """Record one ``message``, then clear it; whether recorded (a failure is logged and
        the background run woken to retry)."""
        about = {"game_id": game_id}
        try:
            finish = Finish.from_json(message)
        except (ValueError, KeyError, TypeError):
            log.error("an outbox message is unreadable; kept", extra=about)
            return False
        try:
            recorded = await self.results.record_finish(finish)
        except Exception as exc:
            if isinstance(exc, ResultsUnavailable):
                log.warning("a finished race waits for the results database", extra=about)
            else:
                log.exception("a finished race could not be recorded; kept", extra=about)
            self._nudge()
            return False
        try:
            await self.outbox.clear_outbox(game_id)
        except Exception:  # recorded: a later delivery finds it so and clears it then
            log.warning("a recorded race stays in the outbox", extra=about)
            self._nudge()
        if recorded is not None and self._task is not None and asyncio.current_task() is self._task:
            log.info("a finished race that waited is recorded", extra=about)
        return True

    async def drain(self) -> int:
        """Deliver every message in the outbox; how many are left."""
        waiting = await self.outbox.outbox()
        return sum([not await self.deliver(game_id, m) for game_id, m in waiting.items()])

    async def run(self, wake: asyncio.Event) -> None:
        """Drain now, after each ``wake`` or idle look, and while anything is left after a
        pause doubling with each failure (never at once: it would starve the event loop)."""
        wait = FIRST_WAIT_SECONDS
        while True:
            wake.clear()
            try:
                left = await self.drain()
            except Exception:  # the outbox's store is down: it is retried as the rest is
                log.warning("the outbox cannot be read now", exc_info=True)
                left = 1
            if left:
                await asyncio.sleep(wait)
                wait = min(wait * 2, LONGEST_WAIT_SECONDS)
                continue
            wait = FIRST_WAIT_SECONDS
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), IDLE_LOOK_SECONDS)

    def start(self) -> None:
        """Run :meth:`run` in the background (a run of its own on each event loop)."""
        loop = asyncio.get_running_loop()
        task = self._task
        if task is not None and not task.done() and task.get_loop() is loop:
            return
        if task is not None:
            _cancel_on_its_loop(task)  # one run at a time: the other loop's ends there
        self._wake = asyncio.Event()
        self._task = loop.create_task(self.run(self._wake), name="zzv-recorder")

    async def stop(self) -> None:
        """Stop the background run, from any event loop (the outbox keeps what is left)."""
        task, self._task, self._wake = self._task, None, None
        if task is None:
            return
        if task.get_loop() is asyncio.get_running_loop():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        else:
            _cancel_on_its_loop(task)

    def _nudge(self) -> None:
        if self._wake is not None:
            self._wake.set()


def _cancel_on_its_loop(task: asyncio.Task[None]) -> None:
    """Cancel ``task`` from any thread: on its own loop, unless that loop is closed."""
    loop = task.get_loop()
    if not loop.is_closed():
        loop.call_soon_threadsafe(task.cancel)
