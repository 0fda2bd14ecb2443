"""Reviews run apart from the live searches: other processes, at a lower CPU priority."""

from __future__ import annotations

import os

from app.bots import pool as bot_pool


def test_reviews_have_their_own_lower_priority_processes() -> None:
    try:
        live = bot_pool.get_pool(1)
        reviews = bot_pool.get_review_pool(1)
        assert reviews is not live
        live_pid, live_nice = live.submit(_pid_and_nice).result(timeout=60)
        review_pid, review_nice = reviews.submit(_pid_and_nice).result(timeout=60)
        assert review_pid != live_pid, "a review never occupies a live search's process"
        assert review_nice >= live_nice
        if os.nice(0) <= bot_pool.WORKER_NICENESS:  # nothing stopped the workers' own nice
            assert review_nice == max(bot_pool.REVIEW_NICENESS, os.nice(0))
        assert bot_pool.get_review_pool(1) is reviews, "one review pool, reused"
    finally:
        bot_pool.shutdown_workers()
    assert bot_pool.status().state == "idle"


def _pid_and_nice() -> tuple[int, int]:
    return os.getpid(), os.nice(0)
