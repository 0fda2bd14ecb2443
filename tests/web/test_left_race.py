"""A race ended because a person left it: "Leave" lands on the race's table, which says the
race is over and what it counts for, in place of the turn it stopped at (no hand, no Play,
no clock); a later visit shows the same; a seat that stayed is told who left.

Runs against the in-process app (``client``); the browser version is in
tests/web/test_left_race_browser.py.
"""

from __future__ import annotations

import random
import re
from typing import Any

from app_kit import bare_session, bearer
from fastapi.testclient import TestClient
from game_kit import reshuffle_hidden

from app.http.web.table import table_context
from app.http.web.table_page import ended_early, lobby_context
from app.http.web.templating import templates
from app.races.operations import session_state
from engine import Game, new_game

LEFT = "You left this race."
COUNTS = "It counts as a last place in your results."
COUNTS_NOT = "It counts in no result."


def _start(client: TestClient) -> tuple[str, str]:
    started = client.post("/games", data={"players": "3", "bots": "random"})
    assert started.status_code == 303, started.text
    game_id = started.headers["location"].rsplit("/", 1)[1]
    return game_id, str(client.cookies.get(f"zzv_{game_id}"))


def _play_past_the_first_trick(client: TestClient, game_id: str, token: str) -> None:
    """The seat's first legal move each turn (the bots reply) until a trick is over."""
    state = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
    while not any(e["kind"] == "trick_won" for e in state["events"]):
        action = state["legal_actions"][0]
        answer = client.post(
            f"/api/games/{game_id}/actions",
            json={"turn": state["turn"], "action": action},
            headers=bearer(token),
        )
        assert answer.status_code == 200, answer.text
        state = client.get(f"/api/games/{game_id}?since=0", headers=bearer(token)).json()


def _status(page: str) -> str:
    found = re.search(r'<h1 id="table-status"[^>]*>([^<]*)</h1>', page)
    assert found, "the table's status line"
    return found.group(1)


def test_leaving_lands_on_the_race_s_table_saying_it_was_left(client: TestClient) -> None:
    game_id, token = _start(client)
    before = client.get(f"/games/{game_id}")
    assert 'id="move-form"' in before.text and _status(before.text) != LEFT
    _play_past_the_first_trick(client, game_id, token)

    left = client.post(f"/games/{game_id}/leave")
    assert left.status_code == 303 and left.headers["location"] == f"/games/{game_id}"
    for _visit in range(2):  # where "Leave" lands, and any later visit
        page = client.get(left.headers["location"])
        assert page.status_code == 200
        assert _status(page.text) == LEFT
        assert "<title>Race over · Zoom Zoom Vroom</title>" in page.text
        assert 'id="race-left"' in page.text and COUNTS in page.text
        assert 'id="move-form"' not in page.text, "no hand and no Play in a race left"
        assert "Your turn" not in page.text and "Tap to skip" not in page.text
        assert 'class="takeback"' not in page.text
        assert re.search(r'id="table" class="table[^"]* is-over', page.text)
    # htmx asks for the table alone: the same words.
    fragment = client.get(f"/games/{game_id}", headers={"HX-Request": "true"})
    assert _status(fragment.text) == LEFT and 'id="move-form"' not in fragment.text


def test_a_race_left_before_its_first_trick_counts_in_no_result(client: TestClient) -> None:
    game_id, _token = _start(client)
    assert client.post(f"/games/{game_id}/leave").status_code == 303
    page = client.get(f"/games/{game_id}").text
    assert _status(page) == LEFT and COUNTS_NOT in page and COUNTS not in page


def test_a_seat_that_stayed_is_told_who_left() -> None:
    session = bare_session(new_game(players=3, seed=5))
    state = session_state(session, seat=0, deliver=False)
    assert ended_early(session, state) is None, "a race in play was not left"
    session.left = [1, 2]
    ended = ended_early(session, state)
    assert ended is not None
    assert ended.headline == "This race is over."
    assert ended.line == "Orange, Yellow left before the end, so the race stopped here."
    watching = ended_early(session, session_state(session, seat=None, deliver=False))
    assert watching is not None and watching.headline == "This race is over."
    session.left = [0]
    mine = ended_early(session, state)
    assert mine is not None and mine.headline == LEFT


def _left_page(game: Game) -> str:
    session = bare_session(game)
    session.left = [0]
    state = session_state(session, seat=0, deliver=False)
    context: dict[str, Any] = {**table_context(state), **lobby_context(session, state)}
    assert context["ended"].headline == LEFT
    return templates.env.get_template("game.html").render(context)


def test_a_left_race_s_table_depends_only_on_what_the_seat_may_know() -> None:
    """Twins: the same race left mid-round, the cards the seat cannot see shuffled."""
    rng = random.Random(7)
    game = new_game(players=4, seed=11)
    for _ in range(5):  # a few tricks in, the seat to move
        game.apply(rng.choice(game.legal_actions()))
        while game.current_seat != 0:
            game.apply(rng.choice(game.legal_actions()))
    assert not game.is_over
    twin = reshuffle_hidden(game, 0, rng)
    assert twin.to_dict() != game.to_dict(), "the shuffle moved hidden cards"
    assert _left_page(twin) == _left_page(game)
