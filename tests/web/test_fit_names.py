"""One name per seat, standings that say their order, captions that say they explain.

- A person who chose no name (the lobby's stand-in "Player 2") is their seat's colour on
  every screen, the seat bar included; the seat bar calls each seat what the trick does
  ("You" for the reader), once; the lobby's invites name a seat by its colour.
- The standings put the most laps first, then the most gas, and their caption says so.
- A card's effect under it says it opens an explanation: an info mark, and a name like
  "0 under a 1: what does this mean?".
"""

from __future__ import annotations

import re
from typing import Any

from html_kit import parse_html

from app.http.web.labels import people_names
from app.http.web.table import table_context
from app.http.web.templating import templates
from engine import new_game


def _friends_state(names: list[str], seat: int = 0) -> dict[str, Any]:
    game = new_game(players=4, seed=3)
    state = game.observation(seat)
    state.update(game_id="g", turn=0, events=[], event_count=0)
    state["seats"] = [
        {"seat": s, "name": name, "person": s < len(names), "joined": True, "autopilot_moves": 0}
        for s, name in enumerate(names + [f"Bot {s}" for s in range(len(names), 4)])
    ]
    state["status"] = "playing"
    state["clock"] = {"seconds_left": 30.0}
    return state


def _render(state: dict[str, Any]) -> str:
    return templates.env.get_template("game.html").render(table_context(state))


def test_a_person_who_chose_no_name_is_their_colour_everywhere() -> None:
    seats = [
        {"seat": 0, "name": "Ben", "person": True},
        {"seat": 1, "name": "Player 2", "person": True},
        {"seat": 2, "name": "Bot 3", "person": False},
    ]
    assert people_names(seats) == ("Ben", None, None)
    page = _render(_friends_state(["Ben", "Player 2"], seat=0))
    assert "Player 2" not in page and "(you)" not in page
    assert _badges(page) == ["You", "Orange", "Yellow", "Blue"]
    # The friend sees the creator by the name they chose, themself as "You".
    friend = _render(_friends_state(["Ben", "Player 2"], seat=1))
    assert _badges(friend) == ["Ben", "You", "Yellow", "Blue"]


def test_a_name_that_could_mean_somebody_else_gets_its_seats_colour() -> None:
    seats = [
        {"seat": 0, "name": "Ada", "person": True},
        {"seat": 1, "name": "Bot 2", "person": False},
        {"seat": 2, "name": "ada", "person": True},
        {"seat": 3, "name": "You", "person": True},
    ]
    assert people_names(seats) == ("Ada (Pink)", None, "ada (Yellow)", "You (Blue)")
    two = [
        {"seat": 0, "name": "Ada", "person": True},
        {"seat": 1, "name": "Player 2", "person": True},
    ]
    assert people_names(two) == ("Ada", None)


def _badges(page: str) -> list[str]:
    """The seat bar's names, one per badge, in seat order."""
    return [b.text().strip() for b in parse_html(page).find_all(cls="seat-name")]


def test_standings_put_laps_then_gas_first_and_say_so() -> None:
    state = _friends_state(["Ben"])
    laps_gas = [(1, 0), (1, 5), (0, 5), (1, 3)]
    for player, (laps, gas) in zip(state["players"], laps_gas, strict=True):
        player.update(laps=laps, gas=gas)
    context = table_context(state)
    standings = [(p.numbers["laps"], p.numbers["gas"]) for p in context["standings"]]
    assert standings == [(1, 5), (1, 3), (1, 0), (0, 5)]
    html = templates.env.get_template("partials/standings.html").render(context)
    caption = re.search(r"<caption[^>]*>(.*?)</caption>", html)
    assert caption and caption.group(1) == "Standings: most laps first, then most gas"
    assert "visually-hidden" not in html.split("</caption>")[0]


def test_a_cards_effect_says_it_opens_an_explanation() -> None:
    root = parse_html(_render(_friends_state(["Ben", "Bea"], seat=_seat_to_play())))
    openers = root.find_all(cls="card-fx")
    assert openers
    for opener in openers:
        short = opener.find_all(cls="fx-short")[0].text().strip()
        assert opener.find_all(cls="fx-info"), short  # the visible mark
        hidden = opener.find_all(cls="visually-hidden")[0].text()
        assert f"{short}{hidden}" == f"{short}: what does this mean?"
        assert "aria-hidden" not in opener.find_all(cls="fx-short")[0].attrs


def _seat_to_play() -> int:
    return int(new_game(players=4, seed=3).current_seat)


def test_the_lobby_names_each_invite_by_its_seats_colour() -> None:
    html = templates.env.get_template("partials/lobby.html").render(
        invites=[{"seat": 1, "url": "http://x/join?code=a"}], obs={"seat": 0}, game_id="g"
    )
    assert "Invite link for Orange" in html and "Seat 2" not in html
