"""Races with friends through the HTML forms, in process: the lobby, joining by invite
(name escaped, used and unknown invites refused with a sentence), the refresh without
JavaScript, the watch page and "Watch the bots race"."""

from __future__ import annotations

import re

from app_kit import another_browser
from fastapi import FastAPI
from fastapi.testclient import TestClient
from store_kit import StoreProbe

REFRESH = re.compile(r'<noscript><meta http-equiv="refresh" content="\d+"></noscript>')


def _create(client: TestClient, people: int = 2) -> tuple[str, list[str]]:
    response = client.post("/games", data={"players": "4", "people": str(people), "bots": "random"})
    assert response.status_code == 303, response.text
    game_id = response.headers["location"].rsplit("/", 1)[1]
    page = client.get(f"/games/{game_id}").text
    invites = re.findall(r'class="invite-url" type="text" readonly value="([^"]+)"', page)
    return game_id, invites


def test_lobby_join_and_live_table(app: FastAPI, client: TestClient, store: StoreProbe) -> None:
    game_id, invites = _create(client, people=3)
    assert len(invites) == 2 and all("/join?code=" in url for url in invites)
    lobby = client.get(f"/games/{game_id}").text
    assert 'id="start-race"' in lobby and "sse-connect" in lobby and REFRESH.search(lobby)
    creator_token = client.cookies.get(f"zzv_{game_id}")
    assert creator_token and creator_token not in lobby

    friend = another_browser(client)
    path = invites[0].split("testserver", 1)[1]
    form = friend.get(path)
    assert form.status_code == 200 and 'name="code"' in form.text
    code = path.split("code=", 1)[1]
    long_name = friend.post(f"/games/{game_id}/join", data={"code": code, "name": "x" * 25})
    assert long_name.status_code == 422 and "1 to 20" in long_name.text
    joined = friend.post(
        f"/games/{game_id}/join",
        data={"code": code, "name": "<script>x</script>"},
        follow_redirects=False,
    )
    assert joined.status_code == 303
    table = friend.get(f"/games/{game_id}").text
    assert "<script>x</script>" not in table
    assert 'id="start-race"' not in table  # only the creator starts
    # The others see the name as typed, escaped (to the friend themself the seat is "You").
    seen = client.get(f"/games/{game_id}").text
    assert "&lt;script&gt;x&lt;/script&gt;" in seen and "<script>x</script>" not in seen

    again = another_browser(client).post(f"/games/{game_id}/join", data={"code": code})
    assert again.status_code == 409 and "already used" in again.text
    unknown = another_browser(client).post(f"/games/{game_id}/join", data={"code": "nope"})
    assert unknown.status_code == 404
    assert another_browser(client).get("/games/nosuchrace/join?code=x").status_code == 404

    started = client.post(f"/games/{game_id}/start", follow_redirects=False)
    assert started.status_code == 303
    session = store.get(game_id)
    assert session.status == "playing"
    mover = session.game.current_seat
    pages = {0: client.get(f"/games/{game_id}").text, 1: friend.get(f"/games/{game_id}").text}
    for seat, page in pages.items():
        # Without JavaScript only the table that waits for somebody else reloads itself.
        assert bool(REFRESH.search(page)) == (seat != mover)
        assert ('id="move-form"' in page) == (seat == mover)


def test_watch_page_shows_no_hand_and_bots_race_on_their_own(
    client: TestClient, store: StoreProbe
) -> None:
    game_id, _invites = _create(client)
    watch = client.get(f"/games/{game_id}/watch")
    assert watch.status_code == 200
    assert "Your hand" not in watch.text and 'id="move-form"' not in watch.text
    assert f"/games/{game_id}/watch/events" in watch.text

    bots = client.post("/watch", follow_redirects=False)
    assert bots.status_code == 303
    location = bots.headers["location"]
    assert location.endswith("/watch")
    bots_id = location.split("/")[2]
    session = store.get(bots_id)
    assert session.lobby.paced and not any(s.person for s in session.lobby.seats)
    page = client.get(location).text
    assert "Your hand" not in page and "sse-connect" in page
    assert f"zzv_{bots_id}" not in bots.headers.get("set-cookie", "")


def test_the_creator_picks_a_name_and_the_lobby_says_who_it_waits_for(
    client: TestClient, store: StoreProbe
) -> None:
    fields = {"players": "4", "people": "3", "bots": "random"}
    refused = client.post("/games", data={**fields, "name": "y" * 30})
    assert refused.status_code == 422 and "1 to 20" in refused.text
    response = client.post("/games", data={**fields, "name": "  Ada  "})
    assert response.status_code == 303
    game_id = response.headers["location"].rsplit("/", 1)[1]
    assert store.get(game_id).lobby.seats[0].name == "Ada"
    lobby = client.get(f"/games/{game_id}").text
    status = re.search(r'<h1 id="table-status"[^>]*>([^<]*)</h1>', lobby)
    assert status and status.group(1) == (
        "Waiting for 2 friends to join; start now and bots take the empty seats."
    )
    # Nobody's turn before the race: not in the banner, not in the tab's title.
    assert "Your turn" not in lobby and '<b class="who seat-name">You</b>' in lobby
    assert "<title>Waiting for friends · Zoom Zoom Vroom</title>" in lobby
    invites = re.findall(r'class="invite-url" type="text" readonly value="([^"]+)"', lobby)
    friend = another_browser(client)
    code = invites[0].split("code=", 1)[1]
    friend.post(f"/games/{game_id}/join", data={"code": code, "name": "Bo"})
    waiting = friend.get(f"/games/{game_id}").text
    assert "Waiting for 1 friend to join, or for the race&#39;s creator to start it." in waiting
    client.post(f"/games/{game_id}/start")
    playing = client.get(f"/games/{game_id}").text
    assert "Waiting for" not in playing
    if store.get(game_id).game.current_seat == 0:
        assert "then the autopilot plays for you" in playing
