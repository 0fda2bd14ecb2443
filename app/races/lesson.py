"""The guided first race (``/learn``, docs/learn.md): its fixed deal and its coach, a pure
function of the learner's observation that speaks in codes with parameters (:class:`Said`;
the sentences are the web layer's). A code is chosen only when the position makes its
sentence true."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from app.vocabulary import BotLevel
from engine import Action, Game, new_game, supply_after_effect
from engine.actions import ActionType
from engine.bots import make_bot
from engine.cards import LAPS_TO_WIN, MAX_GAS, TRICKS_PER_ROUND, Suit
from engine.options import CardChoice, observed_options
from engine.shapes import Observation

LESSON_PLAYERS = 3
"""Seats at the lesson's table (R2): the learner (:data:`LEARNER`) and two bots."""
LESSON_BOTS: BotLevel = "easy"
LESSON_ENGINE_SEED = 7240
"""The engine seed of the lesson's deals (every round's, R5 and R17); public on purpose."""
ADVICE_SEED = 1
"""Seeds the normal bot whose move the coach advises between ideas (plus the step)."""
LESSON_LEAD = LEARNER = 0
"""The learner's seat, which leads the lesson's first trick (R6)."""

PASSIVE = frozenset({"blocked", "speed"})
"""Ideas that explain the table rather than ask for a move: they may share a step with an
idea that does ask for one."""

LESSON_STEPS: dict[int, tuple[str, ...]] = {
    0: ("face_up",),
    1: ("gas", "blocked"),
    2: ("lichen",),
    3: ("salty", "speed"),
    4: ("tune_up",),
    5: ("lap",),
    11: ("two_laps",),
}
"""Step (cards the learner has played) -> the ideas the coach introduces then, as
``python -m bench.lesson_deal`` planned them for :data:`LESSON_ENGINE_SEED`."""

IDEAS = tuple(idea for ideas in LESSON_STEPS.values() for idea in ideas)
"""What the lesson teaches (face up and the score, R7 and R8, to two laps, R16), in the
order it introduces them."""

FIRST_LAP_STEP = TRICKS_PER_ROUND - 1
"""The first sixth trick: nobody holds a lap yet, so its lap cannot end the race."""


def lesson_game() -> Game:
    """The lesson's game as dealt: always the same cards (R5) and the learner leading (R6)."""
    return new_game(players=LESSON_PLAYERS, seed=LESSON_ENGINE_SEED, lead=LESSON_LEAD)


@dataclass(frozen=True, slots=True)
class Said:
    """One thing the coach says: a code of the web layer's sentences and its parameters
    (whole numbers, suit ids under keys named ``suit``/``suits``, seats under ``seat``/
    ``seats``)."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Coaching:
    """What the coach says at one turn: ``lines`` introduce ``ideas`` (or a sixth trick's
    lap); ``ask`` is the advised move, ``choice`` its move form's spelling (``up:chippy``,
    ``down:salty`` a Tune Up) with ``gas``."""

    lines: tuple[Said, ...]
    ask: Said
    choice: str
    gas: int
    ideas: tuple[str, ...] = ()

    @property
    def action(self) -> Action:
        """The engine's action for the advised move."""
        mode, suit = self.choice.split(":")
        return Action.tune_up(Suit(suit)) if mode == "down" else Action.play(Suit(suit), self.gas)

    @property
    def pick_first(self) -> Said:
        """What the coach says to a Play with no card picked."""
        mode, suit = self.choice.split(":")
        return Said(f"pick_{mode}", {"suit": suit} | ({"gas": self.gas} if mode == "up" else {}))


def step_of(obs: Mapping[str, Any]) -> int:
    """How many cards the learner has played before this turn (one per trick, R5)."""
    return (int(obs["round"]) - 1) * TRICKS_PER_ROUND + int(obs["trick"]) - 1


def _options(obs: Observation) -> dict[str, CardChoice]:
    return {card.suit.value: card for card in observed_options(obs).cards}


def _gas_to_win(option: CardChoice) -> int | None:
    """The least gas that puts ``option`` face up strictly above the best card so far
    (a tie goes to the card played earlier, R13); None when even all of it falls short."""
    if not option.face_up:
        return None
    best = option.best_other
    needed = 0 if best is None else max(0, best.final + 1 - option.final(0))
    return needed if needed <= option.gas_max else None


def keeps_better(obs: Observation, suit: str) -> bool:
    """Whether the hand still holds a card printed higher than ``suit`` once it is played."""
    options = _options(obs)
    return any(option.value > options[suit].value for option in options.values())


def _scored(option: CardChoice, gas: int) -> dict[str, Any]:
    return {
        "suit": option.suit.value,
        "value": option.effective_value,
        "gas": gas,
        "speed": option.speed,
        "total": option.final(gas),
    }


def _up(obs: Observation, suit: str, gas: int, prefix: str = "") -> Said:
    """A face-up move's score and how it stands against the trick (R8, R13)."""
    option = _options(obs)[suit]
    params = _scored(option, gas)
    best = option.best_other
    if best is None:
        return Said(f"{prefix}up_first", params)
    params |= {"seat": best.seat, "best": best.final}
    if params["total"] > best.final:
        return Said(f"{prefix}up_beats", params)
    keeps = not prefix and keeps_better(obs, suit)  # a note says nothing of the cards kept
    return Said(f"{prefix}up_behind_keeps" if keeps else f"{prefix}up_behind", params)


def _down(obs: Observation, suit: str, prefix: str = "") -> Said:
    """A Tune Up with ``suit``: what it does in this position (R11)."""
    if observed_options(obs).tune_up_shares:  # gas in the middle to share, room for it (R11)
        return Said(f"{prefix}down_share", {"suit": suit, "middle": obs["middle"]})
    if keeps_better(obs, suit):
        return Said(f"{prefix}down_keeps", {"suit": suit})
    return Said(f"{prefix}down_plain", {"suit": suit})


def applies(idea: str, obs: Observation) -> bool:
    """Whether the position lets the coach show ``idea`` now."""
    return _show(idea, obs) is not None


def _show(idea: str, obs: Observation) -> tuple[tuple[str, int] | None, Said] | None:
    """The move that shows ``idea`` (None for an idea that only explains the table) and the
    coach's introduction of it; None when the position does not let the coach show it."""
    options = _options(obs)
    me = obs["players"][obs["seat"]]
    # (gas needed, printed value, suit) of every face-up card that can take the lead
    lows = sorted((n, o.value, s) for s, o in options.items() if (n := _gas_to_win(o)) is not None)
    # The 1 and the 2 have jobs of their own (R9, R10): a first card shows a plain racer.
    plain = [low for low in lows if low[2] not in ("lichen", "salty")]
    racers = plain or lows
    if idea == "face_up" and racers:
        gas, _, suit = max(low for low in racers if low[0] == racers[0][0])
        return (f"up:{suit}", gas), Said(idea)
    if idea == "gas" and obs["best"] is not None and any(low[0] > 0 for low in plain):
        gas, _, suit = min(low for low in plain if low[0] > 0)
        return (f"up:{suit}", gas), Said("gas", {"held": me["gas"], "most": MAX_GAS})
    blocked = [s for s, o in options.items() if not o.face_up]
    if idea == "blocked" and blocked:
        return None, Said("blocked", {"suits": blocked})
    # The trick's face-up cards a Lichen played now would cut to 0 (R9).
    lichen = options.get("lichen")
    cuts = () if lichen is None else lichen.cuts
    cut = [(p["seat"], p["suit"]) for p in obs["trick_plays"] if p["seat"] in cuts]
    needed = None if lichen is None else _gas_to_win(lichen)
    if idea == "lichen" and cut and needed is not None:
        return ("up:lichen", needed), Said("lichen", {"cut": cut})
    # Salty's effect as the engine applies it (R10), whatever the seat holds.
    takes = supply_after_effect(Action.play(Suit.SALTY), 0, obs["middle"], obs["removed"])
    salty = options.get("salty")
    if idea == "salty" and salty is not None and salty.face_up and takes > 0:
        return ("up:salty", _gas_to_win(salty) or 0), Said("salty", {"middle": obs["middle"]})
    if idea == "tune_up" and observed_options(obs).tune_up_shares:
        # Face down: the lowest card that does no job of its own.
        hand = sorted(options, key=lambda s: options[s].value)
        tuned = ([s for s in hand if s not in ("lichen", "salty")] or hand)[0]
        return (f"down:{tuned}", 0), Said(idea)
    if idea == "speed" and me["speed"] > 0:
        return None, Said("speed", {"speed": me["speed"]})
    lap = obs["trick"] == TRICKS_PER_ROUND and bool(lows)
    if lap and (idea == "lap" or (idea == "two_laps" and me["laps"] == LAPS_TO_WIN - 1)):
        # The lap is worth more than any gas kept (R15, R16): the strongest card, all in.
        suit = max(
            (s for s, o in options.items() if o.face_up),
            key=lambda s: options[s].effective_value + options[s].gas_max,
        )
        # Later a lap's winner may win the race: not "dealt again".
        later = idea == "lap" and step_of(obs) != FIRST_LAP_STEP
        return (f"up:{suit}", options[suit].gas_max), _lap_said(obs) if later else Said(idea)
    return None


def _lap_said(obs: Observation) -> Said:
    """What a sixth trick's lap is worth now (R15, R16)."""
    one_lap = [p["seat"] for p in obs["players"] if p["laps"] == LAPS_TO_WIN - 1]
    return Said("lap_can_end", {"seats": one_lap}) if one_lap else Said("lap_again")


def coach(obs: Observation) -> Coaching | None:
    """The coach's words and advised move for the learner's turn (None when it is not
    the learner's turn or the race is over)."""
    if obs["game_over"] or obs["current_seat"] != obs["seat"]:
        return None
    step = step_of(obs)
    coaching = coach_with(obs, LESSON_STEPS.get(step, ()), step)
    if obs["trick"] != TRICKS_PER_ROUND or {"lap", "two_laps"} & set(coaching.ideas):
        return coaching
    # A sixth trick the plan did not reach as planned: the lap still earns a word.
    if applies("two_laps", obs):
        return coach_with(obs, ("two_laps",), step)
    return replace(coaching, lines=(*coaching.lines, _lap_said(obs)))


def coach_with(obs: Observation, ideas: tuple[str, ...], step: int) -> Coaching:
    """The coaching for ``obs`` when the step's plan is ``ideas`` (those that the position
    does not allow are left out)."""
    shown = {idea: show for idea in ideas if (show := _show(idea, obs)) is not None}
    move = next((m for m, _ in shown.values() if m is not None), None)
    if move is None:  # no idea asks for a move: the normal bot's, from the learner's view
        action = make_bot("normal", seed=ADVICE_SEED + step).choose(obs)
        assert action.suit is not None  # no 0/5 card in the lesson's base rules (R21)
        mode = "down" if action.type is ActionType.TUNE_UP else "up"
        move = f"{mode}:{action.suit.value}", action.gas  # a Tune Up carries no gas
    choice, gas = move
    mode, suit = choice.split(":")
    ask = _down(obs, suit) if mode == "down" else _up(obs, suit, gas)
    return Coaching(tuple(said for _, said in shown.values()), ask, choice, gas, tuple(shown))


def finale(obs: Observation) -> Said:
    """The coach's last words once the race is over."""
    winner = obs["winner"]
    if winner is None:
        return Said("finale_over")
    return Said("finale_won") if winner == obs["seat"] else Said("finale_lost", {"seat": winner})


def other_choice_note(obs: Observation, asked: Coaching, played: Action) -> Said | None:
    """What a move other than the advised one did (None when the learner played what the
    coach asked). ``obs`` is the learner's view before the move."""
    if played == asked.action:
        return None
    assert played.suit is not None  # no 0/5 card in the lesson's base rules (R21)
    suit = played.suit.value
    if played.type is ActionType.TUNE_UP:
        return _down(obs, suit, prefix="note_")
    if asked.choice == f"up:{suit}":
        params = _scored(_options(obs)[suit], played.gas) | {"asked": asked.gas}
        return Said("note_gas_more" if played.gas > asked.gas else "note_gas_less", params)
    return _up(obs, suit, played.gas, prefix="note_")
