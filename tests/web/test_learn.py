"""The guided first race, without a browser: the lesson's pages as a browser with scripts off
reads and posts them, and the coach (app/races/lesson.py) on its own.

- Taking the coach's advice at every turn plays the lesson to the flag, and the coach's
  words over the lesson name every idea of the lesson, in the lesson's order (the rule ids
  of docs/rules.md each idea comes from are in the test names).
- Nothing starts out picked (no card, no gas): Play alone is refused, the coach saying
  what to pick, and changes nothing.
- A different legal choice at every other turn gets a note on what it did, and the
  lesson still reaches its end, offering a real race.
- The lesson is a practice race; its pages refuse a race that is not a lesson (404).
- ``bench.lesson_deal`` replays the coached lesson with the plan in the code: every idea
  in order, the learner winning in two rounds.
"""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

from app_kit import session_of
from fastapi.testclient import TestClient
from store_kit import StoreProbe

from app.races import lesson
from bench.lesson_deal import play, qualifies

MAX_TURNS = 60

IDEA_WORDS: dict[str, tuple[str, ...]] = {
    "face_up": ("face-up card scores", "number + the gas you pour on it + your speed"),
    "gas": ("Pour gas", "each gas adds 1"),
    "blocked": ("is blocked", "face down as a Tune Up"),
    "lichen": ("Lichen, the 1", "every face-up 4 and 5"),
    "salty": ("Salty, the 2", "1 gas from the middle"),
    "tune_up": ("is a Tune Up", "share the middle's gas", "removed"),
    "speed": ("your speed is", "every trick won in a round adds 1 speed"),
    "lap": ("Sixth and last trick", "earns a lap"),
    "two_laps": ("Two laps win the race",),
}
"""Words that show each idea of :data:`app.races.lesson.IDEAS` was said."""


def _start(client: TestClient) -> str:
    answer = client.post("/learn")
    assert answer.status_code == 303, answer.text
    match = re.fullmatch(r"/games/([A-Za-z0-9_-]+)/learn", answer.headers["location"])
    assert match, answer.headers["location"]
    return match.group(1)


def _attr(tag: str, name: str) -> str:
    found = re.search(rf'\b{name}="([^"]*)"', tag)
    assert found, (name, tag)
    return found.group(1)


def _page(client: TestClient, game_id: str, fresh: bool = True) -> dict[str, Any]:
    """What the lesson's table offers: the coach's words, its pick and gas, the turn, and
    every choice of the move form; on a ``fresh`` step nothing is picked and the gas is 0."""
    answer = client.get(f"/games/{game_id}/learn")
    assert answer.status_code == 200, answer.text
    html = answer.text
    said = re.search(
        r'<div class="coach-says" id="coach-says" role="status">(.*?)</div>', html, re.S
    )
    assert said, "the coach's status box"
    words = html_lib.unescape(re.sub(r"<[^>]+>", " ", said.group(1)))
    page: dict[str, Any] = {"words": " ".join(words.split()), "html": html}
    form = re.search(r'<form id="move-form"[^>]*>', html)
    if form is None:
        return page
    page["gas"] = int(_attr(form.group(0), "data-coach-gas"))
    page["action"] = _attr(form.group(0), "action")
    pick = re.search(r'<input[^>]*data-coach="pick"[^>]*>', html)
    assert pick, "the coached card"
    if fresh:
        assert not re.search(r'<input[^>]*name="choice"[^>]*\bchecked\b', html), "picked"
        assert _attr(re.search(r'<input[^>]*id="gas"[^>]*>', html).group(0), "value") == "0"  # type: ignore[union-attr]
    page["pick"] = _attr(pick.group(0), "value")
    page["turn"] = re.search(r'name="turn" value="(\d+)"', html).group(1)  # type: ignore[union-attr]
    page["choices"] = re.findall(r'name="choice" value="([^"]+)"', html)
    return page


def _post(client: TestClient, page: dict[str, Any], choice: str, gas: int) -> None:
    data = {"turn": page["turn"], "choice": choice, "gas": str(gas), "intent": "play"}
    answer = client.post(page["action"], data=data)
    assert answer.status_code == 303, answer.text


def test_r7_r8_r9_r10_r11_r15_r16_coached_lesson_without_js_names_every_idea_in_order(
    client: TestClient,
) -> None:
    game_id = _start(client)
    said: list[str] = []
    for _ in range(MAX_TURNS):
        page = _page(client, game_id)
        said.append(page["words"])
        if "pick" not in page:
            break
        assert page["action"] == f"/games/{game_id}/learn/move"
        _post(client, page, page["pick"], page["gas"])
    last = _page(client, game_id)
    assert "You won the race" in last["words"] and "Ready for a real race?" in last["words"]
    assert 'id="real-race"' in last["html"]
    lesson_text = "\n".join(said)
    firsts = []
    for idea in lesson.IDEAS:
        for words in IDEA_WORDS[idea]:
            assert words in lesson_text, (idea, words)
        firsts.append(min(i for i, s in enumerate(said) if IDEA_WORDS[idea][0] in s))
    print(f"lesson: {len(said) - 1} cards; ideas first said at turns {firsts}")
    assert firsts == sorted(firsts)


def test_a_different_choice_gets_a_kind_note_and_the_lesson_still_ends(
    client: TestClient,
) -> None:
    game_id = _start(client)
    notes = 0
    for number in range(MAX_TURNS):
        page = _page(client, game_id)
        if "pick" not in page:
            break
        if number % 2:
            _post(client, page, page["pick"], page["gas"])
            continue
        others = [c for c in page["choices"] if c != page["pick"]]
        assert others, page["choices"]
        _post(client, page, others[0], 0)
        after = _page(client, game_id)
        assert "instead" in after["words"], after["words"]
        notes += 1
    else:
        raise AssertionError(f"the lesson did not end in {MAX_TURNS} turns")
    assert notes >= 6
    assert "Ready for a real race?" in page["words"]


def test_play_alone_is_refused_and_the_coach_says_what_to_pick(
    client: TestClient, store: StoreProbe
) -> None:
    game_id = _start(client)
    page = _page(client, game_id)
    before = session_of(store, game_id).turn
    suit = page["pick"].split(":")[1].capitalize()
    answer = client.post(page["action"], data={"turn": page["turn"], "gas": "0"})
    assert answer.status_code == 303
    shown = _page(client, game_id)
    assert f"Your move: tap {suit}" in shown["words"], shown["words"]
    gas_step = f"set the gas to {page['gas']}" if page["gas"] else "leave the gas at 0"
    assert gas_step in shown["words"], shown["words"]
    assert session_of(store, game_id).turn == before
    htmx = client.post(
        page["action"], data={"turn": page["turn"], "gas": "0"}, headers={"HX-Request": "true"}
    )
    assert htmx.status_code == 422
    assert f"Your move: tap {suit}" in htmx.text
    assert session_of(store, game_id).turn == before


def test_the_lesson_is_a_practice_race_and_its_pages_refuse_other_races(
    client: TestClient, store: StoreProbe
) -> None:
    game_id = _start(client)
    assert session_of(store, game_id).practice
    assert session_of(store, game_id).config.lesson
    answer = client.post("/games", data={"players": "3", "bots": "random"})
    other = answer.headers["location"].rsplit("/", 1)[-1]
    assert client.get(f"/games/{other}/learn").status_code == 404
    moved = client.post(f"/games/{other}/learn/move", data={"turn": "0", "choice": "x"})
    assert moved.status_code == 404


def test_a_stale_or_unreadable_lesson_move_is_refused_and_changes_nothing(
    client: TestClient, store: StoreProbe
) -> None:
    game_id = _start(client)
    page = _page(client, game_id)
    before = session_of(store, game_id).turn
    answer = client.post(page["action"], data={"turn": page["turn"], "choice": "up:nope"})
    assert answer.status_code == 303
    shown = _page(client, game_id)
    assert 'role="alert"' in shown["html"]
    assert session_of(store, game_id).turn == before
    htmx = client.post(
        page["action"],
        data={"turn": "999", "choice": page["pick"], "gas": "0"},
        headers={"HX-Request": "true"},
    )
    assert htmx.status_code == 409
    assert session_of(store, game_id).turn == before


def test_the_coached_plan_in_the_code_is_the_one_the_deal_search_finds() -> None:
    run = play(lesson.LESSON_ENGINE_SEED, lesson.LESSON_STEPS)
    assert qualifies(run), run.plan
    assert play(lesson.LESSON_ENGINE_SEED).plan == lesson.LESSON_STEPS


def test_preview_without_js_shows_the_score_and_plays_nothing(
    client: TestClient, store: StoreProbe
) -> None:
    game_id = _start(client)
    page = _page(client, game_id)
    before = session_of(store, game_id).turn
    data = {"turn": page["turn"], "choice": page["pick"], "gas": "1", "intent": "preview"}
    answer = client.post(page["action"], data=data)
    assert answer.status_code == 303
    assert answer.headers["location"] == f"/games/{game_id}/learn"
    shown = _page(client, game_id, fresh=False)
    assert 'id="preview-server"' in shown["html"]
    assert session_of(store, game_id).turn == before
