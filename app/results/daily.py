"""The daily deal's side of the results: who made their counted attempt, and the board.

A counted attempt is a ``daily_entries`` row (one per player and UTC day: the primary key
makes a second claim fail, on every worker alike). Its result is the race's own row in
``race_results``, written when the race finished like any race's, so the board is a
join: the day's entries, their finished races that are not practice (a take-back makes
an attempt practice, and it then shows on no board), ranked by :data:`BOARD_ORDER`.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVarTuple

from sqlalchemy import Select, Subquery, func, or_, select

from app.results.models import DailyEntry, FinishedRace, RaceResult
from app.results.store import ResultsStore, from_row

BOARD_ORDER = (
    "place, then finished before left, laps (more first), tricks won (more first), "
    "gas left (more first)"
)
"""How the board ranks counted results (docs/daily.md); equal on all four share a rank."""

DAILY_KEY = "daily_deal"
"""The ``server_keys`` row of the daily deals' key."""

Columns = TypeVarTuple("Columns")
"""The columns a query of :func:`counted_on` selects."""

BOARD_LIMIT = 100
"""Most entries a board lists."""

CODE_POINT_COLLATION = {"sqlite": "BINARY", "postgresql": "C"}
"""Per backend, the collation that orders text by code point, as Python orders ``str``: the
board lists equal results by name in that order whatever the database's own collation."""


@dataclass(frozen=True, slots=True)
class BoardEntry:
    """One counted result on a day's board."""

    rank: int
    name: str
    place: int
    laps: int
    tricks: int
    gas: int
    player_id: int
    game_id: str
    left: bool = False
    """The player left the race (docs/ratings.md): placed last."""


@dataclass(frozen=True, slots=True)
class DayBoard:
    """A day's board as one player sees it."""

    entries: list[BoardEntry]
    """The best results, ranked (at most :data:`BOARD_LIMIT`)."""
    ranked: int
    """How many results the day ranks in all."""
    mine: BoardEntry | None
    """The player's own counted result, wherever it ranks (None: not on the board)."""


def board_key(entry: BoardEntry) -> tuple[int, bool, int, int, int]:
    """The sort key of :data:`BOARD_ORDER` (smaller first)."""
    return (entry.place, entry.left, -entry.laps, -entry.tricks, -entry.gas)


class DailyResults:
    """The daily deal's queries on the results database (one transaction per call)."""

    def __init__(self, results: ResultsStore) -> None:
        """Work through ``results``' units of work."""
        self.results = results

    async def daily_key(self) -> bytes:
        """The key the daily deals are derived from, made once and shared by every worker
        on this database (so every worker, and the server after a restart, deals the
        same cards all day)."""
        return await self.results.server_key(DAILY_KEY)

    async def counted_attempt(self, day: str, player_id: int) -> str | None:
        """The game id of the player's counted attempt on ``day``, if they made one."""
        async with self.results.unit() as session:
            entry = await session.get(DailyEntry, (day, player_id))
            return None if entry is None else entry.game_id

    async def address_digest(self, day: str, address: str) -> str:
        """What the results keep of the client ``address`` a counted attempt on ``day``
        came from: a digest under the daily key, so the table names no address."""
        key = await self.daily_key()
        return hmac.new(key, f"address:{day}:{address}".encode(), hashlib.sha256).hexdigest()

    async def attempts_from(self, day: str, address: str) -> int:
        """How many counted attempts on ``day`` came from ``address`` (its digest)."""
        query = select(func.count()).where(DailyEntry.day == day, DailyEntry.address == address)
        async with self.results.unit() as session:
            return int(await session.scalar(query) or 0)

    async def finished_days(self, player_id: int) -> list[str]:
        """The days (``YYYY-MM-DD``, oldest first) on which the player's counted attempt
        finished: the race ended with a result, not practice, and not left (a race walked
        away from, or still running when its day closed, keeps no streak going)."""
        query = (
            select(DailyEntry.day)
            .join(FinishedRace, FinishedRace.game_id == DailyEntry.game_id)
            .join(
                RaceResult,
                (RaceResult.game_id == DailyEntry.game_id)
                & (RaceResult.player_id == DailyEntry.player_id),
            )
            .where(
                DailyEntry.player_id == player_id,
                FinishedRace.practice.is_(False),
                RaceResult.left_race.is_(False),
            )
            .order_by(DailyEntry.day)
        )
        async with self.results.unit() as session:
            return list(await session.scalars(query))

    async def claim(
        self, day: str, player_id: int, game_id: str, at: datetime, address: str | None = None
    ) -> bool:
        """Make ``game_id`` the player's counted attempt on ``day``, started from
        ``address`` (a digest, :meth:`address_digest`); False (and nothing written) when
        they already have one."""
        return await self.results.add_attempt(
            DailyEntry, game_id, at, address, day=day, player_id=player_id
        )

    async def board(self, day: str, limit: int = BOARD_LIMIT) -> list[BoardEntry]:
        """The counted, finished, non-practice results of ``day``, ranked (the first
        ``limit``)."""
        return (await self.day_board(day, limit=limit)).entries

    async def day_board(
        self, day: str, player_id: int | None = None, limit: int = BOARD_LIMIT
    ) -> DayBoard:
        """``day``'s board as ``player_id`` sees it: its first ``limit`` results, how many
        it ranks in all, and the player's own result wherever it ranks.

        The database ranks the day's results (``RANK()`` over :data:`BOARD_ORDER`) and lists
        them (equal results by name, then game id, in code-point order), so only the first
        ``limit`` rows and the player's own row come back, however many raced and however
        many share a rank."""
        async with self.results.unit() as session:
            rows = (await session.execute(self.board_query(day, player_id, limit))).all()
        mine = next((row for row in rows if row.player_id == player_id), None)
        entries = [from_row(BoardEntry, row) for row in rows if row.position <= limit]
        # Every row carries the count; the first is among them when anyone is ranked.
        total = rows[0].ranked if rows else 0
        return DayBoard(entries, total, None if mine is None else from_row(BoardEntry, mine))

    def board_query(self, day: str, player_id: int | None, limit: int) -> Select[Any]:
        """The query of :meth:`day_board`: the first ``limit`` rows of ``day``'s board and
        ``player_id``'s own, in the board's order."""
        results = self._ranked(day, CODE_POINT_COLLATION[self.results.backend])
        wanted = results.c.position <= limit
        if player_id is not None:
            wanted = or_(wanted, results.c.player_id == player_id)
        return select(results).where(wanted).order_by(results.c.position)

    @staticmethod
    def _ranked(day: str, collation: str) -> Subquery:
        """``day``'s counted, finished, non-practice results, each with its rank and its
        position on the board (names and game ids compared in ``collation``)."""
        order = (
            RaceResult.place,
            RaceResult.left_race,
            RaceResult.laps.desc(),
            RaceResult.tricks.desc(),
            RaceResult.gas.desc(),
        )
        listed = (*order, RaceResult.name.collate(collation), RaceResult.game_id.collate(collation))
        columns = select(
            func.rank().over(order_by=order).label("rank"),
            func.row_number().over(order_by=listed).label("position"),
            func.count().over().label("ranked"),
            RaceResult.name,
            RaceResult.place,
            RaceResult.laps,
            RaceResult.tricks,
            RaceResult.gas,
            DailyEntry.player_id,
            RaceResult.game_id,
            RaceResult.left_race,
        )
        return counted_on(columns, day).subquery()


def counted_on(query: Select[*Columns], day: str) -> Select[*Columns]:
    """``query`` (of ``race_results``) narrowed to ``day``'s board: each counted attempt's
    own seat, in a race that finished and is not practice."""
    return (
        query.join(DailyEntry, DailyEntry.game_id == RaceResult.game_id)
        .join(FinishedRace, FinishedRace.game_id == RaceResult.game_id)
        .where(
            DailyEntry.day == day,
            RaceResult.player_id == DailyEntry.player_id,
            FinishedRace.practice.is_(False),
        )
    )


__all__ = [
    "BOARD_ORDER",
    "BoardEntry",
    "DailyResults",
    "DayBoard",
    "board_key",
    "counted_on",
]
