"""Server-Sent Event streams of one seat's view, or the public one. A stream wakes on a
notice (:mod:`app.live.hub`) or when the turn clock runs out, opens the race like any
request (which makes the moves the clock owes: a followed race never stalls) and sends
its own seat's view if it changed."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from typing import Any, cast

from sse_starlette.sse import EventSourceResponse

from app.live.hub import LiveHub, News, StreamGate
from app.races.errors import GameExpired
from app.races.operations import TALK_KEPT, SessionState, play_signature, said_mark
from app.races.record import Said
from app.races.unit import Races

KEEPALIVE_SECONDS = 15.0
"""Longest quiet wait before the stream looks at the race again on its own."""

Message = dict[str, Any]
"""An SSE message for ``sse_starlette``: ``{"event": ..., "data": ...}``."""


async def follow(
    races: Races,
    hub: LiveHub,
    game_id: str,
    token: str | None,
    render: Callable[[SessionState], Message | None],
) -> AsyncIterator[Message]:
    """Yield ``render(state)`` (None: nothing) of the seat ``token`` opens (None: public)
    at first and on each change; end after the final state or when gone. Each look opens
    the race afresh, except for quick messages alone (:func:`with_said`)."""
    async with hub.listen(game_id) as listener:
        last: tuple[Any, ...] | None = None
        since: int | None = None
        state: SessionState | None = None
        deadline: float | None = None
        news = News(changed=True)
        while True:
            told = with_said(state, news.said) if state and news.only_said else None
            if told is not None:
                state = told
                if deadline is not None and state["clock"] is not None:
                    left = round(max(0.0, deadline - races.now()), 1)
                    state["clock"] = {**state["clock"], "seconds_left": left}
            else:
                try:
                    async with races.open(game_id, token, spectator=token is None) as race:
                        state = race.state(since, deliver=False)
                        deadline = race.session.lobby.deadline
                except GameExpired:
                    yield {"event": "gone", "data": "{}"}
                    return
            # News to a live client: play and quick messages (the clock's countdown alone is not).
            signature = (*play_signature(state), said_mark(state["said"]))
            if signature != last:
                last = signature
                since = state["event_count"]
                message = render(state)
                if message is not None:
                    yield message
            if state["status"] == "over":
                return
            # Wait for news, or until slightly past the clock's deadline.
            until = KEEPALIVE_SECONDS if deadline is None else deadline - time.time() + 0.02
            news = await listener.wait(min(KEEPALIVE_SECONDS, max(0.02, until)))


def with_said(state: SessionState, said: tuple[Said, ...]) -> SessionState | None:
    """``state`` with ``said`` added (no events), or None on a gap (read the race)."""
    mark = said_mark(state["said"])
    fresh = sorted((m for m in said if int(m["n"]) > mark), key=lambda m: int(m["n"]))
    if [int(m["n"]) for m in fresh] != list(range(mark + 1, mark + 1 + len(fresh))):
        return None
    kept = [*state["said"], *fresh][-TALK_KEPT:]
    return cast(SessionState, {**state, "events": [], "said": kept})


async def open_stream(
    gate: StreamGate, client: str, stream: AsyncIterator[Message]
) -> EventSourceResponse:
    """``stream`` as Server-Sent Events, counted against ``client``'s cap."""
    ticket = await gate.open(client)

    async def counted() -> AsyncIterator[Message]:
        try:
            async for message in stream:
                yield message
        finally:
            await gate.close(client, ticket)

    # No-store and no proxy buffering: every message must reach the client at once.
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return EventSourceResponse(counted(), ping=int(KEEPALIVE_SECONDS), headers=headers)
