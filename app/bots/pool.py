"""The hard bots' shared worker processes: start on first use, replace when broken, stop.

One process-wide :class:`~concurrent.futures.ProcessPoolExecutor` (``spawn`` start method)
runs the searches, so a CPU-bound search never holds the GIL of a web server's process.
If the OS kills one of its processes the executor turns "broken" for good and every later
job fails at once; :func:`get_pool` then hands out a fresh pool instead of the broken one,
and :func:`status` says which state the pool is in (for a readiness check).

The workers run at a lower CPU priority (:data:`WORKER_NICENESS`): on a machine short of
cores the server's own process (every request, the light bots) gets the CPU first, and
the searches, which stop on a wall-clock budget, use what is left.

The workers never outlive their server: on Linux each asks the kernel for SIGKILL when its
parent dies (``PR_SET_PDEATHSIG``), and on every system a thread in each worker checks
the parent's pid every :data:`PARENT_CHECK_SECONDS` and exits once it changed (the
worker was reparented), so a ``kill -9`` or an OOM kill of the server leaves no process.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any

import engine.bots.search  # noqa: F401  (imported here so every worker pays for it at start)

_POOL: ProcessPoolExecutor | None = None
_REVIEW_POOL: list[ProcessPoolExecutor] = []  # at most one: the reviews' own processes
_POOL_SIZE = [0]
_POOL_LOCK = threading.Lock()
_REPLACED = [0]
_BOOTED: list[Any] = [None]  # the current pool's shared count of started workers

WORKER_NICENESS = 10
"""Added to the worker processes' nice value (0 = same priority as the server)."""

PARENT_CHECK_SECONDS = 1.0
"""How often a worker's watchdog thread checks that its server is still its parent."""

_PR_SET_PDEATHSIG = 1
"""``prctl`` option from <linux/prctl.h>: the signal this process gets when its parent dies."""


@dataclass(frozen=True)
class PoolStatus:
    """What :func:`status` reports about the shared worker processes."""

    state: str
    """``idle`` (not started yet), ``ready``, or ``broken`` (a process died; the next use
    replaces the pool)."""
    workers: int
    """Processes the pool was started with (0 when idle)."""
    alive: int
    """Of those, how many are running now (processes start on demand)."""
    replaced: int
    """Broken pools replaced since this process started."""


def _is_broken(pool: ProcessPoolExecutor) -> bool:
    # The executor records an abrupt worker death in this flag and refuses all work after.
    return bool(pool._broken)


def get_pool(workers: int) -> ProcessPoolExecutor:
    """The shared worker processes, started on first use, replaced when broken.

    ``spawn`` rather than ``fork``: the web server runs bots in threads, and forking a
    threaded process can copy a lock in a held state.
    """
    global _POOL
    with _POOL_LOCK:  # server threads may ask at once
        broken = _POOL is not None and _is_broken(_POOL)
        if _POOL is None or broken or _POOL_SIZE[0] != workers:
            if _POOL is not None:
                _POOL.shutdown(wait=False, cancel_futures=True)
            if broken:
                _REPLACED[0] += 1
            context = get_context("spawn")
            booted = context.Value("i", 0)
            _POOL = ProcessPoolExecutor(
                max_workers=workers,
                mp_context=context,
                initializer=_start_worker,
                initargs=(booted, os.getpid()),
            )
            _POOL_SIZE[0] = workers
            _BOOTED[0] = booted
            # Processes start on demand, one per job that finds none idle: ask for all now.
            for _ in range(workers):
                _POOL.submit(worker_pid)
        return _POOL


def warmed(workers: int) -> bool:
    """Whether a pool of ``workers`` processes is running with every process started.

    A search spread over all processes starts its clock before they pick its jobs up; a
    process still starting would spend that search's budget on booting.
    """
    with _POOL_LOCK:
        if _POOL is None or _is_broken(_POOL) or _POOL_SIZE[0] != workers:
            return False
        return bool(_BOOTED[0].value >= workers)


REVIEW_NICENESS = 19
"""The nice value of the reviews' processes (:func:`get_review_pool`): below the live
searches' (:data:`WORKER_NICENESS`), so a review only ever gets the CPU they leave."""


def get_review_pool(workers: int) -> ProcessPoolExecutor:
    """The processes that run after-race reviews and par races, apart from the live
    searches' (a review's job never queues in front of a live move's), started on first
    use at the lowest CPU priority, replaced when broken."""
    with _POOL_LOCK:
        if _REVIEW_POOL and not _is_broken(_REVIEW_POOL[0]):
            return _REVIEW_POOL[0]
        if _REVIEW_POOL:
            _REVIEW_POOL.pop().shutdown(wait=False, cancel_futures=True)
        context = get_context("spawn")
        pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=context,
            initializer=_start_review_worker,
            initargs=(context.Value("i", 0), os.getpid()),
        )
        _REVIEW_POOL.append(pool)
        return pool


def _start_review_worker(booted: Any, parent: int) -> None:
    """As :func:`_start_worker`, then lower the priority further, to :data:`REVIEW_NICENESS`."""
    _start_worker(booted, parent)
    with contextlib.suppress(OSError):
        os.nice(max(0, REVIEW_NICENESS - os.nice(0)))


def shutdown_workers() -> None:
    """Stop the shared worker processes, if any were started (a server calls this on exit)."""
    global _POOL
    with _POOL_LOCK:
        while _REVIEW_POOL:
            _REVIEW_POOL.pop().shutdown(wait=True, cancel_futures=True)
        if _POOL is not None:
            _POOL.shutdown(wait=True, cancel_futures=True)
            _POOL = None
            _POOL_SIZE[0] = 0


def worker_pids() -> list[int]:
    """Process ids of the pool's running workers (empty when not started)."""
    with _POOL_LOCK:
        if _POOL is None:
            return []
        processes = dict(_POOL._processes or {})
    return sorted(pid for pid, process in processes.items() if process.is_alive())


def status() -> PoolStatus:
    """The pool's state now (see :class:`PoolStatus`)."""
    with _POOL_LOCK:
        pool = _POOL
        if pool is None:
            return PoolStatus("idle", 0, 0, _REPLACED[0])
        processes = list((pool._processes or {}).values())
        state = "broken" if _is_broken(pool) else "ready"
        alive = sum(1 for process in processes if process.is_alive())
        return PoolStatus(state, _POOL_SIZE[0], alive, _REPLACED[0])


def ask_for_parent_death_signal() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies; False where unsupported.

    The kernel sends it when the *thread* that started the process ends; the pool's
    processes are started from the server's event-loop thread, which lives as long as the
    server, and the watchdog of :func:`watch_parent` covers any other case.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def watch_parent(parent: int, interval: float = PARENT_CHECK_SECONDS) -> threading.Thread:
    """Start a daemon thread that ends this process once ``parent`` is no longer its
    parent (it died and the process was reparented)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(1)  # no cleanup to wait for: the server that wanted the results is gone

    thread = threading.Thread(target=watch, name="zzv-parent-watch", daemon=True)
    thread.start()
    return thread


def _start_worker(booted: Any, parent: int) -> None:
    """Runs in each worker process as it starts: tie its life to the server's, lower its
    priority, count it in (the search code is already imported)."""
    ask_for_parent_death_signal()
    if os.getppid() != parent:  # the server died before the request above took hold
        os._exit(1)
    watch_parent(parent)
    with contextlib.suppress(OSError):  # not permitted everywhere; then run as is
        os.nice(WORKER_NICENESS)
    # The search code was imported with this module, so no search pays for it in its budget.
    with booted.get_lock():
        booted.value += 1


def worker_pid() -> int:
    """The calling process's id (a job that shows which worker ran it)."""
    return os.getpid()
