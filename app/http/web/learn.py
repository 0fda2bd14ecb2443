"""The guided first race: ``/learn`` and the lesson's table (an ``APIRouter``).

Owned by the web layer, thin like :mod:`app.http.web.routes` (whose table pieces it
reuses); what the coach says is the domain's (:mod:`app.races.lesson`):

* ``GET /learn`` — what the lesson is, and its Start button;
* ``GET /how-to-play`` — the rules in three minutes (at most 700 words), with pictures;
* ``POST /learn`` — deals the lesson (:attr:`app.races.record.GameConfig.lesson`) and
  sends the browser to its table, 303;
* ``GET /games/{id}/learn`` — the lesson's table: the ordinary table with the coach's
  sentence in it (``role="status"``), the card it asks for marked ``data-coach="pick"``
  and picked, and the gas it asks for on the move form (``data-coach-gas``);
* ``POST /games/{id}/learn/move`` — plays the learner's card like the table's own move
  form, then says kindly what a move other than the coach's did.

The lesson's pages live under ``/games/{id}`` because the seat's cookie and the page's
memory are scoped to that path. Without JavaScript every step is a form post answered
with 303 back to the lesson's table, the coach's note carried in the page's memory.
"""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.http.deps import (
    GameIdPath,
    RacesDep,
    SettingsDep,
    client_key,
    cookie_name,
    set_session_cookie,
)
from app.http.errors import RACE_STATUS
from app.http.web.form_body import form_fields
from app.http.web.forms import FormError, SubmittedMove, parse_move, pop_intent
from app.http.web.page_state import PageState
from app.http.web.routes import (
    extras_context,
    keep_page,
    live_context,
    missing_page,
    read_page,
    seat_viewer,
)
from app.http.web.suggest import preview_sentence
from app.http.web.table import table_context, table_window
from app.http.web.templating import templates
from app.races import lesson
from app.races.errors import (
    GameNotFound,
    IllegalMove,
    RaceError,
    RaceNotStarted,
    ServerFull,
    StaleTurn,
    TooManyGames,
)
from app.races.operations import SessionState
from app.races.record import GameConfig
from app.races.unit import Race
from app.settings import Settings
from engine import Action, IllegalAction

router = APIRouter(include_in_schema=False)

LESSON_CONFIG = GameConfig(
    players=lesson.LESSON_PLAYERS, bots=lesson.LESSON_BOTS, people=1, lesson=True
)
"""The lesson's settings (its deal comes from :mod:`app.races.lesson`, not from a seed)."""


def _is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def _vary(response: Response) -> Response:
    response.headers["Vary"] = "HX-Request"
    response.headers.setdefault("Cache-Control", "no-store")
    return response


def lesson_url(game_id: str) -> str:
    """The lesson table's address."""
    return f"/games/{game_id}/learn"


def _state(race: Race) -> SessionState:
    return race.state(since=lambda session: table_window(session, race.seat), deliver=False)


def coach_context(state: SessionState, note: str | None = None) -> dict[str, Any]:
    """What the coach's box and the marked card need: the sentence, the advised move, the
    note on a different choice, and the last words once the race is over."""
    seat = state["seat"]
    if seat is None:
        return {}
    coaching = lesson.coach(state)
    return {
        "coach": coaching,
        "coach_note": note,
        "coach_finale": lesson.finale(state) if state["game_over"] else None,
        "coach_step": lesson.step_of(state) + 1,
        "move_url": f"{lesson_url(state['game_id'])}/move",
        "lesson": True,
    }


def render_lesson(
    request: Request,
    race: Race,
    state: SessionState,
    page: PageState | None,
    *,
    status_code: int = 200,
    note: str | None = None,
    error: str | None = None,
    preview: str | None = None,
    submitted: SubmittedMove | None = None,
    animate: bool = False,
) -> Response:
    """The lesson's table page (or its ``#table`` fragment for htmx)."""
    coached = coach_context(state, note)
    coaching = coached.get("coach")
    if submitted is None and coaching is not None:
        # The coach's move starts out picked: one press of Play follows the lesson.
        submitted = SubmittedMove(choice=coaching.choice, gas=coaching.gas)
    context = {
        **table_context(state, error=error, animate=animate, submitted=submitted, preview=preview),
        **live_context(request, race.session, race.seat),
        **extras_context(race.session, race.seat, state, page),
        **coached,
    }
    context["title"] = f"Lesson · {context['title']}"
    # The lesson's deal comes from no seed: "race this deal again" would deal another one.
    context["seed"] = None
    block = "table" if _is_htmx(request) else None
    response = templates.TemplateResponse(
        request, "game.html", context, status_code=status_code, block_name=block
    )
    return _vary(response)


def _lesson_only(race: Race) -> None:
    if not race.config.lesson:
        raise GameNotFound()


def _cookie(request: Request, game_id: str) -> str | None:
    return request.cookies.get(cookie_name(game_id))


def _back(
    request: Request, race: Race, page: PageState, settings: Settings, **notice: Any
) -> Response:
    """303 to the lesson's table with ``notice`` waiting in the page's memory."""
    flash = {"turn": race.session.turn, **notice}
    response = _vary(RedirectResponse(lesson_url(race.id), status_code=303))
    return keep_page(response, request, race, replace(page, flash=flash), settings)


# --------------------------------------------------------------------------- routes


@router.get("/learn", response_class=HTMLResponse)
async def learn(request: Request) -> Response:
    """What the guided race is, and the button that starts it."""
    return _vary(templates.TemplateResponse(request, "learn.html", {"active": "learn"}))


@router.get("/how-to-play", response_class=HTMLResponse)
async def how_to_play(request: Request) -> Response:
    """The three-minute rules, with pictures, leading to the guided race."""
    return _vary(templates.TemplateResponse(request, "how_to_play.html", {"active": "rules"}))


@router.post("/learn")
async def start_lesson(request: Request, settings: SettingsDep, races: RacesDep) -> Response:
    """Deal the lesson and go to its table (303), with the seat's cookie."""
    try:
        session, _ = await races.create(LESSON_CONFIG, client_key(request))
    except (ServerFull, TooManyGames) as exc:
        context = {"active": "learn", "error": exc.message}
        response = templates.TemplateResponse(
            request, "learn.html", context, status_code=RACE_STATUS[exc.code]
        )
        return _vary(response)
    response = RedirectResponse(lesson_url(session.id), status_code=303)
    set_session_cookie(response, request, session, settings)
    return response


@router.get("/games/{game_id}/learn", response_class=HTMLResponse)
async def lesson_table(
    game_id: GameIdPath, request: Request, settings: SettingsDep, races: RacesDep
) -> Response:
    """The lesson's table with the coach's sentence."""
    try:
        async with races.open(game_id, _cookie(request, game_id)) as race:
            _lesson_only(race)
            page = read_page(request, race, settings)
            state = _state(race)
            flash = page.flash_for(state["turn"]) or {}
            chosen = flash.get("submitted")
            response = render_lesson(
                request,
                race,
                state,
                page,
                note=flash.get("coach_note"),
                error=flash.get("error"),
                preview=flash.get("preview"),
                submitted=SubmittedMove(**chosen) if chosen else None,
            )
    except RaceError as exc:
        return missing_page(request, exc, settings, game_id)
    if page.flash is not None:  # shown once
        keep_page(response, request, race, replace(page, flash=None), settings)
    return response


@router.post("/games/{game_id}/learn/move")
async def lesson_move(
    game_id: GameIdPath, request: Request, settings: SettingsDep, races: RacesDep
) -> Response:
    """Play the learner's card (or preview it); the bots reply; back to the lesson."""
    fields = await form_fields(request)
    intent = pop_intent(fields)
    try:
        async with races.open(game_id, _cookie(request, game_id), write=intent == "play") as race:
            _lesson_only(race)
            page = read_page(request, race, settings)
            return await _play(request, race, page, settings, fields, intent)
    except RaceError as exc:
        return missing_page(request, exc, settings)


async def _play(
    request: Request,
    race: Race,
    page: PageState,
    settings: Settings,
    fields: dict[str, str],
    intent: str,
) -> Response:
    submitted = SubmittedMove(choice=fields.get("choice"))
    before = _state(race)
    try:
        parsed = parse_move(fields)
        submitted = parsed.submitted
        if intent != "play":  # Preview (the lesson has no Suggest: the coach advises)
            if parsed.turn != before["turn"]:
                return _refuse(request, race, page, settings, 409, StaleTurn.message, None)
            sentence = preview_sentence(before, parsed.action, seat_viewer(race))
            if not _is_htmx(request):
                chosen = asdict(submitted)
                return _back(request, race, page, settings, preview=sentence, submitted=chosen)
            return render_lesson(request, race, before, page, preview=sentence, submitted=submitted)
        action = Action.from_dict(parsed.action)
        asked = lesson.coach(before)
        state = await race.play(parsed.turn, action, since=lambda s: table_window(s, race.seat))
    except (FormError, IllegalAction) as exc:
        return _refuse(request, race, page, settings, 422, str(exc), submitted)
    except IllegalMove as exc:
        return _refuse(request, race, page, settings, 400, exc.message, submitted)
    except (StaleTurn, RaceNotStarted) as exc:
        return _refuse(request, race, page, settings, 409, exc.message, None)
    note = None if asked is None else lesson.other_choice_note(before, asked, action)
    page = page.after_move(parsed.turn, dict(action.to_dict()))
    if not _is_htmx(request):
        return _back(request, race, page, settings, coach_note=note)
    response = render_lesson(request, race, state, page, note=note, animate=True)
    return keep_page(response, request, race, page, settings)


def _refuse(
    request: Request,
    race: Race,
    page: PageState,
    settings: Settings,
    status_code: int,
    error: str,
    submitted: SubmittedMove | None,
) -> Response:
    chosen = None if submitted is None else asdict(submitted)
    if not _is_htmx(request):
        return _back(request, race, page, settings, error=error, submitted=chosen)
    return render_lesson(
        request,
        race,
        _state(race),
        page,
        status_code=status_code,
        error=error,
        submitted=submitted,
    )
