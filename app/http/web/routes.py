"""The HTML side of the site: start page, game table, rules, rematch (an ``APIRouter``).

Owned by the web layer. Routes stay thin: parse the form, open the race once
(:meth:`app.races.unit.Races.open`; bots think off the event loop there), call its
operation, render. A request carrying ``HX-Request`` gets only the ``#table`` fragment;
every other request gets the full page, so the site works with JavaScript off: the move
form is a plain POST answered with ``303 See Other`` back to the table, and so is a refused
move: the reason waits in the page's own memory (:mod:`app.http.web.page_state`, a signed
cookie, not the race) for the table's next view, so the address never becomes the POST's
and a reload always shows the race. Templates receive the view models of
:mod:`app.http.web.table`, nothing else about the game.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import asdict, replace
from typing import Annotated, Any

import anyio.to_thread
from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.http.addresses import public_base_url
from app.http.deps import (
    GAME_ID_PATTERN,
    GameIdPath,
    RacesDep,
    SettingsDep,
    clear_session_cookie,
    client_key,
    cookie_name,
    is_https,
)
from app.http.errors import RACE_STATUS
from app.http.i18n import gettext as _
from app.http.players import browser_player
from app.http.race_words import race_sentence
from app.http.refusals import refusal_sentence
from app.http.web import page_state
from app.http.web.form_body import form_fields
from app.http.web.forms import (
    FormError,
    SubmittedMove,
    bot_levels,
    parse_move,
    parse_new_game,
    pop_intent,
    submitted_for,
)
from app.http.web.labels import RULES_SUIT_ORDER, Viewer, people_names
from app.http.web.left import ended_context
from app.http.web.page_state import PageState
from app.http.web.quick_lobby import quick_lobby_context
from app.http.web.rematch_words import rematch_lobby_context
from app.http.web.replay import replay_context
from app.http.web.results import browser_records, stored_replay
from app.http.web.seating import LAST_GAME_COOKIE, to_table
from app.http.web.suggest import hint, preview_sentence
from app.http.web.table import SPECTATOR, log_context, race_again, table_context, table_window
from app.http.web.talk_view import is_muted, talk_context
from app.http.web.templating import templates
from app.races import rematch as rematches
from app.races.errors import (
    GameExpired,
    GameLost,
    IllegalMove,
    RaceError,
    RaceNotStarted,
    RematchRefused,
    ServerFull,
    StaleTurn,
)
from app.races.lobby import LobbyError
from app.races.operations import SessionState, seed_shown
from app.races.record import GameConfig, GameSession
from app.races.takeback import can_take_back
from app.races.unit import Race, Races
from app.settings import Settings
from engine import Action, IllegalAction

router = APIRouter(include_in_schema=False)

StepQuery = Annotated[int, Query(ge=0, le=1000, description="Which trick of the race (0: all)")]
"""The replay's ``?step=``: the number of a trick in the whole race, 1 for the first."""

BeforeQuery = Annotated[int | None, Query(ge=1, le=100, description="Rounds before this one")]
"""The log fragment's ``?before=``: only the rounds numbered below it."""


def _is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def _vary(response: Response) -> Response:
    """Full pages and fragments share URLs, so caches must key on ``HX-Request``."""
    response.headers["Vary"] = "HX-Request"
    response.headers.setdefault("Cache-Control", "no-store")
    return response


def _page(request: Request, name: str, context: dict[str, Any], status_code: int = 200) -> Response:
    return _vary(templates.TemplateResponse(request, name, context, status_code=status_code))


REFRESH_SECONDS = 4
"""How often a table waiting for others reloads itself when JavaScript is off."""


def live_context(request: Request, session: GameSession, seat: int | None) -> dict[str, Any]:
    """What a table page needs beyond the state: its event stream, its refresh without
    JavaScript, the creator's invites and the race's watch link.

    A race of one person against bots needs neither stream nor refresh: nothing changes
    there without that person; nor does a finished race.
    """
    base = f"/games/{session.id}" + ("/watch" if seat is None else "")
    lobby = session.lobby
    shared = lobby.paced or sum(s.person for s in lobby.seats) > 1 or seat is None
    waiting = session.status == "waiting" or session.game.current_seat != seat
    live = shared and session.status != "over"
    site = public_base_url(request)  # worked out once: it builds the request's URL
    return {
        "live_events": f"{base}/events" if live else None,
        "live_table": f"{base}?live=1",
        "refresh_seconds": REFRESH_SECONDS if live and waiting else None,
        "invites": lobby.invite_links(site, session.id)
        if seat == 0 and session.status == "waiting" and lobby.wait_seconds is None
        else [],
        "watch_link": None if seat is None else f"{site}games/{session.id}/watch",
    }


def render_table(
    request: Request,
    race: Race,
    state: SessionState,
    *,
    page: PageState | None = None,
    status_code: int = 200,
    **extra: Any,
) -> Response:
    """The table page (or the ``#table`` fragment for htmx) of a seat or a spectator, as
    the request's operation left the race."""
    # htmx swaps only the table; every other client gets the whole page.
    block = "table" if _is_htmx(request) else None
    session, seat = race.session, race.seat
    context = {**table_context(state, **extra), **live_context(request, session, seat)}
    context.update(extras_context(session, seat, state, page))
    context.update(talk_context(state, is_muted(request), race.now))
    response = templates.TemplateResponse(
        request, "game.html", context, status_code=status_code, block_name=block
    )
    return _vary(response)


def extras_context(
    session: GameSession, seat: int | None, state: SessionState, page: PageState | None
) -> dict[str, Any]:
    """The hint shown to ``seat`` this turn, its count of hints taken, once the race is
    over its seed and settings (for "race this deal again", with friends when friends
    raced), and whether people left it (:func:`ended_context`)."""
    shown = None if page is None else page.hint_for(state["turn"])
    return {
        "suggestion": shown["reason"] if shown else None,
        "suggestions_taken": 0 if page is None else page.taken,
        "seed": session.seed if state["game_over"] and seed_shown(session) else None,
        "config": session.config,
        "again": race_again(session.lobby.people(), spectator=seat is None),
        "can_take_back": seat is not None and can_take_back(session, seat),
        **quick_lobby_context(session, state),
        **rematch_lobby_context(session, state),
        **ended_context(session, state),
    }


def _secret(settings: Settings) -> str:
    return settings.seed_secret.get_secret_value()


def read_page(request: Request, race: Race, settings: Settings) -> PageState:
    """This seat's page memory of the race (see :mod:`app.http.web.page_state`)."""
    return page_state.read(request, race.id, race.own_seat, _secret(settings))


def keep_page(
    response: Response, request: Request, race: Race, page: PageState, settings: Settings
) -> Response:
    """Hand ``page`` back to the browser with ``response``."""
    page_state.write(response, race.id, page, _secret(settings), secure=is_https(request, settings))
    return response


def _back_to_table(
    request: Request,
    race: Race,
    page: PageState,
    settings: Settings,
    submitted: SubmittedMove | None = None,
    **notice: str,
) -> Response:
    """303 to the table's own address, carrying ``notice`` to that seat's next view of it.

    Without JavaScript a refused move, a preview or a hint is a full page POST; answering
    it with a page would leave the browser at the POST's address, where a reload fails.
    The notice (a sentence and the player's own choices) waits in the page's memory.
    """
    chosen = asdict(submitted) if submitted else None
    flash = {"turn": race.session.turn, "submitted": chosen, **notice}
    response = _vary(RedirectResponse(f"/games/{race.id}", status_code=303))
    return keep_page(response, request, race, replace(page, flash=flash), settings)


def _flash_context(flash: dict[str, Any] | None) -> dict[str, Any]:
    """The template context a notice left for this view of the table carries."""
    if flash is None:
        return {}
    chosen = flash.get("submitted")
    extra = {k: v for k, v in flash.items() if k not in ("turn", "submitted")}
    return {**extra, "submitted": SubmittedMove(**chosen) if chosen else None}


def _refused(
    request: Request,
    race: Race,
    page: PageState,
    settings: Settings,
    status_code: int,
    error: str,
    submitted: SubmittedMove | None = None,
) -> Response:
    """The table as it stands, with the reason a move was not played (htmx: as a 4xx
    fragment; a page: back at the table's address with the reason)."""
    if not _is_htmx(request):
        return _back_to_table(request, race, page, settings, submitted, error=error)
    state = _table_state(race)
    return render_table(
        request,
        race,
        state,
        page=page,
        status_code=status_code,
        error=error,
        submitted=submitted,
    )


def _expired_page(request: Request, status_code: int, heading: str, message: str) -> Response:
    response = _page(request, "expired.html", {"heading": heading, "message": message}, status_code)
    if _is_htmx(request):
        # A fragment swap cannot show a whole page: ask htmx to load it instead.
        response.headers["HX-Refresh"] = "true"
    return response


def seat_viewer(race: Race) -> Viewer:
    """The seat's reader of the race's sentences: "You" for itself, the people's display
    names for theirs (the log, the replay and the hints name seats as the table does)."""
    return Viewer(race.own_seat, people_names(race.session.lobby.public_seats()))


def missing_page(
    request: Request, error: RaceError, settings: Settings, game_id: str | None = None
) -> Response:
    """The page explaining why this browser has no race here (or the refusal's page);
    a gone race's cookie is cleared when ``game_id`` is given."""
    if isinstance(error, GameLost):
        response = _expired_page(
            request,
            410,
            _("The server restarted and this race was lost"),
            _(
                "The game server was stopped before it could save the races in progress. "
                "Sorry! Start another: it only takes a click."
            ),
        )
    elif isinstance(error, GameExpired):
        response = _expired_page(
            request,
            410,
            _("This race has been cleared from the track"),
            _(
                "Races left alone for a while make room for new ones. Start another: it only "
                "takes a click."
            ),
        )
    elif error.code == "not_found":
        return _expired_page(
            request,
            404,
            _("We could not find this race"),
            _(
                "It may have been played in another browser, or the link is incomplete. "
                "Races live in the browser that started them."
            ),
        )
    else:
        return _page(
            request,
            "error.html",
            {"status_code": RACE_STATUS.get(error.code, 422), "message": race_sentence(error)},
            RACE_STATUS.get(error.code, 422),
        )
    if game_id is not None:
        clear_session_cookie(response, request, game_id, settings)
    return response


async def start_and_redirect(
    request: Request,
    races: Races,
    settings: Settings,
    config: GameConfig,
    creator_name: str | None = None,
) -> Response:
    """Deal the race and send the browser to its table with the game's cookies."""
    player, player_token = (None, None) if config.watch else await browser_player(request)
    try:
        session, _ = await races.create(
            config, client_key(request), creator_name, player=player.id if player else None
        )
    except ServerFull as exc:  # too_many_games: the error page lists the person's races
        status = RACE_STATUS[exc.code]
        return await _index(request, settings, races, error=race_sentence(exc), status_code=status)
    except LobbyError as exc:  # a name that does not fit
        return await _index(request, settings, races, error=race_sentence(exc), status_code=422)
    if config.watch:  # nobody sits in a bots race: no cookie, straight to its watch page
        return RedirectResponse(f"/games/{session.id}/watch", status_code=303)
    return await to_table(request, settings, session.id, session.token, player_token)


async def _index(
    request: Request,
    settings: Settings,
    races: Races,
    *,
    error: str | None = None,
    status_code: int = 200,
) -> Response:
    # Only the id is known here (the token's cookie is scoped to the race's pages), so the
    # race is looked at without moving its idle clock.
    last = request.cookies.get(LAST_GAME_COOKIE)
    context = {
        "active": "home",
        "bot_levels": bot_levels(),
        "default_bots": settings.default_bot_level,
        "error": error,
        "resume": last if last and _is_game_id(last) and await races.in_progress(last) else None,
        "quick_wait": round(settings.quick_wait_seconds),
        "records": await browser_records(request),
    }
    return _page(request, "index.html", context, status_code)


async def _form_fields(request: Request) -> dict[str, str]:
    """The submitted form's text fields (a form has no files here)."""
    return await form_fields(request)


def _window(race: Race) -> Callable[[GameSession], int]:
    """Where the table's events start for this seat (see :func:`table_window`)."""
    return lambda session: table_window(session, race.seat)


def _table_state(race: Race) -> SessionState:
    """The state a table page is rendered from: the seat's view, its events from the
    table's window on, the seat's delivery cursor left alone."""
    return race.state(since=_window(race), deliver=False)


def _is_game_id(text: str) -> bool:
    return re.fullmatch(GAME_ID_PATTERN, text) is not None


def _cookie(request: Request, game_id: str) -> str | None:
    return request.cookies.get(cookie_name(game_id))


# --------------------------------------------------------------------------- routes


@router.get("/", response_class=HTMLResponse)
async def index(request: Request, settings: SettingsDep, races: RacesDep) -> Response:
    """The start page: "Race now", the settings form and a short pitch."""
    return await _index(request, settings, races)


@router.get("/rules", response_class=HTMLResponse)
async def rules(request: Request) -> Response:
    """How to play, with the racers, worked examples and an FAQ."""
    return _page(request, "rules.html", {"active": "rules", "rules_suits": RULES_SUIT_ORDER})


@router.post("/games")
async def create_game(request: Request, settings: SettingsDep, races: RacesDep) -> Response:
    """Start a race from the start page's form and go to its table (303)."""
    fields = await _form_fields(request)
    name = fields.pop("name", None)  # the creator's, in a race with friends
    try:
        config = parse_new_game(fields, settings.default_bot_level)
    except FormError as exc:
        return await _index(request, settings, races, error=str(exc), status_code=422)
    if config.people == 1:
        name = None
    return await start_and_redirect(request, races, settings, config, name)


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def show_game(
    game_id: GameIdPath,
    request: Request,
    settings: SettingsDep,
    races: RacesDep,
    live: bool = False,
) -> Response:
    """The game table: the whole page, or the ``#table`` fragment for htmx."""
    try:
        async with races.open(game_id, _cookie(request, game_id)) as race:
            page = read_page(request, race, settings)
            state = _table_state(race)
            flash = page.flash_for(state["turn"])
            # A live reload after somebody else's move reveals their cards one by one too.
            context = _flash_context(flash)
            response = render_table(request, race, state, page=page, animate=live, **context)
    except RaceError as exc:
        return missing_page(request, exc, settings, game_id)
    if page.flash is not None:  # shown once
        keep_page(response, request, race, replace(page, flash=None), settings)
    return response


@router.post("/games/{game_id}/move")
async def move(
    game_id: GameIdPath, request: Request, settings: SettingsDep, races: RacesDep
) -> Response:
    """Play this seat's card, then the bots' replies; show the table (or 303 back to it)."""
    fields = await _form_fields(request)
    intent = pop_intent(fields)
    try:
        async with races.open(game_id, _cookie(request, game_id), write=intent == "play") as race:
            page = read_page(request, race, settings)
            if intent == "suggest":
                return await _suggest(request, race, page, settings)
            return await _play_or_preview(request, race, page, settings, fields, intent)
    except RaceError as exc:
        return missing_page(request, exc, settings)


async def _play_or_preview(
    request: Request,
    race: Race,
    page: PageState,
    settings: Settings,
    fields: dict[str, str],
    intent: str,
) -> Response:
    """The move form's Play (or Preview) on the opened race."""
    submitted = SubmittedMove(choice=fields.get("choice"))
    try:
        parsed = parse_move(fields)
        submitted = parsed.submitted
        if intent == "preview":
            return _preview(request, race, page, settings, parsed.turn, parsed.action, submitted)
        action = Action.from_dict(parsed.action)
        state = await race.play(parsed.turn, action, since=_window(race))
    except FormError as exc:
        return _refused(request, race, page, settings, 422, str(exc), submitted)
    except IllegalAction as exc:
        sentence = refusal_sentence(exc.refusal)
        return _refused(request, race, page, settings, 422, sentence, submitted)
    except IllegalMove as exc:
        sentence = refusal_sentence(exc.refusal)
        return _refused(request, race, page, settings, 400, sentence, submitted)
    except (StaleTurn, RaceNotStarted) as exc:
        return _refused(request, race, page, settings, 409, race_sentence(exc))
    page = page.after_move(parsed.turn, dict(action.to_dict()))
    if not _is_htmx(request):
        response = _vary(RedirectResponse(f"/games/{race.id}", status_code=303))
    else:
        response = render_table(request, race, state, page=page, animate=True)
    return keep_page(response, request, race, page, settings)


def _preview(
    request: Request,
    race: Race,
    page: PageState,
    settings: Settings,
    turn: int,
    action: dict[str, Any],
    submitted: SubmittedMove,
) -> Response:
    """The table with the chosen card's score, nothing played (the form's Preview button)."""
    state = _table_state(race)
    if turn != state["turn"]:
        return _refused(request, race, page, settings, 409, race_sentence(StaleTurn({})))
    sentence = preview_sentence(state, action, seat_viewer(race))
    if not _is_htmx(request):
        return _back_to_table(request, race, page, settings, submitted, preview=sentence)
    return render_table(request, race, state, page=page, preview=sentence, submitted=submitted)


async def _suggest(request: Request, race: Race, page: PageState, settings: Settings) -> Response:
    """The normal bot's move for this seat, picked in the form, with its reason; the hint
    is the page's to remember (to show it and count it if played), not the race's."""
    observation = race.observation()
    submitted = None
    if observation is not None:
        turn = race.session.turn
        action, reason = await anyio.to_thread.run_sync(
            lambda: hint(observation, turn, me=seat_viewer(race))
        )
        page = replace(page, hint={"turn": turn, "action": action, "reason": reason})
        submitted = submitted_for(action)
    if not _is_htmx(request):
        return _back_to_table(request, race, page, settings, submitted)
    state = _table_state(race)
    response = render_table(request, race, state, page=page, submitted=submitted)
    return keep_page(response, request, race, page, settings)


@router.get("/games/{game_id}/log", response_class=HTMLResponse)
async def race_log(
    game_id: GameIdPath,
    request: Request,
    settings: SettingsDep,
    races: RacesDep,
    before: BeforeQuery = None,
) -> Response:
    """The race log: a fragment for htmx (the earlier rounds, fetched when the player opens
    them), else the whole log as a page of its own.

    The table carries only the rounds its latest story touches, so a move's answer does
    not resend the whole race.
    """
    try:
        async with races.open(game_id, _cookie(request, game_id)) as race:
            record, viewer = race.record(), seat_viewer(race)
    except RaceError as exc:
        return missing_page(request, exc, settings)
    earlier = before if _is_htmx(request) else None
    context = log_context(record["events"], game_id, earlier, viewer)
    block = "log" if _is_htmx(request) else None
    return _vary(templates.TemplateResponse(request, "log.html", context, block_name=block))


@router.get("/games/{game_id}/replay", response_class=HTMLResponse)
async def replay(
    game_id: GameIdPath,
    request: Request,
    settings: SettingsDep,
    races: RacesDep,
    step: StepQuery = 0,
) -> Response:
    """The race trick by trick from its public record (``?step=N``: the Nth trick).

    A seat's browser reads it as its table does ("You"), the race still on or not; once
    the race is over anyone with the link reads it, as a spectator."""
    token = _cookie(request, game_id)
    found = None if token else await _finished_record(races, game_id)
    if found is None:
        try:
            async with races.open(game_id, token) as race:
                found = race.record(), seat_viewer(race)
        except RaceError as exc:
            found = await stored_replay(request, game_id)  # gone from the track, kept here
            if found is None:
                return missing_page(request, exc, settings)
    record, viewer = found
    context = replay_context(record, step, viewer)
    block = "replay" if _is_htmx(request) else None
    return _vary(templates.TemplateResponse(request, "replay.html", context, block_name=block))


async def _finished_record(races: Races, game_id: str) -> tuple[dict[str, Any], Viewer] | None:
    """A finished race's public record and a spectator's reader of it (None while the race
    runs, or when there is no such race)."""
    try:
        async with races.open(game_id, None, spectator=True) as race:
            record = race.record()
            names = people_names(race.session.lobby.public_seats())
    except RaceError:
        return None
    return (record, Viewer(SPECTATOR, names)) if record["complete"] else None


async def _rematch(request: Request, settings: Settings, races: Races, game_id: str) -> Response:
    """Offer or accept the rematch of a race with people; a seat answered already goes to
    the rematch's table (or reads why not)."""
    token = _cookie(request, game_id)
    try:
        seat = await rematches.accept(races, game_id, token, client_key(request))
    except RematchRefused as exc:
        async with races.open(game_id, token) as race:
            offer = race.session.lobby.rematch
        if exc.code == "rematch_answered" and offer is not None:
            return RedirectResponse(f"/games/{offer['game_id']}", status_code=303)
        raise
    return await to_table(request, settings, seat.game_id, seat.token, None)


@router.post("/games/{game_id}/rematch")
async def rematch(
    game_id: GameIdPath, request: Request, settings: SettingsDep, races: RacesDep
) -> Response:
    """A new race with the same settings and a fresh deal (the seed is drawn anew); after
    a race with people, their rematch (:mod:`app.races.rematch`: offered, or accepted when
    offered already), 303 to its table."""
    try:
        async with races.open(game_id, _cookie(request, game_id)) as race:
            old, people = race.config, race.session.lobby.people()
            same_people = race.seat is not None and rematches.offered(race.session)
        if same_people:
            return await _rematch(request, settings, races, game_id)
    except RaceError as exc:
        return missing_page(request, exc, settings)
    again = race_again(people, spectator=False).people
    config = GameConfig(
        players=old.players, bots=old.bots, variants=old.variants, seed=None, people=again
    )
    return await start_and_redirect(request, races, settings, config)
