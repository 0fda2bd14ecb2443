"""Hidden information never leaks through a take-back: the twin test.

Two races are dealt alike except for hidden cards: in the twin, two bots swap a card each
that they still hold untouched, so every recorded action is still legal there and every
public fact (the log, the person's hand, every face-up card, the numbers) is equal. The
same take-backs must then get byte-identical answers in both, the table pages included:
a take-back that showed anything computed from a hidden card would differ.
"""

from __future__ import annotations

import copy
import random
from itertools import combinations
from typing import Any

from app_kit import bearer, move
from fastapi.testclient import TestClient
from store_kit import StoreProbe

from app.races.record import GameConfig, GameSession, decode_move
from engine import EventLog, Game, IllegalAction


def replay(start: dict[str, Any], moves: list[int]) -> tuple[Game, EventLog] | None:
    """The game and public log that ``moves`` give from ``start`` (None: one is illegal)."""
    game = Game.from_dict(start)
    events = EventLog([game.deal_event()])
    try:
        for code in moves:
            _kind, seat, action = decode_move(code)
            events.extend(game.apply(action, seat=seat))
    except IllegalAction:
        return None
    return game, events


def hidden_card_twin(session: GameSession) -> tuple[dict[str, Any], Game] | None:
    """A deal where two bots swapped one untouched card each, with the same public history
    under the same recorded actions; None when no swap keeps it."""
    dealt = session.dealt().to_dict()
    bots = range(1, session.game.players)
    for first, second in combinations(bots, 2):
        held_first = set(session.game.hands[first])
        held_second = set(session.game.hands[second])
        for x in sorted(held_first, key=str):
            for y in sorted(held_second, key=str):
                if x == y:
                    continue
                deal = copy.deepcopy(dealt)
                hands = deal["hands"]
                hands[first][hands[first].index(x.value)] = y.value
                hands[second][hands[second].index(y.value)] = x.value
                replayed = replay(deal, session.moves)
                if replayed is None:
                    continue
                game, events = replayed
                if events == session.events and game != session.game:
                    return deal, game
    return None


def normalised(text: str, game_id: str) -> str:
    return text.replace(game_id, "GAME")


def answers_to_takebacks(client: TestClient, game_id: str, token: str) -> list[Any]:
    """The answers to three take-backs in a row, each followed by the seat's API state
    and table page (HTML and htmx fragment)."""
    auth = bearer(token)
    cookie = {"Cookie": f"zzv_{game_id}={token}"}
    out: list[Any] = []
    for _ in range(3):
        answer = client.post(f"/api/games/{game_id}/takeback", headers=auth)
        out.append((answer.status_code, normalised(answer.text, game_id)))
        state = client.get(f"/api/games/{game_id}", params={"since": 0}, headers=auth)
        out.append(normalised(state.text, game_id))
        out.append(normalised(client.get(f"/games/{game_id}", headers=cookie).text, game_id))
        fragment = client.get(f"/games/{game_id}", headers={**cookie, "HX-Request": "true"})
        out.append(normalised(fragment.text, game_id))
    return out


def play_two_cards(client: TestClient, store: StoreProbe, seed: int) -> tuple[str, str]:
    """A race of ``seed``'s deal whose bots' key is ``seed`` too (so two such races meet
    the same bots), after two random cards of the person's."""
    races = client.app.state.races  # type: ignore[attr-defined]
    config = GameConfig(players=5, bots="easy", seed=seed)

    async def made() -> tuple[GameSession, Any]:
        return await races.create(config, "testclient", bot_key=seed)

    session, state = store.run(made)
    game_id, token = session.id, session.token
    rng = random.Random(seed)
    for _ in range(2):
        state = move(client, game_id, token, state["turn"], rng.choice(state["legal_actions"]))
        state = state.json()
    return game_id, token


def test_twin_deals_answer_takebacks_alike(client: TestClient, store: StoreProbe) -> None:
    compared = 0
    for seed in (3, 17, 40):
        original_id, original_token = play_two_cards(client, store, seed)
        twin_id, twin_token = play_two_cards(client, store, seed)
        session = store.get(twin_id)
        twin = hidden_card_twin(session)
        if twin is None:
            continue
        deal, game = twin
        assert deal != session.dealt().to_dict()  # the hidden cards really differ
        with store.edit(twin_id) as edited:
            edited.start, edited.game = deal, game
        before = store.get(twin_id).game
        assert before.hands != store.get(original_id).game.hands

        original = answers_to_takebacks(client, original_id, original_token)
        twinned = answers_to_takebacks(client, twin_id, twin_token)

        assert [a[0] for a in original[::4]] == [200, 200, 409]
        for index, (mine, theirs) in enumerate(zip(original, twinned, strict=True)):
            assert mine == theirs, f"answer {index} depends on hidden cards"
        # The twin really was taken back on its own (hidden) deal, not the original's.
        assert store.get(twin_id).game != store.get(original_id).game
        compared += 1
    assert compared >= 2


def test_the_twin_check_sees_a_leak(client: TestClient, store: StoreProbe) -> None:
    """The comparison is sensitive: an answer that names a bot's hand would differ."""
    original_id, _ = play_two_cards(client, store, 3)
    twin_id, _ = play_two_cards(client, store, 3)
    twin = hidden_card_twin(store.get(twin_id))
    assert twin is not None
    deal, game = twin
    with store.edit(twin_id) as edited:
        edited.start, edited.game = deal, game
    hands = {
        g: [sorted(map(str, h)) for h in store.get(g).game.hands] for g in (original_id, twin_id)
    }
    assert hands[original_id][0] == hands[twin_id][0]  # the person's own hand is the same
    assert hands[original_id][1:] != hands[twin_id][1:]  # a bot's hand in an answer would show
