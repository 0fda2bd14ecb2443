"""The table's "I'm back" button: ``POST /games/{id}/back`` (a plain form, then 303 to the
table; htmx swaps the table instead of following the redirect). A second tap, once the seat
is back, only shows the table."""

from __future__ import annotations

import contextlib

from fastapi import APIRouter
from fastapi.responses import Response

from app.http.web.table_request import TableDep
from app.races.errors import NotAway

router = APIRouter(include_in_schema=False)


@router.post("/games/{game_id}/back")
async def come_back(table: TableDep) -> Response:
    """Take this seat back from the bot that plays it while its person is away."""
    async with table.open(write=True) as race:
        memory = table.memory(race)
        with contextlib.suppress(NotAway):  # a second tap: the table says they are back
            race.come_back()
        answer = table.answer(race, memory, keep=True)
    return table.respond(answer)
