"""Every coach sentence is true of the position it is shown in, whatever the learner
played before: along the coached lesson, each legal move the learner could make instead
(every card, face up or down, with no gas, the coach's gas or all it may pour) is played,
the note on it is checked against the position it was played in, and the lesson is then
followed to its flag, every step's words checked against that step's position.

The race runs in-process as the server runs it (the same easy bots, seeded per decision);
the words are the web layer's (``app.http.web.learn.say``), so each code of
``app.races.lesson`` is checked both as data and as the sentence the learner reads.
"""

from __future__ import annotations

import copy
import random
import re

from app.bots.runner import bot_seed, choose_bot_action
from app.http import i18n
from app.http.previews import with_previews
from app.http.web.labels import SUITS
from app.http.web.learn import COACH_SAYS, say
from app.races import lesson
from app.races.lesson import Coaching, Said
from engine import Action, Game, new_game
from engine.cards import LAPS_TO_WIN, MAX_GAS, SUIT_VALUE, TRICKS_PER_ROUND, Suit
from engine.shapes import Observation

MAX_STEPS = 60
NAMES = {SUITS[s.value].short: s.value for s in Suit if s is not Suit.ZERO}


def _bots(game: Game, decisions: list[int]) -> None:
    """The bots play until the learner is to move or the race is over."""
    while not game.is_over and game.current_seat != lesson.LEARNER:
        seat = game.current_seat
        assert seat is not None
        seed = bot_seed(lesson.LESSON_ENGINE_SEED, seat, decisions[0])
        decisions[0] += 1
        game.apply(choose_bot_action(lesson.LESSON_BOTS, game, seat, seed), seat=seat)


def _better_stays(obs: Observation, suit: str) -> bool:
    rest = list(obs["hand"])
    rest.remove(suit)
    return any(SUIT_VALUE[Suit(s)] > SUIT_VALUE[Suit(suit)] for s in rest)


def _shares(obs: Observation) -> bool:
    return obs["middle"] > 0 and obs["players"][lesson.LEARNER]["gas"] < MAX_GAS


def _names_in_view(obs: Observation, text: str) -> None:
    """Every racer the sentence names is in the hand or face up in the trick."""
    seen = set(obs["hand"]) | {p["suit"] for p in obs["trick_plays"] if p["suit"]}
    named = {NAMES[w] for w in re.findall(r"\b[A-Z][a-z]+\b", text) if w in NAMES}
    assert named <= seen, (text, obs["hand"])
    if "better cards" in text:
        assert any(_better_stays(obs, s) for s in named & set(obs["hand"])), (text, obs["hand"])


def _move_true(obs: Observation, said: Said, suit: str, gas: int) -> None:
    """The codes of a move (the coach's or the learner's) fit the position before it."""
    p = said.params
    assert p["suit"] == suit and suit in obs["hand"], (said, obs["hand"])
    code = said.code.removeprefix("note_")
    if code.startswith("down"):
        kind = "share" if _shares(obs) else "keeps" if _better_stays(obs, suit) else "plain"
        assert code == f"down_{kind}", (said, obs["middle"], obs["hand"])
        if kind == "share":
            assert p["middle"] == obs["middle"]
        return
    option = next(o for o in obs["card_options"] if o["suit"] == suit)
    assert (p["value"], p["speed"], p["gas"]) == (option["effective_value"], option["speed"], gas)
    assert p["total"] == p["value"] + p["gas"] + p["speed"]
    best = option["best_other"]
    if code.startswith("gas_"):
        return
    if best is None:
        assert code == "up_first", said
        return
    assert (p["seat"], p["best"]) == (best["seat"], best["final"])
    if p["total"] > best["final"]:
        assert code == "up_beats", said
    else:
        kind = "up_behind_keeps" if _better_stays(obs, suit) else "up_behind"
        assert code == kind or said.code == "note_up_behind", said


def _idea_true(obs: Observation, said: Said, coaching: Coaching) -> None:
    me = obs["players"][lesson.LEARNER]
    p, code = said.params, said.code
    one_lap = [q["seat"] for q in obs["players"] if q["laps"] == LAPS_TO_WIN - 1]
    sixth = obs["trick"] == TRICKS_PER_ROUND
    if code == "face_up":
        assert lesson.step_of(obs) == 0
    elif code == "gas":
        assert p["held"] == me["gas"]
    elif code == "blocked":
        blocked = {o["suit"] for o in obs["card_options"] if not o["can_play_face_up"]}
        assert p["suits"] and set(p["suits"]) <= blocked
    elif code == "lichen":
        assert coaching.choice == "up:lichen"
        plays = {(q["seat"], q["suit"]) for q in obs["trick_plays"] if (q["value"] or 0) >= 4}
        assert p["cut"] and set(p["cut"]) <= plays
    elif code == "salty":
        assert coaching.choice == "up:salty" and p["middle"] == obs["middle"] > 0
    elif code == "tune_up":
        assert _shares(obs)
    elif code == "speed":
        assert p["speed"] == me["speed"] > 0
    elif code in ("lap", "lap_again"):  # "dealt again": nobody can win the race with it
        assert sixth and not one_lap
    elif code == "lap_can_end":
        assert sixth and p["seats"] == one_lap
    elif code == "two_laps":
        assert sixth and me["laps"] == LAPS_TO_WIN - 1
    else:
        raise AssertionError(f"unknown idea code {code!r}")


def _coach_true(game: Game, obs: Observation) -> Coaching:
    coaching = lesson.coach(obs)
    assert coaching is not None
    assert coaching.action in game.legal_actions(), coaching
    _, suit = coaching.choice.split(":")
    for said in coaching.lines:
        _idea_true(obs, said, coaching)
    _move_true(obs, coaching.ask, suit, coaching.gas)
    if obs["trick"] == TRICKS_PER_ROUND:  # the sixth trick always says what the lap is worth
        assert {s.code for s in coaching.lines} & {"lap", "lap_again", "lap_can_end", "two_laps"}
    for said in (*coaching.lines, coaching.ask, coaching.pick_first):
        _names_in_view(obs, say(said))
    return coaching


def _learner_view(game: Game) -> Observation:
    return with_previews(game.observation(lesson.LEARNER))


def _follow(game: Game, decisions: list[int]) -> int:
    """Follow the coach to the flag, checking every step; the steps taken."""
    for step in range(MAX_STEPS):
        _bots(game, decisions)
        if game.is_over:
            said = say(lesson.finale(game.observation(lesson.LEARNER)))
            assert said.endswith("Ready for a real race?")
            return step
        obs = _learner_view(game)
        game.apply(_coach_true(game, obs).action, seat=lesson.LEARNER)
    raise AssertionError(f"the lesson did not end in {MAX_STEPS} steps")


def _alternatives(game: Game, coaching: Coaching) -> list[Action]:
    """Every legal move of the learner other than the coach's: each card face down, and
    face up with each amount of gas it may take."""
    return [a for a in game.legal_actions() if a != coaching.action and a.suit is not None]


def test_every_deviation_at_every_step_gets_true_words_to_the_end() -> None:
    game = lesson.lesson_game()
    decisions = [0]
    branches = 0
    rounds = set()
    for _ in range(MAX_STEPS):
        _bots(game, decisions)
        if game.is_over:
            break
        obs = _learner_view(game)
        coaching = _coach_true(game, obs)
        for other in _alternatives(game, coaching):
            branch, counter = copy.deepcopy(game), [decisions[0]]
            branch.apply(other, seat=lesson.LEARNER)
            note = lesson.other_choice_note(obs, coaching, other)
            assert note is not None and note.code in COACH_SAYS
            assert other.suit is not None
            if note.code.startswith("note_gas"):
                assert note.params["asked"] == coaching.gas and other.gas != coaching.gas
            _move_true(obs, note, other.suit.value, other.gas)
            _names_in_view(obs, say(note))
            _follow(branch, counter)
            rounds.add(branch.core.round)
            branches += 1
        assert lesson.other_choice_note(obs, coaching, coaching.action) is None
        game.apply(coaching.action, seat=lesson.LEARNER)
    assert game.is_over and game.winner == lesson.LEARNER
    print(f"{branches} deviations played to the flag; races ended in rounds {sorted(rounds)}")
    assert branches > 150 and max(rounds) > 2


def test_random_lessons_with_many_other_choices_get_true_words_to_the_end() -> None:
    """Lessons where the learner often plays something else, so they run three rounds and
    more: every step's words, and every note, fit the position."""
    rounds = set()
    for seed in range(40):
        rng = random.Random(seed)
        game = lesson.lesson_game()
        decisions = [0]
        for _ in range(MAX_STEPS):
            _bots(game, decisions)
            if game.is_over:
                break
            obs = _learner_view(game)
            coaching = _coach_true(game, obs)
            move = coaching.action
            if rng.random() < 0.6:
                move = rng.choice(_alternatives(game, coaching) or [move])
            note = lesson.other_choice_note(obs, coaching, move)
            if note is not None:
                assert move.suit is not None
                _move_true(obs, note, move.suit.value, move.gas)
                _names_in_view(obs, say(note))
            game.apply(move, seat=lesson.LEARNER)
        assert game.is_over
        rounds.add(game.core.round)
    print(f"random lessons ended in rounds {sorted(rounds)}")
    assert max(rounds) >= 3


def test_a_tune_up_with_the_last_card_keeps_no_better_cards_for_later() -> None:
    """The case found in Chromium: one card left, and the coach spoke of better cards."""
    for middle, gas in ((0, 3), (2, 5)):
        game = new_game(
            players=3,
            seed=1,
            hands=[["chippy"], ["jelly"], ["beans"]],
            lead=0,
            middle=middle,
            gas=[gas, 5, 5],
        )
        obs = _learner_view(game)
        coaching = lesson.coach_with(obs, (), TRICKS_PER_ROUND - 1)
        note = lesson.other_choice_note(obs, coaching, Action.tune_up(Suit.CHIPPY))
        assert note is not None and note.code == "note_down_plain"
        assert "later" not in say(note)


def _catalogued(sentence: str) -> bool:
    """Whether a pseudo-locale sentence is the catalog's throughout: once every bracketed
    message (innermost first) and the game's card names are taken out, no word is left."""
    while re.search(r"\[[^\[\]]*\]", sentence):
        sentence = re.sub(r"\[[^\[\]]*\]", "", sentence)
    return not re.search(r"[A-Za-z]", re.sub(r"\b(?:" + "|".join(NAMES) + r")\b", "", sentence))


def test_every_coach_sentence_comes_whole_from_the_catalog() -> None:
    """Along the lesson, every line, ask, note on another move and the last words are the
    catalog's (the pseudo-locale brackets them), with nothing glued on in English."""
    game = lesson.lesson_game()
    decisions = [0]
    said: list[Said] = []
    for _ in range(MAX_STEPS):
        _bots(game, decisions)
        if game.is_over:
            break
        obs = _learner_view(game)
        coaching = lesson.coach(obs)
        assert coaching is not None
        said.extend((*coaching.lines, coaching.ask, coaching.pick_first))
        for other in _alternatives(game, coaching):
            note = lesson.other_choice_note(obs, coaching, other)
            assert note is not None
            said.append(note)
        game.apply(coaching.action, seat=lesson.LEARNER)
    said.append(lesson.finale(game.observation(lesson.LEARNER)))
    before = i18n.current().code
    i18n.use("en-XA")
    try:
        sentences = [say(s) for s in said]
    finally:
        i18n.use(before)
    wrong = [s for s in sentences if not s.startswith("[") or not _catalogued(s)]
    assert wrong == [], wrong[:5]
    assert len({s.code for s in said}) > 15
