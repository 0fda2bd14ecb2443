"""The guided first race ("New here? Learn in one race", ``/learn``): its deal and its coach.

The lesson is a real race with the base rules: three seats (R2), the learner in seat 0 and
two easy bots, dealt from a fixed engine seed with a fixed first lead (R5, R6). Bots are
seeded from the engine seed (``app.bots.runner.bot_seed``), so the whole race follows from
the learner's choices: always taking the coach's advice replays the same race every time.
That seed is in this file, so every hand of the lesson is public knowledge: a lesson is a
practice race (``GameSession.practice``), never counted anywhere.

The coach (:func:`coach`) is a pure function of the learner's observation. The learner
plays one card per trick and a round is always six tricks (R5), so the round and trick
number say how many cards the learner has played: the *step*. :data:`LESSON_STEPS` names
the ideas taught at each step; they were found by ``python -m bench.lesson_deal``, which
plays the coached race and checks that each idea first matters in the order of
:data:`IDEAS`. When the learner chose differently earlier and the step's idea does not
arise, the coach still advises a move (the normal bot's) and explains its score, so the
lesson always goes on to the flag. :func:`other_choice_note` kindly says what a move
other than the advised one did.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.races.previews import with_previews
from app.vocabulary import BotLevel
from engine import Action, Game, new_game
from engine.actions import ActionType
from engine.bots import make_bot
from engine.cards import LAPS_TO_WIN, MAX_GAS, SEAT_COLOURS, SUIT_VALUE, TRICKS_PER_ROUND, Suit
from engine.view import CardOption, Observation, PublicPlay

LESSON_PLAYERS = 3
"""Seats at the lesson's table (R2): the learner and two bots."""

LESSON_BOTS: BotLevel = "easy"
"""The bots' level in the lesson."""

LESSON_ENGINE_SEED = 7240
"""The engine seed of the lesson's deals (every round's, R5 and R17); public on purpose."""

ADVICE_SEED = 1
"""Seeds the normal bot whose move the coach advises between ideas (plus the step)."""

LESSON_LEAD = 0
"""Who leads the lesson's first trick (R6): the learner."""

LEARNER = 0
"""The learner's seat."""

IDEAS: tuple[str, ...] = (
    "face_up",
    "gas",
    "blocked",
    "lichen",
    "salty",
    "speed",
    "tune_up",
    "lap",
    "two_laps",
)
"""What the lesson teaches, in the order it introduces them."""

IDEA_RULES: dict[str, tuple[str, ...]] = {
    "face_up": ("R7", "R8"),
    "gas": ("R8", "R14"),
    "blocked": ("R7",),
    "lichen": ("R9",),
    "salty": ("R10",),
    "tune_up": ("R7", "R11", "R12"),
    "speed": ("R15",),
    "lap": ("R15", "R17"),
    "two_laps": ("R16",),
}
"""The rules of ``docs/rules.md`` each idea's words come from."""

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
"""Step (cards the learner has played) -> the ideas the coach introduces then."""

_NAMES = {
    Suit.LICHEN: "Lichen",
    Suit.SALTY: "Salty",
    Suit.CHIPPY: "Chippy",
    Suit.JELLY: "Jelly",
    Suit.BEANS: "Beans",
    Suit.SLIPPY: "Slippy",
    Suit.ZERO: "Zero",
}


def lesson_game() -> Game:
    """The lesson's game as dealt: always the same cards (R5) and the learner leading (R6)."""
    return new_game(players=LESSON_PLAYERS, seed=LESSON_ENGINE_SEED, lead=LESSON_LEAD)


@dataclass(frozen=True, slots=True)
class Coaching:
    """What the coach says at one turn and the move it asks for.

    ``choice`` is the move form's spelling (``up:chippy`` face up, ``down:salty`` a Tune
    Up); ``gas`` the gas it asks for; ``ideas`` the ideas this sentence introduces.
    """

    sentence: str
    choice: str
    gas: int
    ideas: tuple[str, ...] = ()
    ask: str = ""
    """The last part of ``sentence``: the advised move and its score."""

    @property
    def intro(self) -> str:
        """The part of ``sentence`` that introduces the step's ideas (may be empty)."""
        return self.sentence[: len(self.sentence) - len(self.ask)].strip()

    @property
    def action(self) -> Action:
        """The engine's action for the advised move."""
        mode, suit = self.choice.split(":")
        if mode == "down":
            return Action.tune_up(Suit(suit))
        return Action.play(Suit(suit), gas=self.gas)


def step_of(obs: Mapping[str, Any]) -> int:
    """How many cards the learner has played before this turn (one per trick, R5)."""
    return (int(obs["round"]) - 1) * TRICKS_PER_ROUND + int(obs["trick"]) - 1


def name(suit: str | Suit) -> str:
    """A racer's short name ("Chippy")."""
    return _NAMES[Suit(suit)]


def colour(seat: int) -> str:
    """How the table calls a bot's seat ("Orange")."""
    return SEAT_COLOURS[seat].capitalize()


# ------------------------------------------------------------------------- the position


def _card_options(obs: Observation) -> list[CardOption]:
    """The turn's card previews: those the response already carries, else built now (the
    engine's observation is data only)."""
    shown = obs.get("card_options")
    return list(shown) if shown is not None else with_previews(obs)["card_options"]


def _options(obs: Observation) -> dict[str, CardOption]:
    return {o["suit"]: o for o in _card_options(obs)}


def _gas_to_win(option: CardOption) -> int | None:
    """The least gas that puts ``option`` face up strictly above the best card so far
    (a tie goes to the card played earlier, R13); None when even all of it falls short."""
    if not option["can_play_face_up"]:
        return None
    base = option["effective_value"] + option["speed"]
    best = option["best_other"]
    needed = 0 if best is None else max(0, best["final"] + 1 - base)
    return needed if needed <= option["gas_max"] else None


def _face_up_lows(obs: Observation) -> list[tuple[int, int, str]]:
    """(gas needed, printed value, suit) of every face-up card that can take the lead."""
    found = []
    for suit, option in _options(obs).items():
        gas = _gas_to_win(option)
        if gas is not None:
            found.append((gas, SUIT_VALUE[Suit(suit)], suit))
    return sorted(found)


def _struck_cards(obs: Observation) -> list[PublicPlay]:
    """Face-up cards of this trick printed 4 or 5 (what a Lichen would cut, R9)."""
    return [
        p
        for p in obs["trick_plays"]
        if p["type"] == "play" and p["value"] is not None and p["value"] >= 4
    ]


def _score(option: CardOption, gas: int) -> tuple[str, int]:
    value, speed = option["effective_value"], option["speed"]
    total = value + gas + speed
    return f"{value} + {gas} gas + {speed} speed = {total}", total


def _up(suit: str, gas: int) -> str:
    return f"Play {name(suit)} face up" + (f" with {gas} gas" if gas else "")


def _explain_up(obs: Observation, suit: str, gas: int) -> str:
    """A face-up move's score in words and how it stands against the trick (R8, R13)."""
    option = _options(obs)[suit]
    words, total = _score(option, gas)
    best = option["best_other"]
    if best is None:
        standing = "the score to beat"
    elif total > best["final"]:
        standing = f"that beats {colour(best['seat'])}'s {best['final']}"
    else:
        standing = f"{colour(best['seat'])}'s {best['final']} leads; this saves your better cards"
    return f"{_up(suit, gas)}: {words}, {standing}."


def _tune_card(obs: Observation) -> str:
    """The card the coach would lay face down: the lowest that does no job of its own."""
    hand = sorted(set(obs["hand"]), key=lambda s: SUIT_VALUE[Suit(s)])
    plain = [s for s in hand if s not in ("lichen", "salty")]
    return (plain or hand)[0]


def _explain_down(obs: Observation, suit: str) -> str:
    middle = obs["middle"]
    if middle:
        return (
            f"Tune up with {name(suit)}: you share the {middle} gas in the middle when the "
            "trick ends."
        )
    return (
        f"Tune up with {name(suit)}: the middle is empty, but it keeps your better cards for later."
    )


def _advice(obs: Observation, step: int) -> tuple[str, int]:
    """The normal bot's move from the learner's view, as (choice, gas)."""
    action = make_bot("normal", seed=ADVICE_SEED + step).choose(obs)
    if action.suit is None:  # the 0/5 card: never dealt in the lesson's base rules (R21)
        return f"down:{_tune_card(obs)}", 0
    if action.type is ActionType.TUNE_UP:
        return f"down:{action.suit.value}", 0
    return f"up:{action.suit.value}", action.gas


def _explain(obs: Observation, choice: str, gas: int) -> str:
    mode, suit = choice.split(":")
    return _explain_down(obs, suit) if mode == "down" else _explain_up(obs, suit, gas)


# ------------------------------------------------------------------------- the ideas


def applies(idea: str, obs: Observation) -> bool:
    """Whether the position lets the coach show ``idea`` now."""
    options = _options(obs)
    me = obs["players"][obs["seat"]]
    if idea == "face_up":
        return bool(_face_up_lows(obs))
    if idea == "gas":
        lows = _face_up_lows(obs)
        return obs["best"] is not None and any(
            g > 0 and s not in ("lichen", "salty") for g, _, s in lows
        )
    if idea == "blocked":
        return any(not o["can_play_face_up"] for o in options.values())
    if idea == "lichen":
        lichen = options.get("lichen")
        return lichen is not None and bool(_struck_cards(obs)) and _gas_to_win(lichen) is not None
    if idea == "salty":
        salty = options.get("salty")
        return salty is not None and salty["can_play_face_up"] and obs["middle"] > 0
    if idea == "tune_up":
        return obs["middle"] > 0 and me["gas"] < MAX_GAS
    if idea == "speed":
        return me["speed"] > 0
    if idea == "lap":
        return obs["trick"] == TRICKS_PER_ROUND and bool(_face_up_lows(obs))
    if idea == "two_laps":
        return (
            obs["trick"] == TRICKS_PER_ROUND
            and me["laps"] == LAPS_TO_WIN - 1
            and bool(_face_up_lows(obs))
        )
    raise ValueError(f"Unknown idea {idea!r}.")


def _idea_move(idea: str, obs: Observation) -> tuple[str, int] | None:
    """The move that shows ``idea`` (None for an idea that only explains the table)."""
    options = _options(obs)
    if idea == "face_up":
        lows = _face_up_lows(obs)
        # The 1 and the 2 have jobs of their own (R9, R10): a first card shows a plain racer.
        plain = [low for low in lows if low[2] not in ("lichen", "salty")] or lows
        gas = plain[0][0]
        gas, _, suit = max(low for low in plain if low[0] == gas)
        return f"up:{suit}", gas
    if idea in ("lap", "two_laps"):
        # The lap is worth more than any gas kept (R15, R16): the strongest card, all in.
        suit = max(
            (s for s, o in options.items() if o["can_play_face_up"]),
            key=lambda s: options[s]["effective_value"] + options[s]["gas_max"],
        )
        return f"up:{suit}", options[suit]["gas_max"]
    if idea == "gas":
        pushed = [low for low in _face_up_lows(obs) if low[0] > 0]
        plain = [low for low in pushed if low[2] not in ("lichen", "salty")] or pushed
        gas, _, suit = min(plain)
        return f"up:{suit}", gas
    if idea == "lichen":
        return "up:lichen", _gas_to_win(options["lichen"]) or 0
    if idea == "salty":
        return "up:salty", _gas_to_win(options["salty"]) or 0
    if idea == "tune_up":
        return f"down:{_tune_card(obs)}", 0
    return None


def _idea_words(idea: str, obs: Observation) -> str:
    """The coach's introduction of ``idea`` in this position (before the move's own words)."""
    me = obs["players"][obs["seat"]]
    if idea == "face_up":
        return (
            "Welcome! Each trick, everyone plays one card. A face-up card scores its "
            "number + the gas you pour on it + your speed; the highest score takes the trick."
        )
    if idea == "gas":
        return (
            f"Pour gas to go faster: each gas adds 1. You hold {me['gas']} ({MAX_GAS} at "
            "most); gas on cards goes to the middle when the trick ends."
        )
    if idea == "blocked":
        blocked = [name(o["suit"]) for o in _card_options(obs) if not o["can_play_face_up"]]
        return (
            f"Your {' and '.join(blocked)} is blocked: one is already face up, and each "
            "racer races once a trick. It can still go face down as a Tune Up."
        )
    if idea == "lichen":
        cut = ", ".join(
            f"{colour(p['seat'])}'s {name(p['suit']) if p['suit'] else '0/5 card'}"
            for p in _struck_cards(obs)
        )
        return (
            "Lichen, the 1, knocks every face-up 4 and 5 in the trick down to 0; their gas "
            f"and speed still count. Here it cuts {cut}."
        )
    if idea == "salty":
        return (
            f"Salty, the 2, takes 1 gas from the middle (now {obs['middle']}) as it goes "
            "down; you may pour it straight on."
        )
    if idea == "tune_up":
        return (
            "A face-down card is a Tune Up: it can't win, but when the trick ends the "
            "players who tuned up share the middle's gas. What can't be split evenly, or "
            "would pass 5, is removed for good."
        )
    if idea == "speed":
        return (
            f"You won a trick, so your speed is {me['speed']}: every trick won in a round "
            "adds 1 speed, and speed adds to each face-up card until the round ends."
        )
    if idea == "lap":
        return (
            "Sixth and last trick of the round: its winner earns a lap instead of speed. "
            "Then all cards are dealt again and speeds go back to 0; gas stays put."
        )
    if idea == "two_laps":
        return "Two laps win the race. You have one, so this sixth trick can win it."
    raise ValueError(f"Unknown idea {idea!r}.")


def coach(obs: Observation) -> Coaching | None:
    """The coach's sentence and advised move for the learner's turn (None when it is not
    the learner's turn or the race is over)."""
    if obs["game_over"] or obs["current_seat"] != obs["seat"]:
        return None
    step = step_of(obs)
    return coach_with(obs, LESSON_STEPS.get(step, ()), step)


def coach_with(obs: Observation, ideas: tuple[str, ...], step: int) -> Coaching:
    """The coaching for ``obs`` when the step's plan is ``ideas`` (those that the position
    does not allow are left out)."""
    shown = tuple(idea for idea in ideas if applies(idea, obs))
    moves = (_idea_move(idea, obs) for idea in shown)
    move = next((m for m in moves if m is not None), None)
    choice, gas = move if move is not None else _advice(obs, step)
    ask = _explain(obs, choice, gas)
    words = [_idea_words(idea, obs) for idea in shown]
    return Coaching(" ".join([*words, ask]), choice, gas, shown, ask)


def finale(obs: Observation) -> str:
    """The coach's last words once the race is over."""
    winner = obs["winner"]
    result = (
        "You won the race with two laps!"
        if winner == obs["seat"]
        else f"{colour(winner)} took two laps first and won the race."
        if winner is not None
        else "The race is over."
    )
    return (
        f"{result} That is the whole game: face-up cards race on number + gas + speed, "
        "Tune Ups share the middle, the sixth trick earns a lap, and two laps win. "
        "Ready for a real race?"
    )


def other_choice_note(obs: Observation, asked: Coaching, played: Action) -> str | None:
    """What a move other than the advised one does, said kindly (None when the learner
    played what the coach asked). ``obs`` is the learner's view before the move."""
    if played == asked.action:
        return None
    suit = "" if played.suit is None else played.suit.value
    if played.type is ActionType.TUNE_UP:
        middle = obs["middle"]
        what = (
            f"a Tune Up scores nothing, but you share the {middle} gas in the middle when "
            "the trick ends"
            if middle
            else "a Tune Up scores nothing and keeps your stronger cards for later"
        )
        return f"You tuned up with {name(suit)} instead: that's fine, {what}. On we go!"
    option = _options(obs).get(suit)
    if option is None:  # a move the lesson's base rules never offer
        return "You chose another move: on we go!"
    words, _ = _score(option, played.gas)
    if asked.choice == f"up:{suit}":
        more = played.gas > asked.gas
        why = (
            "the extra gas ends up in the middle, so it is worth it only when it wins"
            if more
            else "you keep gas for a later trick"
        )
        return (
            f"You poured {played.gas} gas instead of {asked.gas}: {name(suit)} scored "
            f"{words}, and {why}. On we go!"
        )
    best = option["best_other"]
    standing = "" if best is None else f" against {colour(best['seat'])}'s {best['final']} so far"
    return (
        f"You played {name(suit)} face up instead: that works too. It scored {words}"
        f"{standing}. On we go!"
    )
