"""How often a seat may send a quick message: one every :data:`GAP_SECONDS`, at most
:data:`PER_MINUTE` a minute, counted per race and seat in the rate limiter's storage."""

from __future__ import annotations

import math
import time
from typing import Annotated

from limits import RateLimitItem, RateLimitItemPerMinute, RateLimitItemPerSecond
from limits.aio.storage import Storage
from limits.aio.strategies import MovingWindowRateLimiter

from app.http.deps import app_state
from app.races.errors import TalkTooFast
from app.storage.interface import StoreUnavailable

GAP_SECONDS = 2
PER_MINUTE = 15  # one every 4 s, sustained


class TalkPace:
    """The per-seat pace of quick messages, counted in the storage of the app's
    :class:`app.http.security.RateLimiter`."""

    def __init__(self, storage: Storage) -> None:
        self.window = MovingWindowRateLimiter(storage)
        self.items: tuple[RateLimitItem, ...] = (
            RateLimitItemPerSecond(1, GAP_SECONDS),
            RateLimitItemPerMinute(PER_MINUTE),
        )

    async def check(self, game_id: str, seat: int) -> None:
        """Count one message of ``seat`` in ``game_id``; :class:`TalkTooFast` (counting
        nothing) when it comes too soon. :class:`StoreUnavailable` when Redis is away."""
        key = f"talk:{game_id}:{seat}"
        try:
            for item in self.items:  # test every window first, so a refusal counts nowhere
                if not await self.window.test(item, key):
                    stats = await self.window.get_window_stats(item, key)
                    raise TalkTooFast(max(1, math.ceil(stats.reset_time - time.time())))
            for item in self.items:
                await self.window.hit(item, key)
        except TalkTooFast:
            raise
        except Exception as exc:  # the Redis client's errors: connection, timeout, ...
            raise StoreUnavailable() from exc


TalkPaceDep = Annotated[TalkPace, app_state("talk_pace")]
