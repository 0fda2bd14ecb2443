"""The finished race told again: a story per round and a replay trick by trick.

Owned by the web layer. Both are built from the public record only (the settings and the
public event log of :func:`app.races.operations.game_record`), never from the game itself, so
they cannot show a card nobody saw: a Tune Up is a face-down card without a name. The
numbers are those the events carry (each card's gas and speed, the winner's total, the gas
won back, the laps); nothing is worked out from the rules. The position at each moment
(:func:`positions`) only adds up the amounts the events report, from the start the rules
give every race (R4: 5 gas each, nothing in the middle or removed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Self

from app.http.i18n import gettext as _
from app.http.web.labels import SUITS, ZERO_FIVE, Me, SuitInfo, seat_colour, seat_name, viewer
from app.http.web.narration import EventDict, narrate
from app.http.web.timeline import PLAY_KINDS
from engine import EventKind
from engine.options import trick_counts

_GAINS = {EventKind.GAS_TAKEN: "amount", EventKind.ZERO_FIVE_PLAYED: "gained"}
"""Events that give one seat gas, and the field saying how much (the 0 card's effect
gives gas only when its ``choice`` is gas: its ``gained`` is speed otherwise)."""


START_GAS = 5
"""Every racer's gas when a race begins (docs/rules.md R4)."""


@dataclass(slots=True)
class ShownSeat:
    """A seat as the replay shows it: its number, its name for the reader, its colour."""

    seat: int
    name: str
    colour: str

    @classmethod
    def of(cls, seat: int, me: Me, *more: Any) -> Self:
        """``seat`` as ``me`` reads it, with the subclass's ``more`` fields."""
        return cls(seat, seat_name(seat, me), seat_colour(seat), *more)


@dataclass(slots=True)
class SeatPosition(ShownSeat):
    """One racer's public numbers at one moment of the race."""

    gas: int = START_GAS
    speed: int = 0
    laps: int = 0


@dataclass(slots=True)
class Position:
    """The public position after an event: every racer's numbers, the middle, the removed
    gas, and the gas lying on the cards of the trick in play."""

    seats: list[SeatPosition]
    middle: int = 0
    removed: int = 0
    on_cards: int = 0

    def copy(self) -> Position:
        """An independent copy (positions are kept per event)."""
        return Position(
            [replace(s) for s in self.seats],
            self.middle,
            self.removed,
            self.on_cards,
        )

    def numbers(self) -> dict[str, Any]:
        """The position as plain numbers (the table's script reads them)."""
        return {
            "seats": [[s.gas, s.speed, s.laps] for s in self.seats],
            "middle": self.middle,
            "removed": self.removed,
        }


def _advance(position: Position, event: EventDict) -> None:
    """Move ``position`` on by the amounts ``event`` reports."""
    kind = EventKind(event["kind"])
    seat = position.seats[int(event["seat"])] if event["seat"] is not None else None
    if kind == EventKind.ROUND_DEALT:
        for s in position.seats:
            s.speed = 0
    elif kind == EventKind.CARD_PLAYED and seat is not None:
        seat.gas -= int(event["gas"])
        position.on_cards += int(event["gas"])
    elif kind == EventKind.ZERO_FIVE_PLAYED and seat is not None:
        seat.gas += int(event["gained"]) - int(event["gas"])
        position.removed -= int(event["gained"])
        position.on_cards += int(event["gas"])
    elif kind == EventKind.GAS_TAKEN and seat is not None:
        seat.gas += int(event["amount"])
        position.middle -= int(event["amount"]) + int(event["removed"])
        position.removed += int(event["removed"])
    elif kind == EventKind.ZERO_EFFECT and seat is not None:
        if event["choice"] == "gas":
            seat.gas += int(event["gained"])
            position.removed -= int(event["gained"])
        else:
            seat.speed += int(event["gained"])
    elif kind == EventKind.TUNE_UP_SHARE:
        for s, got in zip(event["seats"], event["gained"], strict=True):
            position.seats[int(s)].gas += int(got)
        position.removed += int(event["removed"])
        position.middle = 0
    elif kind == EventKind.GAS_TO_MIDDLE:
        position.middle = int(event["middle"])
        position.on_cards = 0
    elif kind == EventKind.SPEED_GAINED and seat is not None:
        seat.speed = int(event["speed"])
    elif kind == EventKind.LAP_GAINED and seat is not None:
        seat.laps = int(event["laps"])


def positions(events: Sequence[EventDict], players: int, me: Me = 0) -> list[Position]:
    """The public position after each of ``events`` (a whole race's log, from its start)."""
    position = Position([SeatPosition.of(s, me) for s in range(players)])
    after: list[Position] = []
    for event in events:
        _advance(position, event)
        after.append(position.copy())
    return after


@dataclass(slots=True)
class ReplayCard(ShownSeat):
    """A card as it lay in a finished trick (a Tune Up has no suit: nobody saw it)."""

    kind: str  # "play", "tune_up" or "zero_five"
    suit: SuitInfo | None = None
    value: int | None = None
    gas: int = 0
    speed: int = 0
    won: bool = False
    effective: int | None = None
    """What the printed value counted for once the trick was complete (a 1 strikes 4s and 5s)."""


@dataclass(slots=True)
class ReplayStep:
    """One trick of the race: its cards in play order, its winner and what it said."""

    number: int
    round: int
    trick: int
    cards: list[ReplayCard] = field(default_factory=list)
    winner: str | None = None
    winner_final: int | None = None
    lines: list[str] = field(default_factory=list)
    laps: dict[int, int] = field(default_factory=dict)
    position: Position | None = None
    """Every racer's numbers, the middle and the removed gas once the trick was over."""


@dataclass(slots=True)
class SeatGas(ShownSeat):
    """One seat's gas in one round: poured on its cards, and won (shares, effects)."""

    poured: int = 0
    won: int = 0
    tricks: int = 0


@dataclass(slots=True)
class RoundStory:
    """One round in a few lines: who took each trick, who took the lap, the gas."""

    round: int
    tricks: list[ReplayStep]
    lap: str
    seats: list[SeatGas]


def _card(event: EventDict, me: Me) -> ReplayCard:
    seat = int(event["seat"])
    kind = EventKind(event["kind"])
    card = ReplayCard.of(seat, me, "tune_up")
    if kind == EventKind.TUNED_UP:
        return card
    card.kind = "zero_five" if kind == EventKind.ZERO_FIVE_PLAYED else "play"
    card.suit = SUITS[ZERO_FIVE if card.kind == "zero_five" else str(event["suit"])]
    # The event's own total is the card's as it was played: a 1 played later may still
    # knock a 4 or 5 down, so the trick's total is the one its winner's event reports.
    card.value, card.gas, card.speed = int(event["value"]), int(event["gas"]), int(event["speed"])
    return card


def _settle(cards: Sequence[ReplayCard], winner: int, plays: Sequence[EventDict]) -> None:
    """Mark the trick's winner and what each face-up card finally counted for (as the
    engine reads the trick's ``plays``, the events of ``cards``)."""
    for card, counted in zip(cards, trick_counts(plays), strict=True):
        card.won = card.seat == winner
        card.effective = counted


def replay_steps(
    events: Sequence[EventDict], me: Me = 0, players: int | None = None
) -> list[ReplayStep]:
    """Every trick of the record in order, each with its cards, winner and sentences (and,
    given the number of ``players``, the position once it was over).

    A trick opens with its first card and closes when its gas goes to the middle; the
    speed, lap or win lines that follow still belong to it (as in the game log).
    """
    steps: list[ReplayStep] = []
    plays: list[EventDict] = []  # the events of the last step's cards
    laps: dict[int, int] = {}
    after = positions(events, players, me) if players else None
    round_no, closed = 1, True
    for index, event in enumerate(events):
        kind = EventKind(event["kind"])
        if kind == EventKind.ROUND_DEALT:
            round_no, closed = int(event["round"]), True
            continue
        if kind in PLAY_KINDS and closed:
            trick = 1 if not steps or steps[-1].round != round_no else steps[-1].trick + 1
            steps.append(ReplayStep(len(steps) + 1, round_no, trick))
            plays, closed = [], False
        if not steps:
            continue
        step = steps[-1]
        step.lines.append(narrate(event, me))
        if kind in PLAY_KINDS:
            step.cards.append(_card(event, me))
            plays.append(event)
        elif kind == EventKind.TRICK_WON:
            step.winner = seat_name(int(event["seat"]), me)
            step.winner_final = int(event["final"])
            _settle(step.cards, int(event["seat"]), plays)
        elif kind == EventKind.LAP_GAINED:
            laps[int(event["seat"])] = int(event["laps"])
        elif kind == EventKind.GAS_TO_MIDDLE:
            closed = True
        step.laps = dict(laps)
        if after is not None:
            step.position = after[index]
    return steps


def _round_gas(events: Sequence[EventDict], players: int, me: Me) -> dict[int, list[SeatGas]]:
    """Per round, per seat: gas poured on face-up cards and gas won back."""
    rounds: dict[int, list[SeatGas]] = {}
    current = 1
    for event in events:
        kind = EventKind(event["kind"])
        if kind == EventKind.ROUND_DEALT:
            current = int(event["round"])
        seats = rounds.setdefault(current, [SeatGas.of(s, me) for s in range(players)])
        if kind in (EventKind.CARD_PLAYED, EventKind.ZERO_FIVE_PLAYED):
            seats[int(event["seat"])].poured += int(event["gas"])
        if kind in _GAINS:
            seats[int(event["seat"])].won += int(event[_GAINS[kind]])
        elif kind == EventKind.ZERO_EFFECT and event["choice"] == "gas":
            seats[int(event["seat"])].won += int(event["gained"])
        elif kind == EventKind.TUNE_UP_SHARE:
            for seat, got in zip(event["seats"], event["gained"], strict=True):
                seats[int(seat)].won += int(got)
        elif kind == EventKind.TRICK_WON:
            seats[int(event["seat"])].tricks += 1
    return rounds


def round_stories(events: Sequence[EventDict], players: int, me: Me = 0) -> list[RoundStory]:
    """The race round by round: each trick's winner, the lap and everyone's gas."""
    steps = replay_steps(events, me)
    gas = _round_gas(events, players, me)
    lap_lines: dict[int, str] = {}
    current = 1
    for event in events:
        if event["kind"] == EventKind.ROUND_DEALT:
            current = int(event["round"])
        elif event["kind"] == EventKind.LAP_GAINED:
            lap_lines[current] = narrate(event, me)
    return [
        RoundStory(
            round=rnd,
            tricks=[s for s in steps if s.round == rnd],
            lap=lap_lines.get(rnd) or _("Nobody took a lap: the sixth trick was all Tune Ups."),
            seats=seats,
        )
        for rnd, seats in sorted(gas.items())
    ]


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
        "steps": steps,
        "step": current,
        "previous": step - 1 if current and step > 1 else None,
        "next": step + 1 if step < len(steps) else None,
        "stories": round_stories(events, players, me),
        "players": [(s, seat_name(s, me), seat_colour(s)) for s in range(players)],
        "spectator": viewer(me).seat < 0,
    }
