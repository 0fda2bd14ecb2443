"""``POST /games/{id}/rematch/decline``: the "No thanks" beside a rematch offer (a plain
form, then 303 back to the finished race's table, which says so). Offering and accepting
is the table's Rematch button (:func:`app.http.web.routes.rematch`)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import RedirectResponse, Response

from app.http.web.table_request import TableDep
from app.races import rematch

router = APIRouter(include_in_schema=False)


@router.post("/games/{game_id}/rematch/decline")
async def decline(table: TableDep) -> Response:
    """Decline this race's rematch: a bot takes this person's seat there."""
    await rematch.decline(table.races, table.game_id, table.token)
    return RedirectResponse(f"/games/{table.game_id}", status_code=303)
