"""The API answers in the caller's language: ``Accept-Language`` picks the language of every
``message``, while its ``code`` and ``reason`` (what a bot reads) stay the same in every
language, and the refused move changes nothing."""

from __future__ import annotations

import pytest
from app_kit import bearer, create, move
from fastapi.testclient import TestClient

from app.http import i18n

pytestmark = pytest.mark.parametrize("store_kind", ["memory"], indirect=True)

LANGUAGES = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]


def _in(code: str, english: str, **values: str) -> str:
    """``english`` (a catalogued message) as ``code``'s catalog says it, with ``values``."""
    return i18n.translations(code).gettext(english) % values


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_refusal_speaks_the_callers_language_with_the_same_code(
    client: TestClient, code: str
) -> None:
    game_id, token, state = create(client, seed=3)
    missing = next(
        suit
        for suit in ("lichen", "salty", "chippy", "jelly", "beans", "slippy")
        if suit not in state["hand"]
    )
    action = {"type": "play", "suit": missing, "gas": 0}
    answers = {
        language: client.post(
            f"/api/games/{game_id}/actions",
            json={"turn": state["turn"], "action": action},
            headers={**bearer(token), "Accept-Language": header},
        )
        for language, header in (("en", "en"), (code, f"{code}, en;q=0.5"))
    }
    english, translated = answers["en"].json(), answers[code].json()
    assert answers[code].status_code == answers["en"].status_code == 400
    assert translated["code"] == english["code"] == "illegal_action"
    assert translated["reason"] == english["reason"]
    racer = english["message"].removeprefix("You have no ").removesuffix(" card in your hand.")
    assert translated["message"] == _in(
        code, "You have no %(racer)s card in your hand.", racer=racer
    )
    assert translated["message"] != english["message"]
    assert "Accept-Language" in answers[code].headers["Vary"]
    assert move(client, game_id, token, state["turn"], state["legal_actions"][0]).status_code == 200
