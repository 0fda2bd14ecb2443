"""No page or fragment ever shows an opponent's card or a face-down card's identity.

The property: the HTML of the table is a function of what seat 0 may know. We play many
random races (every variant mix, 3–5 players) and, at every point where the human is to
move and at the end, shuffle everything seat 0 cannot see — the opponents' hands, the
identity of face-down cards in the trick, the discards and the set-aside cards — between
their places. The full page and the htmx fragment must come out byte for byte the same.
If any template or presenter ever printed a hidden card, some shuffle would change it.
"""

from __future__ import annotations

import random
from typing import Any

from game_kit import reshuffle_hidden
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jinja2_fragments import render_block
from property_kit import examples

from app.http.web.table import table_context
from app.http.web.templating import templates
from engine import Game, Variants, new_game


def _state(game: Game, events: list[dict[str, Any]], turn: int) -> dict[str, Any]:
    state = game.observation(0)
    state.update(game_id="g", turn=turn, events=events, event_count=len(events))
    return state


def _render(game: Game, events: list[dict[str, Any]], turn: int) -> tuple[str, str]:
    context = table_context(_state(game, events, turn))
    page = templates.env.get_template("game.html").render(context)
    fragment = render_block(templates.env, "game.html", "table", context)
    return page, fragment


@settings(
    max_examples=examples(24),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    players=st.integers(3, 5),
    seed=st.integers(0, 2**32),
    larger_hands=st.booleans(),
    zero_suit=st.sampled_from([None, "chippy", "lichen", "slippy"]),
    zero_five=st.booleans(),
)
def test_table_html_depends_only_on_what_seat_0_may_know(
    players: int, seed: int, larger_hands: bool, zero_suit: str | None, zero_five: bool
) -> None:
    variants = Variants(larger_hands=larger_hands, zero_suit=zero_suit, zero_five=zero_five)  # type: ignore[arg-type]
    game = new_game(players=players, seed=seed, variants=variants)
    rng = random.Random(seed)
    events: list[dict[str, Any]] = []
    turn = 0
    checked = changed = 0
    for _ in range(2000):
        if game.current_seat in (0, None):
            original = _render(game, events, turn)
            other = reshuffle_hidden(game, 0, rng)
            changed += other.to_dict() != game.to_dict()
            assert _render(other, events, turn) == original
            checked += 1
        if game.is_over:
            break
        was_human = game.current_seat == 0
        new_events = game.apply(rng.choice(game.legal_actions()))
        events.extend(event.to_dict() for event in new_events)
        turn += was_human
    assert game.is_over
    assert checked > 5
    assert changed > 0  # the shuffles really moved hidden cards: the check is not vacuous


def test_scramble_detects_a_leak() -> None:
    """The check above can fail: a page that printed an opponent's hand would differ."""
    game = new_game(players=4, seed=3)
    other = reshuffle_hidden(game, 0, random.Random(1))
    assert other.hands[0] == game.hands[0]
    assert other.observation(0) == game.observation(0)
    leaky = templates.env.from_string("{{ hands }}")
    assert leaky.render(hands=game.hands[1:]) != leaky.render(hands=other.hands[1:])
