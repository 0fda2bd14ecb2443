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

from collections.abc import Collection
from typing import Any

from engine.events import Event, EventKind


class EventLog(list[Event]):
    """An append-only list of public events, read back from any position so that a
    client is sent only what it has not seen."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<EventLog events={len(self)}>"

    def copy(self) -> EventLog:
        """An independent log with the same (immutable) events."""
        return EventLog(self)

    def events(self, start: int = 0) -> list[Event]:
        """The events from index ``start`` on (all of them by default)."""
        return self[max(0, start) :]

    def dicts(self, start: int = 0) -> list[dict[str, Any]]:
        """The JSON form (:meth:`Event.to_dict`) of the events from index ``start`` on."""
        return [event.to_dict() for event in self[max(0, start) :]]

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
        end = len(self) if before is None else max(0, min(before, len(self)))
        for index in range(end - 1, -1, -1):
            event = self[index]
            if event.kind in kinds and (seat is None or event.seat == seat):
                return index
        return None
