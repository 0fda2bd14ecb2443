"""The move form works without JavaScript: every legal move can be entered with it, and
what it submits is read back into exactly that move.

We render the table for many random positions (all variants) and read the form the way a
browser with scripts off would: the radio values, select options and the gas field's
bounds. Each legal action must be reachable through those controls and parse back to
itself; nothing the form offers may be illegal.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from app_kit import form_fields
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_kit import examples

from app.http.web.forms import SubmittedMove, read_move
from app.http.web.table import table_context
from app.http.web.templating import templates
from engine import Action, Variants, new_game


class FormReader(HTMLParser):
    """Collects the controls of ``#move-form``: radio values, select options, gas bounds."""

    def __init__(self) -> None:
        super().__init__()
        self.radios: dict[str, set[str]] = {}
        self.options: dict[str, set[str]] = {}
        self.gas: dict[str, str] = {}
        self.hidden: dict[str, str] = {}
        self._select: str | None = None
        self._in_form = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("id") == "move-form":
            self._in_form = True
        if not self._in_form:
            return
        if tag == "input" and a.get("type") == "radio":
            self.radios.setdefault(a["name"], set()).add(a["value"])
        elif tag == "input" and a.get("type") == "hidden":
            self.hidden[a["name"]] = a["value"]
        elif tag == "input" and a.get("name") == "gas":
            self.gas = a
        elif tag == "select":
            self._select = a["name"]
            self.options[a["name"]] = set()
        elif tag == "option" and self._select:
            self.options[self._select].add(a["value"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "form":
            self._in_form = False


def _read_form(game: Any, turn: int) -> FormReader:
    state = game.observation(0)
    state.update(game_id="g", turn=turn, events=[])
    html = templates.env.get_template("game.html").render(table_context(state))
    reader = FormReader()
    reader.feed(html)
    return reader


def _check_position(game: Any, turn: int) -> None:
    form = _read_form(game, turn)
    assert form.hidden["turn"] == str(turn)
    gas_max = int(form.gas["max"])
    assert form.gas["min"] == "0"
    legal = game.legal_actions()
    reachable_choices = set()
    for action in legal:
        data = action.to_dict()
        fields = form_fields(data, turn)
        reachable_choices.add(fields["choice"])
        assert fields["choice"] in form.radios["choice"], data
        assert int(fields["gas"]) <= gas_max, data
        if "zero_effect" in fields:
            assert fields["zero_effect"] in form.radios["zero_effect"], data
        if "zf_value" in fields:
            assert fields["zf_value"] in form.radios["zf_value"], data
            assert fields["discard"] in form.options["discard"], data
        parsed = read_move(fields)
        assert parsed.turn == turn
        assert Action.from_dict(parsed.action) == action
    # Nothing offered is a dead end: every card choice on the page leads to a legal move.
    assert form.radios["choice"] == reachable_choices


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(3, 5),
    seed=st.integers(0, 2**32),
    larger_hands=st.booleans(),
    zero_suit=st.sampled_from([None, "chippy", "salty"]),
    zero_five=st.booleans(),
    stop=st.integers(0, 120),
)
def test_every_legal_move_can_be_entered_without_javascript(
    players: int,
    seed: int,
    larger_hands: bool,
    zero_suit: str | None,
    zero_five: bool,
    stop: int,
) -> None:
    variants = Variants(larger_hands=larger_hands, zero_suit=zero_suit, zero_five=zero_five)  # type: ignore[arg-type]
    game = new_game(players=players, seed=seed, variants=variants)
    rng = random.Random(seed)
    turn = 0
    for step in range(2000):
        if game.is_over:
            return
        if game.current_seat == 0:
            if step >= stop:
                _check_position(game, turn)
                return
            turn += 1
        game.apply(rng.choice(game.legal_actions()))


def test_zero_five_and_zero_suit_controls_are_offered_when_legal() -> None:
    variants = Variants(zero_suit="chippy", zero_five=True)
    game = new_game(
        players=3,
        seed=1,
        variants=variants,
        hands=[["zero", "salty"], ["lichen", "jelly"], ["beans", "slippy"]],
        lead=0,
        gas=[3, 5, 5],
        middle=0,
        removed=2,
        laps=[1, 0, 0],
    )
    form = _read_form(game, 0)
    assert {"up:zero", "down:zero", "zero_five"} <= form.radios["choice"]
    assert form.radios["zero_effect"] == {"speed", "gas"}
    assert form.radios["zf_value"] == {"0", "5"}
    assert form.options["discard"] == {"zero", "salty"}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"choice": "up:salty"}, "out of date"),
        ({"turn": "x", "choice": "up:salty"}, "out of date"),
        ({"turn": "0"}, "Pick a card first"),
        ({"turn": "0", "choice": "up:salty", "gas": "-1"}, "Gas must be"),
        ({"turn": "0", "choice": "up:zero", "zero_effect": "nitro"}, "0 card's effect"),
        ({"turn": "0", "choice": "zero_five", "zf_value": "five"}, "0/5 card as 0 or as 5"),
        ({"turn": "0", "choice": "down:"}, "not one the table offers"),
    ],
)
def test_unreadable_move_forms_get_a_sentence(fields: dict[str, str], message: str) -> None:
    error = read_move(fields).error
    assert error is not None and re.search(message, error)


def test_fields_that_do_not_apply_are_ignored() -> None:
    """With scripts off every control is submitted; only the chosen card's ones count."""
    parsed = read_move(
        {"turn": "3", "choice": "down:jelly", "gas": "4", "zero_effect": "gas", "zf_value": "5"}
    )
    assert parsed.turn == 3
    assert Action.from_dict(parsed.action) == Action.tune_up("jelly")  # type: ignore[arg-type]
    assert parsed.submitted == SubmittedMove("down:jelly", None, 0)
    parsed = read_move({"turn": "0", "choice": "up:salty", "gas": "", "zero_effect": "speed"})
    assert parsed.action == {"type": "play", "suit": "salty", "gas": 0, "zero_effect": None}
    assert parsed.submitted == SubmittedMove("up:salty", None, 0)
    parsed = read_move({"turn": "0", "choice": "up:zero", "gas": "2", "zero_effect": "speed"})
    assert parsed.submitted == SubmittedMove("up:zero", "speed", 2)
