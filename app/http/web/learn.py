"""The guided first race (``/learn``, ``/how-to-play``, the lesson's table at
``/games/{id}/learn``, under the seat cookie's path) and the coach's sentences,
:data:`COACH_SAYS`, keyed by the codes of :class:`app.races.lesson.Said` (docs/learn.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.http.answers import page
from app.http.deps import RacesDep, SettingsDep, client_key, set_seat_cookie
from app.http.errors import race_status
from app.http.i18n import N_, ngettext
from app.http.i18n import gettext as _
from app.http.race_words import race_sentence
from app.http.web.forms import read_move
from app.http.web.labels import SUITS, and_list, colour_name
from app.http.web.missing import FORGETS_GONE_SEAT
from app.http.web.page_state import PageState
from app.http.web.table_page import seat_context
from app.http.web.table_request import TableDep, TableView, play
from app.races import lesson
from app.races.errors import GameNotFound, ServerFull, TooManyGames
from app.races.lesson import Said
from app.races.operations import SessionState
from app.races.record import GameConfig
from app.races.unit import Race
from engine import Action

router = APIRouter(include_in_schema=False)

# Its deal comes from app.races.lesson, not from a seed.
LESSON_CONFIG = GameConfig(
    players=lesson.LESSON_PLAYERS, bots=lesson.LESSON_BOTS, people=1, lesson=True
)


# --------------------------------------------------------------------------- the coach's words


WHOLE_GAME = N_(
    "That is the whole game: face-up cards race on number + gas + speed, Tune Ups share "
    "the middle, the sixth trick earns a lap, and two laps win. Ready for a real race?"
)
"""What the coach says last, after the finale's sentence."""


COACH_SAYS: dict[str, str | Callable[[Mapping[str, Any]], str]] = {
    # The ideas (app.races.lesson.IDEAS), and what a later sixth trick's lap is worth.
    "face_up": N_(
        "Welcome! Each trick, everyone plays one card. A face-up card scores its number + "
        "the gas you pour on it + your speed; the highest score takes the trick."
    ),
    "gas": N_(
        "Pour gas to go faster: each gas adds 1. You hold %(held)s (%(most)s at most); gas on "
        "cards goes to the middle when the trick ends."
    ),
    "blocked": N_(
        "Your %(suits)s is blocked: that racer is already face up, and each racer races once "
        "a trick. It can still go face down as a Tune Up."
    ),
    "blocked.many": N_(
        "Your %(suits)s are blocked: those racers are already face up, and each racer races "
        "once a trick. They can still go face down as Tune Ups."
    ),
    "lichen": N_(
        "Lichen, the 1, knocks every face-up 4 and 5 in the trick down to 0; their gas and "
        "speed still count. Here it cuts %(cut)s."
    ),
    "salty": N_(
        "Salty, the 2, takes 1 gas from the middle (now %(middle)s) as it goes down; you may "
        "pour it straight on."
    ),
    "tune_up": N_(
        "A face-down card is a Tune Up: it can't win, but when the trick ends the players "
        "who tuned up share the middle's gas. What can't be split evenly, or would pass 5, "
        "is removed for good."
    ),
    "speed": N_(
        "You won a trick, so your speed is %(speed)s: every trick won in a round adds 1 speed, "
        "and speed adds to each face-up card until the round ends."
    ),
    "lap": N_(
        "Sixth and last trick of the round: its winner earns a lap instead of speed. Then "
        "all cards are dealt again and speeds go back to 0; gas stays put."
    ),
    "lap_again": N_("Sixth and last trick of the round: its winner earns a lap instead of speed."),
    "lap_can_end": N_(
        "Sixth and last trick of the round: its winner earns a lap, and two laps win the "
        "race; you have one already."
    ),
    "lap_can_end.others": lambda p: ngettext(
        "Sixth and last trick of the round: its winner earns a lap, and two laps win the "
        "race; %(names)s has one already.",
        "Sixth and last trick of the round: its winner earns a lap, and two laps win the "
        "race; %(names)s have one already.",
        p["count"],
    ),
    "two_laps": N_("Two laps win the race. You have one, so this sixth trick can win it."),
    # The advised move.
    "up_first": N_("%(play)s: %(score)s, the score to beat."),
    "up_beats": N_("%(play)s: %(score)s, that beats %(who)s's %(best)s."),
    "up_behind": N_("%(play)s: %(score)s; %(who)s's %(best)s stays ahead."),
    "up_behind_keeps": N_(
        "%(play)s: %(score)s; %(who)s's %(best)s stays ahead, and your better cards wait for later."
    ),
    "down_share": N_(
        "Tune up with %(suit)s: you share the gas in the middle (now %(middle)s) when the trick "
        "ends."
    ),
    "down_keeps": N_(
        "Tune up with %(suit)s: it scores nothing, and your better cards wait for later."
    ),
    "down_plain": N_("Tune up with %(suit)s: a face-down card scores nothing and costs no gas."),
    # Play with no card picked.
    "pick_up": N_(
        "Your move: tap %(suit)s, the card with the dashed ring, %(gas_step)s, then press Play."
    ),
    "pick_down": N_(
        "Your move: tap the Tune Up under %(suit)s, the one with the dashed ring, then press Play."
    ),
    # After a move other than the advised one.
    "note_down_share": N_(
        "You tuned up with %(suit)s instead: it scores nothing, but you share the gas in the "
        "middle (now %(middle)s) when the trick ends."
    ),
    "note_down_keeps": N_(
        "You tuned up with %(suit)s instead: it scores nothing, and your better cards wait for "
        "later."
    ),
    "note_down_plain": N_(
        "You tuned up with %(suit)s instead: a face-down card scores nothing and costs no gas."
    ),
    "note_gas_more": N_(
        "You poured %(gas)s gas instead of %(asked)s: %(suit)s scored %(score)s. Gas on a card "
        "goes to the middle, so more is worth it only when it wins."
    ),
    "note_gas_less": N_(
        "You poured %(gas)s gas instead of %(asked)s: %(suit)s scored %(score)s, and you keep "
        "the gas you did not pour."
    ),
    "note_up_first": N_(
        "You played %(suit)s face up instead: it scored %(score)s, the score to beat."
    ),
    "note_up_beats": N_(
        "You played %(suit)s face up instead: it scored %(score)s, past %(who)s's %(best)s then."
    ),
    "note_up_behind": N_(
        "You played %(suit)s face up instead: it scored %(score)s, behind %(who)s's %(best)s."
    ),
    # Once the race is over.
    "finale_won": N_("You won the race with two laps!"),
    "finale_lost": N_("%(who)s took two laps first and won the race."),
    "finale_over": N_("The race is over."),
}
"""Every sentence of the coach, keyed by :attr:`Said.code` (``.many`` when it names more
than one card), to translate, or to call when its words depend on a count."""


def _who(seat: int) -> str:
    return _("you") if seat == lesson.LEARNER else colour_name(seat)


def _whose(seat: int, card: str) -> str:
    if seat == lesson.LEARNER:
        return _("your %(card)s") % {"card": card}
    return _("%(name)s's %(card)s") % {"name": colour_name(seat), "card": card}


def say(said: Said) -> str:
    """The coach's sentence for ``said``: its code's entry with the parameters in words."""
    params: dict[str, Any] = dict(said.params)
    code = said.code
    if "suits" in params:
        params["suits"] = and_list([SUITS[s].short for s in params["suits"]])
        code += ".many" if len(said.params["suits"]) > 1 else ""
    if "seats" in params:
        seats = params["seats"]
        params["names"] = and_list([_who(s) for s in seats])
        params["count"] = len(seats)
        code += "" if seats == [lesson.LEARNER] else ".others"
    if "cut" in params:
        params["cut"] = and_list(
            [_whose(seat, SUITS[s].short if s else _("0/5 card")) for seat, s in params["cut"]]
        )
    if "seat" in params:
        params["who"] = _who(params["seat"])
    if "total" in params:
        params["score"] = _("%(value)s + %(gas)s gas + %(speed)s speed = %(total)s") % params
        params["card"] = SUITS[params["suit"]].short
        with_gas = _("Play %(card)s face up with %(gas)s gas") if params["gas"] else None
        params["play"] = (with_gas or _("Play %(card)s face up")) % params
    if "gas" in params and "total" not in params:
        set_gas = _("set the gas to %(gas)s") % params if params["gas"] else None
        params["gas_step"] = set_gas or _("leave the gas at 0")
    if "suit" in params:
        params["suit"] = SUITS[params["suit"]].short
    words = COACH_SAYS[code]
    text = words(params) if callable(words) else _(words)
    if code.startswith("finale_"):
        text += " " + _(WHOLE_GAME)
    return text % params


def lesson_context(
    request: Request,
    race: Race,
    state: SessionState,
    memory: PageState | None,
    coach_note: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """What the lesson's table draws: the table (``extra``: a refusal, a preview, the
    choices picked) with the coach beside it."""
    # Nothing starts out picked, no card and no gas: the learner makes the coach's move.
    context = seat_context(request, race, state, memory, **extra)
    context["title"] = _("Lesson · %(title)s") % {"title": context["title"]}
    # The lesson's deal comes from no seed: "race this deal again" would deal another one.
    context["seed"] = None
    if state["seat"] is None:
        return context
    coaching = lesson.coach(state)
    return context | {
        "coach": coaching,
        "coach_lines": [] if coaching is None else [say(s) for s in coaching.lines],
        "coach_ask": None if coaching is None else say(coaching.ask),
        "coach_note": coach_note,
        "coach_finale": say(lesson.finale(state)) if state["game_over"] else None,
        "coach_step": lesson.step_of(state) + 1,
        "move_url": f"{LESSON.url(state['game_id'])}/move",
        "lesson": True,
    }


class _LessonCoach:
    """The coach's hook in the table's move: what to pick, and what a move other than
    the one it asked for did."""

    def unpicked(self, before: SessionState) -> str | None:
        asked = lesson.coach(before)
        return None if asked is None else say(asked.pick_first)

    def after(self, before: SessionState, action: Action) -> str | None:
        asked = lesson.coach(before)
        said = None if asked is None else lesson.other_choice_note(before, asked, action)
        return None if said is None else say(said)


LESSON = TableView(lesson_context, "/games/{game_id}/learn", _LessonCoach())
"""The lesson's table: the race's, drawn with the coach, at its own address."""


def _lesson_only(race: Race) -> None:
    if not race.config.lesson:
        raise GameNotFound()


# --------------------------------------------------------------------------- routes


@router.get("/learn", response_class=HTMLResponse)
async def learn(request: Request) -> Response:
    """What the guided race is, and the button that starts it."""
    return page(request, "learn.html", {"active": "learn"})


@router.get("/how-to-play", response_class=HTMLResponse)
async def how_to_play(request: Request) -> Response:
    """The three-minute rules, with pictures, leading to the guided race."""
    return page(request, "how_to_play.html", {"active": "rules"})


@router.post("/learn")
async def start_lesson(request: Request, settings: SettingsDep, races: RacesDep) -> Response:
    """Deal the lesson and go to its table (303), with the seat's cookie."""
    try:
        session, _ = await races.create(LESSON_CONFIG, client_key(request))
    except (ServerFull, TooManyGames) as exc:
        context = {"active": "learn", "error": race_sentence(exc)}
        return page(request, "learn.html", context, race_status(exc.code))
    response = RedirectResponse(LESSON.url(session.id), status_code=303)
    set_seat_cookie(response, request, session.id, session.token, settings)
    return response


@router.get("/games/{game_id}/learn", response_class=HTMLResponse, dependencies=[FORGETS_GONE_SEAT])
async def lesson_table(table: TableDep) -> Response:
    """The lesson's table with the coach's sentence."""
    async with table.open() as race:
        _lesson_only(race)
        shown = table.shown(race)
    return table.render(shown, LESSON)


@router.post("/games/{game_id}/learn/move")
async def lesson_move(table: TableDep) -> Response:
    """Play the learner's card (or preview it); the bots reply; back to the lesson."""
    form = read_move(table.fields, suggests=False)
    async with table.open(write=form.intent == "play") as race:
        _lesson_only(race)
        answer = await play(table, race, table.memory(race), form, LESSON)
    return table.respond(answer, LESSON)
