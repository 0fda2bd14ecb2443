"""A seat's options (engine.options): what it may do now and why not, read off its view.

Their meaning: a card may go face up exactly when a legal play of it exists, the numbers
they give are the ones the card then scores, every legal action is accepted and every
other one refused with a code of the one table (engine.refusals.REASONS), which the web
layer words. Their secrecy: two deals that differ only in cards the seat cannot see give
it the same options and the same refusals.
"""

from __future__ import annotations

import pytest
from game_kit import VARIANT_COMBOS, hidden_twin, random_positions, variant_label

from app.http.race_words import refusal_sentence
from engine import Action, ActionType, Game, SeatView, Suit, Variants, new_game, observe
from engine.options import SeatOptions, observed_options, seat_options
from engine.refusals import REASONS, RULE_OF, Refusal
from engine.rng import Rng
from engine.sim import ACTIONS


def _final_after(game: Game, action: Action) -> tuple[int | None, dict[str, int] | None]:
    """The final number ``action`` scores once played, and the best other card then."""
    seat = game.current_seat
    assert seat is not None
    after = game.clone()
    after.apply(action)
    # The last trick's record when the action completed it, else the trick in progress.
    plays = after.observation(seat)["trick_plays"]
    if not plays or plays[-1]["seat"] != seat:
        record = after.to_dict()["last_trick"]
        assert record is not None
        plays = record["plays"]
    mine = plays[-1]
    others = [p for p in plays[:-1] if p["final"] is not None]
    best = None
    for play in others:
        if best is None or play["final"] > best["final"]:
            best = {"seat": play["seat"], "final": play["final"]}
    return mine["final"], best


@pytest.mark.parametrize("variants", VARIANT_COMBOS, ids=variant_label)
def test_the_options_are_the_legal_set_grouped_by_card(variants: Variants) -> None:
    """Every card in hand has one choice; it may go face up exactly when a legal play of
    it exists, its gas range and 0 rewards are those of the legal plays, and the final
    number and the card to beat it announces are the ones playing it gives."""
    for players in (3, 4, 5):
        for game in random_positions(players, variants, seed=players, count=60, stride=2):
            seat = game.current_seat
            assert seat is not None
            options = seat_options(game.view(seat))
            legal = game.legal_actions()
            assert [c.suit for c in options.cards] == list(dict.fromkeys(game.hand(seat)))
            for card in options.cards:
                ups = [a for a in legal if a.type is ActionType.PLAY and a.suit is card.suit]
                assert card.face_up is bool(ups)
                assert (card.why_not is None) is bool(ups)
                for action in ups:
                    assert action.gas <= card.most_gas(action.zero_effect)
                    final, best = _final_after(game, action)
                    assert final == card.final(action.gas, action.zero_effect)
                    shown = card.best_other
                    assert best == (None if shown is None else shown.to_dict())
                if ups:
                    assert {e for e, _ in card.rewards} == {
                        a.zero_effect for a in ups if a.zero_effect is not None
                    }
                    for effect, most in card.rewards:
                        assert most == max(a.gas for a in ups if a.zero_effect is effect)
            fives = [a for a in legal if a.type is ActionType.ZERO_FIVE]
            choice = options.zero_five
            assert (choice is None) is (not fives) is (options.zero_five_refusal is not None)
            for action in fives[:: max(1, len(fives) // 4)]:
                assert choice is not None
                played = choice.at(action.value)
                assert played is not None and action.gas <= played.gas_max
                final, best = _final_after(game, action)
                assert final == played.effective_value + choice.speed + action.gas
                shown = choice.best_other
                assert best == (None if shown is None else shown.to_dict())


@pytest.mark.parametrize("variants", VARIANT_COMBOS, ids=variant_label)
def test_the_options_accept_exactly_the_legal_actions(variants: Variants) -> None:
    """Over the whole action table, an action is accepted exactly when it is legal; every
    refusal is a code of the one table, with the parameters it names, and has a sentence."""
    for game in random_positions(4, variants, seed=11, count=40, stride=3):
        options = seat_options(game.view(game.current_seat))
        legal = set(game.legal_actions())
        for action in ACTIONS:
            refusal = options.why_not(action)
            assert (refusal is None) is (action in legal)
            if refusal is not None:
                rule, names = RULE_OF[refusal.code]
                assert refusal.rule == rule and tuple(refusal.as_dict()) == names
                assert refusal == game.why_illegal(action)
                assert refusal_sentence(refusal)


def test_a_seat_not_to_move_has_no_options_and_is_told_so() -> None:
    game = new_game(players=4, seed=8)
    seat = game.current_seat
    assert seat is not None
    waiting = seat_options(game.view((seat + 1) % 4))
    assert waiting == SeatOptions((seat + 1) % 4, seat)
    refusal = waiting.why_not(game.legal_actions()[0])
    assert refusal == Refusal.of("not_your_turn", seat=str((seat + 1) % 4), current=seat)
    assert seat_options(game.view(None)).cards == ()


@pytest.mark.parametrize("variants", VARIANT_COMBOS, ids=variant_label)
def test_a_seats_options_never_depend_on_cards_it_cannot_see(variants: Variants) -> None:
    """Twin deals, apart in every card the seat to move cannot see (the other hands, the
    cards laid face down, the discards, the cards set aside, and the seed of later deals):
    its view is the same, and so are its options and the refusal of every action."""
    rng = Rng(5)
    compared = 0
    for players in (3, 4, 5):
        for game in random_positions(players, variants, seed=20 + players, count=40, stride=3):
            seat = game.current_seat
            assert seat is not None
            twin = hidden_twin(game, seat, rng)
            if twin is None:
                continue
            assert twin.to_dict() != game.to_dict() and twin.view(seat) == game.view(seat)
            assert seat_options(twin.view(seat)) == seat_options(game.view(seat))
            for action in ACTIONS[:: 1 + rng.below(5)]:
                assert twin.why_illegal(action) == game.why_illegal(action)
            compared += 1
    assert compared > 50


def test_the_options_of_a_view_sent_as_json_are_the_options_of_the_view() -> None:
    """What the web layer reads (a view's JSON form) gives the options the view gives."""
    for game in random_positions(5, VARIANT_COMBOS[-1], seed=3, count=60):
        for seat in range(5):
            shown = observe(game, seat)
            assert observed_options(shown) == seat_options(game.view(seat))
            assert seat_options(SeatView.from_observation(shown)) == seat_options(game.view(seat))


def test_r7_a_card_whose_suit_is_face_up_is_refused_face_up_by_its_rule() -> None:
    game = new_game(players=3, seed=1, lead=0, hands=[["jelly", "beans"]] * 3, trick=5)
    game.apply(Action.play(Suit.JELLY, 1))
    options = seat_options(game.view(1))
    jelly, beans = options.card(Suit.JELLY), options.card(Suit.BEANS)
    assert jelly is not None and beans is not None
    assert jelly.why_not == Refusal.of("suit_face_up", suit="jelly") and beans.face_up
    assert jelly.why_not.as_json() == {"code": "suit_face_up", "rule": "R7", "suit": "jelly"}
    assert jelly.best_other is not None and jelly.best_other.to_dict() == {"seat": 0, "final": 5}
    assert options.why_not(Action.play(Suit.JELLY)) == jelly.why_not
    assert options.why_not(Action.tune_up(Suit.JELLY)) is None


def test_r9_a_first_lichen_names_the_cards_it_cuts_and_counts_them_cut() -> None:
    game = new_game(players=3, seed=1, lead=0, hands=[["slippy", "lichen"]] * 3, trick=5)
    game.apply(Action.play(Suit.SLIPPY, 2))
    lichen = seat_options(game.view(1)).card(Suit.LICHEN)
    assert lichen is not None and lichen.cuts == (0,)
    assert lichen.best_other is not None and lichen.best_other.final == 2  # 0 + 2 gas + 0


def test_r22_the_zero_five_card_is_refused_for_the_first_reason_that_holds() -> None:
    game = new_game(
        players=3, seed=1, lead=0, variants=Variants(zero_five=True), gas=[5, 4, 4], middle=0
    )
    assert seat_options(game.view(0)).zero_five_refusal == Refusal.of("zero_five_tank_full")
    action = Action.zero_five(5, 0, game.hand(0)[0])
    assert game.why_illegal(action) == Refusal.of("zero_five_tank_full")
    game.apply(Action.tune_up(game.hand(0)[0]))
    options = seat_options(game.view(1))
    assert options.zero_five is not None and [v.value for v in options.zero_five.values] == [0]
    assert options.why_not(Action.zero_five(5, 0, game.hand(1)[0])) == Refusal.of(
        "zero_five_needs_lap"
    )
    game.apply(Action.zero_five(0, 0, game.hand(1)[0]))
    assert seat_options(game.view(2)).zero_five_refusal == Refusal.of("zero_five_in_trick")


def test_every_refusal_of_the_table_has_its_rule_and_a_sentence() -> None:
    """The one table names each code once, under a rule of docs/rules.md (or none, for an
    input that is not an action); each code has a sentence in the web layer's catalog."""
    codes = [code for codes in REASONS.values() for code in codes]
    assert len(codes) == len(set(codes)) == len(RULE_OF)
    samples: dict[str, str | int] = {"suit": "jelly", "seat": "2", "current": 1, "most": 3}
    samples |= {"fields": "colour", "name": "joker", "field": "suit"}
    for code, (rule, names) in RULE_OF.items():
        assert rule is None or rule in {f"R{n}" for n in range(1, 23)}
        refusal = Refusal.of(code, **{name: samples[name] for name in names})
        assert refusal.rule == rule and refusal_sentence(refusal)
    with pytest.raises(KeyError):
        Refusal.of("no_such_code")
    with pytest.raises(KeyError):
        Refusal.of("card_not_in_hand")  # the code names its suit
