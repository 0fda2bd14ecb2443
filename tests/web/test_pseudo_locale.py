"""The pseudo-locale guard (docs/translating.md, "Check"): every page and htmx fragment the
app serves, rendered in ``en-XA``, shows no player-visible text outside a catalogued
message (the pseudo-locale brackets each one), and the API's ``message`` is catalogued too.

The pages are the app's own GET routes that answer HTML, found from its router (a new page
is checked without anyone listing it here); each is asked for with the parameters of real
races made in the test (running, finished and reviewed, a friends' lobby, a strangers'
lobby, the lesson, today's daily deal and a cup deal, and an id that is no race), by the
browser sitting in the race and by a stranger, as a whole page and as htmx asks for it.
A failure lists, route by route, the strings a translator never sees: the worklist.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from app_kit import HX, REVIEW_WAIT_S, another_browser, bearer, move, start, wait_until
from fastapi import FastAPI
from fastapi.testclient import TestClient
from html_kit import Element, parse_html
from i18n_kit import GAME_NAMES

from app.http import i18n
from app.http.deps import cookie_name
from app.http.web.labels import SUITS
from app.races.review import Budget, Reviews
from engine.cards import SEAT_COLOURS

IN_MEMORY = pytest.mark.parametrize("store_kind", ["memory"], indirect=True)

PSEUDO = {"lang": i18n.PSEUDO}

NOT_FOR_PLAYERS = frozenset({"app.http.docs"})
"""Modules whose HTML routes are for developers: the API's reference (Swagger UI, ReDoc)."""

SKIPPED_TAGS = frozenset({"script", "style", "code", "kbd"})
"""Elements whose text is not words to translate: code, and keys as their caps say them."""

CHECKED_ATTRIBUTES = ("aria-label", "title", "alt", "placeholder")

SHOWN_META = frozenset({"description", "og:title", "og:description", "og:image:alt"})
"""The ``<meta>`` whose ``content`` a search result or a shared link's preview shows."""

BUTTON_INPUTS = frozenset({"submit", "button", "reset"})
"""The ``<input>`` types whose ``value`` is their visible label."""

NAMES = sorted(
    {
        *GAME_NAMES,
        "Zoom",  # the brand in the header, Zoom Zoom <em>Vroom</em>
        "Vroom",
        *(info.short for info in SUITS.values()),
        *(colour.capitalize() for colour in SEAT_COLOURS),
        *i18n.LANGUAGES.values(),
    },
    key=len,
    reverse=True,
)
"""Words that stay as they are in every language: the game's names, its cards', the seats'
colours and each language's own name (players' names are added per race)."""

QUERY_SAMPLES: Mapping[str, list[str]] = {
    "step": ["1", "7"],
    "round": ["1"],
    "trick": ["1"],
    "before": ["2"],
    "live": ["1"],
}
"""Values for the query parameters the routes declare (``race`` is the finished race)."""

UNKNOWN_GAME = "no-such-race-here"


# --------------------------------------------------------------------------- the routes


def _flat(routes: list[Any]) -> Iterator[Any]:
    """Every route of the router, included routers walked into."""
    for route in routes:
        if hasattr(route, "effective_candidates"):  # an included router (FastAPI >= 0.120)
            yield from _flat(
                [*route.effective_candidates(), *route.effective_low_priority_routes()]
            )
        elif hasattr(route, "routes"):
            yield from _flat(list(route.routes))
        elif getattr(route, "methods", None):
            yield route


def html_routes(app: FastAPI) -> list[Any]:
    """The app's GET routes that answer HTML for players (pages and their fragments)."""
    found = []
    for route in _flat(list(app.routes)):
        response_class = getattr(route, "response_class", None)
        response_class = getattr(response_class, "value", response_class)
        endpoint = getattr(route, "endpoint", None)
        if (
            "GET" in route.methods
            and not route.path.startswith("/api")
            and getattr(response_class, "__name__", "") == "HTMLResponse"
            and getattr(endpoint, "__module__", "") not in NOT_FOR_PLAYERS
        ):
            found.append(route)
    return found


def _query_names(route: Any) -> list[str]:
    return [field.alias for field in route.dependant.query_params]


# --------------------------------------------------------------------------- the races


def _seat_token(client: TestClient, game_id: str) -> str:
    token = client.cookies.get(cookie_name(game_id))
    assert token, game_id
    return token


def _play_out(client: TestClient, game_id: str, seed: int) -> None:
    """Random legal moves of the browser's seat until the race ends."""
    token = _seat_token(client, game_id)
    state = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
    rng = random.Random(seed)
    while not state["game_over"]:
        answer = move(client, game_id, token, state["turn"], rng.choice(state["legal_actions"]))
        assert answer.status_code == 200, answer.text
        state = answer.json()


def _started(answer: Any) -> str:
    assert answer.status_code == 303, answer.text
    found = re.fullmatch(r"/games/([A-Za-z0-9_-]+)(/learn)?", answer.headers["location"])
    assert found, answer.headers["location"]
    return found.group(1)


def _reviewed(client: TestClient, app: FastAPI, game_id: str) -> None:
    """Run the seat's review of a finished race and wait until it is done."""
    app.state.reviews = Reviews(
        app.state.races, workers=1, budget=Budget(worlds=4), par_iterations=6
    )
    assert client.post(f"/games/{game_id}/review").status_code == 303
    wait_until(
        lambda: 'id="review-summary"' in client.get(f"/games/{game_id}/review").text,
        "the review finished",
        REVIEW_WAIT_S,
    )


def races(client: TestClient, app: FastAPI) -> dict[str, str]:
    """Races in every state a page can show, by what they are: their ids."""
    finished = start(client, players="3", bots="random")
    _play_out(client, finished, 1)
    _reviewed(client, app, finished)
    daily = _started(client.post("/daily"))
    _play_out(client, daily, 2)
    cup = _started(client.post("/cup/1"))
    _play_out(client, cup, 3)
    # Left running: the daily and cup pages then lead back to them; a review just asked
    # for shows its progress.
    _started(client.post("/daily"))
    _started(client.post("/cup/2"))
    assert client.post(f"/games/{daily}/review").status_code == 303
    return {
        "finished": finished,
        "daily": daily,
        "cup": cup,
        "running": start(client, players="4", bots="random"),
        "friends": _started(
            client.post("/games", data={"players": "3", "people": "2", "bots": "random"})
        ),
        "strangers": _started(client.post("/quick", data={"players": "5"})),
        "lesson": _started(client.post("/learn")),
        "none": UNKNOWN_GAME,
    }


def player_names(client: TestClient) -> set[str]:
    """Every player's name the boards show (chosen or generated)."""
    names: set[str] = set()

    def collect(value: Any) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                if key == "name" and isinstance(inner, str):
                    names.add(inner)
                collect(inner)
        elif isinstance(value, list):
            for inner in value:
                collect(inner)

    for path in ("/api/leaderboard", "/api/daily/leaderboard", "/api/cup"):
        collect(client.get(path).json())
    return names


# --------------------------------------------------------------------------- the check


def _outside_brackets(texts: list[str]) -> list[str]:
    """The pieces of ``texts`` (in document order, one message may span several) that lie
    outside every bracketed message."""
    depth = 0
    pieces: list[str] = []
    for text in texts:
        current = []
        for char in text:
            if char == "[":
                depth += 1
            elif char == "]":
                depth = max(0, depth - 1)
            elif depth == 0:
                current.append(char)
                continue
            pieces.append("".join(current))
            current = []
        pieces.append("".join(current))
    return pieces


def _words_left(text: str, names: list[str]) -> str | None:
    """``text`` when it holds a word that is not a name; None when it is only names,
    addresses, digits, punctuation and space."""
    rest = re.sub(r"https?://\S+", " ", text)
    for name in names:
        rest = rest.replace(name, " ")
    # One letter alone is a symbol (the "i" of an explanation), not a word.
    words = re.findall(r"[^\W\d_]+", rest)
    if not words or (len(words) == 1 and len(words[0]) == 1):
        return None
    return " ".join(text.split())


def _text_nodes(element: Element) -> Iterator[str]:
    for child in element.children:
        if isinstance(child, str):
            yield child
        elif child.tag not in SKIPPED_TAGS:
            yield from _text_nodes(child)


def _elements(element: Element) -> Iterator[Element]:
    for child in element.children:
        if isinstance(child, Element):
            yield child
            yield from _elements(child)


def unbracketed(html: str, names: list[str]) -> set[str]:
    """The visible text and labelling attributes of ``html`` outside a catalogued message."""
    root = parse_html(html)
    found = {
        words
        for piece in _outside_brackets(list(_text_nodes(root)))
        if (words := _words_left(piece, names))
    }
    for element in _elements(root):
        for attribute in _shown_attributes(element):
            for piece in _outside_brackets([element.attrs[attribute]]):
                if words := _words_left(piece, names):
                    found.add(f"@{attribute}: {words}")
    return found


def _shown_attributes(element: Element) -> list[str]:
    """The attributes of ``element`` a person reads or hears."""
    shown = [name for name in CHECKED_ATTRIBUTES if name in element.attrs]
    if element.tag == "meta" and "content" in element.attrs:
        kind = element.attrs.get("name") or element.attrs.get("property", "")
        if kind in SHOWN_META:
            shown.append("content")
    if element.tag == "input" and element.attrs.get("type") in BUTTON_INPUTS:
        shown.append("value")
    return shown


def _shape(text: str, names: list[str]) -> str:
    """``text`` with its names as ``…`` and its numbers as ``#``: one line per sentence
    however many races and seats said it."""
    for name in names:
        text = text.replace(name, "…")
    return re.sub(r"\d+", "#", text)


def _worklist(leftovers: Mapping[str, set[str]], names: list[str]) -> str:
    lines = ["Text outside the catalog, by route (wrap it in _() / {% trans %}):"]
    for route in sorted(leftovers):
        lines.append(route)
        lines.extend(f"    {text}" for text in sorted({_shape(t, names) for t in leftovers[route]}))
    return "\n".join(lines)


def crawl(app: FastAPI, browsers: list[TestClient], ids: Mapping[str, str]) -> dict[str, set[str]]:
    """Every HTML route, with every race's id and the declared query parameters, by each
    browser, as a page and as a fragment: the leftovers of each route."""
    names = sorted({*NAMES, *player_names(browsers[0])}, key=len, reverse=True)
    samples = {**QUERY_SAMPLES, "race": [ids["finished"]]}
    leftovers: dict[str, set[str]] = defaultdict(set)
    routes = html_routes(app)
    assert {"/", "/games/{game_id}", "/daily"} <= {route.path for route in routes}, routes
    rendered: set[str] = set()
    for route in routes:
        params = list(route.param_convertors)
        assert set(params) <= {"game_id"}, f"no sample for {route.path}'s {params}"
        paths = (
            [route.path.replace("{game_id}", game) for game in ids.values()]
            if params
            else [route.path]
        )
        queries: list[dict[str, str]] = [{}]
        declared = _query_names(route)
        for index in range(max((len(samples[name]) for name in declared), default=0)):
            queries.append({n: samples[n][min(index, len(samples[n]) - 1)] for n in declared})
        for path in paths:
            for query in queries:
                for browser in browsers:
                    for headers in ({}, HX):
                        answer = browser.get(path, params={**query, **PSEUDO}, headers=headers)
                        assert answer.status_code < 500, (path, query, answer.text)
                        if answer.headers.get("content-type", "").startswith("text/html"):
                            rendered.add(route.path)
                            leftovers[route.path] |= unbracketed(answer.text, names)
    assert rendered == {route.path for route in routes}, "every route answers HTML at least once"
    return {route: texts for route, texts in leftovers.items() if texts}


@IN_MEMORY
def test_every_page_and_fragment_in_the_pseudo_locale_is_catalogued(
    client: TestClient, app: FastAPI
) -> None:
    ids = races(client, app)
    stranger = another_browser(client)
    for browser in (client, stranger):
        # The picker's cookie too: a redirect (to the table, the lesson) keeps the language.
        browser.cookies.set(i18n.COOKIE, i18n.PSEUDO)
        browser.follow_redirects = True
    leftovers = crawl(app, [client, stranger], ids)
    assert not leftovers, _worklist(leftovers, NAMES)


@IN_MEMORY
def test_the_api_message_is_catalogued_and_its_code_is_not(client: TestClient) -> None:
    english = client.get(f"/api/games/{UNKNOWN_GAME}", headers=bearer("x" * 43))
    pseudo = client.get(
        f"/api/games/{UNKNOWN_GAME}",
        headers={**bearer("x" * 43), "Accept-Language": i18n.PSEUDO},
    )
    assert english.status_code == pseudo.status_code == 404
    assert pseudo.json()["code"] == english.json()["code"] == "not_found"
    assert pseudo.json()["message"] == i18n.pseudo(english.json()["message"])


def test_the_check_finds_text_outside_a_message_and_nothing_inside_one() -> None:
    html = (
        "<p>[Raacing aas <b>Ada</b> · raating <b>1000</b>]</p><p>Lichen (1) · Pink · 45%</p>"
        '<p>Forgotten words</p><button aria-label="Close it">[X]</button>'
        "<script>var words = 'not shown';</script><code>zzv serve</code>"
        '<meta name="description" content="A game"><meta name="viewport" content="width">'
    )
    assert unbracketed(html, NAMES) == {
        "Forgotten words",
        "@aria-label: Close it",
        "@content: A game",
    }
    assert unbracketed("<p>[Pláy] <kbd>Enter</kbd> <span>i</span></p><p>I win</p>", NAMES) == {
        "I win"
    }
