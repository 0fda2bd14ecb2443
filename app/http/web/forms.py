"""The new-race form and the move form, parsed into engine inputs or a :class:`FormError`
with a sentence for the page. The move form forgives fields that do not apply to the chosen
card (gas on a Tune Up): with JavaScript off every field is sent."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from fastapi import Request
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from app.http.i18n import N_, pgettext
from app.http.i18n import gettext as _
from app.http.race_words import refusal_sentence
from app.races.record import GameConfig
from app.vocabulary import BotLevel, RacerSuitId, ZeroEffectId
from engine import Action, IllegalAction, Variants

MAX_SEED = 2**53 - 1
"""Largest seed a player may type (it must survive a round trip through JSON clients)."""


def bot_level(level: str) -> str:
    """A bot strength as a word in a sentence ("3 normal bots"); an unknown code as it is."""
    words = {
        "random": pgettext("bots", "random"),
        "easy": pgettext("bots", "easy"),
        "normal": pgettext("bots", "normal"),
        "hard": pgettext("bots", "hard"),
    }
    return words.get(level, level)


_CHECKED = frozenset({"on", "true", "1", "yes"})


async def form_fields(request: Request) -> dict[str, str]:
    """The submitted form's text fields (too many fields is a 400)."""
    return {k: v for k, v in (await request.form()).items() if isinstance(v, str)}


class FormError(ValueError):
    """A form could not be used; the message is a sentence for the player."""


def _none_if_blank(raw: Any) -> Any:
    return None if raw == "" else raw


class NewGameForm(BaseModel):
    """The start page's form (and the "Race now" button, which sends only two fields)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    players: int = Field(4, ge=3, le=5)
    bots: BotLevel = "normal"
    larger_hands: bool = False
    zero_suit: bool = False
    zero_replaces: RacerSuitId = "chippy"
    zero_five: bool = False
    seed: int | None = Field(None, ge=0, le=MAX_SEED)
    people: int = Field(1, ge=1, le=5)
    """How many of the racers are people ("Race with friends"); the rest are bots."""

    @field_validator("larger_hands", "zero_suit", "zero_five", mode="before")
    @classmethod
    def _checkbox(cls, raw: Any) -> bool:
        return (isinstance(raw, str) and raw.lower() in _CHECKED) or raw is True

    _blank = field_validator("seed", mode="before")(_none_if_blank)

    def config(self) -> GameConfig:
        variants = Variants(
            larger_hands=self.larger_hands,
            zero_suit=self.zero_replaces if self.zero_suit else None,  # type: ignore[arg-type]
            zero_five=self.zero_five,
        )
        if self.people > self.players:
            raise FormError(
                _("%(people)s people do not fit at a table of %(players)s.")
                % {"people": self.people, "players": self.players}
            )
        return GameConfig(self.players, self.bots, variants, self.seed, self.people)


_NEW_GAME_MESSAGES = {
    "players": N_("Choose 3, 4 or 5 racers."),
    "bots": N_("Choose a bot strength: random, easy, normal or hard."),
    "zero_replaces": N_("Choose which racer the 0 suit replaces."),
    "people": N_("Choose how many of the racers are people: 1 to 5."),
    "seed": N_("The seed must be a whole number from 0 to %(most)s, or left empty."),
}
"""What to say about each field of the start page's form, as written."""


def parse_new_game(fields: Mapping[str, Any], default_bots: str) -> GameConfig:
    try:
        form = NewGameForm.model_validate({"bots": default_bots, **fields})
    except ValidationError as exc:
        fallback = N_("Those race settings do not work.")
        raise _first_problem(exc, _NEW_GAME_MESSAGES, fallback, most=MAX_SEED) from None
    return form.config()


def _first_problem(
    exc: ValidationError, messages: Mapping[str, str], fallback: str, **values: object
) -> FormError:
    """A sentence for the first thing wrong with a form: its field's, else ``fallback``."""
    first = exc.errors()[0]  # a ValidationError holds one error at least
    if first["type"] == "extra_forbidden":
        return FormError(_("The form sent a field this page does not have; reload and try again."))
    sentence = _(messages.get(str(first["loc"][0]), fallback))
    return FormError(sentence % values if values else sentence)


@dataclass(frozen=True, slots=True)
class SubmittedMove:
    """A move form's choices as the table shows them again after a refusal."""

    choice: str | None = None
    zero_effect: str | None = None
    gas: int = 0


@dataclass(frozen=True, slots=True)
class ParsedMove:
    """A move form as read: what was chosen, the button pressed (``intent``, one of
    :data:`INTENTS`) and, once readable, its ``turn`` and the engine's action JSON; the
    :class:`Action` when Play was pressed (``play``), or why there is none (``error``)."""

    submitted: SubmittedMove
    turn: int = 0
    action: dict[str, Any] | None = None
    intent: str = "play"
    play: Action | None = None
    error: str | None = None


class MoveForm(BaseModel):
    """The move form as submitted: one ``choice`` radio and the detail fields."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    turn: int = Field(ge=0)
    choice: str = Field(min_length=1, max_length=40)
    gas: int | None = Field(0, ge=0, le=99)
    zero_effect: ZeroEffectId | None = None
    zf_value: int | None = None
    discard: str | None = Field(None, max_length=40)

    _blank = field_validator("gas", "zero_effect", "zf_value", "discard", mode="before")(
        _none_if_blank
    )

    def action(self) -> dict[str, Any]:
        """The engine's action JSON for this submission (legality is the engine's business)."""
        gas = self.gas or 0
        if self.choice == "zero_five":
            return {
                "type": "zero_five",
                "suit": None,
                "gas": gas,
                "zero_effect": None,
                "value": self.zf_value,
                "discard": self.discard,
            }
        mode, _sep, suit = self.choice.partition(":")
        if mode == "down" and suit:
            return {"type": "tune_up", "suit": suit, "gas": 0}
        if mode == "up" and suit:
            effect = self.zero_effect if suit == "zero" else None
            return {"type": "play", "suit": suit, "gas": gas, "zero_effect": effect}
        raise FormError(_("That card choice is not one the table offers."))


_MOVE_MESSAGES = {
    "turn": N_("This page is out of date; here is the race as it stands."),
    "choice": N_("Pick a card first: face up, or a Tune Up."),
    "gas": N_("Gas must be a whole number, 0 or more."),
    "zero_effect": N_("Choose the 0 card's effect: +1 speed or a removed gas back."),
    "zf_value": N_("Play the 0/5 card as 0 or as 5."),
    "discard": N_("Choose a card to discard."),
}
"""What to say about each field of the move form, as written."""

INTENTS = ("play", "preview", "suggest")
"""What the move form's buttons ask: play the card, show its score (the preview without
JavaScript), or suggest a move."""


def submitted_for(action: Mapping[str, Any]) -> SubmittedMove:
    """The move form's choices that enter ``action`` (engine JSON), only what its card uses:
    the inverse of :meth:`MoveForm.action` for the fields the table pre-selects."""
    if action["type"] == "tune_up":
        return SubmittedMove(f"down:{action['suit']}")
    if action["type"] == "zero_five":
        return SubmittedMove("zero_five", None, int(action["gas"]))
    return SubmittedMove(f"up:{action['suit']}", action.get("zero_effect"), int(action["gas"]))


def read_move(fields: Mapping[str, str], *, suggests: bool = True) -> ParsedMove:
    """The move form's ``fields``: the button pressed (Enter presses none: Play; a table that
    ``suggests`` nothing, the lesson's, whose coach advises, takes Suggest as Preview) and
    but for Suggest the move, its shape checked only (the rules check it in the race)."""
    rest = dict(fields)
    intent = rest.pop("intent", "play")
    if intent not in INTENTS:
        intent = "play"
    elif intent == "suggest" and not suggests:
        intent = "preview"
    chosen = SubmittedMove(choice=rest.get("choice"))
    if intent == "suggest":
        return ParsedMove(chosen, intent=intent)
    try:
        form = MoveForm.model_validate(rest)
        action = form.action()
    except ValidationError as exc:
        problem = _first_problem(exc, _MOVE_MESSAGES, N_("That move could not be read."))
        return ParsedMove(chosen, intent=intent, error=str(problem))
    except FormError as exc:
        return ParsedMove(chosen, intent=intent, error=str(exc))
    move = ParsedMove(submitted_for(action), form.turn, action, intent)
    try:
        return replace(move, play=Action.from_dict(action)) if intent == "play" else move
    except IllegalAction as exc:
        return replace(move, error=refusal_sentence(exc.refusal))
