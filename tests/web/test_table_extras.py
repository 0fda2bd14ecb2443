"""The table's server-side extras: refused moves and previews that stay at the table's own
address without JavaScript, the race log on demand, suggestions with a reason and their
count, the finished race's story, seed and replay. Every route as a page and for htmx."""

from __future__ import annotations

import json
import random
import re
from dataclasses import fields as dataclass_fields
from typing import Any

import pytest
from app_kit import HX, another_browser, form_fields, start
from fastapi import Response
from fastapi.testclient import TestClient
from game_kit import reshuffle_hidden
from html_kit import parse_html
from itsdangerous import URLSafeSerializer
from starlette.requests import Request
from store_kit import StoreProbe

from app.http.web import page_state
from engine import Action, EventKind, new_game


def _is_fragment(html: str) -> bool:
    return "<html" not in html


def page_memory(client: TestClient, game_id: str) -> dict[str, Any]:
    """What the table's page memory cookie holds (the browser keeps it, not the race)."""
    raw = client.cookies.get(f"zzv_page_{game_id}")
    if raw is None:
        return {}
    data: dict[str, Any] = URLSafeSerializer("").loads_unsafe(raw)[1]
    return data


def _known_position(store: StoreProbe, game_id: str) -> None:
    """Seat 0 is to play trick 1 after Orange's Chippy, holding Salty, Chippy and Jelly."""
    game = new_game(
        players=3,
        seed=1,
        hands=[
            ["salty", "chippy", "jelly"],
            ["lichen", "chippy", "slippy"],
            ["salty", "beans", "beans"],
        ],
        lead=1,
        gas=[3, 5, 5],
        middle=2,
    )
    game.apply(Action.from_dict({"type": "play", "suit": "chippy", "gas": 1}), seat=1)
    game.apply(Action.from_dict({"type": "play", "suit": "beans", "gas": 0}), seat=2)
    with store.edit(game_id) as session:
        session.game = game


def _finish(client: TestClient, store: StoreProbe, game_id: str) -> None:
    rng = random.Random(2)
    for _ in range(400):
        session = store.get(game_id)
        if session.game.is_over:
            return
        action = rng.choice(session.game.observation(0)["legal_actions"])
        response = client.post(f"/games/{game_id}/move", data=form_fields(action, session.turn))
        assert response.status_code == 303, response.text
    raise AssertionError("the race did not end")


# ------------------------------------------------------------------ no dead ends without JS


def test_a_refused_move_comes_back_to_the_table_address_and_a_reload_still_works(
    client: TestClient, store: StoreProbe
) -> None:
    game_id = start(client, seed=5)
    _known_position(store, game_id)
    before = store.get(game_id).game.to_dict()
    fields = {"turn": "0", "choice": "up:jelly", "gas": "4"}
    refused = client.post(f"/games/{game_id}/move", data=fields)
    assert refused.status_code == 303
    assert refused.headers["location"] == f"/games/{game_id}"
    # The notice waits in the page's own memory (a signed cookie), not in the race: the
    # sentence and the player's choices.
    notice = page_memory(client, game_id)["flash"]
    assert set(notice) == {"turn", "submitted", "error"}
    assert "flash" not in store.get(game_id).to_dict()
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200
    assert 'role="alert"' in page.text and "at most 3 gas" in page.text
    assert 'value="up:jelly"' in page.text and re.search(r'value="up:jelly"[^>]*checked', page.text)
    again = client.get(f"/games/{game_id}")  # the reload: the race, without the old message
    assert again.status_code == 200 and 'id="move-form"' in again.text
    assert "at most 3 gas" not in again.text
    assert page_memory(client, game_id)["flash"] is None
    assert store.get(game_id).game.to_dict() == before


def test_a_page_memory_that_was_tampered_with_is_ignored(
    client: TestClient, store: StoreProbe
) -> None:
    game_id = start(client, seed=5)
    _known_position(store, game_id)
    fields = {"turn": "0", "choice": "up:jelly", "gas": "4"}
    assert client.post(f"/games/{game_id}/move", data=fields).status_code == 303
    name = f"zzv_page_{game_id}"
    # The forged value must replace the server's cookie, not sit beside it: same domain.
    original = next(cookie for cookie in client.cookies.jar if cookie.name == name)
    assert original.value is not None
    value = original.value.strip('"')
    signature = value.rpartition(".")[2]
    forged = URLSafeSerializer("").loads_unsafe(value)[1]
    forged["flash"]["error"] = "Someone else's words"
    forged_body = URLSafeSerializer("").dump_payload(forged).decode()
    client.cookies.set(
        name, f"{forged_body}.{signature}", domain=original.domain, path=original.path
    )
    assert [c.value for c in client.cookies.jar if c.name == name] == [f"{forged_body}.{signature}"]
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200
    assert "Someone else" not in page.text and "at most 3 gas" not in page.text


def test_a_refused_move_for_htmx_is_a_4xx_fragment(client: TestClient, store: StoreProbe) -> None:
    game_id = start(client, seed=5)
    _known_position(store, game_id)
    fields = {"turn": "0", "choice": "up:jelly", "gas": "4"}
    refused = client.post(f"/games/{game_id}/move", data=fields, headers=HX)
    assert refused.status_code == 400 and _is_fragment(refused.text)
    assert "at most 3 gas" in refused.text
    assert page_memory(client, game_id).get("flash") is None


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "htmx"])
def test_preview_shows_the_score_without_playing(
    client: TestClient, store: StoreProbe, headers: dict[str, str]
) -> None:
    game_id = start(client, seed=5)
    _known_position(store, game_id)
    before = store.get(game_id).game.to_dict()
    fields = {"turn": "0", "choice": "up:jelly", "gas": "2", "intent": "preview"}
    answer = client.post(f"/games/{game_id}/move", data=fields, headers=headers)
    if not headers:
        assert answer.status_code == 303
        answer = client.get(answer.headers["location"])
    assert answer.status_code == 200 and _is_fragment(answer.text) == bool(headers)
    assert "Jelly (4) + 2 gas scores 6: beats Orange&#39;s 4." in answer.text
    assert re.search(r'name="gas"[^>]*value="2"', answer.text)
    assert store.get(game_id).game.to_dict() == before
    assert store.get(game_id).turn == 0


# ------------------------------------------------------------------ suggestions


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "htmx"])
def test_suggest_picks_the_normal_bots_move_with_a_reason(
    client: TestClient, store: StoreProbe, headers: dict[str, str]
) -> None:
    game_id = start(client, seed=5)
    _known_position(store, game_id)
    answer = client.post(f"/games/{game_id}/move", data={"intent": "suggest"}, headers=headers)
    if not headers:
        assert answer.status_code == 303
        answer = client.get(answer.headers["location"])
    assert answer.status_code == 200
    session = store.get(game_id)
    hint = page_memory(client, game_id)["hint"]
    assert hint is not None and hint["turn"] == 0
    assert "suggestion" not in session.to_dict()
    assert json.loads(json.dumps(hint)) == hint
    assert Action.from_dict(hint["action"]) in session.game.legal_actions()
    assert 'id="suggestion"' in answer.text
    assert hint["reason"].replace("'", "&#39;") in answer.text
    choice = form_fields(hint["action"], 0)["choice"]
    assert re.search(rf'value="{choice}"[^>]*checked', answer.text)


def test_taking_the_suggestion_is_counted_and_shown_at_the_end(
    client: TestClient, store: StoreProbe
) -> None:
    game_id = start(client, seed=9)
    taken = 0
    for _ in range(400):
        session = store.get(game_id)
        if session.game.is_over:
            break
        client.post(f"/games/{game_id}/move", data={"intent": "suggest"})
        hint = page_memory(client, game_id)["hint"]
        assert hint is not None and hint["turn"] == session.turn
        legal = session.game.observation(0)["legal_actions"]
        # Follow every other suggestion; otherwise play some other legal move.
        follow = session.turn % 2 == 0 or len(legal) == 1
        action = hint["action"] if follow else next(a for a in legal if a != hint["action"])
        taken += follow
        response = client.post(f"/games/{game_id}/move", data=form_fields(action, session.turn))
        assert response.status_code == 303
    assert page_memory(client, game_id)["taken"] == taken > 0
    page = client.get(f"/games/{game_id}").text
    assert f"You took {taken} suggestion" in page


def test_no_suggestion_when_the_race_is_over(client: TestClient, store: StoreProbe) -> None:
    game_id = start(client, seed=3)
    _finish(client, store, game_id)
    answer = client.post(f"/games/{game_id}/move", data={"intent": "suggest"}, headers=HX)
    assert answer.status_code == 200
    assert 'id="suggestion"' not in answer.text
    assert page_memory(client, game_id).get("hint") is None


# ------------------------------------------------------------------ the log on demand


def test_the_table_carries_the_latest_rounds_of_the_log_and_earlier_ones_on_demand(
    client: TestClient, store: StoreProbe
) -> None:
    game_id = start(client, seed=4)
    _finish(client, store, game_id)
    last_round = store.get(game_id).game.observation(0)["round"]
    assert last_round >= 2
    table = client.get(f"/games/{game_id}", headers=HX).text
    shown = [int(n) for n in re.findall(r'<section class="log-round">\s*<h3>Round (\d+)', table)]
    assert shown and shown[0] == last_round and min(shown) > 1
    before = min(shown)
    assert f'hx-get="/games/{game_id}/log?before={before}"' in table
    assert f'href="/games/{game_id}/log"' in table
    fragment = client.get(f"/games/{game_id}/log?before={before}", headers=HX)
    assert fragment.status_code == 200 and _is_fragment(fragment.text)
    earlier = [int(n) for n in re.findall(r"<h3>Round (\d+)", fragment.text)]
    assert earlier == list(range(before - 1, 0, -1))
    page = client.get(f"/games/{game_id}/log")
    assert page.status_code == 200 and "<html" in page.text
    assert f'href="/games/{game_id}"' in page.text
    assert [int(n) for n in re.findall(r"<h3>Round (\d+)", page.text)] == list(
        range(last_round, 0, -1)
    )
    assert "HX-Request" in fragment.headers["vary"]
    assert client.get(f"/games/{game_id}/log?before=zero").status_code == 422


def test_in_the_first_round_the_table_holds_the_whole_log(client: TestClient) -> None:
    game_id = start(client, seed=4)
    table = client.get(f"/games/{game_id}", headers=HX).text
    assert '<section class="log-round">' in table and "?before=" not in table


def test_the_log_needs_the_games_cookie(client: TestClient) -> None:
    game_id = start(client, seed=4)
    client.cookies.clear()
    assert client.get(f"/games/{game_id}/log").status_code == 404
    assert client.get(f"/games/{game_id}/replay").status_code == 404


# ------------------------------------------------------------------ game over and replay


def test_game_over_tells_each_round_and_offers_the_same_deal_again(
    client: TestClient, store: StoreProbe
) -> None:
    game_id = start(client, seed=11, players=4, zero_five="on")
    _finish(client, store, game_id)
    session = store.get(game_id)
    page = client.get(f"/games/{game_id}").text
    rounds = session.game.observation(0)["round"]
    stories = parse_html(page).find("details", cls="round-stories").find_all("section")
    assert [story.find("h3").text() for story in stories] == [
        f"Round {n}" for n in range(1, rounds + 1)
    ]
    for story in stories:
        assert "round-story" in story.classes
        assert story.attrs["aria-labelledby"] == story.find("h3").attrs["id"]
        assert story.find("table", cls="story-tricks").find("tbody").find_all("tr")  # its tricks
    assert f'<b class="seed">{session.seed}</b>' in page
    form = re.search(r'<form method="post" action="/games">(.*?)</form>', page, re.S)
    assert form, page
    fields = dict(re.findall(r'name="([a-z_]+)" value="([^"]*)"', form.group(1)))
    assert fields == {
        "players": "4",
        "bots": "random",
        "zero_five": "on",
        "seed": str(session.seed),
    }
    again = client.post("/games", data=fields)
    assert again.status_code == 303
    twin = store.get(again.headers["location"].rsplit("/", 1)[1])
    assert (twin.seed, twin.config) == (session.seed, session.config)
    first_deal = new_game(players=4, seed=session.engine_seed, variants=session.config.variants)
    assert twin.game.hands[0] == first_deal.hands[0]  # the same cards in the human's hand
    assert f'href="/games/{game_id}/replay"' in page


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "htmx"])
def test_replay_steps_through_every_trick(
    client: TestClient, store: StoreProbe, headers: dict[str, str]
) -> None:
    game_id = start(client, seed=6)
    _finish(client, store, game_id)
    overview = client.get(f"/games/{game_id}/replay", headers=headers)
    assert overview.status_code == 200 and _is_fragment(overview.text) == bool(headers)
    links = sorted({int(n) for n in re.findall(r"/replay\?step=(\d+)", overview.text)} - {0})
    # Every trick, won or all tuned up, ends with its gas going to the middle (R14).
    kinds = [e.kind for e in store.get(game_id).events.events()]
    tricks = kinds.count(EventKind.GAS_TO_MIDDLE)
    assert links == list(range(1, tricks + 1)) and tricks >= 12
    first = client.get(f"/games/{game_id}/replay?step=1", headers=headers).text
    assert "round 1, trick 1" in first and 'rel="next"' in first and 'rel="prev"' not in first
    last = client.get(f"/games/{game_id}/replay?step={links[-1]}", headers=headers).text
    assert 'rel="prev"' in last and 'rel="next"' not in last
    # The bots' key is the race's: who wins is the stored race's winner, told as such.
    if store.get(game_id).game.winner == 0:
        assert "You win the race!" in last
    else:
        assert "wins the race!" in last and "You win the race!" not in last


def test_replay_refuses_a_step_that_is_not_a_number(client: TestClient) -> None:
    game_id = start(client, seed=6)
    answer = client.get(f"/games/{game_id}/replay?step=lots")
    assert answer.status_code == 422


@pytest.mark.parametrize("seed", [21, 22])
def test_replay_and_log_depend_only_on_the_public_record(
    client: TestClient, store: StoreProbe, seed: int
) -> None:
    """Hidden-information twins: the same race with every card nobody saw moved elsewhere
    (other hands, face-down Tune Ups, discards, cards set aside) gives byte-identical replay
    and log pages, at every point of the race and at the end."""
    game_id = start(client, seed=seed, players=5, zero_five="on", larger_hands="on")
    rng = random.Random(seed)
    urls = [f"/games/{game_id}/replay", f"/games/{game_id}/log"]
    checked = moved = 0
    for _ in range(400):
        session = store.get(game_id)
        step_urls = [*urls, f"/games/{game_id}/replay?step={max(1, session.turn)}"]
        original = session.game
        pages = [client.get(url).text for url in step_urls]
        for _twin in range(2):
            twin = reshuffle_hidden(original, 0, rng)
            moved += twin.to_dict() != original.to_dict()
            with store.edit(game_id) as stored:
                stored.game = twin
            assert [client.get(url).text for url in step_urls] == pages
        with store.edit(game_id) as stored:
            stored.game = original
        checked += 1
        if original.is_over:
            break
        action = rng.choice(original.observation(0)["legal_actions"])
        client.post(f"/games/{game_id}/move", data=form_fields(action, session.turn))
    assert store.get(game_id).game.is_over and checked > 10
    assert moved > 0  # the twins really differ in their hidden cards


def test_a_finished_races_replay_opens_for_anyone_with_its_link(
    client: TestClient, store: StoreProbe
) -> None:
    """Only once the race is over, and only its public record: a Tune Up stays a card
    back, nobody is "You", and each trick shows the position it left."""
    game_id = start(client, seed=6)
    stranger = another_browser(client)
    assert stranger.get(f"/games/{game_id}/replay").status_code == 404  # still racing
    _finish(client, store, game_id)
    overview = stranger.get(f"/games/{game_id}/replay")
    assert overview.status_code == 200
    assert f'href="/games/{game_id}/watch"' in overview.text
    first = stranger.get(f"/games/{game_id}/replay?step=1").text
    assert "seat-pink" in first and "</span>You<" not in first and "You " not in first
    board = first.split('class="trick replay-board"', 1)[1].split("</div>", 1)[0]
    for slot in re.findall(r'<li class="trick-slot[^"]*kind-tune_up.*?</li>', board, re.S):
        assert "card-back" in slot and "card-face" not in slot
    assert 'class="replay-position"' in first and "Middle: <b>" in first
    assert stranger.get("/games/nope/replay").status_code == 404


def test_the_page_memory_and_table_depend_only_on_what_the_seat_may_know(
    client: TestClient, store: StoreProbe
) -> None:
    """Twin races (the same deal, every card seat 0 cannot see shuffled in the second)
    give the same hint, the same page memory and the same table through Suggest, a refused
    move and a preview."""
    rng = random.Random(7)
    twins = [start(client, seed=21), start(client, seed=21)]
    first = store.get(twins[0])
    with store.edit(twins[1]) as session:  # the first race as it stands (its bots' moves too)
        session.game = reshuffle_hidden(first.game, 0, rng)
        session.events, session.moves, session.bot_key = first.events, first.moves, first.bot_key
        session.turn, session.bot_decisions = first.turn, first.bot_decisions
    assert store.get(twins[0]).game.to_dict() != store.get(twins[1]).game.to_dict()
    turn = store.get(twins[0]).turn
    asks = [
        {"intent": "suggest"},
        {"turn": str(turn), "choice": "up:jelly", "gas": "9"},
        {"turn": str(turn), "choice": "down:chippy", "gas": "0", "intent": "preview"},
    ]
    for fields in asks:
        seen = []
        for game_id in twins:
            answer = client.post(f"/games/{game_id}/move", data=fields, headers=HX)
            memory = page_memory(client, game_id)
            seen.append((answer.status_code, answer.text.replace(game_id, "ID"), memory))
        assert seen[0] == seen[1], fields


def test_every_field_of_a_page_memory_comes_back_from_its_cookie() -> None:
    kept = page_state.PageState(
        seat=2,
        flash={"turn": 7, "error": "Too much gas."},
        hint={"turn": 7, "action": {"type": "tune_up", "suit": "jelly"}, "reason": "Refuel."},
        taken=3,
    )
    response = Response()
    page_state.write(response, "g1", kept, "secret", secure=False)
    cookie = response.headers["set-cookie"].split(";")[0]
    request = Request({"type": "http", "headers": [(b"cookie", cookie.encode())]})
    assert page_state.read(request, "g1", 2, "secret") == kept
    stored = URLSafeSerializer("").loads_unsafe(cookie.partition("=")[2])[1]
    assert set(stored) == {field.name for field in dataclass_fields(page_state.PageState)}
    assert page_state.read(request, "g1", 2, "another secret") == page_state.PageState(2)
