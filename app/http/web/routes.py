"""The HTML side of the site: start page, game table, rules, rematch (an ``APIRouter``).

Owned by the web layer. Routes stay thin: read the form, open the race once
(:meth:`app.races.unit.Races.open`; bots think off the event loop there), call its
operation, and render once the race is saved (:mod:`app.http.web.table_request`). A
request carrying ``HX-Request`` gets only the ``#table`` fragment; every other request
gets the full page, so the site works with JavaScript off: the move form is a plain POST
answered with ``303 See Other`` back to the table. A race's refusal that the table does not
draw goes to :mod:`app.http.errors`.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.http.answers import is_htmx, page
from app.http.deps import GAME_ID_PATTERN, RacesDep, SettingsDep, client_key
from app.http.errors import InvalidRequest, race_status
from app.http.players import browser_player
from app.http.race_look import look
from app.http.race_words import race_sentence
from app.http.web.forms import FormError, bot_levels, form_fields, parse_new_game
from app.http.web.labels import RULES_SUIT_ORDER, Viewer, people_names
from app.http.web.missing import FORGETS_GONE_SEAT
from app.http.web.replay import replay_context
from app.http.web.results import browser_records, stored_replay
from app.http.web.seating import LAST_GAME_COOKIE, to_table
from app.http.web.table import SPECTATOR, log_context, race_again
from app.http.web.table_page import seat_viewer
from app.http.web.table_request import TableDep, play, read_move, suggest
from app.races import rematch as rematches
from app.races.errors import RaceError, RematchRefused, ServerFull
from app.races.lobby import LobbyError
from app.races.record import GameConfig
from app.races.unit import Races
from app.settings import Settings

router = APIRouter(include_in_schema=False)

StepQuery = Annotated[int, Query(ge=0, le=1000, description="Which trick of the race (0: all)")]
"""The replay's ``?step=``: the number of a trick in the whole race, 1 for the first."""

BeforeQuery = Annotated[int | None, Query(ge=1, le=100, description="Rounds before this one")]
"""The log fragment's ``?before=``: only the rounds numbered below it."""


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
    except (ServerFull, LobbyError) as exc:  # too many races, or a name that does not fit
        status = race_status(exc.code)
        return await index_page(request, settings, races, race_sentence(exc), status)
    if config.watch:  # nobody sits in a bots race: no cookie, straight to its watch page
        return RedirectResponse(f"/games/{session.id}/watch", status_code=303)
    return await to_table(request, settings, session.id, session.token, player_token)


async def index_page(
    request: Request,
    settings: Settings,
    races: Races,
    error: str | None = None,
    status_code: int = 200,
) -> Response:
    """The start page, with the ``error`` that sent the browser back to it."""
    # Only the id is known here (the token's cookie is scoped to the race's pages), so the
    # race is looked at without moving its idle clock.
    last = request.cookies.get(LAST_GAME_COOKIE)
    context = {
        "active": "home",
        "bot_levels": bot_levels(),
        "default_bots": settings.default_bot_level,
        "error": error,
        "resume": last if last and _is_game_id(last) and await races.running(last) else None,
        "quick_wait": round(settings.quick_wait_seconds),
        "records": await browser_records(request),
    }
    return page(request, "index.html", context, status_code)


def _is_game_id(text: str) -> bool:
    return re.fullmatch(GAME_ID_PATTERN, text) is not None


# --------------------------------------------------------------------------- routes


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
        return await index_page(request, settings, races, str(exc), InvalidRequest.status_code)
    if config.people == 1:
        name = None
    return await start_and_redirect(request, races, settings, config, name)


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


@router.get("/games/{game_id}/log", response_class=HTMLResponse)
async def race_log(table: TableDep, before: BeforeQuery = None) -> Response:
    """The race log: a fragment for htmx (the earlier rounds, fetched when the player opens
    them), else the whole log as a page of its own.

    The table carries only the rounds its latest story touches, so a move's answer does
    not resend the whole race.
    """
    async with table.open() as race:
        record, viewer = race.record(), seat_viewer(race)
    earlier = before if table.htmx else None
    context = log_context(record["events"], table.game_id, earlier, viewer)
    return page(table.request, "log.html", context, block="log" if table.htmx else None)


@router.get("/games/{game_id}/replay", response_class=HTMLResponse)
async def replay(table: TableDep, step: StepQuery = 0) -> Response:
    """The race trick by trick from its public record (``?step=N``: the Nth trick).

    A seat's browser reads it as its table does ("You"), the race still on or not; once
    the race is over anyone with the link reads it, as a spectator."""
    request, races, game_id, token = table.request, table.races, table.game_id, table.token
    found = None if token else await _finished_record(races, game_id)
    if found is None:
        seen = await look(races, game_id, token, lambda race: (race.record(), seat_viewer(race)))
        if isinstance(seen, RaceError):
            found = await stored_replay(request, game_id)  # gone from the track, kept here
            if found is None:
                raise seen
        else:
            found = seen
    record, viewer = found
    context = replay_context(record, step, viewer)
    return page(request, "replay.html", context, block="replay" if is_htmx(request) else None)


async def _finished_record(races: Races, game_id: str) -> tuple[dict[str, Any], Viewer] | None:
    """A finished race's public record and a spectator's reader of it (None while the race
    runs, or when there is no such race)."""
    seen = await look(
        races,
        game_id,
        None,
        lambda race: (race.record(), people_names(race.session.lobby.public_seats())),
        spectator=True,
    )
    if isinstance(seen, RaceError):
        return None
    record, names = seen
    return (record, Viewer(SPECTATOR, names)) if record["complete"] else None


async def _rematch(table: TableDep) -> Response:
    """Offer or accept the rematch of a race with people; a seat answered already goes to
    the rematch's table (or reads why not)."""
    request = table.request
    try:
        seat = await rematches.accept(table.races, table.game_id, table.token, client_key(request))
    except RematchRefused as exc:
        async with table.open() as race:
            offer = race.session.lobby.rematch
        if exc.code == "rematch_answered" and offer is not None:
            return RedirectResponse(f"/games/{offer['game_id']}", status_code=303)
        raise
    return await to_table(request, table.settings, seat.game_id, seat.token, None)


@router.post("/games/{game_id}/rematch")
async def rematch(table: TableDep) -> Response:
    """A new race with the same settings and a fresh deal (the seed is drawn anew); after
    a race with people, their rematch (:mod:`app.races.rematch`: offered, or accepted when
    offered already), 303 to its table."""
    async with table.open() as race:
        old, people = race.config, race.session.lobby.people()
        same_people = race.seat is not None and rematches.offered(race.session)
    if same_people:
        return await _rematch(table)
    again = race_again(people, spectator=False).people
    config = GameConfig(
        players=old.players, bots=old.bots, variants=old.variants, seed=None, people=again
    )
    return await start_and_redirect(table.request, table.races, table.settings, config)
