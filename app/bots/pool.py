"""The hard bots' shared worker processes (``spawn``: no search holds the server's GIL),
started on first use, replaced when broken, below the server's CPU priority. They never
outlive their server: Linux SIGKILLs them (``PR_SET_PDEATHSIG``), and a thread in each exits
once reparented (:data:`PARENT_CHECK_SECONDS`).
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

_POOLS: dict[int, tuple[ProcessPoolExecutor, int, Any]] = {}
"""The live searches' pool (under 0) and the reviews' (under :data:`REVIEW_NICENESS`), each
with its size and its shared count of started workers."""
_POOL_LOCK = threading.Lock()
_REPLACED = [0]  # live pools replaced because they broke

WORKER_NICENESS = 10
"""Added to the worker processes' nice value (0 = same priority as the server)."""

PARENT_CHECK_SECONDS = 1.0
"""How often a worker's watchdog thread checks that its server is still its parent."""

_PR_SET_PDEATHSIG = 1  # prctl option (linux/prctl.h): the signal sent when the parent dies


@dataclass(frozen=True)
class PoolStatus:
    """``state``: ``idle``, ``ready`` or ``broken`` (the next use replaces it)."""

    state: str
    workers: int
    alive: int
    replaced: int


def _is_broken(pool: ProcessPoolExecutor) -> bool:
    # The executor records an abrupt worker death in this flag and refuses all work after.
    return bool(pool._broken)


def get_pool(workers: int, niceness: int = 0) -> ProcessPoolExecutor:
    """The processes of ``niceness`` (0: the live searches', all asked for at once),
    started on first use, replaced when broken."""
    with _POOL_LOCK:  # server threads may ask at once
        held = _POOLS.get(niceness)
        if held is not None and not _is_broken(held[0]) and held[1] == workers:
            return held[0]
        if held is not None:
            if not niceness and _is_broken(held[0]):
                _REPLACED[0] += 1
            held[0].shutdown(wait=False, cancel_futures=True)
        booted = get_context("spawn").Value("i", 0)
        # ``spawn``, not ``fork``: forking a threaded server can copy a lock in a held state.
        pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=get_context("spawn"),
            initializer=_start_worker,
            initargs=(booted, os.getpid(), niceness),
        )
        if not niceness:  # processes start on demand, one per job that finds none idle
            for _ in range(workers):
                pool.submit(os.getpid)
        _POOLS[niceness] = pool, workers, booted
        return pool


def warmed(workers: int) -> bool:
    """Whether every one of ``workers`` processes started (a wide search's clock starts
    before they pick its jobs up: one still booting would spend its budget)."""
    with _POOL_LOCK:
        held = _POOLS.get(0)
        if held is None or _is_broken(held[0]) or held[1] != workers:
            return False
        return bool(held[2].value >= workers)


REVIEW_NICENESS = 19
"""The nice value of the reviews' processes (:func:`get_review_pool`): below the live
searches' (:data:`WORKER_NICENESS`), so a review only ever gets the CPU they leave."""


def get_review_pool(workers: int) -> ProcessPoolExecutor:
    """The reviews' and par races' own processes (never queued before a live move), at
    the lowest priority."""
    return get_pool(workers, REVIEW_NICENESS)


def shutdown_workers() -> None:
    """Stop the shared worker processes, if any were started (a server calls this on exit)."""
    with _POOL_LOCK:
        for niceness in sorted(_POOLS, reverse=True):  # the reviews' first
            _POOLS.pop(niceness)[0].shutdown(wait=True, cancel_futures=True)


def status() -> PoolStatus:
    with _POOL_LOCK:
        held = _POOLS.get(0)
        if held is None:
            return PoolStatus("idle", 0, 0, _REPLACED[0])
        pool, workers, _ = held
        state = "broken" if _is_broken(pool) else "ready"
        alive = sum(process.is_alive() for process in (pool._processes or {}).values())
        return PoolStatus(state, workers, alive, _REPLACED[0])


def watch_parent(parent: int, interval: float = PARENT_CHECK_SECONDS) -> threading.Thread:
    """Start a daemon thread that ends this process once it is no longer ``parent``'s."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(1)  # no cleanup to wait for: the server that wanted the results is gone

    thread = threading.Thread(target=watch, name="zzv-parent-watch", daemon=True)
    thread.start()
    return thread


def _start_worker(booted: Any, parent: int, niceness: int) -> None:
    """Each worker's start: tie its life to the server's, lower its priority (a review's
    to at least ``niceness``), count it in."""
    # Linux SIGKILLs this process when its parent's starting *thread* ends (the event
    # loop's: the watch thread covers the rest).
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the server died before the request above took hold
        os._exit(1)
    watch_parent(parent)
    with contextlib.suppress(OSError):  # not permitted everywhere; then run as is
        os.nice(WORKER_NICENESS)
        os.nice(max(0, niceness - os.nice(0)))
    # The search code was imported with this module, so no search pays for it in its budget.
    with booted.get_lock():
        booted.value += 1
