"""The worked examples E1–E10 of docs/rules.md, replayed through the engine.

Each test sets up the example with an explicit deal, plays it with ``apply`` and checks
the exact numbers the example gives (finals, events, gas, middle, removed, speed, laps,
lead).
"""

from __future__ import annotations

import pytest
from engine_kit import (
    down,
    finals,
    first_face_up,
    gas_of,
    kinds,
    laps_of,
    last_finals,
    of_kind,
    speed_of,
    tune_up_all,
    up,
)
from game_kit import deal


def test_e1_salty_three_gas_speed_one_is_six() -> None:
    """E1 (R8): salty, 3 gas, speed 1 → 6."""
    game = deal(
        3,
        [["salty", "chippy"], ["jelly", "chippy"], ["beans", "chippy"]],
        trick=5,
        gas=[3, 0, 0],
        speed=[1, 0, 0],
        middle=0,
    )
    events = up(game, "salty", gas=3)
    assert of_kind(events, "card_played") == [
        {
            "kind": "card_played",
            "seat": 0,
            "suit": "salty",
            "value": 2,
            "gas": 3,
            "speed": 1,
            "final": 6,
        }
    ]
    assert finals(game, 1) == [6]
    assert gas_of(game) == [0, 0, 0]


def test_e2_slippy_eight_beats_chippy_seven_and_salty_five() -> None:
    """E2 (R13): salty 2+3+0 = 5, chippy 3+2+2 = 7, slippy 5+2+1 = 8 → the slippy wins."""
    game = deal(
        3,
        [["salty", "lichen"], ["chippy", "lichen"], ["slippy", "lichen"]],
        trick=5,
        gas=[3, 2, 2],
        speed=[0, 2, 1],
        middle=0,
    )
    up(game, "salty", gas=3)
    up(game, "chippy", gas=2)
    assert finals(game, 2) == [5, 7]
    events = up(game, "slippy", gas=2)
    assert last_finals(game) == [5, 7, 8]
    assert of_kind(events, "trick_won") == [
        {"kind": "trick_won", "seat": 2, "trick": 5, "final": 8}
    ]
    assert speed_of(game) == [0, 2, 2]


def test_e3_lichen_turns_the_slippy_to_zero_and_wins_with_five() -> None:
    """E3 (R9): slippy 5+2+0 = 7, salty 2+0+2 = 4, lichen 1+3+1 = 5; the slippy falls to
    0+2+0 = 2 and the lichen wins with 5."""
    game = deal(
        3,
        [["slippy", "chippy"], ["salty", "chippy"], ["lichen", "chippy"]],
        trick=5,
        gas=[2, 0, 3],
        speed=[0, 2, 1],
        middle=0,
    )
    up(game, "slippy", gas=2)
    up(game, "salty")
    assert finals(game, 0) == [7, 4]
    events = up(game, "lichen", gas=3)
    plays = game.observation(1)["last_trick"]["plays"]
    assert [p["final"] for p in plays] == [2, 4, 5]
    assert [p["effective_value"] for p in plays] == [0, 2, 1]
    assert of_kind(events, "trick_won") == [
        {"kind": "trick_won", "seat": 2, "trick": 5, "final": 5}
    ]


def test_e4_salty_takes_one_from_a_middle_of_five_and_spends_it() -> None:
    """E4 (R10): middle 5, 0 gas, speed 0: salty takes 1 and spends it → 3; middle 4."""
    game = deal(
        3,
        [["salty", "chippy"], ["jelly", "chippy"], ["beans", "chippy"]],
        trick=5,
        gas=[0, 5, 5],
        speed=[0, 0, 0],
        middle=5,
    )
    events = up(game, "salty", gas=1)
    assert kinds(events) == ["card_played", "gas_taken"]
    assert of_kind(events, "card_played")[0]["final"] == 3
    assert finals(game, 1) == [3]
    view = game.observation(1)
    assert (view["middle"], view["players"][0]["gas"], view["removed"]) == (4, 0, 0)


def test_e5_two_tuners_share_a_middle_of_five() -> None:
    """E5 (R11): two Tune Ups, middle 5 → each gains 2, 1 is removed."""
    game = deal(
        3,
        [["chippy", "salty"], ["jelly", "salty"], ["beans", "salty"]],
        trick=5,
        gas=[3, 1, 2],
        middle=5,
        removed=4,
    )
    up(game, "chippy")
    down(game, "jelly")
    events = down(game, "beans")
    share = of_kind(events, "tune_up_share")[0]
    assert (share["seats"], share["each"], share["removed"]) == ([1, 2], 2, 1)
    assert gas_of(game) == [3, 3, 4]
    view = game.observation(0)
    assert (view["middle"], view["removed"]) == (0, 5)


def test_e6_share_capped_at_five() -> None:
    """E6 (R11 cap): middle 5, tuners holding 4 and 2 both "gain" 2: 5 (1 more removed)
    and 4; removed grows by 2 in all."""
    game = deal(
        3,
        [["chippy", "salty"], ["jelly", "salty"], ["beans", "salty"]],
        trick=5,
        gas=[0, 4, 2],
        middle=5,
        removed=4,
    )
    up(game, "chippy")
    down(game, "jelly")
    events = down(game, "beans")
    share = of_kind(events, "tune_up_share")[0]
    assert share["each"] == 2 and share["removed"] == 2
    assert gas_of(game) == [0, 5, 4]
    view = game.observation(2)
    assert (view["middle"], view["removed"]) == (0, 6)


@pytest.mark.parametrize("four", ["jelly", "beans"])
def test_e7_whole_trick_four_players(four: str) -> None:
    """E7: A 4+4+0 = 8; B salty takes 1 (middle 4 → 3), 2+0+1 = 3; C tunes up; D
    5+2+2 = 9 wins. C shares the 3 alone: 3 → 5, 1 removed. The 6 spent gas make the
    middle 6; D's speed becomes 3."""
    game = deal(
        4,
        [[four, "lichen"], ["salty", "lichen"], ["chippy", "lichen"], ["slippy", "lichen"]],
        trick=5,
        gas=[4, 0, 3, 2],
        speed=[0, 1, 0, 2],
        middle=4,
    )
    assert game.observation(0)["removed"] == 7
    up(game, four, gas=4)
    assert finals(game) == [8]
    events = up(game, "salty")
    assert of_kind(events, "gas_taken")[0]["amount"] == 1
    assert game.observation(0)["middle"] == 3
    assert finals(game) == [8, 3]
    down(game, "chippy")
    events = up(game, "slippy", gas=2)
    assert last_finals(game) == [8, 3, None, 9]
    assert kinds(events) == [
        "card_played",
        "tune_up_share",
        "trick_won",
        "gas_to_middle",
        "speed_gained",
    ]
    share = of_kind(events, "tune_up_share")[0]
    assert (share["seats"], share["each"], share["removed"]) == ([2], 3, 1)
    assert of_kind(events, "gas_to_middle")[0]["amount"] == 6
    assert gas_of(game) == [0, 1, 5, 0]
    view = game.observation(1)
    assert (view["middle"], view["removed"]) == (6, 8)
    assert speed_of(game) == [0, 1, 0, 3]
    assert (game.core.lead, game.current_seat) == (3, 3)


def test_e8_all_tune_up_nobody_wins() -> None:
    """E8 (R13): all four tune up: no winner, speeds unchanged, same lead."""
    game = deal(
        4,
        [["lichen", "salty", "chippy", "jelly"]] * 4,
        trick=3,
        speed=[1, 0, 2, 0],
        lead=2,
    )
    events = tune_up_all(game)
    assert kinds(events) == ["tuned_up"] * 4 + ["trick_all_tuned_up", "gas_to_middle"]
    assert speed_of(game) == [1, 0, 2, 0]
    assert (game.core.lead, game.current_seat, game.core.trick) == (2, 2, 4)
    assert game.observation(0)["last_trick"]["winner"] is None


def test_e9_sixth_trick_gives_a_lap_and_the_second_lap_ends_the_game() -> None:
    """E9 (R15/R16): seat 0 wins trick 6 for a lap (no speed); in round 2 it wins trick 6
    again and the game ends at once."""
    game = deal(3, [["slippy"], ["chippy"], ["jelly"]], trick=6, speed=[2, 0, 0])
    up(game, "slippy")
    up(game, "chippy")
    events = up(game, "jelly")
    assert of_kind(events, "speed_gained") == []
    assert of_kind(events, "lap_gained") == [{"kind": "lap_gained", "seat": 0, "laps": 1}]
    assert laps_of(game) == [1, 0, 0] and not game.is_over
    assert game.core.lead == 0
    for _ in range(5):  # tricks 1–5 of round 2: all Tune Up, seat 0 keeps the lead
        tune_up_all(game)
    assert (game.core.trick, game.current_seat) == (6, 0)
    game.apply(first_face_up(game))
    down(game, game.to_dict()["hands"][1][0])
    events = down(game, game.to_dict()["hands"][2][0])
    assert kinds(events)[-2:] == ["lap_gained", "game_won"]
    assert of_kind(events, "game_won") == [{"kind": "game_won", "seat": 0, "laps": 2}]
    assert of_kind(events, "round_dealt") == []
    assert (game.winner, game.is_over, game.current_seat) == (0, True, None)
    assert laps_of(game) == [2, 0, 0]


def test_e10_new_round_keeps_gas_resets_speed_and_lap_gainer_leads() -> None:
    """E10 (R17): after trick 6 (share, gas to the middle), the new round starts with the
    same supplies, middle and removed, speeds 0, and the lap gainer (seat 3) leading."""
    game = deal(
        4,
        [["chippy"], ["jelly"], ["salty"], ["beans"]],
        trick=6,
        gas=[2, 3, 0, 5],
        middle=3,
        removed=7,
        speed=[3, 1, 0, 2],
        lead=0,
    )
    up(game, "chippy", gas=1)  # 3 + 1 + 3 = 7
    down(game, "jelly")
    up(game, "salty", gas=1)  # takes 1 (middle 2) and spends it: 2 + 1 + 0 = 3
    events = up(game, "beans", gas=2)  # 4 + 2 + 2 = 8 wins
    assert kinds(events) == [
        "card_played",
        "tune_up_share",
        "trick_won",
        "gas_to_middle",
        "lap_gained",
        "round_dealt",
    ]
    assert of_kind(events, "gas_to_middle")[0]["middle"] == 4
    assert of_kind(events, "round_dealt")[0] == {
        "kind": "round_dealt",
        "seat": None,
        "round": 2,
        "lead": 3,
        "hand_size": 6,
    }
    view = game.observation(0)
    assert [p["gas"] for p in view["players"]] == [1, 5, 0, 3]
    assert (view["middle"], view["removed"]) == (4, 7)
    assert [p["speed"] for p in view["players"]] == [0, 0, 0, 0]
    assert [p["laps"] for p in view["players"]] == [0, 0, 0, 1]
    assert (view["lead"], view["current_seat"], view["round"], view["trick"]) == (3, 3, 2, 1)
