"""``/fair``: how every deal can be checked (docs/fair-play.md), and the check of a
finished race's record (:func:`engine.verify.verify_record`), given by its id or pasted or
uploaded with a plain form. A record that checks out answers 200, any other a 4xx. The
verdict in plain words, here and for ``zzv verify``: what it found, and the deal card by
card (:mod:`engine.verify` answers in codes).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Final, NamedTuple

import anyio.to_thread
from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response
from starlette.datastructures import UploadFile

from app.http.answers import page
from app.http.deps import GAME_ID_PATTERN, RacesDep
from app.http.errors import race_status
from app.http.i18n import N_, ngettext
from app.http.i18n import gettext as _
from app.http.players import results_of
from app.http.race_look import look
from app.http.web.labels import SUITS, seat_colour
from app.races.errors import RaceError
from engine.fairness import COMMITMENT_SCHEME
from engine.verify import RoundDeal, Verdict, verify_record

# --------------------------------------------------------------------------- the words


def headline(status: str) -> str:
    """A verdict's status (``ok``, ``tampered``, ``refused``) as a short heading."""
    if status == "ok":
        return _("It checks out")
    return _("It does not check out") if status == "tampered" else _("Nothing to check")


def seat_words(seat: int) -> str:
    """A seat as the page names it: its colour, then its number in the record."""
    colour = seat_colour(seat).capitalize()
    return _("%(colour)s (seat %(seat)s)") % {"colour": colour, "seat": seat}


def _who(seat: Any) -> str:
    """A seat the record or the replay names; anything else a record holds there, as JSON."""
    if seat is None:
        return _("nobody")
    if type(seat) is int and seat >= 0:
        return seat_words(seat)
    return json.dumps(seat)


def _checked_out(verdict: Verdict) -> str:
    events = ngettext("%(num)s event", "%(num)s events", verdict.events) % {"num": verdict.events}
    return ngettext(
        "The commitment published when the race started is the SHA-256 of the revealed "
        "seed and salt; its %(num)s move is legal with the cards dealt from that seed; "
        "replaying it tells the record's %(events)s, one by one, and its winner, %(winner)s.",
        "The commitment published when the race started is the SHA-256 of the revealed "
        "seed and salt; all %(num)s moves are legal with the cards dealt from that seed; "
        "replaying them tells the record's %(events)s, one by one, and its winner, "
        "%(winner)s.",
        verdict.actions,
    ) % {"num": verdict.actions, "events": events, "winner": _who(verdict.winner)}


Params = Mapping[str, Any]


def _in_words(p: Params) -> dict[str, Any]:
    """A verdict's ``params`` as its sentence names them: seats by colour, the missing
    fields listed, moves and events counted from 1 (``move``), and ``num`` the count the
    sentence is about (the limit, the moves played, or the event)."""
    shown = {**p, "move": int(p.get("index", 0)) + 1}
    shown["num"] = p.get("limit", p.get("actions", shown["move"]))
    shown |= {key: _who(p[key]) for key in ("seat", "to_move", "recorded", "replayed") if key in p}
    if "missing" in p:
        shown["missing"] = ", ".join(p["missing"])
    return shown


# Each code's words are written out whole, so the extractor finds every one of them.
_FOUND: dict[str, str | Callable[[Params], str]] = {
    # The record holds nothing to check (refused).
    "not_a_record": N_(
        "That is not a race's record. Paste the JSON a finished race's record "
        "gives (GET /api/games/RACE/record), or give the race's id."
    ),
    "not_finished": N_(
        "This race is not finished yet, so there is nothing to check: its seed and "
        "salt are revealed when it ends."
    ),
    "no_commitment": N_(
        "This race published no commitment to its deal (the lesson is dealt the "
        "same for everyone), so there is nothing to check."
    ),
    # The missing fields are named as the record names them (deal_seed, salt).
    "not_revealed": N_(
        "This record does not reveal its deal yet (no %(missing)s). A daily deal's "
        "seed is published once the day's attempts have closed, a weekly cup deal's "
        "once its week has."
    ),
    "bad_field": N_("The record's %(field)s is not in the form a record gives it."),
    # The record does not check out: where it first goes wrong (tampered).
    "commitment_mismatch": N_(
        "The commitment published at the start, %(published)s, is not the SHA-256 "
        "of the revealed seed and salt, %(recomputed)s: this is not the deal the "
        "race promised."
    ),
    "illegal_action": lambda p: (
        _("The record's move %(move)s is not a move a race records.")
        if p["seat"] is None
        else _(
            "The record's move %(move)s is not a legal move for %(seat)s with the cards "
            "dealt from the revealed seed."
        )
    ),
    "wrong_seat": N_(
        "The record gives its move %(move)s to %(seat)s, but %(to_move)s was to play."
    ),
    "too_many_actions": lambda p: ngettext(
        "The record lists more than %(num)s move and the race does not end.",
        "The record lists more than %(num)s moves and the race does not end.",
        p["limit"],
    ),
    "actions_after_end": N_(
        "The record lists moves after the race was won, from move %(move)s on."
    ),
    "race_not_over": lambda p: ngettext(
        "After the %(num)s move of the record the race is not over, yet the record "
        "says it is finished.",
        "After all %(num)s moves of the record the race is not over, yet the record "
        "says it is finished.",
        p["actions"],
    ),
    "event_mismatch": N_("Event %(num)s of the record is not what replaying the moves tells."),
    "winner_mismatch": N_(
        "The record names %(recorded)s as the winner, but replaying the moves, %(replayed)s wins."
    ),
}
"""The sentence of each verdict that is not "ok", by its code (to translate, or to call
with the verdict's ``params`` when its words depend on them), filled in by :func:`_in_words`."""


def verdict_sentence(verdict: Verdict) -> str:
    """What the check found, as one or two sentences."""
    if verdict.status == "ok":
        return _checked_out(verdict)
    words = _FOUND[verdict.code]
    text = words(verdict.params) if callable(words) else _(words)
    return text % _in_words(verdict.params)


def event_details(verdict: Verdict) -> tuple[tuple[str, str], ...]:
    """For an ``event_mismatch``, the two events side by side as JSON: what replaying the
    moves tells and what the record says ("none" where one has no event there)."""
    if verdict.code != "event_mismatch":
        return ()
    p = verdict.params
    shown = [
        json.dumps(p.get(side), sort_keys=True) if p.get(side) is not None else _("none")
        for side in ("replayed", "recorded")
    ]
    return ((_("Replaying the moves tells"), shown[0]), (_("The record says"), shown[1]))


def cards_words(cards: tuple[Any, ...]) -> str:
    """Cards as the page names them, in the order given ("none" for no card)."""
    return ", ".join(SUITS[card.value].short for card in cards) or _("none")


class RoundWords(NamedTuple):
    """One round of the deal in words: its heading, each seat's hand, the cards put aside
    (None when the variant puts none aside)."""

    title: str
    hands: tuple[tuple[str, str], ...]
    set_aside: str | None


def round_words(deal: RoundDeal) -> RoundWords:
    """A round as dealt, in words."""
    title = _("Round %(round)s: %(seat)s leads the first trick") % {
        "round": deal.round,
        "seat": seat_words(deal.lead),
    }
    hands = tuple((seat_words(s), cards_words(hand)) for s, hand in enumerate(deal.hands))
    return RoundWords(title, hands, cards_words(deal.set_aside) if deal.set_aside else None)


def scheme_words(seed: Any, salt: Any) -> str:
    """The exact text whose SHA-256 is the commitment, for ``seed`` and ``salt``."""
    text = COMMITMENT_SCHEME.removeprefix("sha256(").removesuffix(")")
    return text.format(deal_seed=seed, salt=salt)


# --------------------------------------------------------------------------- the page

router = APIRouter(include_in_schema=False)

RECORD_MAX_BYTES: Final = 512 * 1024
"""The largest body ``POST /fair`` takes (the site's other requests keep the smaller
``max_body_bytes``): a long five-seat race's record, pretty-printed, with room to spare."""

VERDICT_STATUS: Final = {"ok": 200, "tampered": 422, "refused": 422}
"""The answer's status by verdict (a race not over yet: 409)."""

_RACE_ID = re.compile(GAME_ID_PATTERN)
RaceQuery = Annotated[str | None, Query(max_length=200, description="A race's id")]


def _render(request: Request, status: int, **shown: Any) -> Response:
    """``fair.html``, with the ``check``, the ``error``, and the ``race`` and ``pasted``
    record to show in the forms again."""
    context: dict[str, Any] = {"active": "fair", "check": None, "error": None, "race": ""}
    context |= {"pasted": "", "scheme": COMMITMENT_SCHEME, **shown}
    return page(request, "fair.html", context, status)


async def _verdict_page(
    request: Request, record: Any, race: str = "", pasted: str = ""
) -> Response:
    """The check of ``record`` as the page shows it; its ``commitment``: (published, the
    text hashed, its SHA-256) when the record revealed them."""
    verdict = await anyio.to_thread.run_sync(verify_record, record)
    status = 409 if verdict.code == "not_finished" else VERDICT_STATUS[verdict.status]
    commitment = None
    if verdict.commitment is not None:
        text = scheme_words(record["deal_seed"], record["salt"])
        commitment = (str(record["commitment"]), text, verdict.commitment)
    named = record.get("game_id") if isinstance(record, dict) else None
    check = {
        "status": verdict.status,
        "headline": headline(verdict.status),
        "sentence": verdict_sentence(verdict),
        "details": event_details(verdict),
        "race": named if isinstance(named, str) else None,
        "commitment": commitment,
        "deal": tuple(round_words(deal) for deal in verdict.deal),
    }
    return _render(request, status, check=check, race=race, pasted=pasted)


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
