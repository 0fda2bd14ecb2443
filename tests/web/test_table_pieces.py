"""How the table is put together: the explanations that sit in the page once, outside the
``#table`` fragment each move swaps; the pieces kept by their arguments
(:func:`app.http.web.templating.piece`); and the log and feed told from one narration.

The browser side (each explanation opens on top, readable, from the table's buttons) is
``test_explain.py``; the byte-for-byte check that hidden cards never reach the HTML is
``test_hidden_cards.py``.
"""

from __future__ import annotations

import random
from typing import Any

from html_kit import EXPLANATION_KINDS, Element, parse_html
from jinja2 import Environment
from jinja2_fragments import render_block

from app.http.web.labels import SUITS, Viewer
from app.http.web.narration import narrate
from app.http.web.table import PlayerView, table_context
from app.http.web.templating import piece, templates
from app.http.web.timeline import log_rounds, recent_item
from engine import Game, Variants, new_game, shapes


def _state(game: Game, events: list[dict[str, Any]], turn: int) -> dict[str, Any]:
    state = game.observation(0)
    state.update(game_id="g", turn=turn, events=events, event_count=len(events))
    # A race with a friend on the clock, so the seat bar's clock explanation shows too.
    state["seats"] = [
        {"seat": s, "name": f"P{s}", "person": s < 2, "joined": True, "autopilot_moves": 0}
        for s in range(game.players)
    ]
    state["status"] = "playing"
    state["clock"] = {"seconds_left": 30.0}
    return state


def _popovers(root: Element) -> list[str]:
    return [e.attrs["id"] for e in root.find_all(cls="explain-pop")]


def _openers(root: Element) -> set[str]:
    return {e.attrs["popovertarget"] for e in root.find_all("button") if "popovertarget" in e.attrs}


def _races_to_seat_0s_turns(seed: int) -> list[dict[str, Any]]:
    """States of a 0/5 race (4 players) at each turn of seat 0, played at random."""
    game = new_game(players=4, seed=seed, variants=Variants(zero_five=True, zero_suit="chippy"))
    rng = random.Random(seed)
    events: list[dict[str, Any]] = []
    states, turn = [], 0
    while not game.is_over:
        if game.current_seat == 0:
            states.append(_state(game, list(events), turn))
            turn += 1
        events.extend(e.to_dict() for e in game.apply(rng.choice(game.legal_actions())))
    return states


def test_every_explanation_the_table_opens_is_in_the_page_once_and_not_in_the_fragment() -> None:
    opened: set[str] = set()
    for state in _races_to_seat_0s_turns(seed=5)[:12]:
        context = table_context(state)
        page = parse_html(templates.env.get_template("game.html").render(context))
        fragment = parse_html(render_block(templates.env, "game.html", "table", context))
        ids = _popovers(page)
        assert len(ids) == len(set(ids)), "every explanation is in the page once"
        targets = _openers(fragment)
        assert targets <= set(ids), targets - set(ids)
        # The fragment a move swaps carries only what depends on the trick: why a card is
        # blocked; the terms' and the card effects' explanations stay in the page.
        assert all(i.startswith("ex-why-") for i in _popovers(fragment)), _popovers(fragment)
        assert [i for i in ids if i.startswith("ex-why-")] == _popovers(fragment)
        opened |= targets
    kinds = {t.removeprefix("ex-").split("-")[0] for t in opened}
    assert EXPLANATION_KINDS - {"why"} <= kinds


def test_the_explanations_of_the_page_say_what_each_card_does() -> None:
    page = parse_html(
        templates.env.get_template("game.html").render(
            table_context(_races_to_seat_0s_turns(seed=2)[0])
        )
    )
    pops = {e.attrs["id"]: e.text() for e in page.find_all(cls="explain-pop")}
    for info in SUITS.values():
        assert info.effect in pops[f"ex-fx-{info.id}"], info.id
    assert pops["ex-fx-lichen"].startswith(SUITS["lichen"].racer + ", the 1 ")
    assert "removed" in pops["ex-removed"].lower()


def _lane(name: str, gas: int) -> PlayerView:
    numbers: shapes.PlayerView = {
        "seat": 1,
        "gas": gas,
        "speed": 2,
        "laps": 1,
        "hand_size": 4,
        "zero_five_available": True,
    }
    return PlayerView(
        numbers=numbers,
        name=name,
        colour="orange",
        is_you=False,
        is_lead=True,
        is_turn=False,
        is_winner=False,
    )


def test_a_piece_is_its_macro_kept_by_its_arguments() -> None:
    module = templates.env.get_template("partials/pieces.html").module
    lane = _lane("Ada", gas=3)
    shown = piece("pieces:lane", lane, 6, True)
    assert shown == module.lane(lane, 6, True)
    assert piece("pieces:lane", _lane("Ada", gas=3), 6, True) is shown  # equal views: kept
    other = piece("pieces:lane", _lane("Ada", gas=4), 6, True)
    assert other != shown and "4 gas" in other
    lanes = parse_html(str(shown)).find_all("li", cls="lane")
    assert len(lanes) == 1 and "3 gas" in lanes[0].text()


def test_a_piece_escapes_what_people_typed() -> None:
    shown = str(piece("pieces:lane", _lane("<b>Ada</b>", gas=3), 6, False))
    assert "<b>Ada</b>" not in shown and "&lt;b&gt;Ada&lt;/b&gt;" in shown


def test_the_log_and_the_feed_told_once_read_as_told_apart() -> None:
    states = _races_to_seat_0s_turns(seed=9)
    events = states[-1]["events"]
    me = Viewer(0, ("Ada", None, "Bo", None))
    lines = [narrate(event, me) for event in events]
    assert log_rounds(events, me, lines) == log_rounds(events, me)
    items = [recent_item(e, line) for e, line in zip(events[5:], lines[5:], strict=True)]
    assert [item.text for item in items] == [narrate(event, me) for event in events[5:]]
    assert len(lines) == len(events) and any(line.startswith("Bo ") for line in lines)


def test_a_dicts_keys_and_methods_read_in_a_template_as_jinja_reads_them() -> None:
    source = (
        "{{ d.round }}|{{ d.items()|list|length }}|{{ d.missing is defined }}|{{ d.get('x', 5) }}"
    )
    seen = {"round": 3, "items": "shadowed", "x": 7}
    ours = templates.env.from_string(source).render(d=seen)
    assert ours == Environment().from_string(source).render(d=seen) == "3|3|False|7"
