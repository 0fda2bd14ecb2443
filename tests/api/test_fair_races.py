"""Rated means fair: nobody in a rated race can know more than the rules allow.

* A race with a chosen seed is practice (its record, API state and pages say so).
* One player takes one seat of a race: a second seat for the same player (a second quick
  match request, one's own invite, another invite of a race one sits in) is refused with
  409 ``second_seat`` and changes nothing.
* Nothing that determines a hidden card (the seed, the engine seed, the bots' key, the
  commitment's salt) is in any answer about a live race, even a chosen seed: twins of one
  race that differ only in those values answer byte for byte alike until the end.
* The bots' randomness is the race's own secret: two races of one chosen deal do not meet
  the same bots' moves (unless both are given one key, as the daily's are), and what
  replays the race's bots (the review's par race) uses that same key.
* The record commits to the deal from the start and, once the race is over, reveals the
  deal seed, the salt, every action and the bots' key: replaying them in the engine gives
  the record's events exactly, and the key gives every bot's move.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import orjson
import pytest
from app_kit import another_browser, bearer, create, move, play_out
from fastapi import FastAPI
from fastapi.testclient import TestClient
from game_kit import VARIANT_COMBOS, variant_label
from store_kit import StoreProbe

from app.bots.runner import bot_seed, choose_bot_action
from app.http.previews import with_previews
from app.live.streams import follow
from app.races import operations
from app.races.record import GameConfig, decode_move
from app.races.review import Deal
from app.races.seating import slot_name
from engine import Action, EventLog, Variants, new_game
from engine.fairness import commit

BIG_SEED = 8_964_213_377_019
"""A chosen seed long enough that finding its digits in an answer is no coincidence."""


@pytest.fixture(autouse=True)
def still_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The turn clock stands still: twins' answers must not differ by its countdown."""
    monkeypatch.setattr(operations, "wall_clock", lambda: 1_000_000.0)


def player(token: str) -> dict[str, str]:
    return {"X-Player-Token": token}


def quick(client: TestClient, token: str | None = None, players: int = 4) -> Any:
    return client.post("/api/quick", json={"players": players}, headers=player(token or ""))


def record_of(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}/record", headers=bearer(token))
    assert response.status_code == 200, response.text
    record: dict[str, Any] = response.json()
    return record


# ----------------------------------------------------------------- chosen seed: practice


def test_rated_means_fair_a_chosen_seed_race_is_practice(client: TestClient) -> None:
    chosen_id, chosen_token, chosen = create(client, players=3, bots="random", seed=BIG_SEED)
    drawn_id, drawn_token, drawn = create(client, players=3, bots="random")
    assert chosen["practice"] is True and drawn["practice"] is False
    assert record_of(client, chosen_id, chosen_token)["practice"] is True
    assert record_of(client, drawn_id, drawn_token)["practice"] is False
    cookie = {"Cookie": f"zzv_{chosen_id}={chosen_token}"}
    racing = client.get(f"/games/{chosen_id}", headers=cookie).text
    assert "Practice race: nothing counts." in racing
    play_out(client, chosen_id, chosen_token, chosen, random.Random(2))
    assert record_of(client, chosen_id, chosen_token)["practice"] is True
    over = client.get(f"/games/{chosen_id}", headers=cookie).text
    assert "a chosen seed" in over and "counts in no rating" in over


def test_rated_means_fair_a_chosen_seed_race_changes_no_rating(client: TestClient) -> None:
    created = client.post("/api/games", json={"players": 3, "bots": "random", "seed": 77})
    assert created.status_code == 201, created.text
    data = created.json()
    play_out(client, data["game_id"], data["token"], data["state"], random.Random(3))
    me = client.get("/api/me", headers=player(data["player_token"])).json()
    [entry] = me["history"]
    assert entry["practice"] is True and entry["rating_after"] is None
    assert me["rating"]["races"] == 0


def test_rated_means_fair_the_start_page_form_with_a_seed_starts_practice(
    client: TestClient, store: StoreProbe
) -> None:
    made = client.post("/games", data={"players": "3", "bots": "random", "seed": "12"})
    assert made.status_code == 303
    assert store.get(made.headers["location"].rsplit("/", 1)[1]).practice is True
    plain = client.post("/games", data={"players": "3", "bots": "random", "seed": ""})
    assert store.get(plain.headers["location"].rsplit("/", 1)[1]).practice is False


# ----------------------------------------------------------------- one player, one seat


def _snapshot(store: StoreProbe, game_id: str) -> dict[str, Any]:
    return store.get(game_id).to_dict()


def test_rated_means_fair_a_second_quick_match_request_is_refused(
    client: TestClient, store: StoreProbe
) -> None:
    first = quick(client)
    assert first.status_code == 201, first.text
    mine = first.json()
    game_id = mine["game_id"]
    before = _snapshot(store, game_id)
    slot = store.run(lambda: store.store.held(slot_name(4)))

    again = quick(client, mine["player_token"])

    assert again.status_code == 409
    body = again.json()
    assert body["code"] == "second_seat" and "already have a seat in this race" in body["message"]
    assert _snapshot(store, game_id) == before
    assert store.run(lambda: store.store.held(slot_name(4))) == slot == game_id
    # Somebody else still gets the next seat of that race.
    other = quick(client)
    assert other.status_code == 201 and other.json()["game_id"] == game_id
    assert other.json()["seat"] == 1


def test_rated_means_fair_the_start_pages_second_quick_match_is_refused(
    client: TestClient, store: StoreProbe
) -> None:
    first = client.post("/quick", data={"players": "3"})
    assert first.status_code == 303
    game_id = first.headers["location"].rsplit("/", 1)[1]
    before = _snapshot(store, game_id)
    again = client.post("/quick", data={"players": "3"})  # the same browser, its cookie
    assert again.status_code == 409
    assert "already have a seat in this race" in again.text
    assert _snapshot(store, game_id) == before


def test_rated_means_fair_joining_ones_own_invite_is_refused(
    client: TestClient, store: StoreProbe
) -> None:
    created = client.post("/api/games", json={"players": 3, "humans": 2, "bots": "random"})
    data = created.json()
    game_id, code = data["game_id"], data["invites"][0]["code"]
    before = _snapshot(store, game_id)

    own = client.post(
        f"/api/games/{game_id}/join", json={"code": code}, headers=player(data["player_token"])
    )

    assert own.status_code == 409 and own.json()["code"] == "second_seat"
    assert _snapshot(store, game_id) == before
    # The invite still works for the friend it was meant for.
    friend = client.post(f"/api/games/{game_id}/join", json={"code": code})
    assert friend.status_code == 201 and friend.json()["seat"] == 1


def test_rated_means_fair_a_second_invite_of_a_race_one_sits_in_is_refused(
    client: TestClient, store: StoreProbe
) -> None:
    created = client.post("/api/games", json={"players": 4, "humans": 3, "bots": "random"})
    data = created.json()
    game_id = data["game_id"]
    first, second = (invite["code"] for invite in data["invites"])
    joined = client.post(f"/api/games/{game_id}/join", json={"code": first}).json()
    before = _snapshot(store, game_id)

    again = client.post(
        f"/api/games/{game_id}/join", json={"code": second}, headers=player(joined["player_token"])
    )

    assert again.status_code == 409 and again.json()["code"] == "second_seat"
    assert _snapshot(store, game_id) == before


def test_rated_means_fair_the_invite_page_refuses_a_browser_already_seated(
    client: TestClient, store: StoreProbe
) -> None:
    made = client.post("/games", data={"players": "3", "bots": "random", "people": "3"})
    assert made.status_code == 303
    game_id = made.headers["location"].rsplit("/", 1)[1]
    code = store.get(game_id).lobby.open_invites()[0].code
    assert code is not None
    guest = another_browser(client)
    assert guest.post(f"/games/{game_id}/join", data={"code": code}).status_code == 303
    second = store.get(game_id).lobby.open_invites()[0].code
    before = _snapshot(store, game_id)
    # The guest's seat cookie is gone (another tab, cleared cookies); its player is not.
    guest.cookies.delete(f"zzv_{game_id}")
    refused = guest.post(f"/games/{game_id}/join", data={"code": second})
    assert refused.status_code == 409 and "already have a seat in this race" in refused.text
    assert _snapshot(store, game_id) == before


# ----------------------------------------------------------------- no seed while racing


@contextmanager
def seeded_otherwise(store: StoreProbe, game_id: str) -> Iterator[None]:
    """The race with every value that determines hidden cards replaced (its seed, engine
    seed, bots' key and salt), the cards themselves left as they are; restored after."""
    kept = store.get(game_id)
    values = (kept.seed, kept.engine_seed, kept.bot_key, kept.salt)
    with store.edit(game_id) as session:
        session.seed, session.engine_seed = kept.seed ^ 0x5A5A5A, kept.engine_seed ^ 0x3C3C3C
        session.bot_key, session.salt = kept.bot_key ^ 0x777, "ab" * 16
    try:
        yield
    finally:
        with store.edit(game_id) as session:
            session.seed, session.engine_seed, session.bot_key, session.salt = values


def public_answers(client: TestClient, app: FastAPI, game_id: str, token: str) -> dict[str, Any]:
    """Every answer about the race that moves nothing: the seat's and the spectators'."""
    auth = bearer(token)
    cookie = {"Cookie": f"zzv_{game_id}={token}"}
    state = client.get(f"/api/games/{game_id}", params={"since": 0}, headers=auth)
    record = client.get(f"/api/games/{game_id}/record", headers=auth).json()
    out: dict[str, Any] = {"state": state.text, "record": record}
    stale = move(client, game_id, token, state.json()["turn"] + 5, {"type": "tune_up"})
    out["stale"] = (stale.status_code, stale.text)
    for name, path, headers in (
        ("page", f"/games/{game_id}", cookie),
        ("fragment", f"/games/{game_id}", {**cookie, "HX-Request": "true"}),
        ("watch", f"/games/{game_id}/watch", {}),
        ("watch_fragment", f"/games/{game_id}/watch", {"HX-Request": "true"}),
        ("log", f"/games/{game_id}/log", cookie),
        ("replay", f"/games/{game_id}/replay", cookie),
    ):
        answer = client.get(path, headers=headers)
        out[name] = (answer.status_code, answer.text)
    out["seat_stream"] = first_message(client, app, game_id, token)
    out["watch_stream"] = first_message(client, app, game_id, None)
    return out


def first_message(client: TestClient, app: FastAPI, game_id: str, token: str | None) -> bytes:
    """The first message of the race's live stream for ``token``'s seat (None: a
    spectator's), as the API's stream renders it."""

    def render(state: Any) -> dict[str, Any]:
        return {"event": "state", "data": orjson.dumps(with_previews(state)).decode()}

    async def first() -> bytes:
        stream = follow(app.state.races, app.state.hub, game_id, token, render)
        try:
            message = await anext(stream)
        finally:
            await stream.aclose()
        return orjson.dumps(message)

    assert client.portal is not None
    return client.portal.call(first)


def assert_seed_twins_answer_alike(
    client: TestClient, app: FastAPI, store: StoreProbe, game_id: str, token: str
) -> None:
    before = public_answers(client, app, game_id, token)
    with seeded_otherwise(store, game_id):
        after = public_answers(client, app, game_id, token)
    # The commitment is the one value the twins differ in: a salted hash, by design.
    assert before["record"].pop("commitment") != after["record"].pop("commitment")
    for key, answer in before.items():
        assert answer == after[key], f"{key} depends on the seed while racing"


def secrets_of(store: StoreProbe, game_id: str) -> list[str]:
    session = store.get(game_id)
    assert session.salt is not None
    return [str(session.seed), str(session.engine_seed), str(session.bot_key), session.salt]


@pytest.mark.parametrize("seed", [None, BIG_SEED], ids=["drawn", "chosen"])
def test_rated_means_fair_no_answer_shows_the_seed_while_racing(
    client: TestClient, app: FastAPI, store: StoreProbe, seed: int | None
) -> None:
    body: dict[str, Any] = {"players": 4, "bots": "random"}
    if seed is not None:
        body["seed"] = seed
    game_id, token, state = create(client, **body)
    rng = random.Random(4)
    checked = 0
    for step in range(300):
        if state["game_over"]:
            break
        if step % 9 == 0:
            assert_seed_twins_answer_alike(client, app, store, game_id, token)
            answers = repr(public_answers(client, app, game_id, token))
            for secret in secrets_of(store, game_id):
                assert secret not in answers
            checked += 1
        response = move(client, game_id, token, state["turn"], rng.choice(state["legal_actions"]))
        assert response.status_code == 200, response.text
        state = response.json()
    assert checked >= 2 and state["game_over"]
    # Once over, the record shows what dealt the race: the same twins now tell apart.
    before = record_of(client, game_id, token)
    with seeded_otherwise(store, game_id):
        after = record_of(client, game_id, token)
    for revealed in ("seed", "deal_seed", "bot_key"):
        assert before[revealed] != after[revealed], revealed
    assert before["bot_key"] == store.get(game_id).bot_key


def test_rated_means_fair_a_friends_race_shows_no_seed_to_any_seat(
    client: TestClient, app: FastAPI, store: StoreProbe
) -> None:
    created = client.post(
        "/api/games", json={"players": 3, "humans": 2, "bots": "random", "seed": BIG_SEED}
    ).json()
    game_id = created["game_id"]
    joined = client.post(
        f"/api/games/{game_id}/join", json={"code": created["invites"][0]["code"]}
    ).json()
    for token in (created["token"], joined["token"]):
        assert record_of(client, game_id, token)["seed"] is None
        assert_seed_twins_answer_alike(client, app, store, game_id, token)


# ----------------------------------------------------------------- the bots' own key


def _bot_moves_until_apart(
    client: TestClient, firsts: list[tuple[str, str, dict[str, Any]]]
) -> bool:
    """Play both races with the same person's moves; True once their public events
    differ (only the bots can make them differ: the deal and the person's moves agree)."""
    states = [state for _, _, state in firsts]
    for _ in range(400):
        if states[0]["events"] != states[1]["events"]:
            return True
        if states[0]["game_over"]:
            return False
        action = states[0]["legal_actions"][0]
        states = [
            move(client, game_id, token, state["turn"], action).json()
            for (game_id, token, _), state in zip(firsts, states, strict=True)
        ]
    raise AssertionError("the races did not end")


def test_rated_means_fair_bots_differ_across_rated_races_of_one_deal(
    client: TestClient, store: StoreProbe
) -> None:
    races = client.app.state.races  # type: ignore[attr-defined]
    config = GameConfig(players=5, bots="random")  # no chosen seed: rated

    async def made() -> tuple[str, str, dict[str, Any]]:
        session, state = await races.create(config, "client", engine_seed=BIG_SEED)
        return session.id, session.token, dict(with_previews(state))

    firsts = [store.run(made) for _ in range(2)]
    assert firsts[0][2]["hand"] == firsts[1][2]["hand"]  # the same deal
    assert not any(store.get(game_id).practice for game_id, _, _ in firsts)
    keys = {store.get(game_id).bot_key for game_id, _, _ in firsts}
    assert len(keys) == 2
    assert _bot_moves_until_apart(client, firsts)


def test_a_chosen_seed_races_the_same_way_every_time_as_practice(
    client: TestClient, store: StoreProbe
) -> None:
    firsts = [create(client, players=5, bots="random", seed=BIG_SEED) for _ in range(2)]
    assert all(store.get(game_id).practice for game_id, _, _ in firsts)
    assert not _bot_moves_until_apart(client, firsts)


def test_rated_means_fair_one_bot_key_gives_the_same_bots(
    client: TestClient, store: StoreProbe
) -> None:
    """What a format that needs identical bots (the daily) gets by passing one key."""
    races = client.app.state.races  # type: ignore[attr-defined]
    config = GameConfig(players=5, bots="random", seed=BIG_SEED)

    async def made() -> tuple[str, str, dict[str, Any]]:
        session, state = await races.create(config, "client", bot_key=2024)
        return session.id, session.token, dict(with_previews(state))

    firsts = [store.run(made) for _ in range(2)]
    assert {store.get(game_id).bot_key for game_id, _, _ in firsts} == {2024}
    assert not _bot_moves_until_apart(client, firsts)


def test_rated_means_fair_the_review_replays_the_bots_with_the_races_key(
    client: TestClient, store: StoreProbe
) -> None:
    game_id, token, state = create(client, players=4, bots="easy")
    play_out(client, game_id, token, state, random.Random(6))
    session = store.get(game_id)
    deal = Deal.of(session)
    assert deal.bots_key == session.bot_key != session.engine_seed
    game, decisions, checked = deal.fresh(), 0, 0
    for code in session.moves:
        kind, seat, action = decode_move(code)
        if kind == "bot":
            seed = bot_seed(deal.bots_key, seat, decisions)
            assert choose_bot_action("easy", game, seat, seed) == action
            checked += 1
        if kind != "person":
            decisions += 1
        game.apply(action, seat=seat)
    assert checked > 20


# ----------------------------------------------------------------- commitment and replay


def test_rated_means_fair_the_record_commits_to_the_deal_from_the_start(
    client: TestClient, store: StoreProbe
) -> None:
    game_id, token, _ = create(client, players=3, bots="random", seed=BIG_SEED)
    record = record_of(client, game_id, token)
    session = store.get(game_id)
    assert session.salt is not None and len(session.salt) == 32
    assert record["commitment"] == commit(session.engine_seed, session.salt)
    assert not {"deal_seed", "salt", "actions", "bot_key"} & set(record)
    other_id, other_token, _ = create(client, players=3, bots="random", seed=BIG_SEED)
    assert record_of(client, other_id, other_token)["commitment"] != record["commitment"]


def test_rated_means_fair_the_lesson_commits_to_nothing(client: TestClient) -> None:
    started = client.post("/learn")
    assert started.status_code == 303
    game_id = started.headers["location"].split("/")[2]
    token = client.cookies.get(f"zzv_{game_id}")
    assert token
    assert record_of(client, game_id, token)["commitment"] is None


def replayed_events(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The record's race dealt again from its revealed seed and played from its actions."""
    settings = record["settings"]
    variants = Variants.from_dict(settings["variants"])
    game = new_game(settings["players"], record["deal_seed"], variants)
    log = EventLog([game.deal_event()])
    for entry in record["actions"]:
        log.extend(game.apply(Action.from_dict(entry["action"]), seat=entry["seat"]))
    assert game.is_over and game.winner == record["winner"]
    return log.dicts()


# Every run replays the base game and every variant at once; each combination alone is
# the slow sweep's.
@pytest.mark.parametrize(
    "variants",
    [
        v
        if v in (VARIANT_COMBOS[0], VARIANT_COMBOS[-1])
        else pytest.param(v, marks=pytest.mark.slow)
        for v in VARIANT_COMBOS
    ],
    ids=variant_label,
)
def test_rated_means_fair_the_revealed_record_replays_the_race(
    client: TestClient, variants: Variants
) -> None:
    compared = 0
    for players in (3, 4, 5):
        for index in range(2):
            seed = 1000 * players + index if index else None
            body = {"players": players, "bots": "random", "variants": variants.to_dict()}
            game_id, token, state = create(client, **body, **({"seed": seed} if seed else {}))
            rng = random.Random(players * 10 + index)
            play_out(client, game_id, token, state, rng)
            record = record_of(client, game_id, token)
            assert record["complete"]
            assert record["commitment"] == commit(record["deal_seed"], record["salt"])
            assert replayed_events(record) == record["events"]
            compared += 1
    assert compared == 6


def test_rated_means_fair_the_revealed_bot_key_reruns_the_bots(
    client: TestClient, store: StoreProbe
) -> None:
    """From the finished record alone: every bot's move is its decision seeded by the
    revealed key, the race's own secret, not the deal's seed."""
    game_id, token, state = create(client, players=4, bots="easy", seed=BIG_SEED)
    play_out(client, game_id, token, state, random.Random(9))
    record = record_of(client, game_id, token)
    assert record["bot_key"] == store.get(game_id).bot_key != record["deal_seed"]
    variants = Variants.from_dict(record["settings"]["variants"])
    game = new_game(record["settings"]["players"], record["deal_seed"], variants)
    decisions = 0
    for entry in record["actions"]:
        seat, action = entry["seat"], Action.from_dict(entry["action"])
        if seat != 0:  # the only person sits at seat 0
            seed = bot_seed(record["bot_key"], seat, decisions)
            assert choose_bot_action("easy", game, seat, seed) == action, decisions
            decisions += 1
        game.apply(action, seat=seat)
    assert game.is_over and decisions > 20


def test_rated_means_fair_a_taken_back_race_still_replays(client: TestClient) -> None:
    game_id, token, state = create(client, players=4, bots="easy")
    rng = random.Random(8)
    for _ in range(3):
        state = move(client, game_id, token, state["turn"], rng.choice(state["legal_actions"]))
        state = state.json()
    back = client.post(f"/api/games/{game_id}/takeback", headers=bearer(token))
    assert back.status_code == 200, back.text
    play_out(client, game_id, token, back.json(), rng)
    record = record_of(client, game_id, token)
    assert record["practice"] is True
    assert replayed_events(record) == record["events"]
