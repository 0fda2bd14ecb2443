"""Worked examples of the HTTP layer's small helpers: languages and their formats, refusal
and review sentences, request problems, host and origin checks (they were doctests in
app/http)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

from app.http.errors import problem_sentence, resume_links
from app.http.i18n import (
    choose,
    clock,
    day,
    days,
    known,
    moment,
    negotiate,
    number,
    ordinal,
    parse_accept_language,
    percent,
    pseudo,
)
from app.http.players import sign, verify
from app.http.previews import blocked_sentence, with_previews
from app.http.protocol import error_response
from app.http.race_words import race_sentence, refusal_sentence
from app.http.review_words import decision_words, graph_words, move_words, par_words
from app.http.security import host_allowed, window_limit
from app.races.errors import TooManyReviews
from engine import Refusal, new_game, observe


def test_a_language_tag_is_matched_without_regard_to_case_or_separator() -> None:
    assert (known("pt_br"), known("EN"), known("en-xa"), known("xx")) == (
        "pt-BR",
        "en",
        "en-XA",
        None,
    )


def test_accept_language_is_ranked_by_quality_then_order() -> None:
    header = "fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5"
    assert parse_accept_language(header) == ["fr-CH", "fr", "en", "de", "*"]
    assert parse_accept_language("de;q=0, es;q=oops, ja;q=0.3, pt-BR") == ["pt-BR", "ja"]


def test_negotiation_falls_back_to_the_same_language_in_another_region() -> None:
    assert [negotiate(["es-MX", "en"]), negotiate(["pt-PT"]), negotiate(["nl", "de-AT"])] == [
        "es",
        "pt-BR",
        "de",
    ]
    assert [negotiate(["en-XA"]), negotiate(["en-XB"]), negotiate(["nl"])] == ["en-XA", "en", None]


def test_the_query_beats_the_cookie_which_beats_the_header() -> None:
    assert choose(None, None, "ja,en;q=0.5") == "ja"
    assert choose("de", "fr", "ja") == "de"
    assert choose(None, "fr", "ja") == "fr"
    assert choose("xx", None, "") == "en"


def test_the_pseudo_locale_keeps_placeholders_tags_and_references() -> None:
    assert pseudo("Lap %(laps)s of %(total)s!") == "[Laap %(laps)s oof %(total)s!]"
    assert (
        pseudo('Tune Up<span class="visually-hidden"> with %(name)s</span> &amp; go')
        == '[Tuunee UUp<span class="visually-hidden"> wiith %(name)s</span> &amp; goo]'
    )


def test_numbers_places_and_times_in_english() -> None:
    assert (number(1040), number(-3), percent(0.452)) == ("1040", "-3", "45%")
    places = [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 102, 111)]
    assert places == ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "102nd", "111th"]
    assert day("2024-10-04") == "Oct 4, 2024"
    assert days(date(2024, 9, 30), date(2024, 10, 6)) == "Sep 30\u2009–\u2009Oct 6, 2024"
    assert clock(time(2, 0)) == "2:00\u202fAM"
    assert moment(datetime(2024, 10, 4, 13, 45, tzinfo=UTC)) == "Oct 4, 2024, 1:45\u202fPM"


def test_a_request_problem_names_the_first_field_and_counts_the_rest() -> None:
    gas = {"loc": ["body", "action", "gas"], "msg": "Input should be at most 5", "type": "x"}
    assert problem_sentence([gas]) == (
        "The request does not match the expected format: action.gas: Input should be at most 5."
    )
    turn = {"loc": ["query", "since"], "msg": "Field required", "type": "missing"}
    assert problem_sentence([turn, gas]).split(": ", 1)[1] == (
        "query parameter since: Field required (and 1 more problem)."
    )
    json_error = {"loc": ["body", "0"], "msg": "JSON error", "type": "json_invalid"}
    assert problem_sentence([json_error]) == "The request body is not valid JSON."
    assert resume_links(["abc"], api=False) == [{"game_id": "abc", "url": "/games/abc"}]


def test_a_player_cookie_is_signed_and_a_forged_one_refused() -> None:
    value = sign(b"k", "tok")
    assert value.startswith("tok.") and verify(b"k", value) == "tok"
    assert verify(b"k", "tok.forged") is None and verify(b"other", value) is None


def test_the_previews_follow_the_legal_actions_of_the_seat_to_move() -> None:
    game = new_game(players=3, seed=2)
    seat = game.current_seat
    shown = with_previews(observe(game, seat))
    assert list(shown)[-3:] == ["legal_actions", "card_options", "zero_five_option"]
    assert with_previews(observe(game, (seat + 1) % 3))["card_options"] == []
    blocked = blocked_sentence(Refusal.of("suit_face_up", suit="jelly"))
    assert blocked == "Jelly the Raccoon is already face up in this trick."


def test_refusal_sentences() -> None:
    assert error_response(408, "t", "Late.").split(b"\r\n")[0] == b"HTTP/1.1 408 Request Timeout"
    assert race_sentence(TooManyReviews(1)) == (
        "You already have 1 review in progress; wait for one to finish."
    )
    assert refusal_sentence(Refusal.of("card_not_in_hand", suit="jelly")) == (
        "You have no Jelly the Raccoon card in your hand."
    )


def test_review_sentences() -> None:
    slippy = {"type": "play", "suit": "slippy", "gas": 1, "zero_effect": None}
    assert move_words(slippy) == "Slippy with 1 gas"
    assert move_words({"type": "tune_up", "suit": "jelly", "gas": 0}) == "a Tune Up (Jelly)"
    why = {
        "trick": 3,
        "stake": "speed",
        "best": {"trick": "likely", "gas": 2, "race": 0.41},
        "played": {"trick": "cannot", "gas": 0, "race": 0.32},
    }
    chippy = {"type": "play", "suit": "chippy", "gas": 3, "zero_effect": None}
    entry = {"forced": False, "reason_data": why, "reason": "", "verdict": "mistake"}
    values = {"round": 2, "trick": 3, "played_value": 0.32, "best_value": 0.41}
    words = decision_words({**entry, **values, "best": slippy, "played": chippy})
    assert words["words"] == (
        "Slippy with 1 gas would likely have won this trick (+1 speed) and kept you 2 gas. "
        "Your Chippy with 3 gas could not win it and left you 0 gas."
    )
    assert words["chance"] == "To win the race: 41% with the better move, 32% with yours."
    assert (words["verdict_words"], words["place"]) == ("Mistake", "Round 2, trick 3")
    assert graph_words([0.25, 0.1, 0.4], 1) == (
        "From 25% after your first decision to 40% after your last; lowest 10%. "
        "The 1 mistake is marked."
    )
    bot, you = {"place": 1, "laps": 2, "tricks": 12}, {"place": 2, "laps": 1, "tricks": 1}
    mine, theirs = str(par_words({**bot, "yours": you})).split(";")
    assert mine == "You finished 2nd (1 lap, 1 trick)"
    assert theirs.endswith("1st on this deal (2 laps, 12 tricks).")


def test_hosts_and_rate_windows() -> None:
    assert host_allowed("localhost:8000", ("localhost",))
    assert not host_allowed("evil.example", ("localhost",))
    assert host_allowed("[::1]:80", ("[::1]",))
    assert host_allowed("a.b.example", ("*.b.example",))
    assert str(window_limit(10.0, 40)) == "40 per 4 second"
