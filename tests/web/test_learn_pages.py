"""The pages around the guided race: the home page's first offer, the three-minute how-to
page (at most 700 words, printed), the full rules page and its FAQ as the site is today.
"""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient

HOW_TO_MAX_WORDS = 700


def _article_words(page: str) -> list[str]:
    """The words a reader reads in the page's article: its text, no markup, no alt text."""
    found = re.search(r"<article\b.*?</article>", page, re.S)
    assert found, "the article"
    text = re.sub(r"\{#.*?#\}", " ", found.group(0), flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    return [w for w in text.split() if re.search(r"\w", w)]


def _text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_how_to_play_is_at_most_700_words_with_pictures_and_leads_to_the_lesson(
    client: TestClient,
) -> None:
    answer = client.get("/how-to-play")
    assert answer.status_code == 200
    words = _article_words(answer.text)
    print(f"how-to-play: {len(words)} words (limit {HOW_TO_MAX_WORDS})")
    assert len(words) <= HOW_TO_MAX_WORDS
    assert answer.text.count('class="card card-face') >= 6  # every racer pictured
    assert 'src="/static/img/how-table.png"' in answer.text
    assert client.get("/static/img/how-table.png").status_code == 200
    assert 'href="/learn" id="how-learn"' in answer.text
    text = _text(answer.text)
    for fact in (  # R8, R7, R11, R14, R9, R10, R15, R16
        "its number + the gas you pour on it + your speed",
        "is blocked",
        "share the gas already in the middle",
        "removed from the race for good",
        "slides into the middle",
        "every face-up 4 and 5 counts as 0",
        "takes 1 gas from the middle",
        "Winning trick 6 earns a lap",
        "The first racer with two laps wins",
    ):
        assert fact in text, fact


def test_the_home_page_offers_the_lesson_first_and_links_the_short_rules(
    client: TestClient,
) -> None:
    page = client.get("/").text
    main = page[page.index("<main") :]
    first_link = re.search(r"<(a|button)\b[^>]*>", main)
    assert first_link and 'href="/learn"' in first_link.group(0)
    assert "New here? Learn in one race" in page
    assert 'href="/how-to-play"' in page
    learn = client.get("/learn")
    assert learn.status_code == 200 and 'action="/learn"' in learn.text


def test_the_full_rules_faq_matches_todays_site(client: TestClient) -> None:
    text = _text(client.get("/rules").text)
    assert "Your opponents are computer racers" not in text
    for fact in (
        "Race with friends",
        "Watch the bots race",
        "Suggest a move",
        "Replay trick by trick",
        "How to play, in three minutes",
    ):
        assert fact in text, fact
