"""The rules page states the points players asked about (docs/rules.md R6, R15, R19, R20, R22)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient


def _text(client: TestClient) -> str:
    response = client.get("/rules")
    assert response.status_code == 200
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.text))


@pytest.mark.parametrize(
    "fact",
    [
        "the very first trick of a race is drawn at random",  # R6
        "this game decides that the player who led that last trick leads again",  # R6
        "If everyone tunes up in trick 6 there is no winner, so nobody takes a lap",  # R15
        "the 0 must take the +1 speed",  # R20
        "With Larger Hands the racers get no extra copies; six 0 cards",  # R19
        "back up to two removed gas",  # R22
        "not a Slippy: it blocks no racer and no racer blocks it",  # R22
    ],
)
def test_rules_page_states(client: TestClient, fact: str) -> None:
    assert fact in _text(client)
