"""Choosing each answer's language (app.http.i18n, app.http.web.language): the header's
quality values with a regional fallback, the picker's cookie over the header, ``?lang=``
over both; ``<html lang dir>``, ``hreflang`` on public pages, ``Vary`` on every answer;
the picker works as a plain form and refuses what it does not know, changing nothing.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from html_kit import parse_html

from app.http import i18n

pytestmark = pytest.mark.parametrize("store_kind", ["memory"], indirect=True)

SPOKEN = {
    "en": "English",
    "es": "Español",
    "pt-BR": "Português (Brasil)",
    "de": "Deutsch",
    "fr": "Français",
    "ja": "日本語",
    "ar": "العربية",
}
"""The languages these tests choose between. Which languages ship is
``i18n.LANGUAGES``'s business (tests/test_catalogs.py holds each to a complete catalog);
how one is chosen is the same whichever they are."""


@pytest.fixture(autouse=True)
def offered(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """:data:`SPOKEN` as the languages on offer, for the test only: the same dict the pages
    read, changed in place."""
    for code in set(i18n.LANGUAGES) - set(SPOKEN):
        monkeypatch.delitem(i18n.LANGUAGES, code)
    for code, name in SPOKEN.items():
        monkeypatch.setitem(i18n.LANGUAGES, code, name)
    return i18n.LANGUAGES


def _html_lang(client: TestClient, path: str = "/", **headers: str) -> tuple[str, str]:
    answer = client.get(path, headers=headers)
    assert answer.status_code == 200
    root = parse_html(answer.text).find("html")
    return root.attrs.get("lang", ""), root.attrs.get("dir", "")


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("de-AT,de;q=0.9,en;q=0.5", "de"),
        ("nl, pt-PT;q=0.8, en;q=0.2", "pt-BR"),
        ("es-MX", "es"),
        ("en;q=0.1, ja;q=0.9", "ja"),
        ("fr;q=0, de;q=0.5", "de"),
        ("xx-YY, *;q=0.1", "en"),
        ("", "en"),
    ],
)
def test_accept_language_is_negotiated_by_quality_with_a_regional_fallback(
    client: TestClient, header: str, expected: str
) -> None:
    assert _html_lang(client, **{"Accept-Language": header})[0] == expected


def test_arabic_pages_are_right_to_left(client: TestClient) -> None:
    assert _html_lang(client, **{"Accept-Language": "ar"}) == ("ar", "rtl")
    assert _html_lang(client, **{"Accept-Language": "fr"}) == ("fr", "ltr")


def test_the_picker_keeps_the_choice_and_sends_the_browser_back(client: TestClient) -> None:
    answer = client.post("/language", data={"lang": "ja", "next": "/rules"}, follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"] == "/rules"
    assert client.cookies.get(i18n.COOKIE) == "ja"
    # The cookie wins over the header; ?lang= wins over the cookie, for that link only.
    assert _html_lang(client, **{"Accept-Language": "de"})[0] == "ja"
    assert _html_lang(client, "/?lang=fr", **{"Accept-Language": "de"})[0] == "fr"
    assert _html_lang(client)[0] == "ja"


def test_the_picker_refuses_an_unknown_language_and_changes_nothing(client: TestClient) -> None:
    client.cookies.set(i18n.COOKIE, "de")
    answer = client.post("/language", data={"lang": "klingon", "next": "/"})
    assert answer.status_code == 400
    refusal = i18n.translations("de").gettext("That language is not one this site speaks.")
    assert refusal in answer.text
    assert client.cookies.get(i18n.COOKIE) == "de"


@pytest.mark.parametrize("target", ["//elsewhere.example/x", "https://elsewhere.example/", ""])
def test_the_picker_never_sends_the_browser_to_another_site(
    client: TestClient, target: str
) -> None:
    answer = client.post("/language", data={"lang": "es", "next": target}, follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"] == "/"


def test_the_picker_is_on_every_page_and_offers_each_language_in_its_own_name(
    client: TestClient,
) -> None:
    for path in ("/", "/rules", "/how-to-play", "/leaderboard"):
        page = parse_html(client.get(path).text)
        form = page.find("form", "language-pick")
        assert form.attrs["action"] == "/language", path
        options = {o.attrs["value"]: o.text() for o in form.find_all("option")}
        assert options == i18n.LANGUAGES
        back = [i for i in form.find_all("input") if i.attrs.get("name") == "next"]
        assert [i.attrs["value"] for i in back] == [path]


def test_public_pages_name_their_other_languages_and_a_race_does_not(
    client: TestClient,
) -> None:
    page = parse_html(client.get("/rules").text)
    alternates = {
        link.attrs["hreflang"]: link.attrs["href"]
        for link in page.find_all("link")
        if link.attrs.get("rel") == "alternate"
    }
    assert set(alternates) == {*i18n.LANGUAGES, "x-default"}
    assert alternates["de"].endswith("/rules?lang=de")
    race = client.post("/games", data={"players": "3"}, follow_redirects=True)
    assert race.status_code == 200 and "/games/" in str(race.url)
    assert 'hreflang="' not in race.text


@pytest.mark.parametrize("path", ["/", "/rules", "/api/health", "/no-such-page"])
def test_every_answer_says_it_varies_by_language(client: TestClient, path: str) -> None:
    vary = {v.strip().lower() for v in client.get(path).headers.get("vary", "").split(",")}
    assert {"accept-language", "cookie"} <= vary


def test_the_pseudo_locale_brackets_every_catalogued_message(client: TestClient) -> None:
    page = parse_html(client.get("/?lang=en-XA").text)
    links = page.find("nav", "site-nav").find_all("a")
    words = [span.text() for a in links for span in (a.find_all("span") or [a])]
    assert words and all(w.startswith("[") and w.endswith("]") for w in words), words


def test_a_language_left_out_of_languages_is_never_offered_or_chosen(
    client: TestClient, offered: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A language without a complete catalog stays out of LANGUAGES, and then nothing picks
    it: not the header, nor the cookie, nor ?lang=, nor the picker, nor hreflang."""
    monkeypatch.delitem(offered, "ja")
    assert _html_lang(client, **{"Accept-Language": "ja, de;q=0.5"})[0] == "de"
    assert _html_lang(client, "/rules?lang=ja")[0] == "en"
    page = parse_html(client.get("/rules").text)
    options = [o.attrs["value"] for o in page.find("form", "language-pick").find_all("option")]
    assert "ja" not in options and "de" in options
    hreflangs = {link.attrs.get("hreflang") for link in page.find_all("link")}
    assert "ja" not in hreflangs and "de" in hreflangs
    answer = client.post("/language", data={"lang": "ja", "next": "/"})
    assert answer.status_code == 400
    assert client.cookies.get(i18n.COOKIE) is None
    client.cookies.set(i18n.COOKIE, "ja")
    assert _html_lang(client, **{"Accept-Language": "fr"})[0] == "fr"


def test_the_tables_explanations_speak_each_answers_language(client: TestClient) -> None:
    """The explanations are rendered once per language (templating.once) from a template
    module made once per process: each answer still gets its own language's words."""
    table = client.post("/games", data={"players": "3"}, follow_redirects=True)
    assert table.status_code == 200 and "/games/" in str(table.url)

    def titles(lang: str) -> list[str]:
        page = parse_html(client.get(f"{table.url.path}?lang={lang}").text)
        pops = [p for p in page.find_all("div", "explain-pop") if p.attrs["id"] == "ex-gas"]
        return [pop.find("strong").text() for pop in pops]

    for _ in range(2):
        assert titles(i18n.PSEUDO) == [i18n.pseudo("Gas")]
        assert titles("en") == ["Gas"]
