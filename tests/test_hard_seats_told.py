"""The server tells each hard bot which other seats are hard bots (who sits where is
public: the table shows it), never a person's seat nor the bot's own."""

from __future__ import annotations

import random

from app_kit import create, make_settings, play_out
from bot_kit import HeldSearch
from fastapi.testclient import TestClient

from app.main import create_app


def test_each_hard_search_is_told_the_other_bot_seats_and_no_person() -> None:
    search = HeldSearch()
    app = create_app(make_settings())
    search.install(app)
    with TestClient(app) as client:
        for players in (3, 5):
            search.seats.clear()
            search.hard_seats.clear()
            game_id, token, state = create(client, players=players, bots="hard", seed=7)
            play_out(client, game_id, token, state, random.Random(players))
            assert len(search.seats) > 10  # the bots searched all race long
            bots = set(range(1, players))  # the person who started the race sits in seat 0
            for seat, told in zip(search.seats, search.hard_seats, strict=True):
                assert seat in bots
                assert set(told) == bots - {seat}
