"""``/fair``: the method in words, and a finished race's record checked from the form
(pasted, as a file, or by the race's id), without JavaScript: 200 with the deal card by
card when it checks out, a 4xx with a sentence when it does not or holds nothing to check."""

from __future__ import annotations

import copy
import json
import random
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from app_kit import bearer, create, play_out, session_of
from fair_kit import played_record, revealed_record
from fastapi.testclient import TestClient
from game_kit import VARIANT_COMBOS
from html_kit import parse_html
from store_kit import StoreProbe

from app.http.web.fair import RECORD_MAX_BYTES, verdict_sentence
from engine.verify import verify_record

ROOT = Path(__file__).resolve().parent.parent.parent


def words(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def sentence(html: str) -> str:
    return parse_html(html).find("p", "fair-sentence").text().strip()


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return played_record(5, VARIANT_COMBOS[-1], 31337, salt="feedface", bots="normal")


def test_the_page_explains_the_method_and_is_linked_from_every_page(client: TestClient) -> None:
    page = client.get("/fair")
    assert page.status_code == 200
    text = words(page.text)
    for fact in (
        "the SHA-256 of the text zzv-deal-1:seed:salt",
        "its record shows the seed, the salt and every move",
        "zzv verify record.json",
        "printf 'zzv-deal-1:%s:%s' SEED SALT | sha256sum",
        "The computer players see only their own seat",
    ):
        assert fact in text, fact
    assert 'href="/fair"' in client.get("/rules").text
    assert 'href="/fair" aria-current="page"' in page.text


def test_the_tests_the_page_cites_exist(client: TestClient) -> None:
    html = client.get("/fair").text
    cited = re.findall(r"<code>(tests/[\w/]+\.py)</code> \(<code>(\w+)</code>\)", html)
    assert len({path for path, _ in cited}) == len(cited) == 3
    for path, test in cited:
        source = (ROOT / path).read_text(encoding="utf-8")
        assert f"def {test}(" in source, (path, test)


@pytest.mark.parametrize("how", ["file", "pasted", "urlencoded"])
def test_a_genuine_record_checks_out_card_by_card(
    client: TestClient, record: dict[str, Any], how: str
) -> None:
    body = json.dumps(record, indent=2)
    assert len(body) > 16 * 1024  # more than the site's usual body cap
    if how == "file":
        answer = client.post("/fair", files={"record_file": ("race.json", body, "text/json")})
    elif how == "pasted":
        answer = client.post("/fair", files={"record": (None, body)})
    else:
        answer = client.post("/fair", data={"record": body})
    assert answer.status_code == 200, words(answer.text)[:400]
    tree = parse_html(answer.text)
    verdict = tree.find("section", "fair-verdict")
    assert verdict.find("h2").text().startswith("It checks out")
    assert f"all {len(record['actions'])} moves are legal" in sentence(answer.text)
    hashes = verdict.find("dl").text()
    assert record["commitment"] in hashes and "zzv-deal-1:31337:feedface" in hashes
    rounds = [e for e in record["events"] if e["kind"] == "round_dealt"]
    tables = verdict.find_all("table", "fair-deal")
    assert len(tables) == len(rounds)
    for table, event in zip(tables, rounds, strict=True):
        assert table.find("caption").text().startswith(f"Round {event['round']}: ")
        rows = table.find_all("tr")
        assert len(rows) == 6  # five seats and the cards put aside (Larger Hands, R18)
        assert all(len(row.find("td").text().split(", ")) == 7 for row in rows[:5])


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"salt": "feedfacf"}, "is not the SHA-256 of the revealed seed and salt"),
        ({"deal_seed": 31338}, "is not the SHA-256 of the revealed seed and salt"),
        ({"winner": "other"}, "as the winner, but replaying the moves"),
    ],
)
def test_a_changed_record_is_refused_with_a_sentence(
    client: TestClient, record: dict[str, Any], change: dict[str, Any], says: str
) -> None:
    altered = copy.deepcopy(record)
    for key, value in change.items():
        altered[key] = (record["winner"] + 1) % 5 if value == "other" else value
    answer = client.post("/fair", files={"record": (None, json.dumps(altered))})
    assert answer.status_code == 422
    assert "It does not check out" in answer.text
    assert says in sentence(answer.text)


def test_a_changed_event_or_move_is_shown_where_it_differs(
    client: TestClient, record: dict[str, Any]
) -> None:
    altered = copy.deepcopy(record)
    altered["events"][7]["seat"] = (altered["events"][7]["seat"] + 1) % 5
    answer = client.post("/fair", files={"record": (None, json.dumps(altered))})
    assert answer.status_code == 422
    assert sentence(answer.text) == ("Event 8 of the record is not what replaying the moves tells.")
    details = parse_html(answer.text).find_all("dd")
    assert json.loads(details[1].text()) == altered["events"][7]
    altered = copy.deepcopy(record)
    altered["actions"][0]["seat"] = (altered["actions"][0]["seat"] + 1) % 5
    answer = client.post("/fair", files={"record": (None, json.dumps(altered))})
    assert answer.status_code == 422
    assert "The record gives its move 1 to " in sentence(answer.text)


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ("", 422, "Paste a finished race's record, or choose its file, then press Check."),
        ("{not json", 422, "That is not a race's record: a record is JSON, starting with {."),
        ("[1, 2]", 422, "That is not a race's record."),
        ('{"complete": false, "settings": {}}', 409, "This race is not finished yet"),
    ],
)
def test_bad_input_gets_a_sentence(client: TestClient, body: str, status: int, says: str) -> None:
    answer = client.post("/fair", files={"record": (None, body)})
    assert answer.status_code == status
    assert says in words(answer.text)
    assert "The deal, card by card" not in answer.text


def test_a_record_larger_than_any_race_is_refused(client: TestClient) -> None:
    huge = "x" * (RECORD_MAX_BYTES + 1)
    assert client.post("/fair", files={"record": (None, huge)}).status_code == 413
    # The larger cap is this form's only: other forms keep the site's.
    assert client.post("/me", data={"name": "x" * 20_000}).status_code == 413


def test_a_live_race_has_nothing_to_check_yet(client: TestClient) -> None:
    game_id, _, _ = create(client, players=3, bots="random")
    answer = client.get("/fair", params={"race": game_id})
    assert answer.status_code == 409
    assert sentence(answer.text) == (
        "This race is not finished yet, so there is nothing to check: its seed and salt "
        "are revealed when it ends."
    )
    assert "The deal, card by card" not in answer.text
    assert "fair-hashes" not in answer.text


@pytest.mark.parametrize(
    ("race", "status", "says"),
    [
        ("no-such-race", 404, "No race with that id is kept on this server"),
        ("not a race!", 422, "A race's id is the part of its address after /games/"),
    ],
)
def test_a_race_id_that_names_no_race(
    client: TestClient, race: str, status: int, says: str
) -> None:
    answer = client.get("/fair", params={"race": race})
    assert answer.status_code == status
    assert says in parse_html(answer.text).find("p", "alert").text()


def test_a_finished_server_race_checks_out(client: TestClient, store: StoreProbe) -> None:
    """A race played through the API, its public record completed with what its end
    reveals (fair_kit.revealed_record: only the fields this record does not carry yet),
    checks out; by its id, the page says what the checker says of the record as served."""
    game_id, token, state = create(client, players=4, bots="random")
    play_out(client, game_id, token, state, random.Random(5))
    served = client.get(f"/api/games/{game_id}/record", headers=bearer(token)).json()
    assert served["complete"] is True
    record = revealed_record(served, session_of(store, game_id), salt="0123abcd")
    answer = client.post("/fair", files={"record": (None, json.dumps(record))})
    assert answer.status_code == 200, sentence(answer.text)
    assert sentence(answer.text).startswith("The commitment published when the race started")
    by_id = client.get("/fair", params={"race": game_id})
    verdict = verify_record(served)
    assert by_id.status_code == {"ok": 200}.get(verdict.status, 422)
    assert sentence(by_id.text) == verdict_sentence(verdict)
