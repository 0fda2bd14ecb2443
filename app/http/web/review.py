"""The review pages: "Review my race", its progress, the verdicts, "try again from here"
(the work is :mod:`app.races.review`'s). The seat's own pages, like its table; without
JavaScript the buttons are forms answered with 303 and a review in progress reloads itself."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import groupby, takewhile
from operator import itemgetter
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse, Response

from app.http.answers import page, see_other
from app.http.api.review import MovePath, reviews_of
from app.http.deps import client_key, set_seat_cookie
from app.http.errors import race_status
from app.http.race_words import race_sentence
from app.http.review_words import decision_words, graph_words, move_words, par_words, verdict_counts
from app.http.web.labels import PRINTED_VALUES, SUITS, ZERO_FIVE
from app.http.web.replay import ReplayStep, replay_steps
from app.http.web.table_page import seat_viewer, table_url
from app.http.web.table_request import TableDep
from app.races import review
from app.races.errors import (
    RaceError,
    RaceNotOver,
    ReviewNotRequested,
    ServerFull,
    TooManyGames,
    TooManyReviews,
)
from app.races.record import GameSession
from app.races.unit import Race

router = APIRouter(include_in_schema=False)

RoundQuery = Annotated[int | None, Query(ge=1, le=1000, description="A round of the race")]
TrickQuery = Annotated[int | None, Query(ge=1, le=6, description="A trick of that round")]

REFRESH_SECONDS = 3
"""How often a review in progress reloads itself (or, with htmx, its progress)."""

MISTAKES = ("mistake", "blunder")
"""The verdicts listed first, each with its position and "try again from here"."""


def card_view(action: dict[str, Any]) -> dict[str, Any]:
    """A move as the page draws it: the card (the seat's own, so a Tune Up's card is
    named: the page is that seat's alone), its value, the gas put on it, and a few words."""
    kind = action["type"]
    gas = 0 if kind == "tune_up" else int(action["gas"])
    suit = ZERO_FIVE if kind == "zero_five" else action["suit"]
    value = action["value"] if kind == "zero_five" else PRINTED_VALUES[suit]
    words = move_words(action)
    return {"kind": kind, "suit": SUITS[suit], "value": value, "gas": gas, "words": words}


def decision_view(
    entry: dict[str, Any], steps: Mapping[tuple[int, int], ReplayStep] | None = None, seat: int = 0
) -> dict[str, Any]:
    """One reviewed decision for the template; with the race's ``steps`` (by round and
    trick), the trick's cards played before the seat's (``before``) and its replay step."""
    step = (steps or {}).get((entry["round"], entry["trick"]))
    before = [] if step is None else list(takewhile(lambda c: c.seat != seat, step.cards))
    return {
        **entry,
        "same": entry["played"] == entry["best"],
        "mistake": entry["verdict"] in MISTAKES,
        **decision_words(entry),
        "played_card": card_view(entry["played"]),
        "best_card": card_view(entry["best"]),
        "played_percent": round(100 * entry["played_value"]),
        "lost_percent": round(100 * entry["loss"]),
        "before": before,
        "step": None if step is None else step.number,
    }


# The win-chance graph's inline SVG, in user units (it scales to the page's width), with
# room for the chance labels on the left and the round labels below.
GRAPH_WIDTH, GRAPH_HEIGHT = 420, 120
LEFT, RIGHT, TOP, BOTTOM = 34, 6, 8, 20


def graph(decisions: list[dict[str, Any]]) -> dict[str, Any]:
    """What ``partials/review_graph.html`` draws (no script draws it): the chance of winning
    after each of ``decisions`` (in order, each with ``move``, ``round``, ``verdict`` and
    ``played_value``), one point each; ``rounds``, each round's left edge, the middle of its
    span and its number; ``levels``, the chance gridlines' y and percentage."""
    span = (GRAPH_WIDTH - LEFT - RIGHT) / max(1, len(decisions))

    def y_of(value: float) -> float:
        return round(TOP + (1 - value) * (GRAPH_HEIGHT - TOP - BOTTOM), 1)

    points: list[dict[str, Any]] = []
    starts: dict[int, int] = {}
    for i, d in enumerate(decisions):
        x, y = round(LEFT + (i + 0.5) * span, 1), y_of(float(d["played_value"]))
        points.append({"x": x, "y": y, "move": int(d["move"]), "verdict": str(d["verdict"])})
        starts.setdefault(int(d["round"]), i)
    bounds = [*starts.values(), len(decisions)]
    rounds = [
        (round(LEFT + first * span, 1), round(LEFT + (first + last) / 2 * span, 1), number)
        for (number, first), last in zip(starts.items(), bounds[1:], strict=True)
    ]
    levels = [(y_of(v / 100), v) for v in (0, 50, 100)] if decisions else []
    line = " ".join(f"{p['x']},{p['y']}" for p in points)
    box = {"width": GRAPH_WIDTH, "height": GRAPH_HEIGHT, "left": LEFT, "right": GRAPH_WIDTH - RIGHT}
    return {**box, "points": points, "line": line, "rounds": rounds, "levels": levels}


def review_context(
    session: GameSession, seat: int, status: dict[str, Any] | None, steps: Sequence[ReplayStep] = ()
) -> dict[str, Any]:
    """What ``review.html`` prints of the review (``status``), each mistake's trick drawn
    from the race's ``steps``."""
    by_place = {(s.round, s.trick): s for s in steps}
    decisions = [decision_view(e, by_place, seat) for e in (status or {}).get("decisions", [])]
    summary = (status or {}).get("summary") or {}
    by_round = {r["round"]: r for r in summary.get("rounds", [])}
    mistakes = [d for d in decisions if d["mistake"]]
    round_of = itemgetter("round")  # the decisions come in the race's order, round by round
    return {
        "game_id": session.id,
        "status": None if status is None else status["status"],
        "percent": 0 if status is None else round(100 * status["progress"]),
        "rounds": [(n, by_round.get(n), list(ds)) for n, ds in groupby(decisions, round_of)],
        "mistakes": mistakes,
        "mistake_rounds": [(n, list(ds)) for n, ds in groupby(mistakes, round_of)],
        "graph": graph(decisions),
        "graph_words": graph_words([d["played_value"] for d in decisions], len(mistakes)),
        "summary": summary,
        "verdict_counts": verdict_counts(summary),
        "par": par_words(session.par.get(str(seat))),
        "refresh_seconds": REFRESH_SECONDS,
        "thresholds": {n: round(100 * least) for n, least in review.VERDICTS.items() if least},
    }


def _context(
    race: Race, status: dict[str, Any] | None, refused: RaceError | None = None
) -> tuple[dict[str, Any], int]:
    """What the review page draws of ``race`` (read while it is open), with why the review
    was ``refused``; and the answer's status."""
    steps: list[ReplayStep] = []
    if status is not None and status["status"] == "done":  # drawn only once it is done
        steps = replay_steps(race.record()["events"], seat_viewer(race), race.config.players)
    context = review_context(race.session, race.own_seat, status, steps)
    context["error"] = None if refused is None else race_sentence(refused)
    return context, 200 if refused is None else race_status(refused.code)


@router.get("/games/{game_id}/review", response_class=HTMLResponse)
async def review_page(table: TableDep) -> Response:
    """The seat's review: a button to ask for it, its progress, or its verdicts."""
    async with table.open() as race:
        try:
            shown = _context(race, reviews_of(table.request).status(race.session, race.own_seat))
        except (ReviewNotRequested, RaceNotOver) as exc:  # not asked for yet: no refusal shown
            shown = _context(race, None, exc if isinstance(exc, RaceNotOver) else None)
    return page(table.request, "review.html", *shown, "review" if table.htmx else None)


@router.post("/games/{game_id}/review")
async def ask_review(table: TableDep) -> Response:
    """ "Review my race": start it and go to its page (303), or with htmx show it there."""
    request = table.request
    async with table.open() as race:
        try:
            status = reviews_of(request).request(race.session, race.own_seat, client_key(request))
            shown = _context(race, status) if table.htmx else None
        # Refusals shown on the review page itself (the race is there, the review is not).
        except (RaceNotOver, TooManyReviews, TooManyGames, ServerFull) as exc:
            shown = _context(race, None, exc)
    if shown is None:
        return see_other(f"/games/{table.game_id}/review")
    return page(request, "review.html", *shown, "review" if table.htmx else None)


@router.get("/games/{game_id}/review/par", response_class=HTMLResponse)
async def par_fragment(table: TableDep) -> Response:
    """The par line of the game-over screen and the replay: starts the par race of the
    seat if it is not kept yet, and says so until it is."""
    async with table.open() as race:
        session, seat = race.session, race.own_seat
        running = reviews_of(table.request).request_par(session, seat)
    context = {
        "game_id": table.game_id,
        "par": par_words(session.par.get(str(seat))),
        "running": running,
        "refresh_seconds": REFRESH_SECONDS,
    }
    return page(table.request, "partials/review_par.html", context)


@router.get("/games/{game_id}/review/marks", response_class=HTMLResponse)
async def marks_fragment(
    table: TableDep, round: RoundQuery = None, trick: TrickQuery = None
) -> Response:
    """The replay's verdicts: the seat's decisions in one trick (``round`` and ``trick``)
    with the move played, the search's best as a card and "try again from here"; on the
    replay's overview, the summary. Empty until the seat's review is done."""
    async with table.open() as race:
        session, seat = race.session, race.own_seat
    kept = review.kept_review(session, seat)
    step = round is not None and trick is not None
    picked = kept["decisions"] if kept is not None and step else []
    decisions = [decision_view(e) for e in picked if (e["round"], e["trick"]) == (round, trick)]
    context = {
        "game_id": table.game_id,
        "done": kept is not None,
        "summary": None if kept is None else kept["summary"],
        "decisions": decisions,
        "step": step,
    }
    return page(table.request, "partials/review_marks.html", context)


@router.post("/games/{game_id}/review/{move}/practice")
async def try_again(table: TableDep, move: MovePath) -> Response:
    """ "Try again from here": a practice race from that decision; its table (303)."""
    async with table.open() as race:
        practice = review.practice_from(
            race.session, race.own_seat, move, table.settings.turn_seconds
        )
    await table.races.store_and_begin(practice, client_key(table.request))
    response = see_other(table_url(practice.id))
    set_seat_cookie(response, table.request, practice.id, practice.token, table.settings)
    return response
