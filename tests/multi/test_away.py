"""Away and back, over a real server on both live stores: a person whose clock ran out twice
in a row is away, every seat and a watcher are told, a bot plays the seat at once (no clock
waits for it), and one call takes it back; a rated race that ends while a seat is away
counts for that person as left."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from app_kit import bearer
from away_kit import AWAY_AFTER, FRIEND, WAIT_SECONDS, Pair, away, launch, new_pair, wait_for
from sse_client import SseReader

PLAY_KINDS = {"card_played", "tuned_up", "zero_five_played"}


@pytest.fixture(scope="module", params=["sqlite", "redis"])
def server(
    request: pytest.FixtureRequest,
    launch_module_server: Callable[..., Any],
    live_server_env: dict[str, str],
) -> str:
    """A real server with a short turn clock on the default store or on a real Redis, one
    of each for the module (every test makes races of its own)."""
    redis_url = request.getfixturevalue("module_redis").url if request.param == "redis" else None
    return launch(launch_module_server, live_server_env, redis_url)


@pytest.fixture
def http(server: str, open_http: Callable[[str], httpx.Client]) -> Iterator[httpx.Client]:
    yield open_http(server)


def _plays(pair: Pair, seat: int) -> int:
    """How many cards ``seat`` put into tricks so far (the public record's events)."""
    record = pair.http.get(f"/api/games/{pair.game_id}/record", headers=bearer(pair.tokens[0]))
    assert record.status_code == 200, record.text
    events = record.json()["events"]
    return sum(e["kind"] in PLAY_KINDS and e["seat"] == seat for e in events)


def test_away_then_a_bot_plays_then_back(server: str, http: httpx.Client) -> None:
    pair = new_pair(http)
    seat0 = SseReader(f"{server}/api/games/{pair.game_id}/events", bearer(pair.tokens[0]))
    watcher = SseReader(f"{server}/games/{pair.game_id}/watch/events")
    try:
        assert seat0.status == 200 and watcher.status == 200
        # One timeout is not away: the autopilot moved once and the clock waits again.
        once = pair.seat_zero_plays_until(lambda s: s["seats"][1]["autopilot_moves"] == 1)
        assert not once["seats"][1]["away"]
        gone = pair.seat_zero_plays_until(away(1))
        assert gone["seats"][1]["autopilot_moves"] == AWAY_AFTER
        # Every seat and a watcher are told, the away seat itself too.
        assert away(1)(pair.state(1))
        seat0.next_state(away(1), WAIT_SECONDS)
        page = http.get(f"/games/{pair.game_id}/watch").text
        assert f"{FRIEND} is away: a bot is playing." in page and 'id="im-back"' not in page
        cookie = {"Cookie": f"zzv_{pair.game_id}={pair.tokens[1]}"}
        own = http.get(f"/games/{pair.game_id}", headers=cookie)
        assert 'id="im-back"' in own.text and f'action="/games/{pair.game_id}/back"' in own.text

        # The bot plays seat 1 at once: seat 0 never finds it to move or on the clock.
        before = _plays(pair, 1)
        for _ in range(200):
            state = pair.state(0)
            assert state["current_seat"] != 1 or state["status"] == "over"
            assert state["clock"] is None or state["clock"]["seat"] != 1
            if _plays(pair, 1) >= before + 2:
                break
            if state["current_seat"] == 0:
                pair.play(0, state)
        else:
            raise AssertionError("the bot did not play the away seat")
        assert state["seats"][1]["autopilot_moves"] == AWAY_AFTER  # a bot, not the clock

        back = http.post(f"/api/games/{pair.game_id}/back", headers=bearer(pair.tokens[1]))
        assert back.status_code == 200, back.text
        assert not back.json()["seats"][1]["away"]
        again = http.post(f"/api/games/{pair.game_id}/back", headers=bearer(pair.tokens[1]))
        assert again.status_code == 409 and again.json()["code"] == "not_away"
        assert again.json()["message"]
        seat0.next_state(lambda s: not s["seats"][1]["away"], WAIT_SECONDS)
        assert "is away" not in http.get(f"/games/{pair.game_id}/watch").text
        nobody = http.post(f"/api/games/{pair.game_id}/back")
        assert nobody.status_code in {401, 404}

        # Back, the seat is theirs: their own turn comes with their clock, and they move.
        mine = pair.seat_zero_plays_until(lambda s: s["current_seat"] == 1)
        if mine["status"] != "over":
            assert mine["clock"]["seat"] == 1
            assert pair.play(1, pair.state(1)) is not None
    finally:
        seat0.close()
        watcher.close()


def test_a_rated_race_finished_while_away_counts_as_left(http: httpx.Client) -> None:
    pair = new_pair(http)
    pair.seat_zero_plays_until(away(1))
    over = pair.seat_zero_plays_until(lambda s: s["status"] == "over")
    assert over["status"] == "over" and over["game_over"]
    assert over["seats"][1]["away"]  # nobody came back

    def history(seat: int) -> list[dict[str, Any]]:
        me = http.get("/api/me", headers={"X-Player-Token": pair.players[seat]})
        assert me.status_code == 200, me.text
        return list(me.json()["history"])

    [mine] = wait_for(lambda: history(1))
    assert mine["status"] == "left" and mine["place"] == 3 and not mine["practice"]
    [theirs] = history(0)
    assert theirs["status"] != "left"
