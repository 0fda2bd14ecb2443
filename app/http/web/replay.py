"""The finished race told again (a story per round, a replay trick by trick), and the cards
of a trick as both the replay and the table show them.

Built from the public record only (:func:`app.races.operations.game_record`), so neither
can show a card nobody saw; the numbers are those the events carry, added up from the
start every race has (R4: 5 gas each, nothing in the middle or removed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from app.http.i18n import gettext as _
from app.http.web.labels import SUITS, ZERO_FIVE, Me, SuitInfo, seat_colour, seat_name, viewer
from app.http.web.narration import EventDict, narrate
from app.http.web.timeline import PLAY_KINDS, trick_places
from engine import MAX_GAS, EventKind, shapes
from engine.options import trick_counts


@dataclass(slots=True)
class SeatPosition:
    """One racer (its name for the reader, its colour) and its public numbers at one moment of
    the race, and in its round so far the gas poured on face-up cards, the gas won (shares,
    effects) and the tricks taken."""

    seat: int
    name: str
    colour: str
    gas: int = MAX_GAS  # every racer starts with the gas cap (R4)
    speed: int = 0
    laps: int = 0
    poured: int = 0
    won: int = 0
    tricks: int = 0


@dataclass(slots=True)
class Position:
    """The public position after an event: every racer's numbers, the middle and the
    removed gas."""

    seats: list[SeatPosition]
    middle: int = 0
    removed: int = 0


def positions(events: Sequence[EventDict], players: int, me: Me = 0) -> list[Position]:
    """The public position after each of ``events`` (a whole race's log, from its start)."""
    position = Position([SeatPosition(s, seat_name(s, me), seat_colour(s)) for s in range(players)])
    after: list[Position] = []
    for event in events:
        kind = EventKind(event["kind"])
        seat = position.seats[int(event["seat"])] if event["seat"] is not None else None
        if kind == EventKind.ROUND_DEALT:
            for s in position.seats:
                s.speed = s.poured = s.won = s.tricks = 0
        elif kind == EventKind.CARD_PLAYED and seat is not None:
            seat.gas -= int(event["gas"])
            seat.poured += int(event["gas"])
        elif kind == EventKind.ZERO_FIVE_PLAYED and seat is not None:
            seat.gas += int(event["gained"]) - int(event["gas"])
            seat.poured += int(event["gas"])
            seat.won += int(event["gained"])
            position.removed -= int(event["gained"])
        elif kind == EventKind.GAS_TAKEN and seat is not None:
            seat.gas += int(event["amount"])
            seat.won += int(event["amount"])
            position.middle -= int(event["amount"]) + int(event["removed"])
            position.removed += int(event["removed"])
        elif kind == EventKind.ZERO_EFFECT and seat is not None:
            if event["choice"] == "gas":
                seat.gas += int(event["gained"])
                seat.won += int(event["gained"])
                position.removed -= int(event["gained"])
            else:
                seat.speed += int(event["gained"])
        elif kind == EventKind.TUNE_UP_SHARE:
            for s, got in zip(event["seats"], event["gained"], strict=True):
                position.seats[int(s)].gas += int(got)
                position.seats[int(s)].won += int(got)
            position.removed += int(event["removed"])
            position.middle = 0
        elif kind == EventKind.GAS_TO_MIDDLE:
            position.middle = int(event["middle"])
        elif kind == EventKind.TRICK_WON and seat is not None:
            seat.tricks += 1
        elif kind == EventKind.SPEED_GAINED and seat is not None:
            seat.speed = int(event["speed"])
        elif kind == EventKind.LAP_GAINED and seat is not None:
            seat.laps = int(event["laps"])
        after.append(replace(position, seats=[replace(s) for s in position.seats]))
    return after


@dataclass(frozen=True, slots=True)
class TrickCard:
    """A card lying in a trick (``play``), or an empty place for a seat still to play."""

    seat: int
    name: str
    colour: str
    order: int
    kind: str  # "play", "tune_up", "zero_five" or "pending"
    suit: SuitInfo | None = None
    play: shapes.PublicPlay | None = None
    is_best: bool = False
    is_turn: bool = False

    def __hash__(self) -> int:
        # A card is a kept piece's argument (templating.piece); its play is a dict.
        play = None if self.play is None else frozenset(self.play.items())
        return hash((self.seat, self.name, self.order, self.is_best, self.is_turn, play))

    @property
    def struck(self) -> bool:
        """Whether the printed value is shown crossed out (it counts less here)."""
        play = self.play
        return (
            play is not None
            and play["value"] is not None
            and play["effective_value"] != play["value"]
        )


def trick_card(
    seat: int, order: int, me: Me, play: shapes.PublicPlay | None = None, best: int | None = None
) -> TrickCard:
    """``play`` in a trick (none: a place for a seat still to play)."""
    kind = "pending" if play is None else play["type"]
    suit = None if play is None or kind == "tune_up" else SUITS[play["suit"] or ZERO_FIVE]
    return TrickCard(
        seat=seat,
        name=seat_name(seat, me),
        colour=seat_colour(seat),
        order=order,
        kind=kind,
        suit=suit,
        # A kept piece's key: no later change to the view reaches it.
        play=None if play is None else play.copy(),
        is_best=seat == best and suit is not None,
    )


@dataclass(slots=True)
class ReplayStep:
    """One trick of the race: its cards in play order, its winner and what it said."""

    number: int
    round: int
    trick: int
    cards: list[TrickCard] = field(default_factory=list)
    winner: str | None = None
    winner_final: int | None = None
    lines: list[str] = field(default_factory=list)
    position: Position | None = None
    """Every racer's numbers, the middle and the removed gas once the trick was over."""


@dataclass(slots=True)
class RoundStory:
    """One round in a few lines: who took each trick, who took the lap, the gas."""

    round: int
    tricks: list[ReplayStep]
    lap: str
    seats: list[SeatPosition]
    """Each seat at the round's end."""


def _card(
    event: EventDict, order: int, me: Me, counts: int | None = None, best: int | None = None
) -> TrickCard:
    """The card ``event`` put in the trick (``counts``: what it counted for once the trick
    was complete; a 1 played later may still knock a 4 or 5 down)."""
    kind = EventKind(event["kind"])
    play: shapes.PublicPlay = {
        "seat": int(event["seat"]),
        "type": "tune_up" if kind == EventKind.TUNED_UP else "play",
        "suit": event.get("suit"),
        "value": event.get("value"),
        "effective_value": event.get("value") if counts is None else counts,
        "gas": int(event.get("gas", 0)),
        "speed": event.get("speed"),
        "final": event.get("final"),
        "zero_effect": None,
    }
    if kind == EventKind.ZERO_FIVE_PLAYED:
        play["type"] = "zero_five"
    return trick_card(play["seat"], order, me, play, best)


def replay_steps(
    events: Sequence[EventDict], me: Me = 0, players: int | None = None
) -> list[ReplayStep]:
    """Every trick of the record (:func:`trick_places`) in order, each with its cards, winner
    and sentences (and, given the number of ``players``, the position once it was over)."""
    steps: list[ReplayStep] = []
    plays: list[EventDict] = []  # the events of the last step's cards
    after = positions(events, players, me) if players else None
    for index, (rnd, trick, _over) in enumerate(trick_places(events)):
        event = events[index]
        kind = EventKind(event["kind"])
        if kind in PLAY_KINDS and (not steps or (steps[-1].round, steps[-1].trick) != (rnd, trick)):
            steps.append(ReplayStep(len(steps) + 1, rnd, trick))
            plays = []
        if not steps or kind == EventKind.ROUND_DEALT:
            continue
        step = steps[-1]
        step.lines.append(narrate(event, me))
        if kind in PLAY_KINDS:
            plays.append(event)
            step.cards.append(_card(event, len(plays), me))
        elif kind == EventKind.TRICK_WON:
            step.winner = seat_name(int(event["seat"]), me)
            step.winner_final = int(event["final"])
            # What each card finally counted for is the engine's reading (R9).
            counts = trick_counts(plays)
            step.cards = [
                _card(e, i + 1, me, counts[i], int(event["seat"])) for i, e in enumerate(plays)
            ]
        if after is not None:
            step.position = after[index]
    return steps


def round_stories(events: Sequence[EventDict], players: int, me: Me = 0) -> list[RoundStory]:
    """The race round by round: each trick's winner, the lap, and per seat the gas poured
    on face-up cards, the gas won back and the tricks taken."""
    steps = replay_steps(events, me)
    no_lap = _("Nobody took a lap: the sixth trick was all Tune Ups.")
    stories: dict[int, RoundStory] = {}
    places = [rnd for rnd, _trick, _over in trick_places(events)]
    for event, position, rnd in zip(events, positions(events, players, me), places, strict=True):
        if rnd not in stories:
            stories[rnd] = RoundStory(rnd, [s for s in steps if s.round == rnd], no_lap, [])
        stories[rnd].seats = position.seats
        if event["kind"] == EventKind.LAP_GAINED:
            stories[rnd].lap = narrate(event, me)
    return [stories[r] for r in sorted(stories)]


def replay_context(record: Mapping[str, Any], step: int, me: Me = 0) -> dict[str, Any]:
    """What ``replay.html`` prints for trick number ``step`` (0: the list of tricks)."""
    events = record["events"]
    players = int(record["settings"]["players"])
    steps = replay_steps(events, me, players)
    current = steps[step - 1] if 1 <= step <= len(steps) else None
    return {
        "game_id": record["game_id"],
        "complete": record["complete"],
        "practice": bool(record.get("practice", False)),
        "step": current,
        "previous": step - 1 if current and step > 1 else None,
        "next": step + 1 if step < len(steps) else None,
        "stories": round_stories(events, players, me),
        "spectator": viewer(me).seat < 0,
    }
