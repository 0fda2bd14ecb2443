"""The quick messages' rules in the domain (:mod:`app.races.operations`): who may speak, what is
kept, and that a refusal changes nothing."""

from __future__ import annotations

import pytest
from app_kit import make_settings

from app.http.race_words import race_sentence
from app.races import operations as talk
from app.races.errors import TalkRefused
from app.races.record import GameConfig, GameSession, new_session


def _race(people: int) -> GameSession:
    """A started race of ``people`` people (every invite taken) and bots."""
    session = new_session(GameConfig(players=4, people=people), make_settings())
    for seat in session.lobby.open_invites():
        assert seat.code is not None
        session.lobby.join(seat.code, f"digest-{seat.index}", None)
    assert session.status == "playing" and session.lobby.people() == people
    return session


def test_messages_are_numbered_and_the_latest_few_kept() -> None:
    session = _race(people=2)
    for i in range(talk.TALK_KEPT + 3):
        said = talk.say(session, i % 2, talk.TALK_CODES[i % len(talk.TALK_CODES)], 100.0 + i)
        assert said["n"] == i + 1 and said["after"] == len(session.events)
    assert len(session.said) == talk.TALK_KEPT
    assert [m["n"] for m in session.said] == list(range(4, talk.TALK_KEPT + 4))
    again = GameSession.from_dict(session.to_dict())  # kept with the race
    assert again.said == session.said and again.said_count == talk.TALK_KEPT + 3
    assert talk.said_mark(again.said) == talk.TALK_KEPT + 3 and talk.said_mark([]) == 0


@pytest.mark.parametrize(
    ("people", "seat", "code", "over", "refused"),
    [
        (1, 0, "hello", False, "talk_without_people"),
        (2, 3, "hello", False, "talk_without_people"),  # a bot's seat
        (2, 0, "hi there", False, "unknown_message"),
        (2, 1, "good_race", True, "talk_race_over"),
    ],
)
def test_a_refused_message_changes_nothing(
    people: int, seat: int, code: str, over: bool, refused: str
) -> None:
    session = _race(people)
    if over:
        session.left = [0]  # ended because someone left: over like a finished game
    before = session.to_dict()
    with pytest.raises(TalkRefused) as caught:
        talk.say(session, seat, code, 1.0)
    assert caught.value.code == refused and race_sentence(caught.value)
    assert session.to_dict() == before
