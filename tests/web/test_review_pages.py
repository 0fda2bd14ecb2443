"""The review pages without JavaScript (post, redirect, get) and with htmx's fragments."""

from __future__ import annotations

import html
import random
import re
from types import SimpleNamespace

from app_kit import HX, REVIEW_WAIT_S, another_browser, bearer, move, start, wait_until
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.http.deps import cookie_name
from app.http.review_words import reason_words, verdict_counts
from app.http.web.review import MISTAKES, review_context
from app.http.web.templating import templates
from app.races.review import Budget, Reviews, summary

COUNTED = {
    "good": ("good", "good"),
    "inaccuracy": ("inaccuracy", "inaccuracies"),
    "mistake": ("mistake", "mistakes"),
    "blunder": ("blunder", "blunders"),
}
"""How the summary counts each verdict in English: "1 mistake", "0 inaccuracies"."""


def small_reviews(app: FastAPI) -> Reviews:
    reviews = Reviews(app.state.races, workers=1, budget=Budget(worlds=4), par_iterations=6)
    app.state.reviews = reviews
    return reviews


def finished(client: TestClient, seed: int = 3) -> str:
    """A race started from the start page's form and played out; its id."""
    game_id = start(client, players="3", bots="normal", seed=str(seed))
    token = client.cookies.get(cookie_name(game_id))
    assert token
    state = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
    rng = random.Random(seed)
    while not state["game_over"]:
        response = move(client, game_id, token, state["turn"], rng.choice(state["legal_actions"]))
        assert response.status_code == 200
        state = response.json()
    return game_id


def wait_page_done(client: TestClient, game_id: str) -> str:
    def finished() -> str:
        page = client.get(f"/games/{game_id}/review")
        assert page.status_code == 200
        if 'id="review-summary"' in page.text:
            return page.text
        assert 'id="review-progress"' in page.text
        assert '<meta http-equiv="refresh"' in page.text, "reloads itself without JavaScript"
        return ""

    return wait_until(finished, "the review page showing the finished review", REVIEW_WAIT_S)


def test_review_my_race_without_javascript(client: TestClient, app: FastAPI) -> None:
    small_reviews(app)
    game_id = finished(client)
    table = client.get(f"/games/{game_id}").text
    assert f'action="/games/{game_id}/review"' in table, "the game-over screen offers it"
    replay = client.get(f"/games/{game_id}/replay").text
    assert 'id="review-race"' in replay, "and so does the replay"
    before = client.get(f"/games/{game_id}/review")
    assert before.status_code == 200 and 'id="review-start"' in before.text

    asked = client.post(f"/games/{game_id}/review")
    assert asked.status_code == 303 and asked.headers["location"] == f"/games/{game_id}/review"
    page = wait_page_done(client, game_id)
    token = client.cookies.get(cookie_name(game_id))
    assert token
    decisions = client.get(f"/api/games/{game_id}/review", headers=bearer(token)).json()[
        "decisions"
    ]
    verdicts = re.findall(r'<li class="review-row verdict-(\w+)"', page)
    assert verdicts == [d["verdict"] for d in decisions], "every decision, in order"
    # The game-over screen's one button, pressed again, opens the kept review at once.
    reopened = client.post(f"/games/{game_id}/review", follow_redirects=True)
    assert 'id="review-summary"' in reopened.text and 'id="review-progress"' not in reopened.text
    assert re.findall(r'<li class="review-row verdict-(\w+)"', reopened.text) == verdicts
    counts = re.findall(r'<li class="verdict verdict-(\w+)">(\d+) ([a-z]+)</li>', page)
    assert [name for name, _, _ in counts] == ["good", "inaccuracy", "mistake", "blunder"]
    for name, n, word in counts:  # "1 mistake", "0 inaccuracies", "22 good"
        assert word == COUNTED[name][0 if n == "1" else 1], (name, n, word)
    assert sum(int(n) for _, n, _ in counts) == sum(not d["forced"] for d in decisions)

    # The mistakes first, each once, with a jump to it and "try again" on it alone.
    mistakes = [d for d in decisions if d["verdict"] in MISTAKES]
    assert mistakes, "a race of random moves has mistakes"
    cards = re.findall(
        r'class="review-decision review-mistake verdict-(\w+)" id="decision-(\d+)"', page
    )
    assert cards == [(d["verdict"], str(d["move"])) for d in mistakes]
    jumps = re.findall(r'class="review-jump verdict-\w+" href="#decision-(\d+)"', page)
    assert jumps == [str(d["move"]) for d in mistakes]
    retries = re.findall(rf'action="/games/{game_id}/review/(\d+)/practice"', page)
    assert retries == [str(d["move"]) for d in mistakes], "try again on the mistakes only"
    first_card = page.index('class="review-decision review-mistake')
    assert page.index('<details class="review-all"') > first_card, "the rest folded below"
    assert '<details class="review-all" id="review-all">' in page, "folded, not open"
    # The graph: a point per decision, at the chance after the move played; its values
    # as text too.
    points = re.findall(r'<circle class="graph-point verdict-(\w+)"[^>]*data-move="(\d+)"', page)
    assert points == [(d["verdict"], str(d["move"])) for d in decisions]
    assert '<title id="review-graph-title">' in page and '<desc id="review-graph-desc">' in page
    # Plain words: each decision's sentence is built from its codes, no engine terms.
    for d in decisions:
        assert html.escape(reason_words(d), quote=False) in page
    assert "points of win chance" not in page and "total loss" not in page

    again = client.post(f"/games/{game_id}/review/{retries[-1]}/practice")
    assert again.status_code == 303
    practice_id = again.headers["location"].rsplit("/", 1)[1]
    assert client.cookies.get(cookie_name(practice_id)), "the new race's seat cookie is set"
    table = client.get(f"/games/{practice_id}")
    assert table.status_code == 200 and 'id="move-form"' in table.text


def test_review_with_htmx_swaps_the_section_and_polls_while_running(
    client: TestClient, app: FastAPI
) -> None:
    small_reviews(app)
    game_id = finished(client, seed=8)
    asked = client.post(f"/games/{game_id}/review", headers=HX)
    assert asked.status_code == 200
    assert asked.text.lstrip().startswith('<section id="review"'), "the fragment only"
    if "review-progress" in asked.text:
        assert 'hx-trigger="every' in asked.text
    wait_page_done(client, game_id)
    fragment = client.get(f"/games/{game_id}/review", headers=HX).text
    assert "hx-trigger" not in fragment, "a finished review stops polling"

    def par_done() -> str:
        par = client.get(f"/games/{game_id}/review/par", headers=HX).text
        if "You finished" in par:
            return par
        assert "hard bot is playing" in par
        return ""

    par = wait_until(par_done, "the par race finishing", REVIEW_WAIT_S)
    assert "the hard bot in your seat finished" in par


def test_the_review_page_is_the_seats_own(client: TestClient, app: FastAPI) -> None:
    small_reviews(app)
    game_id = finished(client, seed=9)
    stranger = another_browser(client)
    assert stranger.get(f"/games/{game_id}/review").status_code == 404
    assert stranger.post(f"/games/{game_id}/review").status_code == 404
    replay = stranger.get(f"/games/{game_id}/replay")
    assert replay.status_code == 200 and 'id="review-race"' not in replay.text


def test_a_race_still_on_says_so(client: TestClient, app: FastAPI) -> None:
    small_reviews(app)
    game_id = start(client, players="3", bots="normal", seed="4")
    page = client.get(f"/games/{game_id}/review")
    assert page.status_code == 409 and "not over yet" in page.text
    asked = client.post(f"/games/{game_id}/review")
    assert asked.status_code == 409 and "not over yet" in asked.text


def test_the_replay_marks_each_trick_with_the_seats_verdict(
    client: TestClient, app: FastAPI
) -> None:
    small_reviews(app)
    game_id = finished(client, seed=11)
    step = client.get(f"/games/{game_id}/replay?step=2").text
    loader = f'hx-get="/games/{game_id}/review/marks?round=1&amp;trick=2"'
    assert loader in step, "each trick of the replay asks for its verdicts"
    empty = client.get(f"/games/{game_id}/review/marks?round=1&trick=2", headers=HX).text
    assert "verdict-badge" not in empty, "nothing before the review is done"
    client.post(f"/games/{game_id}/review")
    wait_page_done(client, game_id)
    marks = client.get(f"/games/{game_id}/review/marks?round=1&trick=2", headers=HX).text
    assert len(re.findall(r'class="verdict-badge', marks)) == 1, "one decision per trick"
    assert "You:" in marks
    mark = re.search(r'class="review-decision review-mark verdict-(\w+)"', marks)
    assert mark is not None
    assert ("Try again from here" in marks) == (mark[1] in MISTAKES), "on a mistake only"
    overview = client.get(f"/games/{game_id}/review/marks", headers=HX).text
    assert "accuracy" in overview and "verdict-badge" not in overview


def test_the_summary_counts_each_verdict_in_words() -> None:
    summary = {"verdicts": {"good": 22, "inaccuracy": 0, "mistake": 1, "blunder": 2}}
    assert verdict_counts(summary) == [
        ("good", "22 good"),
        ("inaccuracy", "0 inaccuracies"),
        ("mistake", "1 mistake"),
        ("blunder", "2 blunders"),
    ]


def test_a_review_without_mistakes_says_so_and_an_older_review_keeps_its_line() -> None:
    """Drawn from the review's data alone: no mistakes, so no "try again" and no jumps; a
    review kept before ``reason_data`` existed shows its own ``reason``."""
    play = {"type": "play", "suit": "salty", "gas": 1, "zero_effect": None}
    entries = [
        {
            "move": 4 * i,
            "round": 1,
            "trick": i + 1,
            "played": play,
            "best": play,
            "played_value": 0.5,
            "best_value": 0.5,
            "loss": 0.0,
            "verdict": "good",
            "forced": False,
            "reason": f"the kept line {i}",
            "candidates": [],
        }
        for i in range(3)
    ]
    status = {"status": "done", "progress": 1.0, "decisions": entries}
    status["summary"] = summary(entries, Budget())
    context = review_context(SimpleNamespace(id="g", par={}), 0, status)
    page = templates.get_template("partials/review.html").render(context)
    assert "No mistakes" in page and "review-retry" not in page and "review-jump" not in page
    assert all(f"the kept line {i}" in page for i in range(3))
    assert len(re.findall(r'<circle class="graph-point verdict-good"', page)) == 3
