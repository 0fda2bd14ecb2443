"""A race's public event log (derived by replaying its actions, never saved), read back
from any position.

>>> from engine import new_game
>>> game = new_game(players=3, seed=4)
>>> log = EventLog([game.deal_event()])
>>> log.extend(game.apply(game.legal_actions()[0]))
>>> len(log), log.dicts()[0]
(2, {'kind': 'round_dealt', 'seat': None, 'round': 1, 'lead': 1, 'hand_size': 6})
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from engine.events import Event, EventKind


class EventLog:
    """An append-only list of public events, read back from any position so that a
    client is sent only what it has not seen."""

    __slots__ = ("_events",)

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self._events: list[Event] = list(events)

    def __len__(self) -> int:
        return len(self._events)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EventLog):
            return NotImplemented
        return self._events == other._events

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<EventLog events={len(self)}>"

    def copy(self) -> EventLog:
        """An independent log with the same (immutable) events."""
        return EventLog(self._events)

    def extend(self, events: Iterable[Event]) -> None:
        """Append ``events``."""
        self._events.extend(events)

    def events(self, start: int = 0) -> list[Event]:
        """The events from index ``start`` on (all of them by default)."""
        return self._events[max(0, start) :]

    def dicts(self, start: int = 0) -> list[dict[str, Any]]:
        """The JSON form (:meth:`Event.to_dict`) of the events from index ``start`` on."""
        return [event.to_dict() for event in self._events[max(0, start) :]]

    def find_last(
        self, kinds: Collection[EventKind], seat: int | None = None, before: int | None = None
    ) -> int | None:
        """Index of the last event before ``before`` (default: the end) of one of ``kinds``
        and, when given, of ``seat``; None if none.

        >>> from engine import new_game
        >>> game = new_game(players=3, seed=4)
        >>> log = EventLog([game.deal_event()])
        >>> log.extend(game.apply(game.legal_actions()[0]))
        >>> log.find_last({EventKind.ROUND_DEALT}), log.find_last({EventKind.GAME_WON})
        (0, None)
        """
        events = self._events
        end = len(events) if before is None else max(0, min(before, len(events)))
        for index in range(end - 1, -1, -1):
            event = events[index]
            if event.kind in kinds and (seat is None or event.seat == seat):
                return index
        return None
