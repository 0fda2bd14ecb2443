"""The words of the quick messages (:mod:`app.races.talk` speaks in codes), from the
message catalog in the request's language (docs/translating.md), and each one's emote."""

from __future__ import annotations

from dataclasses import dataclass

from app.http.i18n import gettext as _
from app.races.talk import CODES


@dataclass(frozen=True, slots=True)
class TalkWords:
    """One message as the table shows it: its code, emote (decoration only) and words."""

    code: str
    emote: str
    words: str


_EMOTES = {"hello": "👋", "well_played": "👏", "oops": "😬", "thinking": "🤔", "good_race": "🏁"}


def words(code: str) -> str:
    """The words of message ``code`` in the request's language.

    >>> words("well_played")
    'Well played!'
    """
    sentences = {
        "hello": _("Hello!"),
        "well_played": _("Well played!"),
        "oops": _("Oops!"),
        "thinking": _("Thinking…"),
        "good_race": _("Good race!"),
    }
    return sentences[code]


def talk_words(code: str) -> TalkWords:
    """Message ``code`` with its emote and words."""
    return TalkWords(code, _EMOTES[code], words(code))


def all_words() -> list[TalkWords]:
    """Every message, in the order the table offers them."""
    return [talk_words(code) for code in CODES]
