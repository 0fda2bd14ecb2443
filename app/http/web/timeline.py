"""The public event log arranged for the table: the log by round and trick, the staged reveal
since the viewer's last card, the end-of-round box, and the moments (a lap, the race's end,
a big play) the reveal shows over the trick (static/js/table.js)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from app.http.i18n import gettext as _
from app.http.web.labels import SUITS, ZERO_FIVE, Me, SuitInfo, is_viewer, seat_colour, seat_name
from app.http.web.narration import EventDict, narrate, say
from engine import EventKind

PLAY_KINDS = frozenset({EventKind.CARD_PLAYED, EventKind.TUNED_UP, EventKind.ZERO_FIVE_PLAYED})
"""Events that put a card into the trick."""

_FACE_UP_KINDS = frozenset({EventKind.CARD_PLAYED, EventKind.ZERO_FIVE_PLAYED})

RESULT_KINDS = (
    frozenset(EventKind)
    - PLAY_KINDS
    - {EventKind.CARD_DISCARDED, EventKind.GAS_TAKEN, EventKind.ZERO_EFFECT}
)
"""Events that settle a trick, all but a card's play and its own effects (the reveal shows
them after the cards)."""


class LogTrick(NamedTuple):
    """One trick of the game log as sentences (a value: ``pieces:log_trick`` keeps it)."""

    trick: int
    lines: tuple[str, ...]
    complete: bool


class LogRound(NamedTuple):
    """One round of the game log: the deal sentence and its tricks, newest first."""

    round: int
    tricks: list[LogTrick]
    intro: str | None


class RecentItem(NamedTuple):
    """One step of the staged reveal after a move."""

    kind: str
    seat: int | None
    colour: str | None
    text: str
    suit: SuitInfo | None = None
    final: int | None = None
    is_result: bool = False


class RoundSummary(NamedTuple):
    """The box shown when a round finished since the viewer's last card."""

    round: int
    headline: str
    next_lead: str


def trick_places(events: Sequence[EventDict]) -> Iterator[tuple[int, int, bool]]:
    """Each event's round, its trick in that round (0 before the round's first card) and
    whether the trick is over. A trick opens with its first card and is over once its gas has
    gone to the middle; the speed, lap or win lines after it still belong to it."""
    rnd, trick, over = 1, 0, True
    for event in events:
        kind = event["kind"]
        if kind == EventKind.ROUND_DEALT:
            rnd, trick, over = int(event["round"]), 0, True
        elif kind in PLAY_KINDS and over:
            trick, over = trick + 1, False
        over = over or kind == EventKind.GAS_TO_MIDDLE
        yield rnd, trick, over


def log_rounds(
    events: Sequence[EventDict], me: Me = 0, lines: Sequence[str] | None = None
) -> list[LogRound]:
    """The public event log as rounds and tricks (:func:`trick_places`) of sentences, newest
    first (``lines``: the events' sentences, when already told)."""
    texts = [narrate(event, me) for event in events] if lines is None else lines
    rounds: list[LogRound] = []
    for event, text, (rnd, trick, over) in zip(events, texts, trick_places(events), strict=True):
        if event["kind"] == EventKind.ROUND_DEALT:
            rounds.append(LogRound(rnd, [], text))
            continue
        if not rounds:
            rounds.append(LogRound(1, [], None))
        tricks = rounds[-1].tricks
        if not tricks or tricks[-1].trick != max(trick, 1):
            tricks.append(LogTrick(max(trick, 1), (), False))
        tricks[-1] = LogTrick(tricks[-1].trick, (*tricks[-1].lines, text), over)
    for played in rounds:
        played.tricks.reverse()
    return rounds[::-1]


def recent_item(event: EventDict, text: str) -> RecentItem:
    """One event since the viewer's last card, told as ``text``, as a step of the reveal."""
    kind: str = event["kind"]  # a kind's value: equal to its EventKind, a StrEnum
    seat, face_up = event["seat"], kind in _FACE_UP_KINDS
    return RecentItem(
        kind=kind,
        seat=seat,
        colour=None if seat is None else seat_colour(seat),
        text=text,
        suit=SUITS[event.get("suit") or ZERO_FIVE] if face_up else None,
        final=event["final"] if face_up else None,
        is_result=kind in RESULT_KINDS,
    )


def is_my_play(event: EventDict, me: int) -> bool:
    return event["kind"] in PLAY_KINDS and event["seat"] == me


def since_my_last_play(events: Sequence[EventDict], me: int = 0) -> int:
    """Index of the viewer's latest card in ``events`` (0 if none): the table shows everything
    from it on, so a refresh shows the same story."""
    return next((i for i in reversed(range(len(events))) if is_my_play(events[i], me)), 0)


def round_start(events: Sequence[EventDict], index: int) -> int:
    """Index of the deal that opened the round holding ``events[index]`` (0 if none)."""
    back = reversed(range(min(index, len(events) - 1) + 1))
    return next((i for i in back if events[i]["kind"] == EventKind.ROUND_DEALT), 0)


def round_summary(recent: Sequence[EventDict], me: Me, game_over: bool) -> RoundSummary | None:
    """The round that ended among ``recent`` events (None if none did, or if the race ended:
    the game-over box covers that)."""
    if game_over:
        return None
    deal = next((e for e in recent if e["kind"] == EventKind.ROUND_DEALT and e["round"] > 1), None)
    if deal is None:
        return None
    lap = next((e for e in recent if e["kind"] == EventKind.LAP_GAINED), None)
    nobody = _("Everyone tuned up in the sixth trick, so nobody took a lap this round.")
    headline = nobody if lap is None else narrate(lap, me)
    return RoundSummary(deal["round"] - 1, headline, say(deal["lead"], me, "leads_round", deal))


BIG_PLAY = 10
"""A trick the viewer wins with a final number this high or higher is a big play (a card's
printed number alone tops out at 5: it took gas and speed)."""


class Moment(NamedTuple):
    """One moment (``lap``, ``win``, ``lose`` or ``big``) of the seat called ``name``, worded
    by ``partials/moment.html``; ``value``: the laps made or the trick's final number;
    ``at``: the 1-based number of the event that makes it, as the table's feed items carry it."""

    kind: str
    mine: bool
    name: str
    value: int
    at: int


def moments(events: Sequence[EventDict], first_at: int, me: Me) -> list[Moment]:
    found = []
    for at, event in enumerate(events, start=first_at):
        kind, seat = event["kind"], event["seat"]
        mine = is_viewer(seat, me)
        if kind == EventKind.LAP_GAINED:
            found.append(Moment("lap", mine, seat_name(seat, me), int(event["laps"]), at))
        elif kind == EventKind.GAME_WON:
            found.append(Moment("win" if mine else "lose", mine, seat_name(seat, me), 0, at))
        elif kind == EventKind.TRICK_WON and mine and int(event["final"]) >= BIG_PLAY:
            found.append(Moment("big", True, seat_name(seat, me), int(event["final"]), at))
    return found
