"""The weekly cup's results: a counted attempt is a ``cup_entries`` row, one per player,
week and deal (its key refuses a second claim); the board sums each player's place points
(docs/cup.md) over those attempts' own seats, not practice.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import ColumnElement, case, func, select

from app.results.daily import BOARD_LIMIT, Board, DailyResults, counted_on, read_board
from app.results.models import CupEntry, FinishedRace, RaceResult
from app.results.store import from_row


def _points() -> ColumnElement[int]:
    """A ``race_results`` row's place points: 1st of the race's players is worth one point
    per player, each place below one less; a race left is worth nothing."""
    return case(
        (RaceResult.left_race.is_(True), 0), else_=FinishedRace.players - RaceResult.place + 1
    )


@dataclass(frozen=True, slots=True)
class DealResult:
    """A player's counted result on one deal."""

    deal: int
    place: int
    laps: int
    points: int
    left: bool


@dataclass(frozen=True, slots=True)
class CupStanding:
    """One player on a week's board."""

    rank: int
    name: str
    points: int
    laps: int
    deals: int
    """Counted deals finished."""
    player_id: int


CupBoard = Board[CupStanding]


class CupResults(DailyResults):
    """The weekly cup's queries on the results database (one transaction per call)."""

    async def attempts(self, week: str, player_id: int) -> dict[int, str]:
        """The player's counted attempts in ``week``: game id by deal."""
        query = select(CupEntry.deal, CupEntry.game_id).filter_by(week=week, player_id=player_id)
        async with self.results.unit() as session:
            return {row.deal: row.game_id for row in await session.execute(query)}

    async def results_of(self, week: str, player_id: int) -> list[DealResult]:
        """The player's counted results in ``week``, by deal."""
        seat = RaceResult.place, RaceResult.laps, RaceResult.left_race
        columns = select(CupEntry.deal, *seat, _points().label("points"))
        theirs = CupEntry.week == week, CupEntry.player_id == player_id
        query = counted_on(columns, CupEntry, *theirs)
        async with self.results.unit() as session:
            rows = (await session.execute(query.order_by(CupEntry.deal))).all()
        return [from_row(DealResult, row) for row in rows]

    async def board(
        self, week: str, player_id: int | None = None, limit: int = BOARD_LIMIT
    ) -> CupBoard:
        """``week``'s board as ``player_id`` sees it (docs/cup.md): points, then laps (more
        first), then the earlier last finish; equal on all three share a rank."""
        columns = select(
            CupEntry.player_id,
            func.min(RaceResult.name).label("name"),
            func.sum(_points()).label("points"),
            func.sum(RaceResult.laps).label("laps"),
            func.count().label("deals"),
            func.max(FinishedRace.finished_at).label("last"),
        )
        counted = counted_on(columns, CupEntry, CupEntry.week == week)
        totals = counted.group_by(CupEntry.player_id).subquery()
        order = (totals.c.points.desc(), totals.c.laps.desc(), totals.c.last)
        query = self.ranked(totals, order, totals.c.player_id, player_id, limit)
        return await read_board(self.results, query, player_id, limit, CupStanding)
