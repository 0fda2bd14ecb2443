"""The quick messages on the table and in a live table's stream. A message is a code, a seat
and a time, public to every seat and watcher: nothing here can tell a hidden card."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from starlette.requests import Request

from app.http.i18n import N_
from app.http.i18n import gettext as _
from app.http.web.labels import is_viewer, seat_colour, seat_name
from app.http.web.table import people_count, seat_viewer
from app.http.web.templating import templates
from app.live.streams import Message
from app.races.operations import TALK_CODES, SessionState, play_signature
from app.races.record import Said

MUTE_COOKIE = "zzv_mute"
"""Set ("1") while this browser hides the other people's quick messages, on every race."""

BUBBLE_SECONDS = 6.0
"""How long a message shows beside its sender's seat (the stylesheet fades it out)."""

CHANGED: Message = {"event": "changed", "data": "1"}
"""A live table's "reload me": something other than talk changed."""

_SAID = {
    "hello": ("👋", N_("Hello!")),
    "well_played": ("👏", N_("Well played!")),
    "oops": ("😬", N_("Oops!")),
    "thinking": ("🤔", N_("Thinking…")),
    "good_race": ("🏁", N_("Good race!")),
}
"""Each message code's emote (decoration only) and words, as written."""


class TalkWords(NamedTuple):
    """One message as the table shows it: its code, emote and words."""

    code: str
    emote: str
    words: str


def talk_words(code: str) -> TalkWords:
    """Message ``code`` with its emote and its words in the request's language."""
    emote, words = _SAID[code]
    return TalkWords(code, emote, _(words))


class TalkLine(NamedTuple):
    """One message as the viewer reads it: who (named as the table names seats) said what."""

    n: int
    seat: int
    colour: str
    name: str
    mine: bool
    said: TalkWords


def is_muted(request: Request) -> bool:
    return request.cookies.get(MUTE_COOKIE) == "1"


def heard(state: SessionState, muted: bool) -> list[Said]:
    """The messages of ``state`` its viewer reads: all, or only their own when ``muted``."""
    return [m for m in state["said"] if not muted or m["seat"] == state["seat"]]


def lines(state: SessionState, said: list[Said]) -> list[TalkLine]:
    reader = seat_viewer(state)
    return [
        TalkLine(
            n=m["n"],
            seat=m["seat"],
            colour=seat_colour(m["seat"]),
            name=seat_name(m["seat"], reader),
            mine=is_viewer(m["seat"], reader),
            said=talk_words(m["code"]),
        )
        for m in said
    ]


def talk_context(state: SessionState, muted: bool, now: float) -> dict[str, Any]:
    """The talk section (partials/talk.html): shown in a race with people (a finished one
    still lists its talk); the viewer can send from a person's seat of a race still on."""
    seats, me = state.get("seats") or [], state["seat"]
    said = heard(state, muted)
    shown_lines = lines(state, said)
    recent = {line.seat: line for line, m in zip(shown_lines, said, strict=True)
              if now - float(m["at"]) < BUBBLE_SECONDS}  # fmt: skip
    return {
        "game_id": state["game_id"],
        "shown": people_count(state) > 1,
        "can_send": me is not None
        and state["status"] != "over"
        and any(s["seat"] == me and s["person"] for s in seats),
        "muted": muted,
        "lines": shown_lines,
        "bubbles": recent,  # each seat's latest recent message, beside it
        "buttons": [talk_words(code) for code in TALK_CODES],
        "watching": me is None,
    }


def new_lines_fragment(state: SessionState, said: list[Said]) -> str:
    """The HTML a live table appends for the messages ``said``: their lines, and each
    sender's bubble replacing the one beside their seat (htmx out-of-band)."""
    new = lines(state, said)
    bubbles = {line.seat: line for line in new}
    html = templates.env.get_template("partials/talk_lines.html").render(
        lines=new, bubbles=bubbles, oob=True
    )
    return " ".join(html.split())


def live_render(seat: int | None, muted: bool) -> Callable[[SessionState], Message | None]:
    """A live table's render for :func:`app.live.streams.follow`: ``changed`` (reload) when
    play changed, unless by ``seat``'s own move (its page drew it already; None: a watcher,
    to whom every move is news), else ``said`` with the lines the others said since (none
    when ``muted``; the page shows its own already)."""
    # What the table was last sent: the play's signature and the others' last message.
    seen_play: tuple[Any, ...] | None = None
    seen_said: int | None = None

    def render(state: SessionState) -> Message | None:
        nonlocal seen_play, seen_said
        others = [m for m in heard(state, muted) if m["seat"] != seat]
        news = [m for m in others if seen_said is not None and m["n"] > seen_said]
        played = play_signature(state) != seen_play
        seen_play, seen_said = play_signature(state), others[-1]["n"] if others else 0
        if played and (seat is None or state["last_mover"] != seat):
            return CHANGED
        if news:
            return {"event": "said", "data": new_lines_fragment(state, news)}
        return None

    return render
