"""A race's public event log, kept compact: a few bytes per event instead of a JSON object.

A server keeps every public event of every live race (a finished race has a few hundred),
so the log's size is most of a stored race's size. :class:`EventLog` packs each event into
a run of unsigned 16-bit numbers: the kind, the seat, then the payload's values in the order
its ``TypedDict`` declares them (a word such as a suit as its index in a fixed table, a list
as its length then its items). Events come back out as :class:`~engine.events.Event` s or
their JSON form. :meth:`EventLog.to_list` is the saved form (one short row per event);
:meth:`EventLog.from_list` reads it, and also the one-JSON-object-per-event form that older
versions saved.

>>> from engine import new_game
>>> game = new_game(players=3, seed=4)
>>> log = EventLog([game.deal_event()])
>>> log.extend(game.apply(game.legal_actions()[0]))
>>> len(log), log.to_list()[0]
(2, ['round_dealt', None, 1, 1, 6])
>>> EventLog.from_list(log.to_list()).events() == log.events()
True
"""

from __future__ import annotations

import base64
import json
import sys
from array import array
from collections.abc import Collection, Iterable, Sequence
from typing import Any, cast, get_type_hints

from engine.cards import Suit, ZeroEffect
from engine.events import EVENT_PAYLOADS, Event, EventData, EventKind

_INT, _WORD, _LIST = 0, 1, 2
# A compiled engine.events (the mypyc build) reports list[int] fields as plain list.
_SHAPES = {int: _INT, str: _WORD, list[int]: _LIST, list: _LIST}
_KINDS = tuple(EventKind)
_KIND_CODE = {kind: code for code, kind in enumerate(_KINDS)}
# Every word a payload can hold: the suits (CardPlayed) and the 0's effects (ZeroEffectChosen).
_WORDS = (*(suit.value for suit in Suit), *(effect.value for effect in ZeroEffect))
_WORD_CODE = {word: code for code, word in enumerate(_WORDS)}


def _fields(kind: EventKind) -> tuple[tuple[str, int], ...]:
    """Each payload key of ``kind`` with its shape, in declaration order."""
    hints = get_type_hints(EVENT_PAYLOADS[kind])
    return tuple((key, _SHAPES[hint]) for key, hint in hints.items())


_FIELDS = tuple(_fields(kind) for kind in _KINDS)


class EventLog:
    """An append-only list of public events, stored packed (see the module doc).

    ``len(log)`` counts events; :meth:`events` and :meth:`dicts` read them back from any
    position, so a client can be sent only what it has not seen.
    """

    __slots__ = ("_codes", "_starts")

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self._codes = array("H")
        # Where each event's numbers begin in _codes: reading from event i needs no scan.
        self._starts = array("I")
        self.extend(events)

    def __len__(self) -> int:
        return len(self._starts)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EventLog):
            return NotImplemented
        return self._codes == other._codes

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<EventLog events={len(self)}>"

    def extend(self, events: Iterable[Event]) -> None:
        """Append ``events``. An event that cannot be packed (an unknown word, a negative
        or huge number) raises ``ValueError`` and leaves the log as it was before it."""
        for event in events:
            packed = _pack(event)
            self._starts.append(len(self._codes))
            self._codes.extend(packed)

    def events(self, start: int = 0) -> list[Event]:
        """The events from index ``start`` on (all of them by default)."""
        codes, starts = self._codes, self._starts
        return [_unpack(codes, starts[i]) for i in range(max(0, start), len(starts))]

    def dicts(self, start: int = 0) -> list[dict[str, Any]]:
        """The JSON form (:meth:`Event.to_dict`) of the events from index ``start`` on."""
        return [event.to_dict() for event in self.events(start)]

    def find_last(
        self, kinds: Collection[EventKind], seat: int | None = None, before: int | None = None
    ) -> int | None:
        """Index of the last event before index ``before`` (default: the end) whose kind is
        one of ``kinds`` and, when ``seat`` is given, whose seat is ``seat``; None if none.
        Reads the packed numbers only: no event is built.

        >>> from engine import new_game
        >>> game = new_game(players=3, seed=4)
        >>> log = EventLog([game.deal_event()])
        >>> log.extend(game.apply(game.legal_actions()[0]))
        >>> log.find_last({EventKind.ROUND_DEALT}), log.find_last({EventKind.GAME_WON})
        (0, None)
        """
        codes, starts = self._codes, self._starts
        wanted = {_KIND_CODE[kind] for kind in kinds}
        stored_seat = None if seat is None else seat + 1
        end = len(starts) if before is None else max(0, min(before, len(starts)))
        for index in range(end - 1, -1, -1):
            at = starts[index]
            if codes[at] in wanted and (stored_seat is None or codes[at + 1] == stored_seat):
                return index
        return None

    def to_list(self) -> list[list[Any]]:
        """The saved form: one row per event, ``[kind, seat, *payload values]``.

        Rows are written straight from the packed numbers (no events are built): a shared
        store writes a race after every move.
        """
        codes = self._codes
        return [_row_at(codes, at) for at in self._starts]

    def to_packed(self) -> list[str]:
        """The log as two ASCII strings, its numbers and where each event begins (base64
        of little-endian words): the compact saved form a store writes after every move,
        made and read back without a Python loop over the events.

        >>> from engine import new_game
        >>> game = new_game(players=3, seed=4)
        >>> log = EventLog([game.deal_event()])
        >>> log.extend(game.apply(game.legal_actions()[0]))
        >>> EventLog.from_packed(log.to_packed()) == log
        True
        """
        return [_to_base64(self._codes), _to_base64(self._starts)]

    @classmethod
    def from_packed(cls, packed: Sequence[str]) -> EventLog:
        """Read :meth:`to_packed`'s form; ``ValueError`` if it is not a log's.

        Only the shape is checked (as many starts as events, each inside the numbers):
        this form is the server's own saved data, not a client's.
        """
        log = cls()
        try:
            codes_text, starts_text = packed
            log._codes = _from_base64("H", codes_text)
            log._starts = _from_base64("I", starts_text)
        except (ValueError, TypeError, UnicodeEncodeError) as exc:
            raise ValueError(f"Unreadable packed event log: {exc}") from exc
        starts, size = log._starts, len(log._codes)
        if starts and (starts[0] != 0 or starts[-1] >= size):
            raise ValueError("A packed event log's starts do not fit its numbers.")
        if not starts and size:
            raise ValueError("A packed event log has numbers but no events.")
        return log

    @classmethod
    def from_list(cls, items: Sequence[Any]) -> EventLog:
        """Read a saved log: rows from :meth:`to_list`, or the older forms, one event
        object (or its JSON text) per event. Raises ``ValueError`` on anything else."""
        log = cls()
        try:
            for item in items:
                packed = _row_codes(item) if isinstance(item, list) else _pack(_read_event(item))
                log._starts.append(len(log._codes))
                log._codes.extend(packed)
        except (KeyError, TypeError, IndexError, OverflowError) as exc:
            raise ValueError(f"Unreadable event in a saved log: {exc!r}") from exc
        return log


def _to_base64(numbers: array[int]) -> str:
    if sys.byteorder == "big":
        numbers = array(numbers.typecode, numbers)
        numbers.byteswap()
    return base64.b64encode(numbers.tobytes()).decode("ascii")


def _from_base64(typecode: str, text: str) -> array[int]:
    numbers = array(typecode)
    numbers.frombytes(base64.b64decode(text.encode("ascii"), validate=True))
    if sys.byteorder == "big":
        numbers.byteswap()
    return numbers


def _pack(event: Event) -> array[int]:
    """One event as its run of numbers (``ValueError`` if any does not fit)."""
    seat = event.seat
    # 0 stands for "no seat" (table-wide events), so seat n is stored as n + 1.
    row = [_KIND_CODE[event.kind], 0 if seat is None else seat + 1]
    data = cast("dict[str, Any]", event.data)
    try:
        for key, shape in _FIELDS[row[0]]:
            value = data[key]
            if shape == _INT:
                row.append(value)
            elif shape == _WORD:
                row.append(_WORD_CODE[value])
            else:
                row.append(len(value))
                row.extend(value)
        if seat is not None and seat < 0:
            raise OverflowError
        return array("H", row)
    except (KeyError, OverflowError, TypeError) as exc:
        raise ValueError(f"This {event.kind.value} event cannot be logged: {event.data}") from exc


def _unpack(codes: array[int], at: int) -> Event:
    """The event whose numbers begin at ``codes[at]``."""
    kind_code, seat = codes[at], codes[at + 1]
    at += 2
    data: dict[str, Any] = {}
    for key, shape in _FIELDS[kind_code]:
        value = codes[at]
        at += 1
        if shape == _INT:
            data[key] = value
        elif shape == _WORD:
            data[key] = _WORDS[value]
        else:
            data[key] = codes[at : at + value].tolist()
            at += value
    return Event(_KINDS[kind_code], None if seat == 0 else seat - 1, cast(EventData, data))


_KIND_BY_NAME = {kind.value: code for code, kind in enumerate(_KINDS)}


def _row_at(codes: array[int], at: int) -> list[Any]:
    """The saved row ``[kind, seat, *values]`` of the event whose numbers begin at ``at``."""
    kind_code, seat = codes[at], codes[at + 1]
    row: list[Any] = [_KINDS[kind_code].value, None if seat == 0 else seat - 1]
    at += 2
    for _key, shape in _FIELDS[kind_code]:
        value = codes[at]
        at += 1
        if shape == _INT:
            row.append(value)
        elif shape == _WORD:
            row.append(_WORDS[value])
        else:
            row.append(codes[at : at + value].tolist())
            at += value
    return row


def _row_codes(row: list[Any]) -> array[int]:
    """A saved row packed again, checked like :func:`_pack` (``ValueError`` if it does not
    fit its kind), without building the event in between."""
    kind_code = _KIND_BY_NAME[row[0]]
    seat, values = row[1], row[2:]
    fields = _FIELDS[kind_code]
    if len(values) != len(fields) or not (seat is None or (type(seat) is int and seat >= 0)):
        raise ValueError(f"A saved {row[0]} event does not have its fields.")
    packed = array("H", (kind_code, 0 if seat is None else seat + 1))
    for (_key, shape), value in zip(fields, values, strict=True):
        if shape == _INT:
            if type(value) is not int:
                raise TypeError(f"{value!r} is not a whole number")
            packed.append(value)
        elif shape == _WORD:
            packed.append(_WORD_CODE[value])
        else:
            if not isinstance(value, list) or any(type(item) is not int for item in value):
                raise TypeError(f"{value!r} is not a list of whole numbers")
            packed.append(len(value))
            packed.extend(value)
    return packed


def _read_event(item: Any) -> Event:
    """One saved event: a row ``[kind, seat, *values]``, an event object, or its JSON text."""
    if isinstance(item, str):  # the oldest form: each event kept as its JSON text
        item = json.loads(item)
    if isinstance(item, dict):
        kind = EventKind(item["kind"])
        values = [item[key] for key, _ in _FIELDS[_KIND_CODE[kind]]]
        seat = item["seat"]
    else:
        kind, seat, values = EventKind(item[0]), item[1], item[2:]
    fields = _FIELDS[_KIND_CODE[kind]]
    if len(values) != len(fields) or not (seat is None or type(seat) is int):
        raise ValueError(f"A saved {kind.value} event does not have its fields.")
    data = {
        key: list(value) if shape == _LIST else value
        for (key, shape), value in zip(fields, values, strict=True)
    }
    return Event(kind, seat, cast(EventData, data))
