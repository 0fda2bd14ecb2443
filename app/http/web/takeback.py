"""The table's "Take back" button: ``POST /games/{id}/takeback`` (a plain form; htmx swaps
the table instead of following the redirect).

The form carries the table's ``turn`` (as ``at_turn``: the move form's own ``turn`` field
stays the page's only one): a second press sent before the first one's answer
arrived finds the race at another turn and only shows the table, so a double click takes
back one card, not two. A refusal (other people race here, nothing to take back) is shown
above the table like a refused move.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from app.http.web.table_page import window
from app.http.web.table_request import TableDep
from app.races.errors import TakebackRefused

router = APIRouter(include_in_schema=False)


@router.post("/games/{game_id}/takeback")
async def take_back(table: TableDep) -> Response:
    """Undo this seat's last card and the bots' replies; the table (303 back to it)."""
    raw_turn = table.fields.get("at_turn")
    turn = int(raw_turn) if isinstance(raw_turn, str) and raw_turn.isdigit() else None
    async with table.open(write=True) as race:
        memory = table.memory(race)
        if turn is not None and turn != race.session.turn:
            answer = table.answer(race, memory, keep=True)  # already taken back: show it
        else:
            try:
                state = await race.take_back(since=window(race))
            except TakebackRefused as exc:
                answer = table.refusal(race, memory, exc)
            else:
                answer = table.answer(race, memory, state=state, keep=True)
    return table.respond(answer)
