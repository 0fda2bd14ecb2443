"""What the pages of a race with friends say.

Its people are named as they chose, escaped, wherever a seat is named: the status line,
the racetrack, the trick, the "what just happened" list, the race log, the round stories,
the replay, the move form's "best so far" and the hints. Bots keep their colours; the
reader is still "You". At the end, "race this deal again" starts a race with friends again
(new invites) and "rematch" offers the same people a race, never silently one against
bots."""

from __future__ import annotations

import random
import re
from typing import Any

from app_kit import another_browser, bearer, create, move, play_out
from fastapi.testclient import TestClient
from store_kit import StoreProbe

from app.http.deps import cookie_name
from app.http.web.labels import Viewer, people_names, seat_name
from app.http.web.narration import narrate
from app.http.web.suggest import preview_sentence, reason
from engine import new_game

NAME = "Bea <3"
ESCAPED = "Bea &lt;3"
SAID = r"(plays|tunes|discards|wins|grabs|moves|completes)"
"""Verbs of the sentences that name a racer (third person)."""


def test_a_viewer_names_people_by_their_names_and_bots_by_colour() -> None:
    """A person who chose no name (the lobby's stand-in "Player 1") is their colour."""
    seats = [
        {"seat": 0, "name": "Player 1", "person": True},
        {"seat": 1, "name": NAME, "person": True},
        {"seat": 2, "name": "Bot 3", "person": False},
    ]
    creator = Viewer(0, people_names(seats))
    guest = Viewer(1, people_names(seats))
    won = {"kind": "trick_won", "seat": 1, "trick": 2, "final": 9}
    assert narrate(won, creator) == f"{NAME} wins trick 2 with 9."
    assert narrate(won, guest) == "You win trick 2 with 9."
    assert narrate(won, 0) == "Orange wins trick 2 with 9."  # a bare seat knows no names
    assert seat_name(2, creator) == "Yellow" and seat_name(0, guest) == "Pink"
    share = {
        "kind": "tune_up_share",
        "seat": None,
        "seats": [0, 1, 2],
        "each": 1,
        "gained": [1, 0, 1],
        "middle_before": 3,
        "removed": 0,
    }
    assert narrate(share, guest) == (
        "Tune Up payout: Pink, You and Yellow split the 3 gas in the middle, 1 each "
        "(You only had room for 0)."
    )


def test_hints_and_previews_name_the_card_to_beat_by_its_owner() -> None:
    game = new_game(players=3, seed=5)
    lead = game.current_seat
    assert lead is not None
    face_up = [a for a in game.legal_actions() if a.to_dict()["type"] == "play"]
    game.apply(face_up[0])
    me = game.current_seat
    assert me is not None and me != lead
    obs = game.observation(me)
    names: list[str | None] = [None, None, None]
    names[lead] = "Ada"
    reader = Viewer(me, tuple(names))
    action = next(a.to_dict() for a in game.legal_actions() if a.to_dict()["type"] == "play")
    assert "Ada's" in preview_sentence(obs, action, reader)
    assert "Ada's" in reason(obs, action, reader)
    colour = seat_name(lead, me)
    assert f"{colour}'s" in preview_sentence(obs, action)  # no names known: the colour


def _friends_race(client: TestClient) -> tuple[str, dict[int, str]]:
    """A 3-seat race: the creator, a guest called ``NAME`` and one bot."""
    # A fixed deal: every run plays the same race, so a failure can be replayed.
    body = {"players": 3, "humans": 2, "bots": "random", "seed": 11}
    created = client.post("/api/games", json=body)
    assert created.status_code == 201, created.text
    body = created.json()
    [invite] = body["invites"]
    joined = client.post(
        f"/api/games/{body['game_id']}/join", json={"code": invite["code"], "name": NAME}
    )
    assert joined.status_code == 201, joined.text
    return body["game_id"], {0: body["token"], 1: joined.json()["token"]}


def _state(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}", headers=bearer(token))
    assert response.status_code == 200, response.text
    return dict(response.json())


def _browser(client: TestClient, game_id: str, token: str) -> TestClient:
    """A client holding one seat's cookie, as that person's browser would."""
    browser = another_browser(client)
    browser.cookies.set(cookie_name(game_id), token)
    return browser


def _step(client: TestClient, game_id: str, tokens: dict[int, str], rng: random.Random) -> None:
    """The person to move plays a random legal move (face up when they can)."""
    state = _state(client, game_id, tokens[0])
    mover = state["current_seat"]
    mine = _state(client, game_id, tokens[mover])
    face_up = [a for a in mine["legal_actions"] if a["type"] == "play"]
    action = rng.choice(face_up or mine["legal_actions"])
    assert move(client, game_id, tokens[mover], mine["turn"], action).status_code == 200


def _finish(client: TestClient, game_id: str, tokens: dict[int, str]) -> None:
    rng = random.Random(8)
    while not _state(client, game_id, tokens[0])["game_over"]:
        _step(client, game_id, tokens, rng)


def _race_again_form(page: str) -> dict[str, str]:
    """The hidden fields of the "race this deal again" form on a finished table."""
    form = page.split('<div class="race-again">', 1)[1].split("</form>", 1)[0]
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form))


def test_race_this_deal_again_after_friends_is_with_friends(
    client: TestClient, store: StoreProbe
) -> None:
    game_id, tokens = _friends_race(client)
    _finish(client, game_id, tokens)
    seed = store.get(game_id).seed
    guest = _browser(client, game_id, tokens[1])
    page = guest.get(f"/games/{game_id}").text
    assert "Race this deal again with friends" in page and "new invite links" in page
    assert 'id="rematch"' in page and "Same people and settings" in page
    fields = _race_again_form(page)
    assert fields["people"] == "2" and fields["seed"] == str(seed)

    again = guest.post("/games", data=fields)
    assert again.status_code == 303
    new_id = again.headers["location"].rsplit("/", 1)[1]
    new = store.get(new_id)
    assert new.config.seed == seed and new.lobby.people() == 2 and new.status == "waiting"
    lobby = guest.get(f"/games/{new_id}").text  # the presser starts it, with an invite to send
    assert 'id="start-race"' in lobby and len(re.findall('class="invite-url"', lobby)) == 1

    rematch = guest.post(f"/games/{game_id}/rematch")
    assert rematch.status_code == 303
    fresh = store.get(rematch.headers["location"].rsplit("/", 1)[1])
    assert fresh.lobby.people() == 2 and fresh.config.seed is None
    assert fresh.status == "waiting" and fresh.lobby.seats[2].joined  # the guest, one round on

    watch = client.get(f"/games/{game_id}/watch").text  # a spectator races it alone
    assert "Race this deal yourself, against bots" in watch
    assert "people" not in _race_again_form(watch)


def test_race_this_deal_again_after_a_solo_race_is_unchanged(client: TestClient) -> None:
    game_id, token, state = create(client, players=3, bots="random")
    play_out(client, game_id, token, state, random.Random(2))
    solo = another_browser(client)
    solo.cookies.set(cookie_name(game_id), token)
    page = solo.get(f"/games/{game_id}").text
    assert ">Race this deal again</button>" in page and "with friends" not in page
    assert "people" not in _race_again_form(page)


def test_every_page_names_the_guest_and_the_creator(client: TestClient) -> None:
    game_id, tokens = _friends_race(client)
    creator, guest = _browser(client, game_id, tokens[0]), _browser(client, game_id, tokens[1])
    rng = random.Random(3)
    checked_best = False
    for _ in range(400):
        state = _state(client, game_id, tokens[1])
        if state["game_over"]:
            break
        best = state["best"]
        if state["current_seat"] == 1 and best and best["seat"] == 0 and not checked_best:
            page = guest.get(f"/games/{game_id}").text
            # The guest's move form says whose card is best: the creator's (named by their
            # colour: they chose no name), not "You".
            assert 'data-best-who="Pink"' in page and 'data-best-who="You"' not in page
            assert "Your turn: beat Pink&#39;s" in page
            assert "Player 1" not in page
            checked_best = True
        if state["current_seat"] == 1 and not checked_best:
            assert f"{ESCAPED} is thinking" in creator.get(f"/games/{game_id}").text
        _step(client, game_id, tokens, rng)
    else:
        raise AssertionError("the race did not end")
    assert checked_best

    pages = {
        "creator": creator.get(f"/games/{game_id}").text,
        "watch": client.get(f"/games/{game_id}/watch").text,
        "log": creator.get(f"/games/{game_id}/log").text,
        "replay": creator.get(f"/games/{game_id}/replay").text,
        "trick": creator.get(f"/games/{game_id}/replay?step=1").text,
    }
    for where, page in pages.items():
        assert NAME not in page, where  # always escaped
        # The replay's table of tricks names each trick's winner and their total.
        taken = rf'{ESCAPED}</td><td class="num">\d+'
        named = rf"(?:{ESCAPED} {SAID}|{taken})" if where == "replay" else rf"{ESCAPED} {SAID}"
        assert re.search(named, page), where
        assert not re.search(rf"\bOrange {SAID}", page), where  # a named person is no colour
        assert "Player 1" not in page, where  # one name per seat: the unnamed one's colour
    for where in ("creator", "watch", "log"):
        assert re.search(rf"Yellow {SAID}", pages[where]), where  # the bot keeps its colour
    assert re.search(rf"Pink {SAID}", pages["watch"])  # nobody is "You" to a spectator
    assert re.search(r"You (play|tune)", pages["creator"])
    stories = pages["creator"].split('id="game-over-title"', 1)[1]
    assert f"</span>{ESCAPED}</th>" in stories  # the round stories' gas table
    guest_page = guest.get(f"/games/{game_id}").text
    assert re.search(rf"Pink {SAID}", guest_page) and re.search(r"You (play|tune)", guest_page)
