"""One or more tests per rule of docs/rules.md (R1–R22), each named after its rule.

Positions are explicit deals (``new_game(hands=...)``) so every number asserted here is
worked out by hand from the rule text, never read back from the engine.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from engine_kit import (
    down,
    finals,
    first_face_up,
    gas_of,
    gas_total,
    kinds,
    laps_of,
    last_finals,
    of_kind,
    speed_of,
    tune_up_all,
    up,
    zero_five,
)
from game_kit import cards_in_play, deal, deck_of

from engine import (
    Action,
    ActionType,
    Game,
    IllegalAction,
    Refusal,
    Suit,
    Variants,
    new_game,
)
from engine.cards import RACER_NAME, SEAT_COLOURS, SUIT_VALUE, ZeroEffect
from engine.options import seat_options

ZF = Variants(zero_five=True)


def assert_illegal(game: Game, action: Action, seat: int | None = None) -> None:
    """``action`` is refused, absent from the legal list, and the state is untouched."""
    before = game.to_dict()
    with pytest.raises(IllegalAction):
        game.apply(action, seat=seat)
    assert game.to_dict() == before
    if seat is None:
        assert action not in game.legal_actions()


# ---------------------------------------------------------------- R1 suits


@pytest.mark.parametrize(
    ("suit", "value"),
    [("lichen", 1), ("salty", 2), ("chippy", 3), ("jelly", 4), ("beans", 4), ("slippy", 5)],
)
def test_r1_each_suit_scores_its_printed_value(suit: str, value: int) -> None:
    """With no gas and no speed a face-up card's final number is its printed value."""
    game = deal(3, [[suit], ["chippy"], ["salty"]], trick=6, gas=[0, 0, 0], middle=0)
    up(game, suit)
    play = game.observation(1)["trick_plays"][0]
    assert (play["suit"], play["value"], play["final"]) == (suit, value, value)


def test_r1_jelly_and_beans_are_two_suits_sharing_value_4() -> None:
    """Jelly and Beans are distinct suits (own names, own copies) with the same value 4."""
    assert SUIT_VALUE[Suit.JELLY] == SUIT_VALUE[Suit.BEANS] == 4
    assert RACER_NAME[Suit.JELLY] != RACER_NAME[Suit.BEANS]
    copies = new_game(players=4, seed=1).observation(0)["deck"]["copies"]
    assert copies["jelly"] == 4 and copies["beans"] == 4
    assert sorted(s.value for s in Suit) == sorted(
        ["lichen", "salty", "chippy", "jelly", "beans", "slippy", "zero"]
    )


# ---------------------------------------------------------------- R2 players


@pytest.mark.parametrize("players", [0, 1, 2, 6, 7])
def test_r2_fewer_than_three_or_more_than_five_seats_refused(players: int) -> None:
    """Only 3, 4 or 5 players can race."""
    with pytest.raises(ValueError):
        new_game(players=players, seed=1)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_r2_seats_numbered_from_zero(players: int) -> None:
    """A game of N seats lists seats 0..N-1."""
    view = new_game(players=players, seed=3).observation(0)
    assert view["players_count"] == players
    assert [p["seat"] for p in view["players"]] == list(range(players))


def test_r2_turns_go_clockwise_from_the_lead() -> None:
    """From the lead, turns go up the seat numbers and wrap around."""
    game = deal(4, [["salty"], ["jelly"], ["beans"], ["chippy"]], trick=6, lead=2)
    order = []
    for suit in ("beans", "chippy", "salty"):
        order.append(game.current_seat)
        down(game, suit)
    order.append(game.current_seat)
    assert order == [2, 3, 0, 1]


def test_r2_seat_colours_in_seat_order() -> None:
    """Pink, orange, yellow, blue, purple."""
    assert SEAT_COLOURS == ("pink", "orange", "yellow", "blue", "purple")


# ---------------------------------------------------------------- R3 deck


@pytest.mark.parametrize(("players", "size"), [(3, 18), (4, 24), (5, 30)])
def test_r3_deck_has_n_copies_of_each_suit(players: int, size: int) -> None:
    """N copies of each of the six suits; the observation reports the same deck."""
    game = new_game(players=players, seed=5)
    expected = {s: players for s in ("lichen", "salty", "chippy", "jelly", "beans", "slippy")}
    assert deck_of(game) == Counter(expected)
    assert game.observation(0)["deck"] == {"size": size, "copies": expected}
    assert cards_in_play(game) == Counter(expected)


# ---------------------------------------------------------------- R4 gas


@pytest.mark.parametrize("players", [3, 4, 5])
def test_r4_everyone_starts_with_five_gas(players: int) -> None:
    """Five gas each, nothing in the middle or removed: 5·N in all."""
    view = new_game(players=players, seed=9).observation(0)
    assert [p["gas"] for p in view["players"]] == [5] * players
    assert (view["middle"], view["removed"]) == (0, 0)


def test_r4_nobody_may_hold_more_than_five() -> None:
    """A position with a supply of 6 is refused."""
    with pytest.raises(ValueError):
        deal(3, [["salty"], ["jelly"], ["beans"]], trick=6, gas=[6, 5, 4])


def test_r4_gas_total_stays_five_per_player_through_a_trick() -> None:
    """Taking, spending, sharing and removing gas never changes the 5·N total."""
    game = deal(
        3,
        [["salty", "lichen"], ["chippy", "lichen"], ["jelly", "lichen"]],
        trick=5,
        gas=[5, 2, 1],
        middle=3,
        removed=4,
    )
    totals = [gas_total(game)]
    up(game, "salty", gas=5)  # at 5: the taken gas is removed (R10)
    totals.append(gas_total(game))
    up(game, "chippy", gas=2)
    totals.append(gas_total(game))
    down(game, "jelly")  # shares 2 from the middle
    totals.append(gas_total(game))
    assert totals == [15, 15, 15, 15]
    assert gas_of(game) == [0, 0, 3]
    assert game.to_dict()["middle"] == 7
    assert game.to_dict()["removed"] == 5


# ---------------------------------------------------------------- R5 deal


@pytest.mark.parametrize("players", [3, 4, 5])
def test_r5_six_cards_each_and_the_whole_deck_dealt(players: int) -> None:
    """Base game: 6 cards per hand, no card left over, speeds 0, trick 1."""
    game = new_game(players=players, seed=11)
    state = game.to_dict()
    assert [len(h) for h in state["hands"]] == [6] * players
    assert state["set_aside"] == [] and state["discards"] == []
    assert Counter(c for h in state["hands"] for c in h) == deck_of(game)
    assert state["speed"] == [0] * players
    assert (state["round"], state["trick"]) == (1, 1)


def test_r5_a_round_has_exactly_six_tricks() -> None:
    """Six tricks are resolved before the next deal."""
    game = new_game(players=4, seed=21)
    resolved = []
    while True:
        events = game.apply(game.legal_actions()[0])
        for e in events:
            if e.kind in ("trick_won", "trick_all_tuned_up"):
                resolved.append(e.data["trick"])
        if any(e.kind == "round_dealt" for e in events):
            break
    assert resolved == [1, 2, 3, 4, 5, 6]
    assert game.to_dict()["round"] == 2


# ---------------------------------------------------------------- R6 lead


def test_r6_first_lead_is_drawn_from_the_seed() -> None:
    """Same seed → same first lead; over many seeds every seat gets to lead."""
    leads = [new_game(players=4, seed=s).core.lead for s in range(40)]
    assert leads == [new_game(players=4, seed=s).core.lead for s in range(40)]
    assert set(leads) == {0, 1, 2, 3}
    game = new_game(players=4, seed=7)
    assert game.current_seat == game.core.lead == game.observation(0)["lead"]


@pytest.mark.parametrize("lead", [0, 1, 2, 3, 4])
def test_r6_first_lead_can_be_fixed(lead: int) -> None:
    """The fixed-lead option sets who opens the first trick."""
    game = new_game(players=5, seed=7, lead=lead)
    assert (game.core.lead, game.current_seat) == (lead, lead)


def test_r6_fixed_lead_must_be_a_seat() -> None:
    """A lead outside 0..N-1 is refused."""
    with pytest.raises(ValueError):
        new_game(players=3, seed=7, lead=3)


def test_r6_trick_winner_leads_the_next_trick() -> None:
    """Seat 2 wins trick 4, so seat 2 opens trick 5."""
    game = deal(
        3,
        [["lichen", "salty", "salty"], ["slippy", "salty", "lichen"], ["chippy", "jelly", "beans"]],
        trick=4,
        gas=[0, 0, 0],
    )
    up(game, "lichen")
    up(game, "slippy", gas=0)  # struck to 0 by the lichen
    up(game, "chippy")
    assert game.observation(0)["last_trick"]["winner"] == 2
    assert (game.core.lead, game.current_seat, game.core.trick) == (2, 2, 5)


def test_r6_later_round_led_by_the_sixth_trick_lap_gainer() -> None:
    """The lap gainer of the sixth trick opens the next round."""
    game = deal(3, [["chippy"], ["salty"], ["slippy"]], trick=6, lead=0)
    up(game, "chippy")
    up(game, "salty")
    events = up(game, "slippy")
    assert of_kind(events, "lap_gained") == [{"kind": "lap_gained", "seat": 2, "laps": 1}]
    assert of_kind(events, "round_dealt")[0]["lead"] == 2
    assert (game.core.lead, game.current_seat) == (2, 2)


def test_r6_most_recent_lap_gainer_leads_after_an_all_tune_up_sixth_trick() -> None:
    """Seat 1 gains a lap in round 1; round 2's sixth trick is all Tune Up, led by seat 2.
    Round 3 is led by seat 1, the most recent lap gainer, not the sixth trick's lead."""
    game = deal(3, [["chippy"], ["slippy"], ["salty"]], trick=6, lead=0)
    up(game, "chippy")
    up(game, "slippy")
    down(game, "salty")
    assert (game.to_dict()["round"], game.core.lead) == (2, 1)
    # Round 2, trick 1: seat 2 alone goes face up and wins; then every trick is tuned up.
    down(game, game.to_dict()["hands"][1][0])
    game.apply(first_face_up(game))
    down(game, game.to_dict()["hands"][0][0])
    assert game.core.lead == 2
    for _ in range(5):
        events = tune_up_all(game)
    assert of_kind(events, "trick_all_tuned_up") == [
        {"kind": "trick_all_tuned_up", "seat": None, "trick": 6}
    ]
    assert of_kind(events, "round_dealt")[0]["lead"] == 1
    assert (game.to_dict()["round"], game.core.lead, game.current_seat) == (3, 1, 1)


def test_r6_without_any_lap_the_sixth_trick_lead_leads_again() -> None:
    """Nobody ever gained a lap: the seat that led the (all Tune Up) sixth trick leads."""
    game = new_game(players=3, seed=4, lead=0)
    down(game, game.to_dict()["hands"][0][0])
    game.apply(first_face_up(game))  # seat 1 wins trick 1 and leads from then on
    down(game, game.to_dict()["hands"][2][0])
    assert game.core.lead == 1
    for _ in range(5):
        events = tune_up_all(game)
    assert laps_of(game) == [0, 0, 0]
    assert of_kind(events, "round_dealt")[0]["lead"] == 1
    assert (game.core.lead, game.current_seat) == (1, 1)


# ---------------------------------------------------------------- R7 play


def test_r7_suit_already_face_up_cannot_go_face_up() -> None:
    """After a face-up salty, salty cannot be played face up, but can be tuned up."""
    game = deal(3, [["salty", "jelly"], ["salty", "chippy"], ["salty", "beans"]], trick=5)
    up(game, "salty")
    assert game.observation(1)["blocked_suits"] == ["salty"]
    option = seat_options(game.view(1)).card(Suit.SALTY)
    assert option is not None and not option.face_up
    assert option.why_not == Refusal.of("suit_face_up", suit="salty")
    for gas in range(6):
        assert_illegal(game, Action.play(Suit.SALTY, gas=gas))
    assert Action.tune_up(Suit.SALTY) in game.legal_actions()
    down(game, "salty")
    assert game.current_seat == 2


def test_r7_jelly_and_beans_do_not_block_each_other() -> None:
    """Jelly face up leaves Beans playable face up, and the other way round."""
    game = deal(3, [["jelly", "salty"], ["beans", "salty"], ["jelly", "beans"]], trick=5)
    up(game, "jelly")
    assert Action.play(Suit.BEANS) in game.legal_actions()
    up(game, "beans")
    assert game.observation(2)["blocked_suits"] == ["jelly", "beans"]
    assert_illegal(game, Action.play(Suit.JELLY))
    assert_illegal(game, Action.play(Suit.BEANS))


def test_r7_face_down_cards_block_nothing() -> None:
    """A tuned-up salty does not stop the next player playing salty face up."""
    game = deal(3, [["salty", "jelly"], ["salty", "chippy"], ["salty", "beans"]], trick=5)
    down(game, "salty")
    assert game.observation(1)["blocked_suits"] == []
    assert Action.play(Suit.SALTY) in game.legal_actions()
    up(game, "salty")
    assert game.observation(2)["blocked_suits"] == ["salty"]


def test_r7_tune_up_is_always_legal_even_with_a_face_up_play() -> None:
    """Every card in hand may be tuned up, whether or not it could go face up."""
    game = deal(3, [["salty", "jelly"], ["chippy", "jelly"], ["lichen", "beans"]], trick=5)
    up(game, "jelly")
    legal = game.legal_actions()
    tune_ups = {a for a in legal if a.type is ActionType.TUNE_UP}
    assert tune_ups == {Action.tune_up(Suit.CHIPPY), Action.tune_up(Suit.JELLY)}
    assert Action.play(Suit.CHIPPY) in legal  # a face-up play exists too
    down(game, "chippy")


def test_r7_card_must_come_from_the_hand() -> None:
    """Neither a face-up play nor a Tune Up may use a card the player does not hold."""
    game = deal(3, [["salty", "jelly"], ["chippy", "jelly"], ["lichen", "beans"]], trick=5)
    assert_illegal(game, Action.play(Suit.SLIPPY))
    assert_illegal(game, Action.tune_up(Suit.BEANS))


def test_r7_only_the_current_seat_may_play() -> None:
    """Claiming to be another seat is refused even with a card that seat holds."""
    game = deal(3, [["salty", "jelly"], ["chippy", "jelly"], ["lichen", "beans"]], trick=5)
    assert_illegal(game, Action.play(Suit.CHIPPY), seat=1)
    assert_illegal(game, Action.play(Suit.SALTY), seat=2)
    up(game, "salty")


# ---------------------------------------------------------------- R8 final number


def test_r8_final_is_value_plus_gas_plus_speed() -> None:
    """Chippy 3 + 2 gas + speed 3 = 8; beans 4 + 0 + speed 1 = 5."""
    game = deal(
        3,
        [["chippy", "salty"], ["beans", "salty"], ["lichen", "salty"]],
        trick=5,
        gas=[4, 1, 0],
        speed=[3, 1, 0],
    )
    up(game, "chippy", gas=2)
    up(game, "beans")
    assert finals(game) == [8, 5]
    assert gas_of(game) == [2, 1, 0]


def test_r8_cannot_spend_more_gas_than_held() -> None:
    """With 2 gas, 2 is the most that can go on a card."""
    game = deal(
        3,
        [["chippy", "salty"], ["beans", "salty"], ["lichen", "salty"]],
        trick=5,
        gas=[2, 5, 5],
        middle=0,
    )
    chippy_gas = [
        a.gas for a in game.legal_actions() if a.suit is Suit.CHIPPY and a.type is ActionType.PLAY
    ]
    assert chippy_gas == [0, 1, 2]
    assert_illegal(game, Action.play(Suit.CHIPPY, gas=3))
    assert_illegal(game, Action.play(Suit.CHIPPY, gas=-1))


def test_r8_no_gas_on_a_tune_up() -> None:
    """A face-down card carries no gas."""
    game = deal(3, [["chippy", "salty"], ["beans", "salty"], ["lichen", "salty"]], trick=5)
    assert_illegal(game, Action(ActionType.TUNE_UP, Suit.CHIPPY, gas=1))


def test_r8_a_face_down_card_never_wins() -> None:
    """A lone face-up lichen worth 1 beats two Tune Ups by players with high speed."""
    game = deal(
        3,
        [["slippy", "salty"], ["lichen", "salty"], ["jelly", "salty"]],
        trick=5,
        speed=[4, 0, 3],
    )
    down(game, "slippy")
    up(game, "lichen")
    events = down(game, "jelly")
    assert of_kind(events, "trick_won") == [
        {"kind": "trick_won", "seat": 1, "trick": 5, "final": 1}
    ]
    assert last_finals(game) == [None, 1, None]


def test_r8_speed_is_added_at_the_time_the_card_is_played() -> None:
    """The speed shown on a card is the player's speed that turn."""
    game = deal(
        3, [["chippy", "salty"], ["beans", "salty"], ["lichen", "salty"]], trick=5, speed=[2, 0, 1]
    )
    up(game, "chippy")
    assert game.observation(2)["trick_plays"][0]["speed"] == 2


# ---------------------------------------------------------------- R9 the 1


def test_r9_lichen_strikes_fours_and_fives_played_before_it() -> None:
    """Slippy+1 and jelly+0 drop to 1 and 0 once a lichen comes down; the tie at 1 goes to
    the earlier slippy."""
    game = deal(
        3, [["slippy", "salty"], ["jelly", "salty"], ["lichen", "salty"]], trick=5, gas=[1, 0, 0]
    )
    up(game, "slippy", gas=1)
    up(game, "jelly")
    assert finals(game) == [6, 4]
    events = up(game, "lichen")
    plays = game.observation(0)["last_trick"]["plays"]
    assert [p["effective_value"] for p in plays] == [0, 0, 1]
    assert [p["final"] for p in plays] == [1, 0, 1]
    assert of_kind(events, "trick_won")[0]["seat"] == 0


def test_r9_lichen_strikes_fours_and_fives_played_after_it() -> None:
    """Beans + 2 gas + speed 1 after a lichen counts 0 + 2 + 1 = 3."""
    game = deal(
        3,
        [["lichen", "salty"], ["beans", "salty"], ["chippy", "salty"]],
        trick=5,
        gas=[0, 2, 0],
        speed=[0, 1, 0],
    )
    up(game, "lichen")
    up(game, "beans", gas=2)
    assert finals(game) == [1, 3]
    up(game, "chippy")  # 3, not struck, tied with the beans: the earlier beans wins
    assert last_finals(game) == [1, 3, 3]
    assert game.observation(0)["last_trick"]["winner"] == 1


def test_r9_a_tuned_up_lichen_strikes_nothing() -> None:
    """Only a face-up lichen has its effect."""
    game = deal(3, [["lichen", "salty"], ["slippy", "salty"], ["chippy", "salty"]], trick=5)
    down(game, "lichen")
    up(game, "slippy")
    assert finals(game) == [None, 5]


# ---------------------------------------------------------------- R10 the 2


def test_r10_salty_takes_one_gas_from_the_middle() -> None:
    """Gas 2 and middle 3 become gas 3 and middle 2."""
    game = deal(
        3,
        [["salty", "jelly"], ["chippy", "jelly"], ["lichen", "beans"]],
        trick=5,
        gas=[2, 0, 0],
        middle=3,
    )
    events = up(game, "salty")
    assert of_kind(events, "gas_taken") == [
        {"kind": "gas_taken", "seat": 0, "amount": 1, "removed": 0}
    ]
    assert gas_of(game)[0] == 3
    assert game.observation(1)["middle"] == 2


def test_r10_with_the_middle_empty_salty_takes_nothing() -> None:
    """No gas in the middle: nothing taken, and the spendable gas stays the supply."""
    game = deal(
        3,
        [["salty", "jelly"], ["chippy", "jelly"], ["lichen", "beans"]],
        trick=5,
        gas=[2, 0, 0],
        middle=0,
    )
    assert max(a.gas for a in game.legal_actions() if a.suit is Suit.SALTY) == 2
    assert_illegal(game, Action.play(Suit.SALTY, gas=3))
    events = up(game, "salty")
    assert of_kind(events, "gas_taken") == []
    assert gas_of(game)[0] == 2 and game.observation(0)["middle"] == 0


def test_r10_at_five_gas_the_taken_gas_is_removed() -> None:
    """A full tank cannot take the gas: it leaves the middle for the removed pile."""
    game = deal(
        3,
        [["salty", "jelly"], ["chippy", "jelly"], ["lichen", "beans"]],
        trick=5,
        gas=[5, 0, 0],
        middle=2,
        removed=8,
    )
    assert_illegal(game, Action.play(Suit.SALTY, gas=6))
    events = up(game, "salty")
    assert of_kind(events, "gas_taken") == [
        {"kind": "gas_taken", "seat": 0, "amount": 0, "removed": 1}
    ]
    view = game.observation(1)
    assert (view["players"][0]["gas"], view["middle"], view["removed"]) == (5, 1, 9)


def test_r10_gas_on_cards_is_not_in_the_middle() -> None:
    """Gas spent on an earlier card of this trick cannot be taken by a salty."""
    game = deal(
        3,
        [["chippy", "jelly"], ["salty", "jelly"], ["lichen", "beans"]],
        trick=5,
        gas=[3, 1, 0],
        middle=0,
    )
    up(game, "chippy", gas=3)
    assert max(a.gas for a in game.legal_actions() if a.suit is Suit.SALTY) == 1
    events = up(game, "salty", gas=1)
    assert of_kind(events, "gas_taken") == []
    assert finals(game) == [6, 3]


def test_r10_a_tuned_up_salty_takes_nothing() -> None:
    """Face down, the 2 has no effect."""
    game = deal(
        3,
        [["salty", "jelly"], ["chippy", "jelly"], ["lichen", "beans"]],
        trick=5,
        gas=[2, 0, 0],
        middle=3,
    )
    events = down(game, "salty")
    assert of_kind(events, "gas_taken") == []
    assert gas_of(game)[0] == 2 and game.observation(1)["middle"] == 3


# ---------------------------------------------------------------- R11 Tune-Up share


def test_r11_tune_up_share_removes_remainder() -> None:
    """Three tuners, middle 5: each gains 1, 2 are removed, the middle is emptied."""
    game = deal(
        4,
        [["chippy", "salty"], ["jelly", "salty"], ["beans", "salty"], ["lichen", "salty"]],
        trick=5,
        gas=[0, 1, 2, 3],
        middle=5,
        removed=9,
    )
    up(game, "chippy")
    down(game, "jelly")
    down(game, "beans")
    events = down(game, "lichen")
    share = of_kind(events, "tune_up_share")
    assert len(share) == 1
    assert (share[0]["seats"], share[0]["each"], share[0]["removed"]) == ([1, 2, 3], 1, 2)
    assert share[0]["middle_before"] == 5
    assert gas_of(game) == [0, 2, 3, 4]
    view = game.observation(0)
    assert (view["middle"], view["removed"]) == (0, 11)


def test_r11_share_over_five_keeps_five_and_removes_the_excess() -> None:
    """A lone tuner holding 4 with a middle of 3 ends at 5; 2 are removed."""
    game = deal(
        3,
        [["chippy", "salty"], ["jelly", "salty"], ["beans", "salty"]],
        trick=5,
        gas=[0, 4, 0],
        middle=3,
        removed=8,
    )
    up(game, "chippy")
    down(game, "jelly")
    up(game, "beans")
    assert gas_of(game) == [0, 5, 0]
    view = game.observation(0)
    assert (view["middle"], view["removed"]) == (0, 10)


def test_r11_no_tuner_leaves_the_middle_alone() -> None:
    """k = 0: no share, the middle keeps its gas."""
    game = deal(
        3,
        [["chippy", "salty"], ["jelly", "salty"], ["beans", "salty"]],
        trick=5,
        gas=[0, 0, 0],
        middle=3,
    )
    up(game, "chippy")
    up(game, "jelly")
    events = up(game, "beans")
    assert of_kind(events, "tune_up_share") == []
    assert game.observation(0)["middle"] == 3 and game.observation(0)["removed"] == 12


def test_r11_empty_middle_gives_tuners_nothing() -> None:
    """M = 0: tuners gain nothing and no share happens."""
    game = deal(
        3,
        [["chippy", "salty"], ["jelly", "salty"], ["beans", "salty"]],
        trick=5,
        gas=[0, 1, 1],
        middle=0,
    )
    up(game, "chippy")
    down(game, "jelly")
    events = down(game, "beans")
    assert of_kind(events, "tune_up_share") == []
    assert gas_of(game) == [0, 1, 1]


def test_r11_share_uses_the_middle_after_salty_took_from_it() -> None:
    """Middle 3, a salty takes 1, two tuners share the 2 left: 1 each, nothing removed."""
    game = deal(
        3,
        [["salty", "chippy"], ["jelly", "chippy"], ["beans", "chippy"]],
        trick=5,
        gas=[0, 0, 0],
        middle=3,
        removed=12,
    )
    up(game, "salty")
    down(game, "jelly")
    events = down(game, "beans")
    assert of_kind(events, "tune_up_share")[0]["middle_before"] == 2
    assert gas_of(game) == [1, 1, 1]
    view = game.observation(0)
    assert (view["middle"], view["removed"]) == (0, 12)


# ---------------------------------------------------------------- R12 discard unseen


def _tuned_up_views(card: str) -> tuple[list[str], str]:
    """Seat 0 tunes up ``card`` (holding slippy and beans); return seats 1 and 2's views
    and the public events, all as JSON text."""
    game = deal(3, [["slippy", "beans"], ["chippy", "salty"], ["chippy", "salty"]], trick=5)
    events = down(game, card)
    views = [json.dumps(game.observation(s), sort_keys=True) for s in (1, 2)]
    events += up(game, "chippy")
    events += up(game, "salty")
    views += [json.dumps(game.observation(s), sort_keys=True) for s in (1, 2)]
    assert card in game.to_dict()["discards"]
    return views, json.dumps([e.to_dict() for e in events], sort_keys=True)


def test_r12_a_tuned_up_card_is_never_revealed() -> None:
    """Other seats' views and all events are identical whichever card was tuned up."""
    slippy_views, slippy_events = _tuned_up_views("slippy")
    beans_views, beans_events = _tuned_up_views("beans")
    assert slippy_views == beans_views
    assert slippy_events == beans_events


def test_r12_tune_up_shows_only_its_back_in_the_record() -> None:
    """In the trick record a Tune Up has no suit, value, speed or final."""
    game = deal(
        3, [["slippy", "beans"], ["chippy", "salty"], ["chippy", "salty"]], trick=5, speed=[2, 0, 0]
    )
    down(game, "slippy")
    up(game, "chippy")
    up(game, "salty")
    play = game.observation(0)["last_trick"]["plays"][0]
    assert play["type"] == "tune_up"
    assert (play["suit"], play["value"], play["final"], play["speed"]) == (None,) * 4


# ---------------------------------------------------------------- R13 winner


def test_r13_highest_final_number_wins() -> None:
    """Finals 3, 7, 5: the 7 wins."""
    game = deal(
        3,
        [["chippy", "salty"], ["jelly", "salty"], ["beans", "salty"]],
        trick=5,
        gas=[0, 3, 1],
        middle=0,
    )
    up(game, "chippy")
    up(game, "jelly", gas=3)
    events = up(game, "beans", gas=1)
    assert last_finals(game) == [3, 7, 5]
    assert of_kind(events, "trick_won")[0]["seat"] == 1


def test_r13_tie_goes_to_earlier_card() -> None:
    """R13: three cards at 4 — the lead's card wins."""
    game = deal(
        3,
        [["chippy", "lichen"], ["jelly", "lichen"], ["salty", "lichen"]],
        trick=5,
        gas=[1, 0, 2],
        middle=0,
    )
    up(game, "chippy", gas=1)
    up(game, "jelly")
    events = up(game, "salty", gas=2)
    assert last_finals(game) == [4, 4, 4]
    assert of_kind(events, "trick_won")[0]["seat"] == 0


def test_r13_tie_goes_to_earlier_card_in_play_order_not_seat_order() -> None:
    """Lead is seat 1: seat 2 plays before seat 0, so seat 2 wins their tie at 4."""
    game = deal(
        3,
        [["jelly", "salty"], ["lichen", "salty"], ["chippy", "salty"]],
        trick=5,
        gas=[0, 0, 1],
        middle=0,
        lead=1,
    )
    down(game, "lichen")
    up(game, "chippy", gas=1)
    events = up(game, "jelly")
    assert last_finals(game) == [None, 4, 4]
    assert of_kind(events, "trick_won")[0]["seat"] == 2


def test_r13_all_tune_up_nobody_wins() -> None:
    """No winner, no speed change, the same seat leads the next trick."""
    game = deal(3, [["chippy", "salty", "slippy"]] * 3, trick=4, speed=[1, 2, 0], lead=1)
    events = tune_up_all(game)
    assert kinds(events).count("trick_won") == 0
    assert of_kind(events, "trick_all_tuned_up") == [
        {"kind": "trick_all_tuned_up", "seat": None, "trick": 4}
    ]
    assert speed_of(game) == [1, 2, 0]
    assert (game.core.lead, game.current_seat, game.core.trick) == (1, 1, 5)
    assert game.observation(0)["last_trick"]["winner"] is None


def test_r13_any_face_up_card_beats_tune_ups_even_at_zero() -> None:
    """A 0 card with no gas and no speed (final 0) still wins against Tune Ups."""
    game = deal(
        3,
        [["zero", "salty"], ["chippy", "salty"], ["jelly", "salty"]],
        trick=5,
        variants=Variants(zero_suit="beans"),
        gas=[0, 5, 5],
        removed=5,
    )
    up(game, "zero", effect="gas")
    down(game, "chippy")
    events = down(game, "jelly")
    assert of_kind(events, "trick_won") == [
        {"kind": "trick_won", "seat": 0, "trick": 5, "final": 0}
    ]
    assert speed_of(game) == [1, 0, 0] and gas_of(game) == [1, 5, 5]


# ---------------------------------------------------------------- R14 gas to the middle


def test_r14_spent_gas_moves_to_the_middle_after_the_share() -> None:
    """Middle 1 goes to the lone tuner first; then the 3 spent gas fill the middle."""
    game = deal(
        3,
        [["slippy", "salty"], ["jelly", "salty"], ["chippy", "salty"]],
        trick=5,
        gas=[2, 0, 1],
        middle=1,
        removed=11,
    )
    up(game, "slippy", gas=2)
    down(game, "jelly")
    events = up(game, "chippy", gas=1)
    assert of_kind(events, "gas_to_middle") == [
        {"kind": "gas_to_middle", "seat": None, "amount": 3, "middle": 3}
    ]
    assert kinds(events).index("tune_up_share") < kinds(events).index("gas_to_middle")
    assert gas_of(game) == [0, 1, 0]
    assert game.observation(0)["middle"] == 3


# ---------------------------------------------------------------- R15 speed or lap


def test_r15_winner_of_tricks_1_to_5_gains_speed_and_leads() -> None:
    """Seat 2 wins trick 5: speed 1 → 2, leads trick 6, no lap."""
    game = deal(
        3, [["chippy", "salty"], ["jelly", "salty"], ["slippy", "salty"]], trick=5, speed=[0, 0, 1]
    )
    up(game, "chippy")
    up(game, "jelly")
    events = up(game, "slippy")
    assert of_kind(events, "speed_gained") == [{"kind": "speed_gained", "seat": 2, "speed": 2}]
    assert speed_of(game) == [0, 0, 2] and laps_of(game) == [0, 0, 0]
    assert (game.core.trick, game.core.lead) == (6, 2)


def test_r15_sixth_trick_gives_a_lap_not_speed() -> None:
    """The sixth trick's winner gains a lap; no speed_gained event."""
    game = deal(3, [["chippy"], ["jelly"], ["slippy"]], trick=6, speed=[1, 0, 2])
    up(game, "chippy")
    up(game, "jelly")
    events = up(game, "slippy")
    assert of_kind(events, "speed_gained") == []
    assert of_kind(events, "lap_gained") == [{"kind": "lap_gained", "seat": 2, "laps": 1}]
    assert laps_of(game) == [0, 0, 1]


def test_r15_all_tune_up_sixth_trick_gives_no_lap() -> None:
    """Nobody laps when the sixth trick is all Tune Up."""
    game = deal(3, [["chippy"], ["jelly"], ["slippy"]], trick=6, laps=[1, 0, 1])
    events = tune_up_all(game)
    assert of_kind(events, "lap_gained") == []
    assert laps_of(game) == [1, 0, 1] and not game.is_over


# ---------------------------------------------------------------- R16 win


def test_r16_second_lap_wins_at_once() -> None:
    """The second lap ends the game: no new deal, no current seat, no legal action."""
    game = deal(3, [["slippy"], ["chippy"], ["jelly"]], trick=6, laps=[0, 1, 1], speed=[0, 4, 0])
    up(game, "slippy")
    up(game, "chippy")  # 3 + speed 4 = 7 beats 5
    events = up(game, "jelly")
    assert kinds(events)[-2:] == ["lap_gained", "game_won"]
    assert of_kind(events, "game_won") == [{"kind": "game_won", "seat": 1, "laps": 2}]
    assert of_kind(events, "round_dealt") == []
    assert (game.winner, game.is_over, game.current_seat) == (1, True, None)
    assert game.legal_actions() == []
    view = game.observation(2)
    assert (view["game_over"], view["winner"], view["legal_actions"]) == (True, 1, [])
    assert laps_of(game) == [0, 2, 1]
    with pytest.raises(IllegalAction):
        game.apply(Action.tune_up(Suit.SLIPPY))


def test_r16_a_first_lap_does_not_end_the_game() -> None:
    """One lap: a new round is dealt and play goes on."""
    game = deal(3, [["slippy"], ["chippy"], ["jelly"]], trick=6, laps=[0, 1, 0])
    up(game, "slippy")
    up(game, "chippy")
    events = up(game, "jelly")  # the slippy wins: seat 0's first lap
    assert laps_of(game) == [1, 1, 0]
    assert (game.winner, game.is_over, game.current_seat) == (None, False, 0)
    assert kinds(events)[-1] == "round_dealt"


# ---------------------------------------------------------------- R17 next round


def test_r17_gas_stays_where_it_is_across_the_round() -> None:
    """Supplies, middle and removed after trick 6 carry into round 2 unchanged."""
    game = deal(
        3,
        [["slippy"], ["salty"], ["jelly"]],
        trick=6,
        gas=[3, 1, 4],
        middle=2,
        removed=5,
        speed=[2, 3, 1],
    )
    up(game, "slippy", gas=2)  # 5 + 2 + 2 = 9
    up(game, "salty")  # takes 1 from the middle: 2 + 0 + 3 = 5
    events = down(game, "jelly")  # shares the 1 left in the middle
    assert kinds(events)[-1] == "round_dealt"
    view = game.observation(0)
    assert [p["gas"] for p in view["players"]] == [1, 2, 5]
    assert (view["middle"], view["removed"]) == (2, 5)
    assert [p["speed"] for p in view["players"]] == [0, 0, 0]
    assert (view["round"], view["trick"], view["lead"]) == (2, 1, 0)


def test_r17_every_card_is_shuffled_and_dealt_again() -> None:
    """All 18 cards come back: six in each hand, none left in the discards."""
    game = deal(3, [["slippy"], ["salty"], ["jelly"]], trick=6)
    up(game, "slippy")
    up(game, "salty")
    up(game, "jelly")
    state = game.to_dict()
    assert [len(h) for h in state["hands"]] == [6, 6, 6]
    assert state["discards"] == [] and state["set_aside"] == [] and state["plays"] == []
    assert Counter(c for h in state["hands"] for c in h) == deck_of(game)
    assert state["round_tricks"] == []


# ---------------------------------------------------------------- R18 larger hands


@pytest.mark.parametrize(("players", "aside"), [(3, 3), (4, 2), (5, 1)])
def test_r18_larger_hands_deals_seven_and_sets_the_rest_aside(players: int, aside: int) -> None:
    """N+1 copies of each suit; 7 cards each; 3 / 2 / 1 cards set aside unseen."""
    game = new_game(players=players, seed=2, variants=Variants(larger_hands=True))
    state = game.to_dict()
    assert deck_of(game) == Counter(
        {s: players + 1 for s in ("lichen", "salty", "chippy", "jelly", "beans", "slippy")}
    )
    assert [len(h) for h in state["hands"]] == [7] * players
    assert len(state["set_aside"]) == aside
    assert game.observation(0)["set_aside"] == aside
    assert cards_in_play(game) == deck_of(game)


def test_r18_still_six_tricks_with_two_cards_in_the_sixth() -> None:
    """Hands shrink 7 → 2 over five tricks; the round ends after the sixth."""
    game = new_game(players=4, seed=8, variants=Variants(larger_hands=True))
    sizes = []
    resolved = 0
    while game.to_dict()["round"] == 1:
        if not game.to_dict()["plays"]:
            sizes.append(len(game.to_dict()["hands"][game.current_seat or 0]))
        events = game.apply(game.legal_actions()[-1])
        resolved += sum(e.kind in ("trick_won", "trick_all_tuned_up") for e in events)
    assert sizes == [7, 6, 5, 4, 3, 2]
    assert resolved == 6


def test_r18_unplayed_card_is_carried_into_the_next_round() -> None:
    """Each seat keeps a lichen through trick 6 — all three lichens of this deck — and
    holds exactly that one lichen among its 7 cards after the next deal."""
    variants = Variants(larger_hands=True, zero_suit="chippy")  # only 3 lichens (R19)
    game = deal(
        3,
        [["lichen", "slippy"], ["lichen", "salty"], ["lichen", "zero"]],
        trick=6,
        variants=variants,
    )
    up(game, "slippy")
    down(game, "salty")
    down(game, "zero")
    state = game.to_dict()
    assert state["round"] == 2
    assert [len(h) for h in state["hands"]] == [7, 7, 7]
    assert [h.count("lichen") for h in state["hands"]] == [1, 1, 1]
    assert len(state["set_aside"]) == 3 and "lichen" not in state["set_aside"]
    assert cards_in_play(game) == deck_of(game)


def test_r18_set_aside_cards_rejoin_the_next_deal() -> None:
    """Round 2 is dealt from the discards and the set-aside cards: just before the deal the
    18 discards alone could only fill the hands, yet 3 cards are set aside again."""
    game = new_game(players=3, seed=13, variants=Variants(larger_hands=True))
    while len(game.to_dict()["discards"]) + len(game.to_dict()["plays"]) < 17:
        game.apply(game.legal_actions()[0])
    before = game.to_dict()
    assert (len(before["discards"]), len(before["set_aside"])) == (15, 3)
    game.apply(game.legal_actions()[0])  # the last card of the round: the deal follows
    state = game.to_dict()
    assert state["round"] == 2
    assert len(state["set_aside"]) == 3 and [len(h) for h in state["hands"]] == [7, 7, 7]
    assert cards_in_play(game) == deck_of(game)


# ---------------------------------------------------------------- R19 new 0 suit: deck

_RACERS = ("lichen", "salty", "chippy", "jelly", "beans", "slippy")


def _expected_deck(players: int, larger: bool, zero: bool) -> Counter[str]:
    if zero and not larger:
        return Counter({s: players for s in _RACERS if s != "chippy"} | {"zero": players})
    if zero and larger:
        return Counter({s: players for s in _RACERS} | {"zero": 6})
    return Counter({s: players + larger for s in _RACERS})


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("larger", [False, True])
@pytest.mark.parametrize("zero", [False, True])
@pytest.mark.parametrize("zero_five_on", [False, True])
def test_r19_deck_composition(players: int, larger: bool, zero: bool, zero_five_on: bool) -> None:
    """Every variant combination builds the deck docs/rules.md describes, all of it in the game."""
    variants = Variants(
        larger_hands=larger, zero_suit="chippy" if zero else None, zero_five=zero_five_on
    )
    game = new_game(players=players, seed=players, variants=variants)
    expected = _expected_deck(players, larger, zero)
    sizes = {(False, 3): 18, (False, 4): 24, (False, 5): 30, (True, 3): 24, (True, 4): 30}
    assert game.observation(0)["deck"]["size"] == sizes.get((larger, players), 36)
    assert deck_of(game) == expected
    assert cards_in_play(game) == expected
    assert game.observation(0)["deck"]["copies"] == dict(expected)
    assert game.observation(0)["set_aside"] == (6 - players if larger else 0)


def test_r19_zero_suit_option_chooses_the_replaced_suit() -> None:
    """Replacing jelly: no jelly left, N zeros, chippy kept."""
    deck = Counter(Variants(zero_suit="jelly").deck(4))
    assert deck[Suit.JELLY] == 0 and deck[Suit.ZERO] == 4 and deck[Suit.CHIPPY] == 4
    assert len(Variants(zero_suit="jelly").deck(4)) == 24


@pytest.mark.parametrize("bad", ["zero", "turbo"])
def test_r19_zero_suit_must_be_a_racer_suit(bad: str) -> None:
    """The 0 suit replaces one of the six racer suits, nothing else."""
    with pytest.raises(ValueError):
        Variants(zero_suit=bad)  # type: ignore[arg-type]


# ---------------------------------------------------------------- R20 new 0 suit: effect

Z = Variants(zero_suit="beans")  # keeps chippy in the deck for these deals


def test_r20_zero_scores_zero_and_a_lichen_does_not_change_it() -> None:
    """0 + 2 gas + speed (1 + 1 from the card) = 4, with a lichen face up."""
    game = deal(
        3,
        [["lichen", "salty"], ["zero", "salty"], ["jelly", "salty"]],
        trick=5,
        variants=Z,
        gas=[0, 2, 0],
        speed=[0, 1, 0],
    )
    up(game, "lichen")
    up(game, "zero", gas=2, effect="speed")
    play = game.observation(0)["trick_plays"][1]
    assert (play["value"], play["effective_value"], play["final"]) == (0, 0, 4)


def test_r20_speed_choice_counts_for_the_card_itself() -> None:
    """Speed 1, +1 from the 0 → the card carries speed 2: 0 + 1 + 2 = 3."""
    game = deal(
        3,
        [["zero", "salty"], ["chippy", "salty"], ["jelly", "salty"]],
        variants=Variants(zero_suit="slippy"),
        trick=5,
        gas=[1, 0, 0],
        speed=[1, 0, 0],
    )
    events = up(game, "zero", gas=1, effect="speed")
    assert of_kind(events, "zero_effect") == [
        {"kind": "zero_effect", "seat": 0, "choice": "speed", "gained": 1, "removed": 0}
    ]
    assert of_kind(events, "card_played")[0]["final"] == 3
    assert finals(game) == [3] and speed_of(game) == [2, 0, 0]


def test_r20_speed_bonus_lasts_for_the_rest_of_the_round_only() -> None:
    """The +1 stays on through the next trick and is gone after the next deal."""
    game = deal(
        3,
        [["zero", "chippy"], ["salty", "lichen"], ["slippy", "jelly"]],
        trick=5,
        variants=Z,
        gas=[0, 0, 0],
    )
    up(game, "zero", effect="speed")
    up(game, "salty")
    up(game, "slippy")  # seat 2 wins trick 5 with 5
    assert speed_of(game) == [1, 0, 1]
    down(game, "jelly")
    up(game, "chippy")  # seat 0: 3 + speed 1 = 4 beats seat 1's 3
    assert finals(game) == [None, 4]
    events = up(game, "lichen")
    assert of_kind(events, "lap_gained")[0]["seat"] == 0
    assert speed_of(game) == [0, 0, 0]


def test_r20_gas_choice_takes_back_one_removed_gas() -> None:
    """Removed 2 → 1; the regained gas may be spent on the 0 itself."""
    game = deal(
        3,
        [["zero", "salty"], ["chippy", "salty"], ["jelly", "salty"]],
        trick=5,
        variants=Z,
        gas=[1, 5, 5],
        middle=2,
        removed=2,
    )
    legal = game.legal_actions()
    assert max(a.gas for a in legal if a.zero_effect is ZeroEffect.GAS) == 2
    assert max(a.gas for a in legal if a.zero_effect is ZeroEffect.SPEED) == 1
    events = up(game, "zero", gas=2, effect="gas")
    assert of_kind(events, "zero_effect") == [
        {"kind": "zero_effect", "seat": 0, "choice": "gas", "gained": 1, "removed": 0}
    ]
    view = game.observation(1)
    assert (view["players"][0]["gas"], view["removed"], view["middle"]) == (0, 1, 2)
    assert finals(game) == [2]


def test_r20_gas_choice_at_five_gas_is_removed_again() -> None:
    """A full tank: the gas goes straight back to the removed pile."""
    game = deal(
        3,
        [["zero", "salty"], ["chippy", "salty"], ["jelly", "salty"]],
        trick=5,
        variants=Z,
        gas=[5, 4, 4],
        removed=2,
    )
    assert_illegal(game, Action.play(Suit.ZERO, 6, ZeroEffect.GAS))
    events = up(game, "zero", gas=5, effect="gas")
    assert of_kind(events, "zero_effect")[0]["gained"] == 0
    assert of_kind(events, "zero_effect")[0]["removed"] == 1
    assert game.observation(0)["removed"] == 2 and finals(game) == [5]


def test_r20_only_speed_when_no_gas_was_removed() -> None:
    """Nothing removed: the gas choice is neither offered nor accepted."""
    game = deal(
        3,
        [["zero", "salty"], ["chippy", "salty"], ["jelly", "salty"]],
        trick=5,
        variants=Z,
        gas=[2, 5, 5],
        middle=3,
        removed=0,
    )
    zero_plays = {
        a.zero_effect
        for a in game.legal_actions()
        if a.suit is Suit.ZERO and a.type is ActionType.PLAY
    }
    assert zero_plays == {ZeroEffect.SPEED}
    option = seat_options(game.view(0)).card(Suit.ZERO)
    assert option is not None and [e for e, _ in option.rewards] == [ZeroEffect.SPEED]
    assert_illegal(game, Action.play(Suit.ZERO, 0, ZeroEffect.GAS))


def test_r20_a_zero_needs_a_choice_and_other_cards_take_none() -> None:
    """The 0 must name its effect; any other card must not."""
    game = deal(
        3,
        [["zero", "salty"], ["chippy", "salty"], ["jelly", "salty"]],
        trick=5,
        variants=Z,
        removed=1,
        gas=[5, 5, 4],
    )
    assert_illegal(game, Action.play(Suit.ZERO, 0))
    assert_illegal(game, Action.play(Suit.SALTY, 0, ZeroEffect.SPEED))
    assert_illegal(game, Action(ActionType.TUNE_UP, Suit.ZERO, 0, ZeroEffect.SPEED))


def test_r20_zero_blocks_another_zero_face_up() -> None:
    """The 0 suit is a suit: a second 0 cannot go face up in the same trick."""
    game = deal(3, [["zero", "salty"], ["zero", "salty"], ["jelly", "salty"]], trick=5, variants=Z)
    up(game, "zero", effect="speed")
    assert_illegal(game, Action.play(Suit.ZERO, 0, ZeroEffect.SPEED))
    down(game, "zero")


def test_r20_a_tuned_up_zero_has_no_effect() -> None:
    """Face down, the 0 gives neither speed nor gas."""
    game = deal(
        3,
        [["zero", "salty"], ["chippy", "salty"], ["jelly", "salty"]],
        trick=5,
        variants=Z,
        gas=[1, 5, 5],
        removed=4,
    )
    events = down(game, "zero")
    assert of_kind(events, "zero_effect") == []
    assert speed_of(game) == [0, 0, 0] and gas_of(game)[0] == 1
    assert game.observation(1)["removed"] == 4


# ---------------------------------------------------------------- R21 0/5 setup


def test_r21_each_player_has_one_zero_five_beside_the_hand() -> None:
    """Everyone's 0/5 card is available, outside the hand and outside the deck."""
    game = new_game(players=4, seed=3, variants=ZF)
    view = game.observation(2)
    assert view["zero_five_available"] is True
    assert [p["zero_five_available"] for p in view["players"]] == [True] * 4
    assert [p["hand_size"] for p in view["players"]] == [6] * 4
    assert view["deck"]["size"] == 24
    off = new_game(players=4, seed=3).observation(2)
    assert [p["zero_five_available"] for p in off["players"]] == [False] * 4


def test_r21_zero_five_is_usable_once_per_game() -> None:
    """After seat 0 plays it, it is gone for the rest of the game, next round included."""
    game = deal(
        3,
        [["chippy", "salty"], ["jelly", "salty"], ["beans", "salty"]],
        trick=5,
        variants=ZF,
        gas=[1, 1, 1],
        removed=12,
        lead=0,
    )
    zero_five(game, 0, 0, "chippy")
    up(game, "jelly")
    up(game, "beans")  # 4 ties the jelly's 4: seat 1 wins and leads trick 6
    down(game, "salty")
    down(game, "salty")
    assert game.observation(0)["zero_five_available"] is False
    assert not any(a.type is ActionType.ZERO_FIVE for a in game.legal_actions())
    assert_illegal(game, Action.zero_five(0, 0, Suit.SALTY))
    down(game, "salty")
    assert game.to_dict()["round"] == 2
    while game.current_seat != 0:
        down(game, game.to_dict()["hands"][game.current_seat or 0][0])
    assert not any(a.type is ActionType.ZERO_FIVE for a in game.legal_actions())
    assert [p["zero_five_available"] for p in game.observation(1)["players"]] == [
        False,
        True,
        True,
    ]


# ---------------------------------------------------------------- R22 0/5 play


@pytest.mark.parametrize(
    ("gas", "removed", "other_zero_five", "allowed"),
    [
        (4, 1, False, True),
        (5, 1, False, False),  # supply must be below 5
        (4, 0, False, False),  # some gas must have been removed
        (0, 3, True, False),  # only one 0/5 card per trick
    ],
)
def test_r22_preconditions(gas: int, removed: int, other_zero_five: bool, allowed: bool) -> None:
    """Supply below 5, gas removed, and no other 0/5 card in the trick."""
    game = deal(
        3,
        [["chippy", "salty"], ["jelly", "salty"], ["beans", "salty"]],
        trick=5,
        variants=ZF,
        gas=[2, gas, 3],
        removed=removed,
        middle=15 - 5 - gas - removed,
    )
    if other_zero_five:
        zero_five(game, 0, 0, "chippy")
    else:
        up(game, "chippy")
    offered = any(a.type is ActionType.ZERO_FIVE for a in game.legal_actions())
    assert offered is allowed
    assert (seat_options(game.view(1)).zero_five is not None) is allowed
    action = Action.zero_five(0, 0, Suit.JELLY)
    if allowed:
        zero_five(game, 0, 0, "jelly")
    else:
        assert_illegal(game, action)


def _zero_five_values(game: Game) -> list[int]:
    """The values the current seat's options offer the 0/5 card at."""
    choice = seat_options(game.view(game.current_seat)).zero_five
    return [] if choice is None else [v.value for v in choice.values]


def test_r22_with_no_lap_only_as_zero() -> None:
    """0 laps: the 0/5 card can be a 0 but not a 5."""
    game = deal(
        3,
        [["chippy", "salty"], ["jelly", "salty"], ["beans", "salty"]],
        trick=5,
        variants=ZF,
        gas=[2, 2, 2],
        removed=4,
    )
    values = {a.value for a in game.legal_actions() if a.type is ActionType.ZERO_FIVE}
    assert values == {0}
    assert _zero_five_values(game) == [0]
    assert_illegal(game, Action.zero_five(5, 0, Suit.CHIPPY))


def test_r22_with_a_lap_as_zero_or_five() -> None:
    """1 lap: both values are on offer."""
    game = deal(
        3,
        [["chippy", "salty"], ["jelly", "salty"], ["beans", "salty"]],
        trick=5,
        variants=ZF,
        gas=[2, 2, 2],
        removed=4,
        laps=[1, 0, 0],
    )
    values = {a.value for a in game.legal_actions() if a.type is ActionType.ZERO_FIVE}
    assert values == {0, 5}
    assert _zero_five_values(game) == [0, 5]
    for bad in (1, 4, -5, 10):
        assert_illegal(game, Action.zero_five(bad, 0, Suit.CHIPPY))


@pytest.mark.parametrize(
    ("value", "gas", "removed", "gained", "gas_after", "removed_after"),
    [
        (0, 1, 3, 2, 3, 1),  # as 0: two removed gas
        (0, 1, 1, 1, 2, 0),  # as 0 with only one removed
        (0, 4, 3, 1, 5, 2),  # as 0 from 4: the second is removed again
        (5, 1, 3, 1, 2, 2),  # as 5: one removed gas
    ],
)
def test_r22_gains_removed_gas(
    value: int, gas: int, removed: int, gained: int, gas_after: int, removed_after: int
) -> None:
    """As 0 gain up to two removed gas, as 5 up to one; nobody goes over 5."""
    game = deal(
        3,
        [["chippy", "salty"], ["jelly", "salty"], ["beans", "salty"]],
        trick=5,
        variants=ZF,
        gas=[gas, 0, 0],
        removed=removed,
        middle=15 - gas - removed,
        laps=[1, 0, 0],
    )
    events = zero_five(game, value, 0, "chippy")
    played = of_kind(events, "zero_five_played")[0]
    assert (played["value"], played["gained"]) == (value, gained)
    view = game.observation(1)
    assert (view["players"][0]["gas"], view["removed"]) == (gas_after, removed_after)


def test_r22_gas_spent_after_the_gain_and_speed_added() -> None:
    """Gas 1 + 2 regained: spend 3 on a 0 with speed 2 → 5; 4 would be too much."""
    game = deal(
        3,
        [["chippy", "salty"], ["jelly", "salty"], ["beans", "salty"]],
        trick=5,
        variants=ZF,
        gas=[1, 0, 0],
        removed=3,
        middle=11,
        speed=[2, 0, 0],
    )
    choice = seat_options(game.view(0)).zero_five
    assert choice is not None and [(v.value, v.gas_max) for v in choice.values] == [(0, 3)]
    assert_illegal(game, Action.zero_five(0, 4, Suit.CHIPPY))
    events = zero_five(game, 0, 3, "chippy")
    assert of_kind(events, "zero_five_played")[0]["final"] == 5
    assert finals(game) == [5] and gas_of(game)[0] == 0


def test_r22_five_is_struck_by_a_lichen() -> None:
    """A 0/5 played as 5 (+ 2 gas + speed 1 = 8) drops to 3 when a lichen follows."""
    game = deal(
        3,
        [["chippy", "salty"], ["lichen", "salty"], ["beans", "salty"]],
        trick=5,
        variants=ZF,
        gas=[1, 0, 0],
        removed=3,
        middle=11,
        speed=[1, 0, 0],
        laps=[1, 0, 0],
    )
    zero_five(game, 5, 2, "chippy")  # 1 + 1 regained = 2 gas spent
    assert finals(game) == [8]
    up(game, "lichen")
    play = game.observation(2)["trick_plays"][0]
    assert (play["value"], play["effective_value"], play["final"]) == (5, 0, 3)


def test_r22_discard_is_face_down() -> None:
    """The discarded card leaves the hand unseen: its event and others' views carry no
    trace of which card it was."""

    def run(discard: str) -> tuple[str, list[int], list[str]]:
        game = deal(
            3,
            [["chippy", "slippy"], ["jelly", "salty"], ["beans", "salty"]],
            trick=5,
            variants=ZF,
            gas=[2, 2, 2],
            removed=4,
            middle=5,
        )
        events = zero_five(game, 0, 1, discard)
        assert of_kind(events, "card_discarded") == [{"kind": "card_discarded", "seat": 0}]
        assert game.to_dict()["discards"][-1] == discard
        views = [json.dumps(game.observation(s), sort_keys=True) for s in (1, 2)]
        public = json.dumps([e.to_dict() for e in events], sort_keys=True)
        return public, [len(h) for h in game.to_dict()["hands"]], [*views]

    chippy = run("chippy")
    slippy = run("slippy")
    assert chippy == slippy
    assert chippy[1] == [1, 2, 2]


def test_r22_zero_five_leaves_the_game_after_the_trick() -> None:
    """The 0/5 card goes nowhere: not to the discards, not into any later deal."""
    game = deal(
        3,
        [["chippy"], ["jelly"], ["beans"]],
        trick=6,
        variants=ZF,
        gas=[2, 2, 2],
        removed=4,
        middle=5,
    )
    zero_five(game, 0, 2, "chippy")  # the last card in hand is discarded
    down(game, "jelly")
    up(game, "beans")
    state = game.to_dict()
    assert state["round"] == 2
    assert state["zero_five"] == [False, True, True]
    assert cards_in_play(game) == deck_of(game)
    assert [len(h) for h in state["hands"]] == [6, 6, 6]


def test_r22_it_blocks_no_racer_suit_and_no_racer_suit_blocks_it() -> None:
    """A 0/5 card among face-up jelly and a 0 card: all still playable."""
    variants = Variants(zero_five=True, zero_suit="chippy")
    game = deal(
        3,
        [["jelly", "salty"], ["zero", "salty"], ["zero", "jelly"]],
        trick=5,
        variants=variants,
        gas=[2, 2, 2],
        removed=4,
        middle=5,
    )
    up(game, "jelly")
    assert any(a.type is ActionType.ZERO_FIVE for a in game.legal_actions())
    zero_five(game, 0, 0, "salty")
    assert game.observation(2)["blocked_suits"] == ["jelly"]
    up(game, "zero", effect="speed")


def test_r22_the_zero_five_card_can_win_the_trick() -> None:
    """As 5 with 2 gas it beats a chippy with 3 gas and takes the speed."""
    game = deal(
        3,
        [["chippy", "salty"], ["jelly", "salty"], ["beans", "salty"]],
        trick=5,
        variants=ZF,
        gas=[3, 1, 0],
        removed=2,
        middle=9,
        laps=[0, 1, 0],
        lead=0,
    )
    up(game, "chippy", gas=3)  # 6
    zero_five(game, 5, 2, "jelly")  # 5 + 2 = 7 (gas 1 + 1 regained)
    events = down(game, "beans")
    assert of_kind(events, "trick_won")[0] == {
        "kind": "trick_won",
        "seat": 1,
        "trick": 5,
        "final": 7,
    }
    assert speed_of(game) == [0, 1, 0]
    plays = game.observation(0)["last_trick"]["plays"]
    assert plays[1]["type"] == "zero_five" and plays[1]["suit"] is None


def test_r22_malformed_zero_five_refused() -> None:
    """No discard, a discard not in hand, a card attached, or the variant off."""
    game = deal(
        3,
        [["chippy", "salty"], ["jelly", "salty"], ["beans", "salty"]],
        trick=5,
        variants=ZF,
        gas=[2, 2, 2],
        removed=4,
        middle=5,
    )
    assert_illegal(game, Action(ActionType.ZERO_FIVE, None, 0, None, 0, None))
    assert_illegal(game, Action.zero_five(0, 0, Suit.SLIPPY))
    assert_illegal(game, Action(ActionType.ZERO_FIVE, Suit.CHIPPY, 0, None, 0, Suit.SALTY))
    off = deal(
        3,
        [["chippy", "salty"], ["jelly", "salty"], ["beans", "salty"]],
        trick=5,
        gas=[2, 2, 2],
        removed=4,
        middle=5,
    )
    assert_illegal(off, Action.zero_five(0, 0, Suit.CHIPPY))


def test_r22_zero_five_player_takes_no_tune_up_share() -> None:
    """Its discard is face down but it is not a Tune Up: the lone tuner shares alone."""
    game = deal(
        3,
        [["chippy", "salty"], ["jelly", "salty"], ["beans", "salty"]],
        trick=5,
        variants=ZF,
        gas=[1, 0, 2],
        removed=4,
        middle=8,
    )
    zero_five(game, 0, 0, "chippy")  # 1 + 2 regained = 3
    down(game, "jelly")
    events = up(game, "beans")
    share = of_kind(events, "tune_up_share")[0]
    assert (share["seats"], share["each"], share["removed"]) == ([1], 8, 3)
    assert gas_of(game) == [3, 5, 2]
