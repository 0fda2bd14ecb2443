"""The review API: POST/GET /api/games/{id}/review, try again from here, and par.

A whole race is played through the API, reviewed to ``done`` in the real review worker
processes (with a small budget, so the test is quick), and checked entry by entry against
what the test itself played and what the public record says.
"""

from __future__ import annotations

import random
from dataclasses import asdict
from typing import Any

import pytest
from app_kit import REVIEW_WAIT_S, bearer, create, move, wait_until
from fastapi import FastAPI
from fastapi.testclient import TestClient
from store_kit import StoreProbe

from app.http.review_words import par_words
from app.races import review
from app.races.record import GameSession, decode_move
from app.races.review import Budget, Deal, Reviews
from engine import observe

BUDGET = Budget(worlds=6, candidates=4, seed=7)
TRICK_CHANCES = {"wins", "likely", "may", "cannot", "passes"}  # a reason's trick codes
"""A small review budget: the checks below hold for any budget."""


def use_small_reviews(app: FastAPI) -> Reviews:
    """Give ``app`` a review service on the small :data:`BUDGET` (one review process)."""
    reviews = Reviews(app.state.races, workers=1, budget=BUDGET, par_iterations=8)
    app.state.reviews = reviews
    return reviews


def play_random(
    client: TestClient, game_id: str, token: str, state: dict[str, Any], seed: int
) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    """Play random legal moves to the end; the last state and each (turn, action) played."""
    rng = random.Random(seed)
    played = []
    while not state["game_over"]:
        action = rng.choice(state["legal_actions"])
        played.append((state["turn"], action))
        response = move(client, game_id, token, state["turn"], action)
        assert response.status_code == 200, response.text
        state = response.json()
    return state, played


def wait_done(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    """GET the review until it is done (bounded: a hung review fails the test)."""

    def done() -> dict[str, Any] | None:
        response = client.get(f"/api/games/{game_id}/review", headers=bearer(token))
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        assert body["status"] in ("running", "done")
        assert 0.0 <= body["progress"] <= 1.0
        return body if body["status"] == "done" else None

    found = wait_until(done, "the review finishing", REVIEW_WAIT_S)
    assert found is not None
    return found


def finished_race(client: TestClient, seed: int = 21) -> tuple[str, str, list[Any]]:
    game_id, token, state = create(client, players=4, seed=seed, bots="normal")
    _, played = play_random(client, game_id, token, state, seed)
    return game_id, token, played


def test_a_whole_race_is_reviewed_decision_by_decision(
    client: TestClient, app: FastAPI, store: StoreProbe
) -> None:
    use_small_reviews(app)
    game_id, token, played = finished_race(client)
    response = client.post(f"/api/games/{game_id}/review", headers=bearer(token))
    assert response.status_code == 202, response.text
    assert response.json()["status"] in ("running", "done")
    body = wait_done(client, game_id, token)

    decisions = body["decisions"]
    assert len(decisions) == len(played), "one entry per decision of the seat"
    for entry, (turn, action) in zip(decisions, played, strict=True):
        assert entry["turn"] == turn, "in order, at the turn the move was played"
        assert entry["played"] == action, "played is what the seat played"
        assert 0.0 <= entry["played_value"] <= 1.0 and 0.0 <= entry["best_value"] <= 1.0
        assert (entry["loss"] == 0) == (entry["played"] == entry["best"])
        assert entry["loss"] == pytest.approx(
            max(0.0, entry["best_value"] - entry["played_value"]), abs=2e-4
        )
        assert entry["verdict"] == review.verdict(entry["loss"])
        assert entry["reason"] and "\n" not in entry["reason"]
        why = entry["reason_data"]  # the reason as codes and numbers, for the page's words
        assert why["stake"] == ("lap" if entry["trick"] == 6 else "speed")
        for side, value in (("played", "played_value"), ("best", "best_value")):
            assert why[side]["trick"] in TRICK_CHANCES and why[side]["gas"] >= 0
            assert why[side]["race"] == entry[value]
        assert {"round", "trick"} <= entry.keys()

    # The record's own moves of seat 0, in order, agree on every face-up card and gas.
    record = client.get(f"/api/games/{game_id}/record", headers=bearer(token)).json()
    kinds = {"card_played": "play", "tuned_up": "tune_up", "zero_five_played": "zero_five"}
    mine = [e for e in record["events"] if e["seat"] == 0 and e["kind"] in kinds]
    assert [kinds[e["kind"]] for e in mine] == [d["played"]["type"] for d in decisions]
    for event, entry in zip(mine, decisions, strict=True):
        if event["kind"] == "card_played":
            assert (event["suit"], event["gas"]) == (
                entry["played"]["suit"],
                entry["played"]["gas"],
            )

    summary = body["summary"]
    chosen = [d for d in decisions if not d["forced"]]
    assert summary["decisions"] == len(decisions) and summary["choices"] == len(chosen)
    assert summary["total_loss"] == pytest.approx(sum(d["loss"] for d in chosen), abs=1e-3)
    assert summary["accuracy"] == review.accuracy([d["loss"] for d in chosen])
    assert sum(summary["verdicts"].values()) == len(chosen)
    assert [r["round"] for r in summary["rounds"]] == sorted({d["round"] for d in decisions})
    assert summary["budget"] == asdict(BUDGET)

    # Kept with the race: the stored session holds it, as its saved form does.
    kept = store.get(game_id)
    assert GameSession.from_dict(kept.to_dict()).reviews["0"]["summary"] == summary

    # The search was told where the race's normal bots sit (review.review_told): worked
    # out again with that, every candidate's value is the same; not told, some differ.
    session = GameSession.from_dict(kept.to_dict())
    told = review.review_told(session, 0)
    assert told.normal_seats == (1, 2, 3)
    deal = Deal.of(session)
    indices = review.decisions_of(deal, 0)
    compared = [d["candidates"] for d in decisions]
    assert [
        e["candidates"] for e in review.review_moves(deal, 0, indices, BUDGET, told)
    ] == compared
    assert [e["candidates"] for e in review.review_moves(deal, 0, indices, BUDGET)] != compared


def test_a_second_request_is_served_from_the_saved_review(client: TestClient, app: FastAPI) -> None:
    use_small_reviews(app)
    game_id, token, _ = finished_race(client, seed=5)
    client.post(f"/api/games/{game_id}/review", headers=bearer(token))
    first = wait_done(client, game_id, token)
    # A new service, as after a restart: nothing in memory, the race's record has it.
    fresh = use_small_reviews(app)
    again = client.post(f"/api/games/{game_id}/review", headers=bearer(token))
    assert again.status_code == 202
    assert again.json() == first, "served at once from the saved review"
    assert fresh.in_progress("testclient") == 0, "no review was started again"
    assert client.get(f"/api/games/{game_id}/review", headers=bearer(token)).json() == first


def test_a_race_not_over_is_409_and_unknown_or_foreign_seats_404(
    client: TestClient, app: FastAPI
) -> None:
    use_small_reviews(app)
    game_id, token, _ = create(client, players=3, seed=4, bots="normal")
    for method in (client.post, client.get):
        response = method(f"/api/games/{game_id}/review", headers=bearer(token))
        assert response.status_code == 409
        assert response.json()["code"] == "race_not_over"
        assert "not over" in response.json()["message"]
    other_id, other_token, _ = create(client, players=3, seed=5, bots="normal")
    # Another race's token, and a spectator's (a bots-only race's creator sits nowhere).
    watch = client.post("/api/games", json={"players": 3, "watch": True})
    spectator_tokens = [other_token] + ([watch.json()["token"]] if watch.status_code == 201 else [])
    for foreign in spectator_tokens:
        response = client.get(f"/api/games/{game_id}/review", headers=bearer(foreign))
        assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert client.get(f"/api/games/{game_id}/review").status_code == 401
    assert other_id != game_id


def test_another_seat_never_reads_this_seats_review(client: TestClient, app: FastAPI) -> None:
    use_small_reviews(app)
    created = client.post("/api/games", json={"players": 3, "humans": 2, "seed": 8}).json()
    game_id, tokens = created["game_id"], {0: created["token"]}
    code = created["invites"][0]["code"]
    joined = client.post(f"/api/games/{game_id}/join", json={"code": code})
    assert joined.status_code == 201, joined.text
    tokens[1] = joined.json()["token"]
    rng = random.Random(3)
    state = joined.json()["state"]
    while not state["game_over"]:
        seat = state["current_seat"]
        mine = client.get(f"/api/games/{game_id}", headers=bearer(tokens[seat])).json()
        action = rng.choice(mine["legal_actions"])
        response = move(client, game_id, tokens[seat], mine["turn"], action)
        assert response.status_code == 200, response.text
        state = response.json()
    assert client.post(f"/api/games/{game_id}/review", headers=bearer(tokens[0])).status_code == 202
    other = client.get(f"/api/games/{game_id}/review", headers=bearer(tokens[1]))
    assert other.status_code == 404 and other.json()["code"] == "review_not_requested"
    done = wait_done(client, game_id, tokens[0])
    other = client.get(f"/api/games/{game_id}/review", headers=bearer(tokens[1]))
    assert other.status_code == 404, "seat 1's token reads seat 1's review only"
    record = client.get(f"/api/games/{game_id}/record", headers=bearer(tokens[0])).json()
    seat0_moves = [
        e
        for e in record["events"]
        if e["seat"] == 0 and e["kind"] in ("card_played", "tuned_up", "zero_five_played")
    ]
    assert len(done["decisions"]) == len(seat0_moves)


def test_the_per_client_cap_on_reviews_in_progress(client: TestClient, app: FastAPI) -> None:
    reviews = use_small_reviews(app)
    reviews.per_client = 1
    first, first_token, _ = finished_race(client, seed=31)
    second, second_token, _ = finished_race(client, seed=32)
    assert client.post(f"/api/games/{first}/review", headers=bearer(first_token)).status_code == 202
    if (
        client.get(f"/api/games/{first}/review", headers=bearer(first_token)).json()["status"]
        == "done"
    ):
        pytest.fail("the review finished before the cap could be seen: use a larger race")
    response = client.post(f"/api/games/{second}/review", headers=bearer(second_token))
    assert response.status_code == 429 and response.json()["code"] == "too_many_reviews"
    wait_done(client, first, first_token)
    assert (
        client.post(f"/api/games/{second}/review", headers=bearer(second_token)).status_code == 202
    )
    wait_done(client, second, second_token)


def test_try_again_from_a_reviewed_decision(
    client: TestClient, app: FastAPI, store: StoreProbe
) -> None:
    use_small_reviews(app)
    game_id, token, _ = finished_race(client, seed=12)
    early = client.post(f"/api/games/{game_id}/review/0/practice", headers=bearer(token))
    assert early.status_code == 404 and early.json()["code"] == "decision_not_reviewed"
    client.post(f"/api/games/{game_id}/review", headers=bearer(token))
    body = wait_done(client, game_id, token)
    entry = next(d for d in body["decisions"][5:] if not d["forced"])
    response = client.post(
        f"/api/games/{game_id}/review/{entry['move']}/practice", headers=bearer(token)
    )
    assert response.status_code == 201, response.text
    practice = response.json()
    state = practice["state"]
    assert state["practice"] is True and state["current_seat"] == 0
    assert (state["round"], state["trick"]) == (entry["round"], entry["trick"])
    assert entry["played"] in state["legal_actions"] and entry["best"] in state["legal_actions"]

    # The exact position: the same hidden deal as the race just before that move.
    original = store.get(game_id)
    game = Deal.of(original).fresh()
    for index, kept in enumerate(original.moves):
        if index == entry["move"]:
            break
        _kind, seat, action = decode_move(kept)
        game.apply(action, seat=seat)
    again = store.get(practice["game_id"])
    assert again.game == game and again.practice
    assert state["hand"] == observe(game, 0)["hand"]
    assert "hands" not in state, "the player still sees only their own seat"

    # Playing the better move there works like any race.
    after = move(client, practice["game_id"], practice["token"], state["turn"], entry["best"])
    assert after.status_code == 200, after.text
    # The original token does not open the practice race, nor the other way round.
    assert client.get(f"/api/games/{practice['game_id']}", headers=bearer(token)).status_code == 404


def test_par_is_in_the_record_once_computed(client: TestClient, app: FastAPI) -> None:
    use_small_reviews(app)
    game_id, token, _ = finished_race(client, seed=14)
    record = client.get(f"/api/games/{game_id}/record", headers=bearer(token)).json()
    assert "par" not in record
    client.post(f"/api/games/{game_id}/review", headers=bearer(token))
    wait_done(client, game_id, token)

    def with_par() -> dict[str, Any] | None:
        record = client.get(f"/api/games/{game_id}/record", headers=bearer(token)).json()
        return record if "par" in record else None

    record = wait_until(with_par, "the record carrying the par race", REVIEW_WAIT_S)
    assert record is not None
    par = record["par"]["0"]
    assert 1 <= par["place"] <= 4 and 0 <= par["laps"] <= 2 and par["seat"] == 0
    assert par["winner"] in range(4) and (par["winner"] == 0) == (par["laps"] == 2)
    yours = par["yours"]
    assert (yours["laps"] == 2) == (record["winner"] == 0)
    assert str(par_words(par)).startswith("You finished ")
