"""The daily deal's results: a counted attempt is a ``daily_entries`` row, one per player
and UTC day (its key refuses a second claim on every worker; a cup deal's is a
``cup_entries`` row, :mod:`app.results.cup`); the board ranks those attempts' own seats in
finished races not practice (a take-back makes one practice).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar, TypeVarTuple

from sqlalchemy import ColumnElement, Select, Subquery, func, or_, select

from app.results.models import CupEntry, DailyEntry, FinishedRace, RaceResult
from app.results.store import ResultsStore, from_row

DAILY_KEY = "daily_deal"
"""The ``server_keys`` row of the daily deals' key."""

Columns = TypeVarTuple("Columns")
Entry = TypeVar("Entry")

BOARD_LIMIT = 100
"""Most entries a board lists."""

CODE_POINT_COLLATION = {"sqlite": "BINARY", "postgresql": "C"}
"""Per backend, the collation ordering text by code point as Python does: the boards list
equal results by name in that order whatever the database's own collation."""


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


# No slots: calling an alias (``DayBoard(...)``) sets ``__orig_class__`` on the instance.
@dataclass(frozen=True)
class Board(Generic[Entry]):
    """A board as one player sees it."""

    entries: list[Entry]
    """The best, ranked (at most :data:`BOARD_LIMIT`)."""
    ranked: int
    """How many the board ranks in all."""
    mine: Entry | None
    """The player's own entry, wherever it ranks (None: not on the board)."""


DayBoard = Board[BoardEntry]


class DailyResults:
    """The daily deal's queries on the results database, and the counted attempts' of both
    the daily and the cup (one transaction per call)."""

    def __init__(self, results: ResultsStore) -> None:
        self.results = results

    async def daily_key(self) -> bytes:
        """The daily deals' key (:meth:`ResultsStore.server_key`): all deal the same cards."""
        return await self.results.server_key(DAILY_KEY)

    async def address_digest(self, period: str, address: str) -> str:
        """A digest of ``address`` under the daily key: the table names no address."""
        key = await self.daily_key()
        return hmac.new(key, f"address:{period}:{address}".encode(), hashlib.sha256).hexdigest()

    async def attempt(self, period: str, deal: int | None, player_id: int) -> str | None:
        """The game id of the player's counted attempt at ``deal`` of week ``period``'s cup
        (None: at day ``period``'s daily), if they made one."""
        entry, key = _entry(period, deal)
        query = select(entry.game_id).filter_by(player_id=player_id, **key)
        async with self.results.unit() as session:
            game_id: str | None = await session.scalar(query)
            return game_id

    async def attempts_from(self, period: str, deal: int | None, address: str) -> int:
        """How many counted attempts at the deal came from ``address`` (its digest)."""
        entry, key = _entry(period, deal)
        query = select(func.count()).select_from(entry).filter_by(address=address, **key)
        async with self.results.unit() as session:
            return int(await session.scalar(query) or 0)

    async def finished_days(self, player_id: int) -> list[str]:
        """The days (oldest first) the player's counted attempt finished, not left (a race
        walked away from, or running at the day's close, keeps no streak)."""
        theirs = DailyEntry.player_id == player_id, RaceResult.left_race.is_(False)
        query = counted_on(select(DailyEntry.day), DailyEntry, *theirs)
        async with self.results.unit() as session:
            return list(await session.scalars(query.order_by(DailyEntry.day)))

    async def claim(
        self,
        period: str,
        deal: int | None,
        player_id: int,
        game_id: str,
        at: datetime,
        address: str | None = None,
    ) -> bool:
        """Make ``game_id`` the player's counted attempt at the deal; False if they have one."""
        entry, key = _entry(period, deal)
        row = entry(**key, player_id=player_id, game_id=game_id, started_at=at, address=address)
        return await self.results.add_once(row)

    async def day_board(
        self, day: str, player_id: int | None = None, limit: int = BOARD_LIMIT
    ) -> DayBoard:
        """``day``'s board as ``player_id`` sees it, ranked by the database (``RANK()`` in
        docs/daily.md's order, then name and game id by code point): only the listed
        rows and the player's own come back."""
        query = self.board_query(day, player_id, limit)
        return await read_board(self.results, query, player_id, limit, BoardEntry)

    def board_query(self, day: str, player_id: int | None, limit: int) -> Select[Any]:
        result = RaceResult
        columns = (result.name, result.place, result.laps, result.tricks, result.gas)
        selected = select(*columns, DailyEntry.player_id, result.game_id, result.left_race)
        rows = counted_on(selected, DailyEntry, DailyEntry.day == day).subquery()
        c = rows.c
        order = (c.place, c.left_race, c.laps.desc(), c.tricks.desc(), c.gas.desc())
        return self.ranked(rows, order, c.game_id.collate(self.collation), player_id, limit)

    @property
    def collation(self) -> str:
        """The collation ordering text by code point (:data:`CODE_POINT_COLLATION`)."""
        return CODE_POINT_COLLATION[self.results.url.get_backend_name()]

    def ranked(
        self, rows: Subquery, order: tuple[Any, ...], tie: Any, player_id: int | None, limit: int
    ) -> Select[Any]:
        """The first ``limit`` of ``rows`` and ``player_id``'s own, each with its ``rank``
        (``RANK()`` over ``order``), ``position`` (then by name in code-point order, then
        ``tie``) and how many are ``ranked``, in the board's order."""
        listed = (*order, rows.c.name.collate(self.collation), tie)
        ranked = select(
            func.rank().over(order_by=order).label("rank"),
            func.row_number().over(order_by=listed).label("position"),
            func.count().over().label("ranked"),
            *rows.c,
        ).subquery()
        wanted = ranked.c.position <= limit
        if player_id is not None:
            wanted = or_(wanted, ranked.c.player_id == player_id)
        return select(ranked).where(wanted).order_by(ranked.c.position)


def _entry(period: str, deal: int | None) -> tuple[type[DailyEntry | CupEntry], dict[str, Any]]:
    """The table of a deal's counted attempts and the deal's key columns in it."""
    if deal is None:
        return DailyEntry, {"day": period}
    return CupEntry, {"week": period, "deal": deal}


async def read_board(
    results: ResultsStore, query: Select[Any], player_id: int | None, limit: int, entry: type[Entry]
) -> Board[Entry]:
    """The :class:`Board` of a :meth:`DailyResults.ranked` ``query``, of ``entry`` rows."""
    async with results.unit() as session:
        rows = (await session.execute(query)).all()
    mine = next((from_row(entry, row) for row in rows if row.player_id == player_id), None)
    # Every row carries the count; the first is among them when anyone is ranked.
    total = rows[0].ranked if rows else 0
    return Board([from_row(entry, row) for row in rows if row.position <= limit], total, mine)


def counted_on(
    query: Select[*Columns], entry: type[DailyEntry | CupEntry], *where: ColumnElement[bool]
) -> Select[*Columns]:
    """``query`` of ``race_results`` narrowed to the counted attempts' (``entry``: the daily's
    or the cup's) own seats in races not practice, and to ``where``."""
    own_seat = (entry.game_id == RaceResult.game_id) & (entry.player_id == RaceResult.player_id)
    return (
        query.select_from(RaceResult)
        .join(entry, own_seat)
        .join(FinishedRace, FinishedRace.game_id == RaceResult.game_id)
        .where(FinishedRace.practice.is_(False), *where)
    )
