"""``POST /games/{id}/leave``: the "Leave" form beside each race a refused start lists
(a plain form, then the race's table, which says it was left)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import RedirectResponse, Response

from app.http.web.table_request import TableDep

router = APIRouter(include_in_schema=False)


@router.post("/games/{game_id}/leave")
async def leave(table: TableDep) -> Response:
    """Leave this browser's seat of a race against bots (see :meth:`Race.leave`); 303 to
    the race's table, which now says the race is over (:mod:`app.http.web.left`)."""
    async with table.open(write=True) as race:
        race.leave()
    return RedirectResponse(f"/games/{table.game_id}", status_code=303)
