"""The HTML side of the site: start page, game table, rules, rematch (an ``APIRouter``).

Owned by the web layer. Routes stay thin: find the session, ask :mod:`app.sessions` to
start a game or play a move (bots think off the event loop there), then render. A
request carrying ``HX-Request`` gets only the ``#table`` fragment; every other request
gets the full page, so the site works with JavaScript off: the move form is a plain POST
answered with ``303 See Other`` back to the table, and a refused move re-renders the page
with the reason and a 4xx status. Templates receive the observation and the formatting of
:mod:`app.presenters`, nothing else about the game.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2_fragments.fastapi import Jinja2Blocks

from app import presenters
from app.deps import (
    COOKIE_MAX_AGE_SECONDS,
    GameIdPath,
    SettingsDep,
    StoreDep,
    clear_session_cookie,
    cookie_name,
    set_session_cookie,
)
from app.errors import GameExpired, GameNotFound, IllegalMove, ServerFull, StaleTurn
from app.paths import STATIC_DIR, TEMPLATES_DIR
from app.sessions import (
    GameConfig,
    GameSession,
    find_session,
    play_turn,
    read_state,
    start_game_async,
)
from app.settings import Settings
from app.store import GameStore
from app.web_forms import BOT_LEVELS, FormError, parse_move, parse_new_game
from engine import Action, IllegalAction
from engine.cards import SUIT_VALUE, TRICKS_PER_ROUND

LAST_GAME_COOKIE = "zzv_last"
"""Remembers the browser's latest game id (not a credential) so the start page can offer
"Continue your race"; the game's token cookie stays scoped to the game's own pages."""

router = APIRouter(include_in_schema=False)
templates = Jinja2Blocks(directory=str(TEMPLATES_DIR))


@lru_cache(maxsize=64)
def _fingerprint(path: str, mtime_ns: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:10]


def asset_url(name: str) -> str:
    """URL of a file under ``static/`` with a content fingerprint, so browsers never run
    a stale stylesheet or script after a deploy."""
    path = STATIC_DIR / name
    try:
        version = _fingerprint(str(path), path.stat().st_mtime_ns)
    except OSError:
        return f"/static/{name}"
    return f"/static/{name}?v={version}"


def _htmx_src() -> str | None:
    """The vendored htmx file (its pinned version is in the file name)."""
    found = sorted((STATIC_DIR / "vendor").glob("htmx-2.*.min.js"))
    return f"/static/vendor/{found[-1].name}" if found else None


templates.env.globals.update(
    asset_url=asset_url,
    htmx_src=_htmx_src(),
    seat_name=presenters.seat_name,
    suits=presenters.SUITS,
    values={suit.value: value for suit, value in SUIT_VALUE.items()},
    tricks_per_round=TRICKS_PER_ROUND,
    zero_effect_labels=presenters.ZERO_EFFECT_LABELS,
    zero_five_labels=presenters.ZERO_FIVE_LABELS,
)


def _is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def _vary(response: Response) -> Response:
    """Full pages and fragments share URLs, so caches must key on ``HX-Request``."""
    response.headers["Vary"] = "HX-Request"
    response.headers.setdefault("Cache-Control", "no-store")
    return response


# --------------------------------------------------------------------------- context


def table_context(
    state: dict[str, Any],
    *,
    error: str | None = None,
    animate: bool = False,
    submitted: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything ``partials/table.html`` prints, built from one ``session_state``.

    ``state`` is the observation of seat 0 plus ``events`` (the whole public log, from
    index 0), ``turn`` and ``game_id``.
    """
    obs = state
    me = int(obs["seat"])
    events = list(state.get("events", []))
    start = presenters.since_my_last_play(events, me)
    recent_events = events[start:]
    players = presenters.players_view(obs)
    hand = presenters.hand_cards(obs)
    options = list(obs.get("card_options") or [])
    zero_five = obs.get("zero_five_option")
    gas_limits = [int(o["gas_max"]) for o in options]
    zero_choices: list[str] = []
    for option in options:
        if option["suit"] == "zero" and option.get("can_play_face_up"):
            zero_choices = list(option.get("zero_effect_choices", []))
            for preview in (option.get("zero_previews") or {}).values():
                gas_limits.append(int(preview["gas_max"]))
    zero_five_previews: dict[str, Any] = {}
    if zero_five:
        for value in zero_five["values"]:
            key = str(value)
            zero_five_previews[key] = {
                "value": zero_five["effective_value"][key],
                "gas_max": zero_five["gas_max"][key],
                "speed": zero_five["speed"],
            }
            gas_limits.append(int(zero_five["gas_max"][key]))
    submitted = submitted or {}
    selected_gas = submitted.get("gas") if isinstance(submitted.get("gas"), int) else 0
    lead_seat = int(obs["lead"])
    winner = obs.get("winner")
    return {
        "obs": obs,
        "game_id": state["game_id"],
        "turn": state["turn"],
        "title": presenters.page_title(obs),
        "status": presenters.status_text(obs),
        "my_turn": presenters.is_my_turn(obs),
        "me": players[me],
        "lead": players[lead_seat],
        "players": players,
        "standings": sorted(players, key=lambda p: (-p.laps, p.seat)),
        "cells": presenters.track_cells(obs),
        "trick": presenters.trick_cards(obs),
        "last_trick": presenters.trick_record(obs.get("last_trick"), me),
        "hand": hand,
        "zero_choices": zero_choices,
        "zero_five": zero_five,
        "zero_five_previews": zero_five_previews,
        "gas_limit": max(gas_limits, default=0),
        "selected": submitted.get("choice"),
        "selected_zero": submitted.get("zero_effect"),
        "selected_gas": selected_gas,
        "best_text": presenters.best_text(obs.get("best"), me),
        "recent": presenters.recent_items(recent_events, me),
        "has_played": any(
            e.get("kind") in presenters.PLAY_KINDS and e.get("seat") == me for e in recent_events
        ),
        "round_summary": presenters.round_summary(recent_events, obs),
        "winner_name": presenters.seat_name(winner, me),
        "log": presenters.log_rounds(events, me),
        "log_open": True,
        "animate": animate,
        "error": error,
    }


def _render_table(
    request: Request,
    state: dict[str, Any],
    *,
    status_code: int = 200,
    **extra: Any,
) -> Response:
    context = table_context(state, **extra)
    if _is_htmx(request):
        response = templates.TemplateResponse(
            request, "game.html", context, status_code=status_code, block_name="table"
        )
    else:
        response = templates.TemplateResponse(
            request, "game.html", context, status_code=status_code
        )
    return _vary(response)


def _expired_page(request: Request, status_code: int, heading: str, message: str) -> Response:
    response = templates.TemplateResponse(
        request,
        "expired.html",
        {"heading": heading, "message": message},
        status_code=status_code,
    )
    if _is_htmx(request):
        # A fragment swap cannot show a whole page: ask htmx to load it instead.
        response.headers["HX-Refresh"] = "true"
    return _vary(response)


def _lookup(request: Request, store: GameStore, game_id: str) -> GameSession | Response:
    """The browser's session for ``game_id``, or the page explaining why there is none."""
    try:
        return find_session(store, game_id, request.cookies.get(cookie_name(game_id)))
    except GameExpired:
        return _expired_page(
            request,
            410,
            "This race has been cleared from the track",
            "Races left alone for a while make room for new ones. Start another: it only "
            "takes a click.",
        )
    except GameNotFound:
        return _expired_page(
            request,
            404,
            "We could not find this race",
            "It may have been played in another browser, or the link is incomplete. "
            "Races live in the browser that started them.",
        )


def _start_response(request: Request, session: GameSession, settings: Settings) -> Response:
    response = RedirectResponse(f"/games/{session.id}", status_code=303)
    set_session_cookie(response, request, session, settings)
    # Lives as long as the token's cookie, so the link never outlives the credential.
    response.set_cookie(
        LAST_GAME_COOKIE,
        session.id,
        max_age=COOKIE_MAX_AGE_SECONDS,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies or request.url.scheme == "https",
    )
    return response


async def _start(
    request: Request, store: GameStore, settings: Settings, config: GameConfig
) -> Response:
    try:
        session = await start_game_async(store, config, settings)
    except ServerFull as exc:
        return _index(request, settings, store, error=exc.message, status_code=503)
    return _start_response(request, session, settings)


def _index(
    request: Request,
    settings: Settings,
    store: GameStore,
    *,
    error: str | None = None,
    status_code: int = 200,
) -> Response:
    resume = None
    last = request.cookies.get(LAST_GAME_COOKIE)
    session = store.get(last) if last else None
    if session is not None and not session.game.is_over:
        resume = session.id
    context = {
        "active": "home",
        "bot_levels": BOT_LEVELS,
        "default_bots": settings.default_bot_level,
        "error": error,
        "resume": resume,
    }
    return _vary(
        templates.TemplateResponse(request, "index.html", context, status_code=status_code)
    )


# --------------------------------------------------------------------------- routes


@router.get("/", response_class=HTMLResponse)
async def index(request: Request, settings: SettingsDep, store: StoreDep) -> Response:
    """The start page: "Race now", the settings form and a short pitch."""
    return _index(request, settings, store)


@router.get("/rules", response_class=HTMLResponse)
async def rules(request: Request) -> Response:
    """How to play, with the racers, worked examples and an FAQ."""
    context = {"active": "rules", "rules_suits": presenters.RULES_SUIT_ORDER}
    return _vary(templates.TemplateResponse(request, "rules.html", context))


@router.post("/games")
async def create_game(request: Request, settings: SettingsDep, store: StoreDep) -> Response:
    """Start a race from the start page's form and go to its table (303)."""
    fields = await request.form()
    try:
        config = parse_new_game(
            {k: v for k, v in fields.items() if isinstance(v, str)}, settings.default_bot_level
        )
    except FormError as exc:
        return _index(request, settings, store, error=str(exc), status_code=422)
    return await _start(request, store, settings, config)


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def show_game(
    game_id: GameIdPath, request: Request, settings: SettingsDep, store: StoreDep
) -> Response:
    """The game table: the whole page, or the ``#table`` fragment for htmx."""
    found = _lookup(request, store, game_id)
    if isinstance(found, Response):
        if found.status_code == 410:
            clear_session_cookie(found, request, game_id, settings)
        return found
    state = await read_state(found, since=0)
    return _render_table(request, state)


@router.post("/games/{game_id}/move")
async def move(game_id: GameIdPath, request: Request, store: StoreDep) -> Response:
    """Play the human's card, then the bots' replies; show the table (or 303 back to it)."""
    found = _lookup(request, store, game_id)
    if isinstance(found, Response):
        return found
    session = found
    fields = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
    submitted: dict[str, Any] = {"choice": fields.get("choice"), "zero_effect": None}
    try:
        turn, action_json = parse_move(fields)
        submitted["zero_effect"] = action_json.get("zero_effect")
        submitted["gas"] = action_json.get("gas")
        action = Action.from_dict(action_json)
        await play_turn(session, turn, action)
    except (FormError, IllegalAction) as exc:
        state = await read_state(session, since=0)
        return _render_table(request, state, status_code=422, error=str(exc), submitted=submitted)
    except IllegalMove as exc:
        state = await read_state(session, since=0)
        return _render_table(
            request, state, status_code=400, error=exc.message, submitted=submitted
        )
    except StaleTurn as exc:
        state = await read_state(session, since=0)
        return _render_table(request, state, status_code=409, error=exc.message)
    if not _is_htmx(request):
        return _vary(RedirectResponse(f"/games/{game_id}", status_code=303))
    state = await read_state(session, since=0)
    return _render_table(request, state, animate=True)


@router.post("/games/{game_id}/rematch")
async def rematch(
    game_id: GameIdPath, request: Request, settings: SettingsDep, store: StoreDep
) -> Response:
    """A new race with the same settings and a fresh deal (the seed is drawn anew)."""
    found = _lookup(request, store, game_id)
    if isinstance(found, Response):
        return found
    old = found.config
    config = GameConfig(players=old.players, bots=old.bots, variants=old.variants, seed=None)
    return await _start(request, store, settings, config)
