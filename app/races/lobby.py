"""Who sits where in a race (:class:`Lobby`): people and bots, invite codes, names and the
turn clock, as engine-free data kept with every race (docs/architecture.md). A person
whose clock ran out on :data:`AWAY_AFTER` turns in a row is away: a bot plays their seat,
openly, until they come back."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import asdict, dataclass, field, fields
from functools import cache
from typing import Any, Literal

from typing_extensions import TypedDict

from app.races.errors import LobbyRefused

Status = Literal["waiting", "playing", "over"]


class PublicSeat(TypedDict):
    """Who sits at a seat (public: every seat and spectator sees the same)."""

    seat: int
    name: str
    """Display name as typed (escape it when you show it)."""
    person: bool
    """A person's seat (else a bot's)."""
    joined: bool
    """Somebody took this person's seat."""
    autopilot_moves: int
    """Moves the autopilot made for this seat."""
    away: bool
    """The person's clock ran out on two turns in a row: a bot plays this seat until they
    come back (`POST /api/games/{id}/back`)."""


class Invite(TypedDict):
    """An invite for one seat: send ``url`` (or ``code``) to one friend."""

    seat: int
    code: str
    """Single-use; not a token. `POST /api/games/{id}/join`."""
    url: str
    """The same invite as a link to open in a browser."""


class AutopilotMove(TypedDict):
    """The autopilot's last move: it played for ``seat``, making ``turn``."""

    seat: int
    turn: int


Answer = Literal["yes", "no"]


class RematchOffer(TypedDict):
    """A finished race's rematch: the new race and each person's answer, by seat."""

    game_id: str
    answers: dict[str, Answer]
    """Seat (as a string) to `yes` or `no`; a person not in it did not answer."""


NAME_MAX = 20

AWAY_AFTER = 2
"""Turns in a row a person's clock may run out before they are away."""


def token_digest(secret: str) -> str:
    """SHA-256 of a token or code: all the server keeps of it (stores never hold tokens)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def _matches(presented: str, kept: str | None) -> bool:
    return kept is not None and hmac.compare_digest(presented, kept)  # in constant time


def known_fields(cls: type, data: dict[str, Any]) -> dict[str, Any]:
    """The items of saved ``data`` that name a field of dataclass ``cls`` (a field added
    since keeps its default; a key no field has any more is left out)."""
    names = _field_names(cls)
    return {key: value for key, value in data.items() if key in names}


@cache  # every stored race read at a start asks it for the same few classes
def _field_names(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in fields(cls))


def default_name(seat: int) -> str:
    return f"Player {seat + 1}"


def bot_name(seat: int) -> str:
    return f"Bot {seat + 1}"


def rotated(seat: int, players: int) -> int:
    """Where seat ``seat``'s racer sits in a rematch: one seat further round."""
    return (seat + 1) % players


def clean_name(raw: str | None, seat: int) -> str:
    """A display name from what a person typed, trimmed: 1–20 printable characters (else
    ``invalid_name``), or the default."""
    name = " ".join((raw or "").split())
    if not name:
        return default_name(seat)
    if len(name) > NAME_MAX or not name.isprintable():
        raise LobbyRefused("invalid_name", most=NAME_MAX)
    return name


@dataclass
class Seat:
    """One seat of the race: a person's or a bot's."""

    index: int
    person: bool
    name: str
    token_digest: str | None = None
    """SHA-256 of the seat's own token, once somebody sits there."""
    code: str | None = None
    """The open invite code (shown to the creator only); ``None`` once used or closed."""
    used_code_digest: str | None = None
    """SHA-256 of the code that was used (a second use hears so)."""
    closed_code_digest: str | None = None
    """SHA-256 of the code still unused when the race started (a late friend hears so)."""
    delivered: int = 0
    """How many public events this seat's client has been sent."""
    player: int | None = None
    """The results' player id of the person sitting here (never shown)."""

    @property
    def joined(self) -> bool:
        return self.token_digest is not None


@dataclass
class Lobby:
    """The seats of one race, its phase and its turn clock: ``deadline`` is when the person
    to move (or a paced bot) runs out of time, in wall-clock seconds."""

    seats: list[Seat]
    started: bool = True
    turn_seconds: float = 60.0
    deadline: float | None = None
    paced: bool = False
    """A bots-only race shown to spectators: one bot move per clock tick."""
    autopilot: AutopilotMove | None = None
    autopilot_moves: list[int] = field(default_factory=list)
    """How many moves the autopilot made for each seat (none yet: a 0 for each)."""
    timeouts: list[int] = field(default_factory=list)
    """Per seat, the turns in a row its person's clock ran out."""
    last_mover: int | None = None
    """The person whose own request made the latest change (None: a join, a start, the
    clock)."""
    wait_seconds: float | None = None
    """How long a race open to strangers (or a rematch) waits for people before bots fill
    it (until ``deadline``); None: it waits for friends or Start."""
    rematch: RematchOffer | None = None

    def __post_init__(self) -> None:
        self.autopilot_moves = self.autopilot_moves or [0] * len(self.seats)

    @classmethod
    def create(
        cls,
        players: int,
        people: int,
        creator_digest: str,
        *,
        turn_seconds: float = 60.0,
        creator_name: str | None = None,
        wait_seconds: float | None = None,
    ) -> Lobby:
        """Seats for a new race: the creator at 0, ``people - 1`` invited seats, then bots."""
        if not 1 <= people <= players:
            raise LobbyRefused("invalid_request", players=players)
        seats = [Seat(0, True, clean_name(creator_name, 0), token_digest=creator_digest)]
        for index in range(1, players):
            invited = index < people
            name = default_name(index) if invited else bot_name(index)
            code = secrets.token_urlsafe(12) if invited else None  # it opens one empty seat
            seats.append(Seat(index, invited, name, code=code))
        return cls(seats, started=people == 1, turn_seconds=turn_seconds, wait_seconds=wait_seconds)

    @classmethod
    def rematch_of(
        cls, old: Lobby, presser: int, creator_digest: str, wait_seconds: float
    ) -> Lobby:
        """Seats for a rematch of ``old``, everyone one seat further round: the presser
        seated, every other person's seat held for them (by a code only the server knows)."""
        players = len(old.seats)
        seats = []
        for index in range(players):
            was = old.seats[index - 1]  # one seat further round (rotated)
            if not was.joined:
                seats.append(Seat(index, False, bot_name(index)))
            elif was.index == presser:
                seats.append(Seat(index, True, was.name, creator_digest, player=was.player))
            else:
                seats.append(Seat(index, True, was.name, code=secrets.token_urlsafe(12)))
        return cls(seats, started=False, turn_seconds=old.turn_seconds, wait_seconds=wait_seconds)

    @classmethod
    def bots_only(cls, players: int, pace_seconds: float) -> Lobby:
        seats = [Seat(i, False, bot_name(i)) for i in range(players)]
        return cls(seats, turn_seconds=pace_seconds, paced=True)

    def is_person(self, seat: int | None) -> bool:
        return seat is not None and 0 <= seat < len(self.seats) and self.seats[seat].person

    def is_away(self, seat: int | None) -> bool:
        if seat is None or seat >= len(self.timeouts):
            return False
        return self.is_person(seat) and self.timeouts[seat] >= AWAY_AFTER

    def seat_of_player(self, player: int | None) -> int | None:
        """The seat where the results' ``player`` sits (None for no player)."""
        found = (s.index for s in self.seats if player is not None and s.player == player)
        return next(found, None)

    def seat_digests(self) -> tuple[str, ...]:
        """Each seat's token digest, "" where nobody sits (for the stores)."""
        return tuple(s.token_digest or "" for s in self.seats)

    def open_invites(self) -> list[Seat]:
        return [s for s in self.seats if s.code is not None]

    def invite_links(self, base_url: str, game_id: str) -> list[Invite]:
        base = base_url.rstrip("/")
        return [
            {"seat": s.index, "code": code, "url": f"{base}/games/{game_id}/join?code={code}"}
            for s in self.open_invites()
            if (code := s.code) is not None
        ]

    def people(self) -> int:
        """How many seats are people's (an invite nobody took before Start is a bot's)."""
        return sum(seat.person for seat in self.seats)

    def public_seats(self) -> list[PublicSeat]:
        return [
            {
                "seat": s.index,
                "name": s.name,
                "person": s.person,
                "joined": s.joined,
                "autopilot_moves": self.autopilot_moves[s.index],
                "away": self.is_away(s.index),
            }
            for s in self.seats
        ]

    def join(self, code: str, seat_digest: str, name: str | None) -> int:
        """Seat a person holding invite ``code``; the seat (or ``invite_used``,
        ``race_started``, ``invite_not_found``)."""
        presented = token_digest(code)
        for seat in self.seats:
            if _matches(presented, seat.used_code_digest):
                raise LobbyRefused("invite_used")
            if _matches(presented, seat.closed_code_digest):
                raise LobbyRefused("race_started")
            if seat.code is not None and _matches(presented, token_digest(seat.code)):
                if self.started:
                    raise LobbyRefused("race_started")
                seat.name = clean_name(name, seat.index)
                seat.token_digest = seat_digest
                seat.used_code_digest = presented
                seat.code = None
                self.last_mover = None
                self.started = not self.open_invites()
                return seat.index
        raise LobbyRefused("invite_not_found")

    def start(self) -> None:
        """Start now: every seat still empty becomes a bot's (:meth:`close_seat`)."""
        for seat in self.seats:
            self.close_seat(seat.index)  # the last one closed starts the race

    def close_seat(self, index: int) -> None:
        """Seat ``index``'s invite, if still open, stops working (answered ``race_started``)
        and a bot takes the seat; the race starts once no invite is open."""
        seat = self.seats[index]
        if seat.code is not None:
            seat.used_code_digest = None
            seat.closed_code_digest = token_digest(seat.code)
            seat.code = None
            seat.person = False
            seat.name = bot_name(seat.index)
        self.started = not self.open_invites()

    def arm_clock(self, current_seat: int | None, now: float) -> None:
        """Restart the clock for whoever is to move now: none for a bot, at the end, or for
        one person alone; a race that waits for people gets its wait's end, once."""
        if not self.started and self.wait_seconds is not None:
            if self.deadline is None:
                self.deadline = now + self.wait_seconds
            return
        ticking = self.started and current_seat is not None and not self.is_away(current_seat)
        shared = self.people() > 1
        if ticking and (self.paced or (shared and self.is_person(current_seat))):
            self.deadline = now + self.turn_seconds
        else:
            self.deadline = None

    def overdue(self, now: float) -> bool:
        return self.deadline is not None and now >= self.deadline

    def note_autopilot(self, seat: int, turn: int) -> None:
        self.autopilot = {"seat": seat, "turn": turn}
        if not self.paced:
            self.autopilot_moves[seat] += 1
            self._timeouts()[seat] += 1

    def note_own_move(self, seat: int) -> None:
        self._timeouts()[seat] = 0

    def come_back(self, seat: int) -> bool:
        """``seat``'s person takes their seat back from the bot; whether they were away."""
        away = self.is_away(seat)
        self._timeouts()[seat] = 0
        return away

    def _timeouts(self) -> list[int]:
        # A race saved before away existed has no counts yet.
        if len(self.timeouts) != len(self.seats):
            self.timeouts = [0] * len(self.seats)
        return self.timeouts

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for the stores (it holds the open codes)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Lobby:
        seats = [Seat(**s) for s in data["seats"]]
        return cls(
            **known_fields(cls, data)
            | {"seats": seats, "turn_seconds": float(data["turn_seconds"])}
        )
