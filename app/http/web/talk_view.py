"""What the table shows of the quick messages: the talk's lines, the bubble beside each
sender's seat, the buttons, and whether this browser muted the others (a cookie).

Built from a seat's (or a spectator's) state only: a message is a code, a seat and a time,
public to every seat and watcher, so nothing here can tell a hidden card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request

from app.http.web.labels import seat_colour, seat_name
from app.http.web.table import SPECTATOR, seat_viewer
from app.http.web.talk_words import TalkWords, all_words, talk_words
from app.http.web.templating import templates
from app.races.operations import SessionState
from app.races.record import Said

MUTE_COOKIE = "zzv_mute"
"""Set ("1") while this browser hides the other people's quick messages, on every race."""

BUBBLE_SECONDS = 6.0
"""How long a message shows beside its sender's seat (the stylesheet fades it out)."""


@dataclass(frozen=True, slots=True)
class TalkLine:
    """One message as the viewer reads it: who (named as the table names seats) said what."""

    n: int
    seat: int
    colour: str
    name: str
    mine: bool
    said: TalkWords


@dataclass(frozen=True, slots=True)
class TalkView:
    """The talk section of a table (``partials/talk.html``)."""

    game_id: str
    shown: bool
    """A race with people: the section is on the page (a finished one still lists its talk)."""
    can_send: bool
    """The viewer sits at a person's seat of a race still on."""
    muted: bool
    lines: list[TalkLine]
    bubbles: dict[int, TalkLine] = field(default_factory=dict)
    """The latest recent message of each seat, shown beside it."""
    buttons: list[TalkWords] = field(default_factory=list)
    watching: bool = False


def is_muted(request: Request) -> bool:
    """Whether this browser hides the other people's messages."""
    return request.cookies.get(MUTE_COOKIE) == "1"


def _viewer_seat(state: SessionState) -> int | None:
    seat = state["seat"]
    return None if seat is None or seat == SPECTATOR else seat


def heard(state: SessionState, muted: bool) -> list[Said]:
    """The messages of ``state`` its viewer reads: all of them, or only their own when
    ``muted``."""
    me = _viewer_seat(state)
    return [m for m in state["said"] if not muted or m["seat"] == me]


def lines(state: SessionState, said: list[Said]) -> list[TalkLine]:
    """``said`` as the viewer of ``state`` reads it."""
    reader = seat_viewer(state)
    me = _viewer_seat(state)
    return [
        TalkLine(
            n=m["n"],
            seat=m["seat"],
            colour=seat_colour(m["seat"]),
            name=seat_name(m["seat"], reader),
            mine=m["seat"] == me,
            said=talk_words(m["code"]),
        )
        for m in said
    ]


def talk_view(state: SessionState, muted: bool, now: float) -> TalkView:
    """The talk section of the table ``state`` draws, at wall-clock ``now``."""
    seats = state.get("seats") or []
    people = sum(1 for s in seats if s["person"])
    me = _viewer_seat(state)
    said = heard(state, muted)
    shown_lines = lines(state, said)
    recent = {line.seat: line for line, m in zip(shown_lines, said, strict=True)
              if now - float(m["at"]) < BUBBLE_SECONDS}  # fmt: skip
    return TalkView(
        game_id=state["game_id"],
        shown=people > 1,
        can_send=me is not None
        and state["status"] != "over"
        and any(s["seat"] == me and s["person"] for s in seats),
        muted=muted,
        lines=shown_lines,
        bubbles=recent,
        buttons=all_words(),
        watching=me is None,
    )


def talk_context(state: SessionState, muted: bool, now: float) -> dict[str, Any]:
    """The table template's ``talk``."""
    return {"talk": talk_view(state, muted, now)}


def new_lines_fragment(state: SessionState, said: list[Said]) -> str:
    """The HTML a live table appends to its talk for the messages ``said``: their lines,
    and each sender's bubble replacing the one beside their seat (htmx out-of-band)."""
    new = lines(state, said)
    bubbles = {line.seat: line for line in new}
    html = templates.env.get_template("partials/talk_lines.html").render(
        lines=new, bubbles=bubbles, oob=True
    )
    return " ".join(html.split())
