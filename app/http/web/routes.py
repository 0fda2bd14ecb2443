"""The table's routes and the start page's, thin (docs/architecture.md tells a request's
walk): htmx gets the ``#table`` fragment (a quick message: its line), every other request
the whole page, or a ``303`` back to the table after a POST, so the site works without JS.
"""

from __future__ import annotations

import contextlib
import re
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import escape

from app.http.answers import is_htmx, page, redirect_or_fragment, see_other, vary
from app.http.deps import GAME_ID_PATTERN, GameIdPath, RacesDep, SettingsDep, client_key, is_https
from app.http.errors import InvalidRequest, race_status
from app.http.i18n import gettext as _
from app.http.players import PLAYER_COOKIE_MAX_AGE_SECONDS, browser_player
from app.http.race_look import look
from app.http.race_words import race_sentence
from app.http.security import TalkPaceDep
from app.http.web.forms import FormError, form_fields, parse_new_game, read_move
from app.http.web.labels import RULES_SUIT_ORDER, Viewer
from app.http.web.missing import FORGETS_GONE_SEAT
from app.http.web.page_state import keep_cookie
from app.http.web.replay import replay_context
from app.http.web.results import browser_records, stored_replay
from app.http.web.table_page import LAST_GAME_COOKIE, seat_viewer, table_url, to_table, window
from app.http.web.table_request import TableDep, play, suggest
from app.http.web.talk import MUTE_COOKIE, new_lines_fragment
from app.http.web.timeline import log_rounds
from app.races import seating as rematches
from app.races.errors import (
    LobbyRefused,
    NotAway,
    RaceError,
    RematchRefused,
    ServerFull,
    TakebackRefused,
    TalkRefused,
    TalkTooFast,
)
from app.races.record import GameConfig
from app.races.seating import quick_race
from app.races.unit import Race, Races
from app.settings import Settings

router = APIRouter(include_in_schema=False)

StepQuery = Annotated[int, Query(ge=0, le=1000, description="Which trick of the race (0: all)")]

BeforeQuery = Annotated[int | None, Query(ge=1, le=100, description="Rounds before this one")]

QUICK_SIZES = (3, 4, 5)
"""The race sizes the start page offers strangers."""


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
        session, _seat = await races.create(
            config, client_key(request), creator_name, player=player.id if player else None
        )
    except (ServerFull, LobbyRefused) as exc:  # too many races, or a name that does not fit
        return await index_page(request, settings, races, exc)
    if config.watch:  # nobody sits in a bots race: no cookie, straight to its watch page
        return RedirectResponse(f"/games/{session.id}/watch", status_code=303)
    return await to_table(request, settings, session.id, session.token, player_token)


async def index_page(
    request: Request,
    settings: Settings,
    races: Races,
    refused: str | RaceError | LobbyRefused | None = None,
) -> Response:
    """The start page, with why the browser was sent back to it: a race's refusal, or the
    form's sentence (400)."""
    error, status_code = refused, 200
    if isinstance(refused, str):
        status_code = InvalidRequest.status_code
    elif refused is not None:
        error, status_code = race_sentence(refused), race_status(refused.code)
    # Only the id is known here (the token's cookie is scoped to the race's pages), so the
    # race is looked at without moving its idle clock.
    last = request.cookies.get(LAST_GAME_COOKIE)
    resumable = last and re.fullmatch(GAME_ID_PATTERN, last) and await races.running(last)
    context = {
        "active": "home",
        "default_bots": settings.default_bot_level,
        "error": error,
        "resume": last if resumable else None,
        "quick_wait": round(settings.quick_wait_seconds),
        "records": await browser_records(request),
    }
    return page(request, "index.html", context, status_code)


@router.get("/", response_class=HTMLResponse)
async def index(request: Request, settings: SettingsDep, races: RacesDep) -> Response:
    """The start page: "Race now", the settings form and a short pitch."""
    return await index_page(request, settings, races)


@router.get("/rules", response_class=HTMLResponse)
async def rules(request: Request) -> Response:
    """How to play, with the racers, worked examples and an FAQ."""
    return page(request, "rules.html", {"active": "rules", "rules_suits": RULES_SUIT_ORDER})


@router.post("/games")
async def create_game(request: Request, settings: SettingsDep, races: RacesDep) -> Response:
    """Start a race from the start page's form and go to its table (303)."""
    fields = await form_fields(request)
    name = fields.pop("name", None)  # the creator's, in a race with friends
    try:
        config = parse_new_game(fields, settings.default_bot_level)
    except FormError as exc:
        return await index_page(request, settings, races, str(exc))
    creator = name if config.people > 1 else None  # a solo race keeps no creator's name
    return await start_and_redirect(request, races, settings, config, creator)


@router.post("/quick")
async def race_strangers(request: Request, settings: SettingsDep, races: RacesDep) -> Response:
    """ "Race strangers": a seat in the open race of that size, or a new one
    (:mod:`app.races.seating`); the table (303), or the start page with the reason."""
    raw = (await form_fields(request)).get("players", "")
    players = int(raw) if raw.isdecimal() else 0
    if players not in QUICK_SIZES:
        return await index_page(request, settings, races, _("Pick a race of 3, 4 or 5 racers."))
    player, player_token = await browser_player(request)
    try:
        seat = await quick_race(races, players, client_key(request), player=player.id)
    except (ServerFull, LobbyRefused) as exc:  # too_many_games: the error page, with races
        return await index_page(request, settings, races, exc)
    return await to_table(request, settings, seat.game_id, seat.token, player_token)


@router.get("/games/{game_id}", response_class=HTMLResponse, dependencies=[FORGETS_GONE_SEAT])
async def show_game(table: TableDep, live: bool = False) -> Response:
    """The game table: the whole page, or the ``#table`` fragment for htmx."""
    async with table.open() as race:
        # A live reload after somebody else's move reveals their cards one by one too.
        shown = table.shown(race, animate=live)
    return table.render(shown)


@router.post("/games/{game_id}/move")
async def move(table: TableDep) -> Response:
    """Play this seat's card, then the bots' replies; show the table (or 303 back to it)."""
    form = read_move(table.fields)
    async with table.open(write=form.intent == "play") as race:
        memory = table.memory(race)
        if form.intent == "suggest":
            answer = await suggest(table, race, memory)
        else:
            answer = await play(table, race, memory, form)
    return table.respond(answer)


@router.post("/games/{game_id}/takeback")
async def take_back(table: TableDep) -> Response:
    """Undo this seat's last card and the bots' replies; the table (303 back to it), or the
    refusal above it. The form's ``at_turn`` is the table's turn: a second press sent before
    the first one's answer finds another turn and only shows the table (one card back)."""
    at_turn = table.fields.get("at_turn", "")
    async with table.open(write=True) as race:
        memory = table.memory(race)
        if at_turn.isdecimal() and int(at_turn) != race.session.turn:
            answer = table.answer(race, memory, keep=True)  # already taken back: show it
        else:
            try:
                state = await race.take_back(since=window(race))
            except TakebackRefused as exc:
                answer = table.refusal(race, memory, exc)
            else:
                answer = table.answer(race, memory, state=state, keep=True)
    return table.respond(answer)


@router.post("/games/{game_id}/back")
async def come_back(table: TableDep) -> Response:
    """ "I'm back": take this seat back from the bot that plays it while its person is
    away; a second tap only shows the table."""
    async with table.open(write=True) as race:
        memory = table.memory(race)
        with contextlib.suppress(NotAway):  # a second tap: the table says they are back
            race.come_back()
        answer = table.answer(race, memory, keep=True)
    return table.respond(answer)


@router.post("/games/{game_id}/leave")
async def leave(table: TableDep) -> Response:
    """Leave this browser's seat of a race against bots (the "Leave" beside each race a
    refused start lists); 303 to the table, which now says the race is over."""
    async with table.open(write=True) as race:
        race.leave()
    return RedirectResponse(table_url(table.game_id), status_code=303)


@router.get("/games/{game_id}/log", response_class=HTMLResponse)
async def race_log(table: TableDep, before: BeforeQuery = None) -> Response:
    """The race log: a fragment for htmx (the earlier rounds, fetched when the player opens
    them: the table carries only the rounds its latest story touches), else a page."""
    async with table.open() as race:
        record, viewer = race.record(), seat_viewer(race)
    rounds = log_rounds(record["events"], viewer)  # newest first
    if table.htmx and before is not None:
        rounds = [r for r in rounds if r.round < before]
    context = {"log": rounds, "game_id": table.game_id, "title": _("Race log")}
    return page(table.request, "log.html", context, block="log" if table.htmx else None)


@router.get("/games/{game_id}/replay", response_class=HTMLResponse)
async def replay(table: TableDep, step: StepQuery = 0) -> Response:
    """The race trick by trick from its public record (``?step=N``: the Nth trick), read by a
    seat as its table does ("You"); once the race is over, by anyone as a spectator."""
    request, races, game_id, token = table.request, table.races, table.game_id, table.token
    found: tuple[dict[str, Any], Viewer] | RaceError | None = None
    if not token:  # a finished race, read by anyone as a spectator
        seen = await look(races, game_id, None, _record_read, spectator=True)
        found = None if isinstance(seen, RaceError) or not seen[0]["complete"] else seen
    if found is None:
        found = await look(races, game_id, token, _record_read)
    if isinstance(found, RaceError):
        kept = await stored_replay(request, game_id)  # gone from the track, kept here
        if kept is None:
            raise found
        found = kept
    record, viewer = found
    context = replay_context(record, step, viewer)
    return page(request, "replay.html", context, block="replay" if is_htmx(request) else None)


def _record_read(race: Race) -> tuple[dict[str, Any], Viewer]:
    return race.record(), seat_viewer(race)


@router.post("/games/{game_id}/rematch")
async def rematch(table: TableDep) -> Response:
    """A new race with the same settings and a fresh deal (the seed is drawn anew); after
    a race with people, their rematch (:mod:`app.races.seating`: offered, or accepted when
    offered already; a seat answered already goes to it), 303 to its table."""
    async with table.open() as race:
        old, people = race.config, max(1, race.session.lobby.people())
        same_people = race.seat is not None and rematches.offered(race.session)
    request = table.request
    if not same_people:
        config = GameConfig(old.players, old.bots, old.variants, None, people)
        return await start_and_redirect(request, table.races, table.settings, config)
    try:
        seat = await rematches.accept(table.races, table.game_id, table.token, client_key(request))
    except RematchRefused as exc:
        async with table.open() as race:
            offer = race.session.lobby.rematch
        if exc.code == "rematch_answered" and offer is not None:
            return RedirectResponse(table_url(offer["game_id"]), status_code=303)
        raise
    return await to_table(request, table.settings, seat.game_id, seat.token, None)


@router.post("/games/{game_id}/rematch/decline")
async def decline(table: TableDep) -> Response:
    """The "No thanks" beside a rematch offer: a bot takes this person's seat there; 303
    back to the finished race's table, which says so."""
    await rematches.decline(table.races, table.game_id, table.token)
    return RedirectResponse(table_url(table.game_id), status_code=303)


@router.post("/games/{game_id}/say")
async def say(table: TableDep, pace: TalkPaceDep) -> Response:
    """This seat says a quick message; back to the table (303), or the new line (htmx). To
    htmx a refusal (too soon, or the race ended meanwhile) answers its status with the
    sentence alone, for the talk's status line; otherwise the error handler's page."""
    refused: TalkTooFast | TalkRefused | None = None
    async with table.open(write=True) as race:
        try:
            await race.say(table.fields.get("code", ""), pace=lambda at: pace.check(race.id, at))
        except (TalkTooFast, TalkRefused) as exc:
            if not table.htmx:
                raise
            refused = exc
        state = race.state(since=lambda session: len(session.events), deliver=False)
    if refused is not None:  # its sentence alone, retargeted to the talk's status line
        headers = {"HX-Retarget": "#talk-status", "HX-Reswap": "innerHTML"}
        if isinstance(refused, TalkTooFast):
            headers["Retry-After"] = str(refused.retry_after)
        sentence = str(escape(race_sentence(refused)))
        return vary(HTMLResponse(sentence, race_status(refused.code), headers))
    # htmx: the line just said, to append, and the talk's status line emptied.
    status = '<p id="talk-status" class="talk-status" role="status" hx-swap-oob="true"></p>'
    return redirect_or_fragment(
        table.request,
        table_url(table.game_id),
        lambda: vary(HTMLResponse(new_lines_fragment(state, state["said"][-1:]) + status)),
    )


@router.post("/games/{game_id}/mute")
async def mute(game_id: GameIdPath, request: Request, settings: SettingsDep) -> Response:
    """Hide (``mute=on``) or show again (``mute=off``) the other people's quick messages in
    this browser, on every race; back to the table or the watch page (303)."""
    fields = await form_fields(request)
    response = see_other(table_url(game_id) + ("/watch" if fields.get("back") == "watch" else ""))
    if fields.get("mute") == "on":
        secure = is_https(request, settings)
        keep_cookie(response, MUTE_COOKIE, "1", PLAYER_COOKIE_MAX_AGE_SECONDS, secure)
    else:
        response.delete_cookie(MUTE_COOKIE, path="/")
    return response
