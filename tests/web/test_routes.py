"""Every HTML route, as a full page and as an htmx fragment, including refused input.

A refused move must answer with a clear sentence inside the table (htmx: a 4xx fragment;
without JavaScript: a 303 back to the table's address, which then shows it) and leave the race
exactly as it was; a good move answers 303 back to the table without JavaScript and the
new ``#table`` fragment with it.
"""

from __future__ import annotations

import random
import re

import pytest
from app_kit import HX, form_fields, session_of, start
from fastapi.testclient import TestClient
from html_kit import parse_html
from httpx import Response
from store_kit import ManualClock, StoreProbe

from app.http.previews import with_previews
from engine import Game, new_game


def _is_fragment(html: str) -> bool:
    return html.lstrip().startswith('<section id="table"') and "<html" not in html


def _snapshot(store: StoreProbe, game_id: str) -> tuple[int, dict[str, object], int]:
    session = session_of(store, game_id)
    return session.turn, session.game.to_dict(), len(session.events)


def _finish(client: TestClient, store: StoreProbe, game_id: str, seed: int = 1) -> None:
    """Play random legal moves through the form until the race ends."""
    rng = random.Random(seed)
    for _ in range(400):
        session = session_of(store, game_id)
        if session.game.is_over:
            return
        action = rng.choice(session.game.observation(0)["legal_actions"])
        response = client.post(f"/games/{game_id}/move", data=form_fields(action, session.turn))
        assert response.status_code == 303, response.text
    raise AssertionError("the race did not end")


# ----------------------------------------------------------------------------- static pages


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "htmx"])
def test_start_page_offers_race_now_and_settings(
    client: TestClient, headers: dict[str, str]
) -> None:
    response = client.get("/", headers=headers)
    assert response.status_code == 200
    assert "HX-Request" in response.headers["vary"].split(", ")
    html = response.text
    assert "Race now" in html
    for name in (
        "players",
        "bots",
        "larger_hands",
        "zero_suit",
        "zero_replaces",
        "zero_five",
        "seed",
    ):
        assert f'name="{name}"' in html
    assert 'href="/rules"' in html
    assert '<meta name="htmx-config"' in html
    assert re.search(r'<script src="/static/vendor/htmx-2\.\d+\.\d+\.min\.js\?v=[0-9a-f]+"', html)


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "htmx"])
def test_rules_page_covers_racers_examples_and_faq(
    client: TestClient, headers: dict[str, str]
) -> None:
    response = client.get("/rules", headers=headers)
    assert response.status_code == 200
    html = response.text
    for heading in ("The racers", "Worked examples", "FAQ", "After the trick", "Variants"):
        assert heading in html
    for racer in ("Lichen the Sasquatch", "Slippy the Salmon", "Beans the Possum"):
        assert racer in html


def test_pages_have_no_inline_script_style_or_handlers(client: TestClient) -> None:
    game_id = start(client)
    for url in ("/", "/rules", f"/games/{game_id}"):
        html = client.get(url).text
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), url
        assert " style=" not in html and "<style" not in html, url
        assert not re.search(r"\son[a-z]+=", html), url
        assert "hx-on" not in html, url


# ----------------------------------------------------------------------------- creating races


def test_race_now_redirects_to_the_table_and_sets_the_cookie(client: TestClient) -> None:
    response = client.post("/games", data={"players": "4", "bots": "random"})
    assert response.status_code == 303
    location = response.headers["location"]
    game_id = location.rsplit("/", 1)[1]
    assert f"zzv_{game_id}" in client.cookies
    page = client.get(location)
    assert page.status_code == 200
    lanes = parse_html(page.text).find("ol", cls="lanes").find_all("li", cls="lane")
    assert len(lanes) == 4  # one lane per racer, each in a seat colour of its own
    colours = [{c for c in lane.classes if c.startswith("seat-")} for lane in lanes]
    assert all(len(colour) == 1 for colour in colours) and len(set.union(*colours)) == 4
    assert [lane for lane in lanes if "is-you" in lane.classes] == lanes[:1]
    assert all(lane.find("b", cls="lane-name").text() for lane in lanes)


def test_settings_form_builds_the_chosen_race(client: TestClient, store: StoreProbe) -> None:
    game_id = start(
        client,
        players=5,
        bots="easy",
        larger_hands="on",
        zero_suit="on",
        zero_replaces="slippy",
        zero_five="on",
        seed=42,
    )
    session = session_of(store, game_id)
    assert session.config.players == 5
    assert session.config.bots == "easy"
    assert session.config.seed == 42
    variants = session.game.core.variants.to_dict()
    assert variants == {"larger_hands": True, "zero_suit": "slippy", "zero_five": True}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"players": "9"}, "Choose 3, 4 or 5 racers."),
        ({"players": "4", "bots": "genius"}, "Choose a bot strength"),
        ({"players": "4", "seed": "-3"}, "The seed must be a whole number"),
        ({"players": "4", "seed": "abc"}, "The seed must be a whole number"),
        ({"players": "4", "zero_suit": "on", "zero_replaces": "dragon"}, "Choose which racer"),
    ],
)
def test_bad_settings_are_explained_on_the_start_page(
    client: TestClient, store: StoreProbe, fields: dict[str, str], message: str
) -> None:
    response = client.post("/games", data=fields)
    assert response.status_code == 422
    assert message in response.text
    assert 'role="alert"' in response.text
    assert store.run(store.store.count) == 0


@pytest.mark.parametrize(
    ("path", "fields"),
    [
        ("/quick", {"players": "\u00b2"}),
        ("/games", {"players": "\u00b2"}),
        ("/cup/\u00b2", {}),
        ("/cup/replay/2026-W01/\u00b2", {}),
    ],
    ids=["quick", "settings", "cup", "past-cup"],
)
def test_a_digit_that_is_no_number_is_refused_in_words(
    client: TestClient, store: StoreProbe, path: str, fields: dict[str, str]
) -> None:
    """ "\u00b2" passes ``str.isdigit`` but not ``int``: a refusal, never a 500."""
    response = client.post(path, data=fields, headers={"accept": "text/html"})
    assert 400 <= response.status_code < 500, response.text
    assert 'role="alert"' in response.text
    assert store.run(store.store.count) == 0


# ----------------------------------------------------------------------------- the table


def test_table_page_and_fragment(client: TestClient) -> None:
    game_id = start(client)
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200
    assert "HX-Request" in page.headers["vary"].split(", ")
    assert page.text.startswith("<!doctype html>")
    assert "<title>Your turn · Zoom Zoom Vroom</title>" in page.text
    assert 'aria-live="polite"' in page.text
    fragment = client.get(f"/games/{game_id}", headers=HX)
    assert fragment.status_code == 200
    assert "HX-Request" in fragment.headers["vary"].split(", ")
    assert _is_fragment(fragment.text)
    assert 'data-title="Your turn · Zoom Zoom Vroom"' in fragment.text
    assert 'id="move-form"' in fragment.text


def test_refresh_returns_to_the_same_race(client: TestClient, store: StoreProbe) -> None:
    game_id = start(client)
    first = client.get(f"/games/{game_id}").text
    second = client.get(f"/games/{game_id}").text
    assert first == second
    links = parse_html(client.get("/").text).find_all("a")
    resume = [a for a in links if a.attrs.get("href") == f"/games/{game_id}"]
    assert [a.text() for a in resume] == ["Continue your race"]


@pytest.mark.parametrize(
    ("path", "form"),
    [("/games", {"players": "4", "bots": "random"}), ("/daily", {}), ("/quick", {"players": "3"})],
    ids=["new-race", "daily", "strangers"],
)
def test_every_way_into_a_race_seats_the_browser_and_remembers_it(
    client: TestClient, path: str, form: dict[str, str]
) -> None:
    """A new race, the daily deal and a race with strangers all answer with the table and
    the same three cookies: the seat's token, the player's, the latest race."""
    response = client.post(path, data=form)
    assert response.status_code == 303
    game_id = response.headers["location"].removeprefix("/games/")
    assert {f"zzv_{game_id}", "zzv_player", "zzv_last"} <= set(client.cookies.keys())
    assert client.cookies["zzv_last"] == game_id
    assert client.get(f"/games/{game_id}").status_code == 200  # the seat's cookie opens it
    links = parse_html(client.get("/").text).find_all("a")
    resume = [a for a in links if a.attrs.get("href") == f"/games/{game_id}"]
    assert [a.text() for a in resume] == ["Continue your race"]


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "htmx"])
def test_unknown_race_or_missing_cookie_is_404(client: TestClient, headers: dict[str, str]) -> None:
    game_id = start(client)
    assert client.get("/games/nope", headers=headers).status_code == 404
    client.cookies.clear()
    response = client.get(f"/games/{game_id}", headers=headers)
    assert response.status_code == 404
    assert "We could not find this race" in response.text


def test_opening_a_forms_address_as_a_page_says_it_has_none(client: TestClient) -> None:
    """A bookmark or a shared link to where a button posts (the quick match's) gets a
    sentence a person understands and a way on, not an HTTP method's name."""
    response = client.get("/quick", headers={"accept": "text/html"})
    assert response.status_code == 405 and response.headers["allow"] == "POST"
    main = parse_html(response.text).find("main")
    assert main is not None
    heading = main.find("h1")
    assert heading is not None and heading.text() == (
        "This address is where a button sends its form; it has no page of its own."
    )
    assert any(a.attrs.get("href") == "/" for a in main.find_all("a"))


def test_expired_race_is_410_with_a_way_back(
    client: TestClient, clock: ManualClock, settings: object
) -> None:
    game_id = start(client)
    clock.now += 10_000
    response = client.get(f"/games/{game_id}")
    assert response.status_code == 410
    assert "cleared from the track" in response.text
    assert 'action="/games"' in response.text
    htmx = client.post(f"/games/{game_id}/move", data={"turn": "0", "choice": "x"}, headers=HX)
    assert htmx.status_code in (404, 410)
    assert htmx.headers.get("hx-refresh") == "true"


@pytest.mark.parametrize("path", ["", "/learn"], ids=["table", "lesson"])
def test_a_gone_race_takes_its_seat_cookie_with_it(
    client: TestClient, clock: ManualClock, path: str
) -> None:
    """The table's page (and the lesson's) of a race cleared from the track forgets the
    seat's cookie; the race's other addresses only say it is gone."""
    game_id = start(client)
    clock.now += 10_000
    move = client.post(f"/games/{game_id}/move", data={"turn": "0", "choice": "x"})
    assert move.status_code == 410 and "set-cookie" not in move.headers
    page = client.get(f"/games/{game_id}{path}")
    assert page.status_code == 410
    assert page.headers["set-cookie"].startswith(f'zzv_{game_id}=""; ')
    assert f"zzv_{game_id}" not in client.cookies


# ----------------------------------------------------------------------------- moves


def test_good_move_without_js_redirects_back(client: TestClient, store: StoreProbe) -> None:
    game_id = start(client)
    session = session_of(store, game_id)
    action = session.game.observation(0)["legal_actions"][0]
    response = client.post(f"/games/{game_id}/move", data=form_fields(action, 0))
    assert response.status_code == 303
    assert response.headers["location"] == f"/games/{game_id}"
    assert session_of(store, game_id).turn == 1
    page = client.get(f"/games/{game_id}").text
    assert "Since your last card" in page


def test_good_move_with_htmx_returns_the_table_to_animate(
    client: TestClient, store: StoreProbe
) -> None:
    game_id = start(client)
    action = session_of(store, game_id).game.observation(0)["legal_actions"][-1]
    response = client.post(f"/games/{game_id}/move", data=form_fields(action, 0), headers=HX)
    assert response.status_code == 200
    assert "HX-Request" in response.headers["vary"].split(", ")
    assert _is_fragment(response.text)
    assert 'data-animate="true"' in response.text
    assert response.text.count('class="feed-item') >= 1
    assert 'name="turn" value="1"' in response.text or "is-over" in response.text


def _set_position(store: StoreProbe, game_id: str) -> None:
    """Put the race in a known spot: seat 0 leads trick 4 holding Salty, Chippy and Jelly."""
    with store.edit(game_id) as session:
        session.game = _known_position()


def _known_position() -> Game:
    return new_game(
        players=3,
        seed=1,
        hands=[
            ["salty", "chippy", "jelly"],
            ["lichen", "beans", "slippy"],
            ["salty", "chippy", "beans"],
        ],
        lead=0,
        gas=[3, 5, 5],
        middle=2,
    )


BAD_MOVES = [
    ("unknown card", {"turn": "0", "choice": "up:dragon"}, 422, "There is no card called"),
    ("no card", {"turn": "0", "gas": "0"}, 422, "Pick a card first"),
    ("garbled choice", {"turn": "0", "choice": "sideways"}, 422, "not one the table offers"),
    ("gas not a number", {"turn": "0", "choice": "up:chippy", "gas": "lots"}, 422, "Gas must be"),
    ("too much gas", {"turn": "0", "choice": "up:chippy", "gas": "4"}, 400, "at most 3 gas"),
    (
        "too much even with Salty",
        {"turn": "0", "choice": "up:salty", "gas": "5"},
        400,
        "at most 4 gas",
    ),
    ("card not in hand", {"turn": "0", "choice": "up:lichen"}, 400, "You have no"),
    (
        "forged extra field",
        {"turn": "0", "choice": "up:chippy", "seat": "2"},
        422,
        "field this page does not have",
    ),
    (
        "a turn still to come",
        {"turn": "7", "choice": "up:chippy"},
        409,
        "That move is for turn 7, which has not come yet",
    ),
]


def _seen(client: TestClient, answer: Response, htmx_status: int) -> Response:
    """What the person sees of a refused form post: without JavaScript the table the 303
    leads back to; with htmx the answer itself, with ``htmx_status``."""
    if answer.request.headers.get("HX-Request") is None:
        assert answer.status_code == 303
        return client.get(answer.headers["location"])
    assert answer.status_code == htmx_status
    return answer


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "htmx"])
def test_bad_moves_are_explained_and_change_nothing(
    client: TestClient, store: StoreProbe, headers: dict[str, str]
) -> None:
    game_id = start(client, seed=5)
    _set_position(store, game_id)
    for name, fields, status, message in BAD_MOVES:
        before = _snapshot(store, game_id)
        response = client.post(f"/games/{game_id}/move", data=fields, headers=headers)
        if not headers:
            # Without JavaScript the answer is the table at its own address (POST, 303, GET).
            assert response.status_code == 303, name
            assert response.headers["location"] == f"/games/{game_id}", name
            response = client.get(response.headers["location"])
            status = 200
        assert response.status_code == status, name
        assert message in response.text, (name, response.text[:400])
        assert 'role="alert"' in response.text, name
        assert _is_fragment(response.text) == bool(headers), name
        assert 'id="move-form"' in response.text, name  # the player can try again at once
        assert _snapshot(store, game_id) == before, name


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "htmx"])
def test_a_move_sent_twice_is_played_once(
    client: TestClient, store: StoreProbe, headers: dict[str, str]
) -> None:
    """A double tap or an old tab sends the same turn again: the second is refused with
    the table as it is now, and nothing more is played."""
    game_id = start(client, seed=5)
    _set_position(store, game_id)
    fields = {"turn": "0", "choice": "up:chippy", "gas": "0"}
    first = client.post(f"/games/{game_id}/move", data=fields, headers=headers)
    assert first.status_code in (200, 303)
    before = _snapshot(store, game_id)
    posted = client.post(f"/games/{game_id}/move", data=fields, headers=headers)
    again = _seen(client, posted, 409)
    assert "That move was for an earlier turn" in again.text
    assert 'role="alert"' in again.text and 'id="move-form"' in again.text
    assert _snapshot(store, game_id) == before


def test_blocked_suit_is_not_offered_face_up_and_refused_if_forced(
    client: TestClient, store: StoreProbe
) -> None:
    for seed in range(60):
        game_id = start(client, seed=seed, players=5)
        obs = with_previews(session_of(store, game_id).game.observation(0))
        blocked = [o for o in obs["card_options"] if not o["can_play_face_up"]]
        if blocked:
            break
    else:
        pytest.fail("no seed gave a blocked suit in hand")
    suit = blocked[0]["suit"]
    page = client.get(f"/games/{game_id}").text
    assert f'value="up:{suit}"' not in page
    assert f'value="down:{suit}"' in page
    assert blocked[0]["blocked_reason"] in page.replace("&#39;", "'")
    before = _snapshot(store, game_id)
    response = client.post(f"/games/{game_id}/move", data={"turn": "0", "choice": f"up:{suit}"})
    assert response.status_code == 303
    assert "already face up" in client.get(response.headers["location"]).text
    assert _snapshot(store, game_id) == before


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "htmx"])
def test_moves_after_the_race_are_refused(
    client: TestClient, store: StoreProbe, headers: dict[str, str]
) -> None:
    game_id = start(client, seed=3)
    _finish(client, store, game_id)
    session = session_of(store, game_id)
    page = client.get(f"/games/{game_id}", headers=headers).text
    assert "Rematch" in page and 'href="/"' in page
    assert 'id="move-form"' not in page
    before = _snapshot(store, game_id)
    fields = {"turn": str(session.turn), "choice": "down:salty"}
    posted = client.post(f"/games/{game_id}/move", data=fields, headers=headers)
    response = _seen(client, posted, 400)
    assert "The race is over" in response.text
    assert _snapshot(store, game_id) == before


def test_rematch_starts_a_new_race_with_the_same_settings(
    client: TestClient, store: StoreProbe
) -> None:
    game_id = start(client, players=4, bots="easy", zero_five="on", seed=11)
    _finish(client, store, game_id, seed=2)
    response = client.post(f"/games/{game_id}/rematch")
    assert response.status_code == 303
    new_id = response.headers["location"].rsplit("/", 1)[1]
    assert new_id != game_id
    old, new = session_of(store, game_id), session_of(store, new_id)
    assert new.config.players == old.config.players == 4
    assert new.config.bots == "easy"
    assert new.config.variants == old.config.variants
    assert new.config.seed is None  # a fresh deal
    assert client.get(f"/games/{new_id}").status_code == 200


def test_whole_race_through_plain_forms(client: TestClient, store: StoreProbe) -> None:
    """Without JavaScript every move is a form post and a 303; the race reaches its end."""
    game_id = start(client, seed=8)
    _finish(client, store, game_id, seed=8)
    page = client.get(f"/games/{game_id}").text
    assert "chequered flag" in page.lower()
    assert "game-over" in page


def test_a_take_back_with_a_turn_that_is_no_number_still_takes_back(
    client: TestClient, store: StoreProbe
) -> None:
    game_id = start(client)
    session = session_of(store, game_id)
    action = session.game.observation(0)["legal_actions"][0]
    client.post(f"/games/{game_id}/move", data=form_fields(action, session.turn))
    played = session_of(store, game_id).turn
    response = client.post(f"/games/{game_id}/takeback", data={"at_turn": "\u00b2"})
    assert response.status_code == 303, response.text
    assert session_of(store, game_id).turn < played
