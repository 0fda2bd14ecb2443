"""The race table and the lesson speak the reader's language throughout: under the
pseudo-locale (every catalogued message bracketed) a whole race's tables, its log and the
lesson's table leave no English word outside a message, but the game's card names and the
keyboard's key names."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from app.http.i18n import COOKIE

_BRACKETED = re.compile(r"\[[^\[\]]*\]")
_KEPT = re.compile(r"\b(?:Lichen|Salty|Chippy|Jelly|Beans|Slippy|Zero|Enter|Esc)\b")
_SKIPPED = re.compile(r"<(script|style|svg|title)\b[^>]*>.*?</\1>", re.S)
_SAID = re.compile(
    r"(?:aria-label|title|alt|placeholder|data-say|data-[a-z-]*words|data-(?:down|blocked|"
    r'pick|tune|sum|nothing|best-of|offline|reload|failed|copied))="([^"]*)"'
)


def _english_left(html: str) -> list[str]:
    """The words of ``html``'s table (or main part, its text and the attributes people
    read) that no message of the catalog brought."""
    start = html.find('<section id="table"')
    start = start if start >= 0 else html.find("<main")
    body = _SKIPPED.sub("", html[start : html.find("</main>")])
    pieces = re.findall(r">([^<]+)<", body) + _SAID.findall(body)
    text = " ".join(pieces)
    while _BRACKETED.search(text):
        text = _BRACKETED.sub(" ", text)
    return re.findall(r"[A-Za-z]{2,}", _KEPT.sub(" ", text.replace("&#39;", "'")))


def _move(html: str, step: int) -> dict[str, str] | None:
    """A legal move from the table's form (a different card each step), or None."""
    turn = re.search(r'name="turn" value="(\d+)"', html)
    choices = re.findall(r'name="choice" value="([^"]+)"', html)
    if not turn or not choices:
        return None
    choice = choices[step % len(choices)]
    move = {"turn": turn.group(1), "choice": choice, "gas": str(step % 2)}
    if choice == "zero_five":
        move["zf_value"] = "0"
        discard = re.search(r'name="discard">\s*<option value="([^"]+)"', html)
        if discard:
            move["discard"] = discard.group(1)
    if 'name="zero_effect"' in html:
        move["zero_effect"] = "speed"
    if step == 3:
        move["intent"] = "suggest"
    return move


def test_a_whole_race_and_the_lesson_speak_the_catalog_only(client: TestClient) -> None:
    client.cookies.set(COOKIE, "en-XA")
    race = client.post(
        "/games",
        data={"players": "4", "bots": "normal", "seed": "7", "zero_five": "on"},
        follow_redirects=True,
    )
    table, game_id = str(race.url), str(race.url).rstrip("/").split("/")[-1]
    pages = [race.text]
    for step in range(300):
        html = client.get(table).text
        pages.append(html)
        if 'id="game-over-title"' in html:
            break
        move = _move(html, step)
        assert move is not None, "no move form and no flag"
        pages.append(client.post(f"/games/{game_id}/move", data=move).text)
    assert 'id="game-over-title"' in pages[-1]
    assert any('id="suggestion"' in page for page in pages)
    pages.append(client.get(f"/games/{game_id}/log").text)
    pages.append(client.get("/learn").text)
    pages.append(client.post("/learn", follow_redirects=True).text)
    left = {word for page in pages for word in _english_left(page)}
    assert left == set(), sorted(left)
