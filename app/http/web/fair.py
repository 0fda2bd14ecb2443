"""``/fair``: how every deal can be checked (docs/fair-play.md), and the check of a
finished race's record (:func:`engine.verify.verify_record`), given by its id or pasted or
uploaded with a plain form. A record that checks out answers 200, any other a 4xx.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Final

import anyio.to_thread
from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response
from starlette.datastructures import UploadFile

from app.http.answers import page
from app.http.deps import GAME_ID_PATTERN, RacesDep
from app.http.errors import race_status
from app.http.i18n import N_
from app.http.i18n import gettext as _
from app.http.players import results_of
from app.http.race_look import look
from app.http.web.fair_words import (
    event_details,
    headline,
    round_words,
    scheme_words,
    verdict_sentence,
)
from app.races.errors import RaceError
from engine.fairness import COMMITMENT_SCHEME
from engine.verify import Verdict, verify_record

router = APIRouter(include_in_schema=False)

RECORD_MAX_BYTES: Final = 512 * 1024
"""The largest body ``POST /fair`` takes (the site's other requests keep the smaller
``max_body_bytes``): a long five-seat race's record, pretty-printed, with room to spare."""

VERDICT_STATUS: Final = {"ok": 200, "tampered": 422, "refused": 422}
"""The answer's status by verdict (a race not over yet: 409)."""

TWIN_TESTS: Final = (
    (
        "tests/bots/test_bots_behaviour.py",
        "test_cards_the_bot_cannot_see_do_not_change_its_move",
        N_("a bot given two deals that differ only in cards it cannot see makes the same move"),
    ),
    (
        "tests/engine/test_seat_view.py",
        "test_a_view_never_depends_on_cards_laid_face_down_during_play",
        N_("what a seat is shown is the same for two such deals, move after move"),
    ),
    (
        "tests/api/test_hidden_information.py",
        "test_no_response_reveals_hidden_cards",
        N_(
            "every answer the server gives during a race is the same, byte for byte, for such "
            "twin deals"
        ),
    ),
)
"""The tests the page cites for "bots see only their own seat": file, test, and what it
shows (in the request's language)."""


_RACE_ID = re.compile(GAME_ID_PATTERN)
RaceQuery = Annotated[str | None, Query(max_length=200, description="A race's id")]


def _check(record: Any, verdict: Verdict) -> dict[str, Any]:
    """A finished check as the page shows it; its ``commitment``: (published, the text
    hashed, its SHA-256) when the record revealed them."""
    commitment = None
    if verdict.commitment is not None:
        text = scheme_words(record["deal_seed"], record["salt"])
        commitment = (str(record["commitment"]), text, verdict.commitment)
    race = record.get("game_id") if isinstance(record, dict) else None
    return {
        "status": verdict.status,
        "headline": headline(verdict.status),
        "sentence": verdict_sentence(verdict),
        "details": event_details(verdict),
        "race": race if isinstance(race, str) else None,
        "commitment": commitment,
        "deal": tuple(round_words(deal) for deal in verdict.deal),
    }


def _render(request: Request, status: int, **shown: Any) -> Response:
    """``fair.html``, with the ``check``, the ``error``, and the ``race`` and ``pasted``
    record to show in the forms again."""
    twins = [(path, test, _(shows)) for path, test, shows in TWIN_TESTS]
    context: dict[str, Any] = {"active": "fair", "check": None, "error": None, "race": ""}
    context |= {"pasted": "", "scheme": COMMITMENT_SCHEME, "twin_tests": twins, **shown}
    return page(request, "fair.html", context, status)


async def _verdict_page(
    request: Request, record: Any, race: str = "", pasted: str = ""
) -> Response:
    verdict = await anyio.to_thread.run_sync(verify_record, record)
    status = 409 if verdict.code == "not_finished" else VERDICT_STATUS[verdict.status]
    return _render(request, status, check=_check(record, verdict), race=race, pasted=pasted)


@router.get("/fair", response_class=HTMLResponse)
async def fair_page(request: Request, races: RacesDep, race: RaceQuery = None) -> Response:
    """How deals are checked; with ``?race=ID``, that race's record checked."""
    if race is None:
        return _render(request, 200)
    race = race.strip()
    if not _RACE_ID.fullmatch(race):
        message = _("A race's id is the part of its address after /games/, letters and digits.")
        return _render(request, 422, error=message, race=race)
    found = await look(races, race, None, lambda opened: opened.record(), spectator=True)
    if isinstance(found, RaceError):  # gone from the track: the record kept with the results
        found = await results_of(request).finished_record(race, races.now()) or found
    if isinstance(found, RaceError):
        if found.code == "not_found":
            message = _("No race with that id is kept on this server: check the id in its address.")
        else:
            message = _(
                "This race is no longer kept on this server; paste its record if you saved it."
            )
        return _render(request, race_status(found.code), error=message, race=race)
    return await _verdict_page(request, found, race=race)


@router.post("/fair", response_class=HTMLResponse)
async def check_record(request: Request) -> Response:
    """Check a finished race's record sent with the form (pasted, or as a file)."""
    async with request.form(max_part_size=RECORD_MAX_BYTES) as form:  # a file, else pasted text
        upload, text = form.get("record_file"), form.get("record")
        if isinstance(upload, UploadFile) and upload.filename:
            text = (await upload.read(RECORD_MAX_BYTES + 1)).decode("utf-8", errors="replace")
    text = text.strip() if isinstance(text, str) else ""
    if not text:
        message = _("Paste a finished race's record, or choose its file, then press Check.")
        return _render(request, 422, error=message)
    try:
        record = json.loads(text)
    except (ValueError, RecursionError):
        message = _("That is not a race's record: a record is JSON, starting with {.")
        return _render(request, 422, error=message, pasted=text)
    return await _verdict_page(request, record, pasted=text)
