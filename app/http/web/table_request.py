"""One request about a seat's table (the race's, the lesson's), from its form to its
:class:`Answer`, rendered once the race was saved (docs/architecture.md). Without JavaScript
a notice waits in the page's memory (:mod:`app.http.web.page_state`) after the ``303``."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import asdict, dataclass, field, replace
from typing import Annotated, Any, Protocol

import anyio.to_thread
from fastapi import Depends, Request
from fastapi.responses import Response

from app.http.answers import is_htmx, see_other
from app.http.deps import GameIdPath, RacesDep, SettingsDep, cookie_name, is_https
from app.http.errors import InvalidRequest, race_status
from app.http.race_words import race_sentence
from app.http.web import page_state
from app.http.web import suggest as hints
from app.http.web.forms import ParsedMove, SubmittedMove, form_fields, submitted_for
from app.http.web.page_state import PageState
from app.http.web.table_page import (
    TableContext,
    render_table,
    seat_context,
    seat_viewer,
    table_state,
    window,
)
from app.races.errors import IllegalMove, RaceError, RaceNotStarted, StaleTurn, TakebackRefused
from app.races.operations import SessionState
from app.races.unit import Race, Races
from app.settings import Settings
from engine import Action

TABLE_REFUSALS = (IllegalMove, StaleTurn, RaceNotStarted, TakebackRefused)
"""The refusals drawn on the table, the reason above it; others go to :mod:`app.http.errors`."""


class Coach(Protocol):
    """What a lesson adds to the move: words before the move is played and after."""

    def unpicked(self, before: SessionState) -> str | None:
        """What to say when Play is pressed with no card picked (None: the form's refusal)."""

    def after(self, before: SessionState, action: Action) -> str | None:
        """What to say of ``action``, just played from ``before``."""


@dataclass(frozen=True)
class TableView:
    """Where a table lives and how it is drawn (the race's, or the lesson's)."""

    context: TableContext
    address: str = "/games/{game_id}"
    coach: Coach | None = None

    def url(self, game_id: str) -> str:
        return self.address.format(game_id=game_id)


TABLE = TableView(seat_context)


@dataclass(frozen=True)
class Answer:
    """What a table request answers: the table's ``state`` (htmx only), the page's memory and
    the ``notice`` beside the table; ``flash``: without JavaScript the notice waits in the
    memory for the next view; ``keep``: the memory goes back to the browser."""

    race: Race
    memory: PageState
    state: SessionState | None = None
    status_code: int = 200
    notice: Mapping[str, Any] = field(default_factory=dict)
    flash: bool = False
    keep: bool = False


@dataclass(frozen=True)
class TableRequest:
    """A request about a seat's table and the form it sent."""

    request: Request
    settings: Settings
    races: Races
    game_id: str
    fields: dict[str, str]

    @property
    def htmx(self) -> bool:
        return is_htmx(self.request)

    @property
    def token(self) -> str | None:
        return self.request.cookies.get(cookie_name(self.game_id))

    def open(self, *, write: bool = False) -> AbstractAsyncContextManager[Race]:
        return self.races.open(self.game_id, self.token, write=write)

    def memory(self, race: Race) -> PageState:
        secret = self.settings.seed_secret.get_secret_value()
        return page_state.read(self.request, race.id, race.own_seat, secret)

    def keep(self, response: Response, race: Race, memory: PageState) -> Response:
        secret = self.settings.seed_secret.get_secret_value()
        secure = is_https(self.request, self.settings)
        page_state.write(response, race.id, memory, secret, secure=secure)
        return response

    def answer(
        self,
        race: Race,
        memory: PageState,
        *,
        state: SessionState | None = None,
        status_code: int = 200,
        flash: bool = False,
        keep: bool = False,
        **notice: Any,
    ) -> Answer:
        """The answer, read from the open race (the table's state only when htmx draws it)."""
        if state is None and self.htmx:
            state = table_state(race)
        return Answer(race, memory, state, status_code, notice, flash, keep)

    def refusal(
        self, race: Race, memory: PageState, exc: RaceError, submitted: SubmittedMove | None = None
    ) -> Answer:
        """One of :data:`TABLE_REFUSALS` on the table; the choices stay picked only when the
        card itself was refused (an old page's move meant another turn)."""
        kept = submitted if isinstance(exc, IllegalMove) else None
        error, status = race_sentence(exc), race_status(exc.code)
        return self.answer(
            race, memory, status_code=status, flash=True, error=error, submitted=kept
        )

    def render(self, answer: Answer, view: TableView = TABLE) -> Response:
        race, state, memory = answer.race, answer.state, answer.memory
        assert state is not None
        response = render_table(
            self.request, race, state, memory, answer.status_code, view.context, **answer.notice
        )
        return self.keep(response, race, memory) if answer.keep else response

    def respond(self, answer: Answer, view: TableView = TABLE) -> Response:
        """htmx: the table drawn; otherwise 303 back to the table, with the page's memory."""
        if self.htmx:
            return self.render(answer, view)
        response = see_other(view.url(answer.race.id))
        if answer.flash:
            flash = {k: v for k, v in answer.notice.items() if k != "animate"}
            flash["turn"], chosen = answer.race.session.turn, flash.get("submitted")
            flash["submitted"] = asdict(chosen) if chosen else None
            return self.keep(response, answer.race, replace(answer.memory, flash=flash))
        return self.keep(response, answer.race, answer.memory) if answer.keep else response

    def shown(self, race: Race, *, animate: bool = False) -> Answer:
        """A view of the table: its state and the notice left for it, spent once shown."""
        memory = self.memory(race)
        state = table_state(race)
        notice = {k: v for k, v in (memory.flash_for(state["turn"]) or {}).items() if k != "turn"}
        chosen = notice.get("submitted")
        notice |= {"animate": animate, "submitted": SubmittedMove(**chosen) if chosen else None}
        spent = replace(memory, flash=None)
        return Answer(race, spent, state, notice=notice, keep=memory.flash is not None)


async def table_request(
    game_id: GameIdPath, request: Request, settings: SettingsDep, races: RacesDep
) -> TableRequest:
    fields = await form_fields(request) if request.method == "POST" else {}
    return TableRequest(request, settings, races, game_id, fields)


TableDep = Annotated[TableRequest, Depends(table_request)]


async def play(
    table: TableRequest, race: Race, memory: PageState, move: ParsedMove, view: TableView = TABLE
) -> Answer:
    """The move form's Play (or Preview) on the open race, or the reason it was not played;
    a coach's words before and after."""
    coach = view.coach
    before = table_state(race) if coach is not None or move.intent == "preview" else None
    if move.error is not None or move.action is None:
        notice: dict[str, Any] = {"error": move.error, "submitted": move.submitted}
        if coach and before and move.intent == "play" and not move.submitted.choice:
            note = coach.unpicked(before)
            if note is not None:
                notice = {"error": None, "coach_note": note}
        status = InvalidRequest.status_code
        return table.answer(race, memory, status_code=status, flash=True, **notice)
    if move.play is None:  # Preview: the chosen card's score, nothing played
        assert before is not None
        if move.turn != before["turn"]:
            return table.refusal(race, memory, StaleTurn({}))
        sentence = hints.preview_sentence(before, move.action, seat_viewer(race))
        return table.answer(
            race, memory, state=before, flash=True, preview=sentence, submitted=move.submitted
        )
    try:
        state = await race.play(move.turn, move.play, since=window(race))
    except TABLE_REFUSALS as exc:
        return table.refusal(race, memory, exc, move.submitted)
    memory = memory.after_move(move.turn, dict(move.play.to_dict()))
    if coach is None or before is None:
        return table.answer(race, memory, state=state, keep=True, animate=True)
    note = coach.after(before, move.play)
    return table.answer(
        race, memory, state=state, flash=True, keep=True, animate=True, coach_note=note
    )


async def suggest(table: TableRequest, race: Race, memory: PageState) -> Answer:
    """The normal bot's move for this seat, picked in the form, with its reason: a hint the
    page remembers, not the race."""
    observation = race.observation()
    submitted = None
    if observation is not None:
        turn = race.session.turn
        found = await anyio.to_thread.run_sync(
            lambda: hints.suggest(observation, turn, me=seat_viewer(race))
        )
        memory = replace(memory, hint={"turn": turn, **found})
        submitted = submitted_for(found["action"])
    return table.answer(race, memory, flash=True, keep=True, submitted=submitted)
