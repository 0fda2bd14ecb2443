"""The HTML side of the site: start page, game table, rules, rematch (an ``APIRouter``).

Owned by the web layer. Routes stay thin: find the session, ask :mod:`app.races.operations` to
start a game or play a move (bots think off the event loop there), then render. A
request carrying ``HX-Request`` gets only the ``#table`` fragment; every other request
gets the full page, so the site works with JavaScript off: the move form is a plain POST
answered with ``303 See Other`` back to the table, and so is a refused move: the reason
waits in the session (a one-shot flash) for the table's next view, so the address never
becomes the POST's and a reload always shows the race. Templates receive the view models of
:mod:`app.http.web.table`, nothing else about the game.
"""

from __future__ import annotations

from dataclasses import asdict
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.http.deps import (
    COOKIE_MAX_AGE_SECONDS,
    GameIdPath,
    HubDep,
    SettingsDep,
    StoreDep,
    clear_session_cookie,
    client_key,
    cookie_name,
    is_https,
    public_base_url,
    set_session_cookie,
)
from app.http.errors import (
    GameExpired,
    GameLost,
    GameNotFound,
    IllegalMove,
    RaceNotStarted,
    ServerFull,
    StaleTurn,
    TooManyGames,
)
from app.http.web.forms import (
    BOT_LEVELS,
    FormError,
    SubmittedMove,
    parse_move,
    parse_new_game,
    pop_intent,
    submitted_for,
)
from app.http.web.labels import RULES_SUIT_ORDER, Viewer, people_names
from app.http.web.replay import replay_context
from app.http.web.suggest import hint, preview_sentence
from app.http.web.table import log_context, race_again, table_context
from app.http.web.templating import templates
from app.live.streams import settle
from app.races.operations import (
    Player,
    SessionState,
    SessionStore,
    current_suggestion,
    find_player,
    leave_flash,
    play_turn,
    read_config,
    read_record,
    read_state,
    start_game,
    suggest_move,
    take_flash,
)
from app.races.record import GameConfig, GameSession
from app.settings import Settings
from engine import Action, IllegalAction

LAST_GAME_COOKIE = "zzv_last"
"""Remembers the browser's latest game id (not a credential) so the start page can offer
"Continue your race"; the game's token cookie stays scoped to the game's own pages."""

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
    return {
        "live_events": f"{base}/events" if live else None,
        "live_table": f"{base}?live=1",
        "refresh_seconds": REFRESH_SECONDS if live and waiting else None,
        "invites": lobby.invite_links(public_base_url(request), session.id)
        if seat == 0 and session.status == "waiting"
        else [],
        "watch_link": None
        if seat is None
        else f"{public_base_url(request)}games/{session.id}/watch",
    }


def render_table(
    request: Request,
    player: Player,
    state: SessionState,
    *,
    status_code: int = 200,
    **extra: Any,
) -> Response:
    """The table page (or the ``#table`` fragment for htmx) of a seat or a spectator, as
    the operation that built ``state`` left the race."""
    # htmx swaps only the table; every other client gets the whole page.
    block = "table" if _is_htmx(request) else None
    session, seat = player.session, player.seat
    context = {**table_context(state, **extra), **live_context(request, session, seat)}
    context.update(extras_context(session, seat, state))
    response = templates.TemplateResponse(
        request, "game.html", context, status_code=status_code, block_name=block
    )
    return _vary(response)


def extras_context(session: GameSession, seat: int | None, state: SessionState) -> dict[str, Any]:
    """The hint shown to ``seat``, its count of suggestions taken, and once the race is
    over its seed and settings (for "race this deal again", with friends when friends
    raced)."""
    hint_now = None if seat is None else current_suggestion(session, seat)
    return {
        "suggestion": hint_now["reason"] if hint_now else None,
        "suggestions_taken": session.suggestions_taken.get(str(seat), 0),
        "seed": session.seed if state["game_over"] else None,
        "config": session.config,
        "again": race_again(session.lobby.people(), spectator=seat is None),
    }


async def _back_to_table(
    player: Player, submitted: SubmittedMove | None = None, **notice: str
) -> Response:
    """303 to the table's own address, carrying ``notice`` to that seat's next view of it.

    Without JavaScript a refused move, a preview or a hint is a full page POST; answering
    it with a page would leave the browser at the POST's address, where a reload fails.
    The notice (a sentence and the player's own choices, as plain JSON data) waits in the
    session instead.
    """
    chosen = asdict(submitted) if submitted else None
    await leave_flash(player, {"submitted": chosen, **notice})
    return _vary(RedirectResponse(f"/games/{player.game_id}", status_code=303))


async def _take_flash(player: Player) -> dict[str, Any]:
    """The notice left for this seat's view of the table (once), if still about this turn."""
    flash = await take_flash(player)
    if flash is None:
        return {}
    chosen = flash["submitted"]
    extra = {k: v for k, v in flash.items() if k not in ("turn", "seat", "submitted")}
    return {**extra, "submitted": SubmittedMove(**chosen) if chosen else None}


async def _refused(
    request: Request,
    player: Player,
    status_code: int,
    error: str,
    submitted: SubmittedMove | None = None,
) -> Response:
    """The table as it stands, with the reason a move was not played (htmx: as a 4xx
    fragment; a page: back at the table's address with the reason)."""
    if not _is_htmx(request):
        return await _back_to_table(player, error=error, submitted=submitted)
    state = await read_state(player, since=0)
    return render_table(
        request, player, state, status_code=status_code, error=error, submitted=submitted
    )


def _expired_page(request: Request, status_code: int, heading: str, message: str) -> Response:
    response = _page(request, "expired.html", {"heading": heading, "message": message}, status_code)
    if _is_htmx(request):
        # A fragment swap cannot show a whole page: ask htmx to load it instead.
        response.headers["HX-Refresh"] = "true"
    return response


def seat_viewer(player: Player) -> Viewer:
    """The seat's reader of the race's sentences: "You" for itself, the people's display
    names for theirs (the log, the replay and the hints name seats as the table does)."""
    return Viewer(player.own_seat, people_names(player.session.lobby.public_seats()))


async def lookup(request: Request, store: SessionStore, game_id: str) -> Player | Response:
    """The browser's seat in ``game_id`` (by its cookie), or the page explaining why there
    is none."""
    try:
        return await find_player(store, game_id, request.cookies.get(cookie_name(game_id)))
    except GameLost:
        return _expired_page(
            request,
            410,
            "The server restarted and this race was lost",
            "The game server was stopped before it could save the races in progress. "
            "Sorry! Start another: it only takes a click.",
        )
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


async def start_and_redirect(
    request: Request, store: SessionStore, settings: Settings, config: GameConfig
) -> Response:
    """Deal the race and send the browser to its table with the game's cookies."""
    try:
        session, _ = await start_game(store, config, settings, client_key(request))
    except (ServerFull, TooManyGames) as exc:
        return await _index(
            request, settings, store, error=exc.message, status_code=exc.status_code
        )
    if config.watch:  # nobody sits in a bots race: no cookie, straight to its watch page
        return RedirectResponse(f"/games/{session.id}/watch", status_code=303)
    response = RedirectResponse(f"/games/{session.id}", status_code=303)
    set_session_cookie(response, request, session, settings)
    # Lives as long as the token's cookie, so the link never outlives the credential.
    response.set_cookie(
        LAST_GAME_COOKIE,
        session.id,
        max_age=COOKIE_MAX_AGE_SECONDS,
        httponly=True,
        samesite="lax",
        secure=is_https(request, settings),
    )
    return response


async def _index(
    request: Request,
    settings: Settings,
    store: SessionStore,
    *,
    error: str | None = None,
    status_code: int = 200,
) -> Response:
    # Only the id is known here (the token's cookie is scoped to the race's pages), so the
    # race is looked at without moving its idle clock.
    last = request.cookies.get(LAST_GAME_COOKIE)
    session = await store.load(last) if last else None
    context = {
        "active": "home",
        "bot_levels": BOT_LEVELS,
        "default_bots": settings.default_bot_level,
        "error": error,
        "resume": session.id if session is not None and not session.game.is_over else None,
    }
    return _page(request, "index.html", context, status_code)


async def _form_fields(request: Request) -> dict[str, str]:
    """The submitted form's text fields (a form has no files here)."""
    return {k: v for k, v in (await request.form()).items() if isinstance(v, str)}


# --------------------------------------------------------------------------- routes


@router.get("/", response_class=HTMLResponse)
async def index(request: Request, settings: SettingsDep, store: StoreDep) -> Response:
    """The start page: "Race now", the settings form and a short pitch."""
    return await _index(request, settings, store)


@router.get("/rules", response_class=HTMLResponse)
async def rules(request: Request) -> Response:
    """How to play, with the racers, worked examples and an FAQ."""
    return _page(request, "rules.html", {"active": "rules", "rules_suits": RULES_SUIT_ORDER})


@router.post("/games")
async def create_game(request: Request, settings: SettingsDep, store: StoreDep) -> Response:
    """Start a race from the start page's form and go to its table (303)."""
    try:
        config = parse_new_game(await _form_fields(request), settings.default_bot_level)
    except FormError as exc:
        return await _index(request, settings, store, error=str(exc), status_code=422)
    return await start_and_redirect(request, store, settings, config)


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def show_game(
    game_id: GameIdPath,
    request: Request,
    settings: SettingsDep,
    store: StoreDep,
    hub: HubDep,
    live: bool = False,
) -> Response:
    """The game table: the whole page, or the ``#table`` fragment for htmx."""
    found = await lookup(request, store, game_id)
    if isinstance(found, Response):
        if found.status_code == 410:
            clear_session_cookie(found, request, game_id, settings)
        return found
    await settle(found, hub)
    flash = await _take_flash(found)
    state = await read_state(found, since=0)
    # A live reload after somebody else's move reveals their cards one by one too.
    return render_table(request, found, state, animate=live, **flash)


@router.post("/games/{game_id}/move")
async def move(game_id: GameIdPath, request: Request, store: StoreDep, hub: HubDep) -> Response:
    """Play this seat's card, then the bots' replies; show the table (or 303 back to it)."""
    found = await lookup(request, store, game_id)
    if isinstance(found, Response):
        return found
    fields = await _form_fields(request)
    intent = pop_intent(fields)
    if intent == "suggest":
        return await _suggest(request, found)
    submitted = SubmittedMove(choice=fields.get("choice"))
    try:
        parsed = parse_move(fields)
        submitted = parsed.submitted
        if intent == "preview":
            return await _preview(request, found, parsed.turn, parsed.action, submitted)
        action = Action.from_dict(parsed.action)
        state = await play_turn(found, parsed.turn, action, since=0)
    except (FormError, IllegalAction) as exc:
        return await _refused(request, found, 422, str(exc), submitted)
    except IllegalMove as exc:
        return await _refused(request, found, 400, exc.message, submitted)
    except (StaleTurn, RaceNotStarted) as exc:
        return await _refused(request, found, 409, exc.message)
    await hub.publish(game_id)
    if not _is_htmx(request):
        return _vary(RedirectResponse(f"/games/{game_id}", status_code=303))
    return render_table(request, found, state, animate=True)


async def _preview(
    request: Request,
    player: Player,
    turn: int,
    action: dict[str, Any],
    submitted: SubmittedMove,
) -> Response:
    """The table with the chosen card's score, nothing played (the form's Preview button)."""
    state = await read_state(player, since=0)
    if turn != state["turn"]:
        return await _refused(request, player, 409, StaleTurn.message)
    sentence = preview_sentence(state, action, seat_viewer(player))
    if not _is_htmx(request):
        return await _back_to_table(player, preview=sentence, submitted=submitted)
    return render_table(request, player, state, preview=sentence, submitted=submitted)


async def _suggest(request: Request, player: Player) -> Response:
    """The normal bot's move for this seat, picked in the form, with its reason."""
    await read_config(player)  # the seats' names, for the hint's sentence
    found = await suggest_move(player, partial(hint, me=seat_viewer(player)))
    submitted = submitted_for(found["action"]) if found else None
    if not _is_htmx(request):
        return await _back_to_table(player, submitted=submitted)
    state = await read_state(player, since=0)
    return render_table(request, player, state, submitted=submitted)


@router.get("/games/{game_id}/log", response_class=HTMLResponse)
async def race_log(
    game_id: GameIdPath, request: Request, store: StoreDep, before: BeforeQuery = None
) -> Response:
    """The race log: a fragment for htmx (the earlier rounds, fetched when the player opens
    them), else the whole log as a page of its own.

    The table carries only the rounds its latest story touches, so a move's answer does
    not resend the whole race.
    """
    found = await lookup(request, store, game_id)
    if isinstance(found, Response):
        return found
    record = await read_record(found)
    earlier = before if _is_htmx(request) else None
    context = log_context(record["events"], game_id, earlier, seat_viewer(found))
    block = "log" if _is_htmx(request) else None
    return _vary(templates.TemplateResponse(request, "log.html", context, block_name=block))


@router.get("/games/{game_id}/replay", response_class=HTMLResponse)
async def replay(
    game_id: GameIdPath, request: Request, store: StoreDep, step: StepQuery = 0
) -> Response:
    """The race trick by trick from its public record (``?step=N``: the Nth trick)."""
    found = await lookup(request, store, game_id)
    if isinstance(found, Response):
        return found
    context = replay_context(await read_record(found), step, seat_viewer(found))
    block = "replay" if _is_htmx(request) else None
    return _vary(templates.TemplateResponse(request, "replay.html", context, block_name=block))


@router.post("/games/{game_id}/rematch")
async def rematch(
    game_id: GameIdPath, request: Request, settings: SettingsDep, store: StoreDep
) -> Response:
    """A new race with the same settings and a fresh deal (the seed is drawn anew); after
    a race with friends, a race with as many people (the presser gets new invite links)."""
    found = await lookup(request, store, game_id)
    if isinstance(found, Response):
        return found
    old = await read_config(found)
    people = race_again(found.session.lobby.people(), spectator=False).people
    config = GameConfig(
        players=old.players, bots=old.bots, variants=old.variants, seed=None, people=people
    )
    return await start_and_redirect(request, store, settings, config)
