"""The page's words: every public event becomes a sentence, the log groups them by trick."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from app.http import i18n
from app.http.web.narration import NARRATORS, narrate
from app.http.web.timeline import PLAY_KINDS, log_rounds, round_summary, since_my_last_play
from engine import EventKind, Variants, new_game


def _events(seed: int, players: int = 4) -> list[dict[str, Any]]:
    game = new_game(
        players=players, seed=seed, variants=Variants(zero_suit="chippy", zero_five=True)
    )
    rng = random.Random(seed)
    events: list[dict[str, Any]] = [
        {"kind": "round_dealt", "seat": None, "round": 1, "lead": game.core.lead, "hand_size": 6}
    ]
    while not game.is_over:
        events.extend(e.to_dict() for e in game.apply(rng.choice(game.legal_actions())))
    return events


def test_every_event_kind_has_a_narrator() -> None:
    assert set(NARRATORS) == set(EventKind)


# One concrete event per kind, told to seat 0, and the exact sentence it must give.
SENTENCES: dict[EventKind, list[tuple[dict[str, Any], str]]] = {
    EventKind.ROUND_DEALT: [
        (
            {"kind": "round_dealt", "seat": None, "round": 2, "lead": 1, "hand_size": 6},
            "Round 2: everyone is dealt up to 6 cards. Orange leads the first trick.",
        ),
        (
            {"kind": "round_dealt", "seat": None, "round": 1, "lead": 0, "hand_size": 7},
            "Round 1: everyone is dealt up to 7 cards. You lead the first trick.",
        ),
    ],
    EventKind.CARD_PLAYED: [
        (
            {"kind": "card_played", "seat": 2, "suit": "slippy", "value": 5, "gas": 2}
            | {"speed": 1, "final": 8},
            "Yellow plays Slippy (5) with 2 gas and speed 1: 8.",
        ),
        (
            {"kind": "card_played", "seat": 0, "suit": "salty", "value": 2, "gas": 0}
            | {"speed": 0, "final": 2},
            "You play Salty (2) with 0 gas and speed 0: 2.",
        ),
        (
            {"kind": "card_played", "seat": 1, "suit": "jelly", "value": 4, "gas": 0}
            | {"speed": 1, "final": 1},
            "Orange plays Jelly (4, counted 0 because a Lichen is face up in this trick) with "
            "0 gas and speed 1: 1.",
        ),
    ],
    EventKind.TUNED_UP: [
        ({"kind": "tuned_up", "seat": 3}, "Blue tunes up: a card goes face down."),
        ({"kind": "tuned_up", "seat": 0}, "You tune up: a card goes face down."),
    ],
    EventKind.ZERO_FIVE_PLAYED: [
        (
            {"kind": "zero_five_played", "seat": 1, "value": 0, "gas": 1, "speed": 2}
            | {"final": 3, "gained": 2},
            "Orange plays the 0/5 card as 0, winning back 2 gas, with 1 gas and speed 2: 3.",
        ),
    ],
    EventKind.CARD_DISCARDED: [
        ({"kind": "card_discarded", "seat": 0}, "You discard a card face down."),
        ({"kind": "card_discarded", "seat": 4}, "Purple discards a card face down."),
    ],
    EventKind.GAS_TAKEN: [
        (
            {"kind": "gas_taken", "seat": 2, "amount": 1, "removed": 0},
            "Yellow grabs 1 gas from the middle.",
        ),
        (
            {"kind": "gas_taken", "seat": 0, "amount": 0, "removed": 1},
            "Your tank is full, so the 1 gas Salty takes from the middle leaves the game.",
        ),
        (
            {"kind": "gas_taken", "seat": 3, "amount": 0, "removed": 1},
            "Blue's tank is full, so the 1 gas Salty takes from the middle leaves the game.",
        ),
    ],
    EventKind.ZERO_EFFECT: [
        (
            {"kind": "zero_effect", "seat": 0, "choice": "speed", "gained": 1, "removed": 0},
            "You take +1 speed for the rest of the round.",
        ),
        (
            {"kind": "zero_effect", "seat": 1, "choice": "gas", "gained": 1, "removed": 0},
            "Orange wins back 1 gas from the removed pile.",
        ),
        (
            {"kind": "zero_effect", "seat": 1, "choice": "gas", "gained": 0, "removed": 1},
            "Orange asked for removed gas, but their tank is full: it stays removed.",
        ),
    ],
    EventKind.TUNE_UP_SHARE: [
        (
            {"kind": "tune_up_share", "seat": None, "seats": [0, 2], "each": 2}
            | {"gained": [2, 1], "removed": 2, "middle_before": 5},
            "Tune Up payout: You and Yellow split the 5 gas in the middle, 2 each "
            "(Yellow only had room for 1); the odd 1 gas cannot be split two ways and 1 gas "
            "does not fit a full tank, so it leaves the game.",
        ),
        (
            {"kind": "tune_up_share", "seat": None, "seats": [1, 2], "each": 0}
            | {"gained": [0, 0], "removed": 1, "middle_before": 1},
            "Tune Up payout: nobody gets the 1 gas in the middle: split two ways between "
            "Orange and Yellow it rounds down to 0, so it leaves the game.",
        ),
        (
            {"kind": "tune_up_share", "seat": None, "seats": [0, 1, 3], "each": 2}
            | {"gained": [2, 2, 2], "removed": 1, "middle_before": 7},
            "Tune Up payout: You, Orange and Blue split the 7 gas in the middle, 2 each; "
            "the odd 1 gas cannot be split three ways, so it leaves the game.",
        ),
        (
            {"kind": "tune_up_share", "seat": None, "seats": [3], "each": 4}
            | {"gained": [4], "removed": 0, "middle_before": 4},
            "Tune Up payout: Blue takes the 4 gas in the middle.",
        ),
        (
            {"kind": "tune_up_share", "seat": None, "seats": [1], "each": 3}
            | {"gained": [0], "removed": 3, "middle_before": 3},
            "Tune Up payout: Orange's tank is full, so the 3 gas in the middle leaves the game.",
        ),
        (
            {"kind": "tune_up_share", "seat": None, "seats": [0], "each": 3}
            | {"gained": [2], "removed": 1, "middle_before": 3},
            "Tune Up payout: You fill up with 2 of the 3 gas in the middle; 1 gas leaves the game.",
        ),
    ],
    EventKind.TRICK_WON: [
        (
            {"kind": "trick_won", "seat": 1, "trick": 3, "final": 9},
            "Orange wins trick 3 with 9.",
        ),
    ],
    EventKind.TRICK_ALL_TUNED_UP: [
        (
            {"kind": "trick_all_tuned_up", "seat": None, "trick": 6},
            "Everyone tuned up: nobody wins trick 6.",
        ),
    ],
    EventKind.GAS_TO_MIDDLE: [
        (
            {"kind": "gas_to_middle", "seat": None, "amount": 3, "middle": 4},
            "The 3 gas on the cards slides into the middle (now 4).",
        ),
        (
            {"kind": "gas_to_middle", "seat": None, "amount": 0, "middle": 1},
            "No gas was spent; the middle holds 1.",
        ),
    ],
    EventKind.SPEED_GAINED: [
        ({"kind": "speed_gained", "seat": 0, "speed": 2}, "You move up to speed 2."),
    ],
    EventKind.LAP_GAINED: [
        ({"kind": "lap_gained", "seat": 4, "laps": 1}, "Purple completes a lap (1 of 2)!"),
    ],
    EventKind.GAME_WON: [
        ({"kind": "game_won", "seat": 0, "laps": 2}, "You win the race!"),
        ({"kind": "game_won", "seat": 2, "laps": 2}, "Yellow wins the race!"),
    ],
}


@pytest.mark.parametrize("kind", list(EventKind), ids=str)
def test_each_event_kind_has_its_sentence(kind: EventKind) -> None:
    cases = SENTENCES[kind]
    assert cases, kind
    for event, expected in cases:
        assert event["kind"] == kind.value
        assert narrate(event) == expected


_BRACKETED = re.compile(r"\[[^\[\]]*\]")
_GAME_NAMES = re.compile(r"\b(Lichen|Salty|Chippy|Jelly|Beans|Slippy|Zero)\b")


def _outside_the_catalog(sentence: str) -> str:
    """What is left of a pseudo-locale sentence once every bracketed message (innermost
    first) and the card names, which are the game's, are taken out."""
    while _BRACKETED.search(sentence):
        sentence = _BRACKETED.sub("", sentence)
    return _GAME_NAMES.sub("", sentence)


@pytest.mark.parametrize("kind", list(EventKind), ids=str)
def test_each_sentence_comes_whole_from_the_catalog(kind: EventKind) -> None:
    """Told to the reader and to another seat alike, a sentence is the catalog's (the
    pseudo-locale brackets it): no English word is glued on outside a message."""
    before = i18n.current().code
    i18n.use("en-XA")
    try:
        for event, _english in SENTENCES[kind]:
            for me in range(4):
                sentence = narrate(event, me)
                assert sentence.startswith("["), sentence
                left = _outside_the_catalog(sentence)
                assert not re.search(r"[A-Za-z]", left), (sentence, left)
    finally:
        i18n.use(before)


def test_sentences_from_real_games_read_well() -> None:
    for seed in range(12):
        for event in _events(seed):
            sentence = narrate(event)
            assert sentence and sentence[0].isupper() and sentence[-1] in ".!", sentence
            assert "None" not in sentence, (event, sentence)


def test_sentences_follow_the_viewer() -> None:
    event = {"kind": "trick_won", "seat": 2, "trick": 1, "final": 6}
    assert narrate(event, me=0) == "Yellow wins trick 1 with 6."
    assert narrate(event, me=2) == "You win trick 1 with 6."


def test_log_groups_rounds_and_tricks_newest_first() -> None:
    events = _events(4, players=3)
    rounds = log_rounds(events)
    deals = [e for e in events if e["kind"] == "round_dealt"]
    assert [r.round for r in rounds] == [d["round"] for d in reversed(deals)]
    for rnd in rounds:
        numbers = [t.trick for t in rnd.tricks]
        assert numbers == sorted(numbers, reverse=True)
        assert all(t.complete for t in rnd.tricks[1:])
    finished = sum(1 for e in events if e["kind"] in ("trick_won", "trick_all_tuned_up"))
    assert sum(len(r.tricks) for r in rounds) == finished


def test_recent_starts_at_my_last_card() -> None:
    events = _events(5)
    start = since_my_last_play(events)
    assert events[start]["seat"] == 0 and events[start]["kind"] in PLAY_KINDS
    later = events[start + 1 :]
    assert not any(e["seat"] == 0 and e["kind"] in PLAY_KINDS for e in later)


def test_round_summary_names_the_lap_and_the_next_lead() -> None:
    recent = [
        {"kind": "lap_gained", "seat": 1, "laps": 1},
        {"kind": "round_dealt", "seat": None, "round": 3, "lead": 1, "hand_size": 6},
    ]
    summary = round_summary(recent, 0, game_over=False)
    assert summary is not None
    assert (summary.round, summary.headline, summary.next_lead) == (
        2,
        "Orange completes a lap (1 of 2)!",
        "Orange leads round 3.",
    )
    assert round_summary(recent, 0, game_over=True) is None
