"""The page's words: every public event becomes a sentence, the log groups them by trick."""

from __future__ import annotations

import random

import pytest

from app import presenters
from engine import EventKind, Variants, new_game


def _events(seed: int, players: int = 4) -> list[dict[str, object]]:
    game = new_game(
        players=players, seed=seed, variants=Variants(zero_suit="chippy", zero_five=True)
    )
    rng = random.Random(seed)
    events: list[dict[str, object]] = [
        {"kind": "round_dealt", "seat": None, "round": 1, "lead": game.lead, "hand_size": 6}
    ]
    while not game.is_over:
        events.extend(e.to_dict() for e in game.apply(rng.choice(game.legal_actions())))
    return events


def test_every_event_kind_has_its_own_sentence() -> None:
    seen: dict[str, str] = {}
    for seed in range(12):
        for event in _events(seed):
            sentence = presenters.narrate(event)
            assert sentence and sentence[0].isupper() and sentence[-1] in ".!", sentence
            assert "None" not in sentence, (event, sentence)
            seen.setdefault(str(event["kind"]), sentence)
    fallback = presenters.narrate({"kind": "mystery"})
    missing = {kind.value for kind in EventKind} - set(seen)
    assert missing <= {"gas_taken", "zero_effect", "card_discarded", "zero_five_played"}
    assert all(sentence != fallback for sentence in seen.values())


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (
            {
                "kind": "card_played",
                "seat": 2,
                "suit": "slippy",
                "value": 5,
                "gas": 2,
                "speed": 1,
                "final": 8,
            },
            "Yellow plays Slippy (5) with 2 gas and speed 1: 8.",
        ),
        (
            {
                "kind": "card_played",
                "seat": 0,
                "suit": "salty",
                "value": 2,
                "gas": 0,
                "speed": 0,
                "final": 2,
            },
            "You play Salty (2) with 0 gas and speed 0: 2.",
        ),
        ({"kind": "tuned_up", "seat": 3}, "Blue tunes up: a card goes face down."),
        ({"kind": "trick_won", "seat": 1, "trick": 3, "final": 9}, "Orange wins trick 3 with 9."),
        (
            {
                "kind": "tune_up_share",
                "seat": None,
                "seats": [0, 2],
                "each": 2,
                "gained": [2, 1],
                "removed": 2,
                "middle_before": 5,
            },
            "Tune Up payout: You and Yellow split the 5 gas in the middle, 2 each "
            "(Yellow only had room for 1); 2 gas leaves the game.",
        ),
        ({"kind": "lap_gained", "seat": 4, "laps": 1}, "Purple completes a lap (1 of 2)!"),
        ({"kind": "game_won", "seat": 0, "laps": 2}, "You win the race!"),
        (
            {"kind": "trick_all_tuned_up", "seat": None, "trick": 6},
            "Everyone tuned up: nobody wins trick 6.",
        ),
    ],
)
def test_sentences(event: dict[str, object], expected: str) -> None:
    assert presenters.narrate(event) == expected


def test_log_groups_rounds_and_tricks_newest_first() -> None:
    events = _events(4, players=3)
    rounds = presenters.log_rounds(events)
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
    start = presenters.since_my_last_play(events)
    assert events[start]["seat"] == 0 and events[start]["kind"] in presenters.PLAY_KINDS
    later = events[start + 1 :]
    assert not any(e["seat"] == 0 and e["kind"] in presenters.PLAY_KINDS for e in later)
