"""One race as the server keeps it: the engine game plus the seats, turn counter and log.

:class:`GameSession` is pure data with its JSON form (:meth:`GameSession.to_dict`), which is
what the stores keep (in memory, saved to a data directory, or in Redis). The operations on
a race (moves, joins, the clock) live in :mod:`app.races.operations`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from typing import Any

from app.races import history
from app.races.lobby import Lobby, Status
from app.settings import Settings
from app.storage.interface import RecordHead
from app.vocabulary import BotLevel
from engine import Event, EventLog, Game, Suit, Variants, new_game
from engine.bots import DEFAULT_BOT_BUDGET_MS

SESSION_FORMAT = 2
"""Version of :meth:`GameSession.to_dict` (2: seats and invites in ``lobby``). Adding a field
needs no new version: readers use ``data.get(name, default)``; bump it (and convert in
:meth:`GameSession.from_dict`) only when a field changes meaning. The event log is saved
packed under ``log`` (:meth:`engine.EventLog.to_packed`); the rows of ``events`` that
earlier versions saved are still read."""


@dataclass(frozen=True)
class GameConfig:
    """What a player chose when starting a race."""

    players: int = 4
    bots: BotLevel = "normal"
    variants: Variants = field(default_factory=Variants)
    seed: int | None = None
    """The public seed; None asks the server to draw one."""
    people: int = 1
    """How many seats are people's: the creator and ``people - 1`` invited friends."""
    watch: bool = False
    """A bots-only race paced for spectators ("Watch the bots race")."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (see :meth:`from_dict`)."""
        return {
            "players": self.players,
            "bots": self.bots,
            "variants": self.variants.to_dict(),
            "seed": self.seed,
            "people": self.people,
            "watch": self.watch,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameConfig:
        """Inverse of :meth:`to_dict`.

        >>> config = GameConfig(players=3, bots="easy", seed=7, people=2)
        >>> GameConfig.from_dict(config.to_dict()) == config
        True
        """
        return cls(
            players=int(data["players"]),
            bots=data["bots"],
            variants=Variants.from_dict(data["variants"]),
            seed=data["seed"],
            people=int(data.get("people", 1)),
            watch=bool(data.get("watch", False)),
        )


def new_game_id() -> str:
    """A fresh unguessable game id (used in URLs; it is not a credential)."""
    return secrets.token_urlsafe(12)


def new_token() -> str:
    """A fresh player token: 256 random bits, the only credential for a seat."""
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    """SHA-256 of a token: all the server keeps of it (stores never hold tokens)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(eq=False)
class GameSession:
    """One live race: the engine game plus everything the server tracks about it.

    ``turn`` counts the people's applied actions; a request must echo it. ``events`` holds
    the public event log, packed (a game keeps hundreds of events).
    ``lobby`` says who sits where; each seat remembers how many events it was sent.

    ``token`` is the creator's token, known only to the request that created the race;
    the stores keep the seats' digests (in ``lobby``), never a token.
    """

    id: str
    config: GameConfig
    game: Game
    seed: int
    seed_chosen: bool
    engine_seed: int
    lobby: Lobby
    turn: int = 0
    events: EventLog = field(default_factory=EventLog)
    bot_decisions: int = 0
    bot_budget_ms: int = DEFAULT_BOT_BUDGET_MS
    practice: bool = False
    """A practice race (a take-back was used, or it was started from a reviewed position):
    shown as such wherever results are, and never counted in ratings or daily boards."""
    token: str = field(default="", repr=False)
    moves: list[str] | None = field(default_factory=list, repr=False)
    """Every applied action with its seat (:mod:`app.races.history`): secret, server-side
    only, what a review rebuilds the race from. None for a race saved before it was kept."""
    reviews: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)
    """Finished reviews by seat (as a string, a JSON key): :mod:`app.races.review`."""
    par: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)
    """The hard bot's result in each person's seat on this deal, by seat, once computed."""
    _hands: list[list[Suit]] = field(default_factory=list, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._hands = [list(hand) for hand in self.game.hands]

    def bots_may_move(self, seat: int) -> bool:
        """Whether the bots play ``seat`` now: a bot's seat, once the race started, and
        not in a bots-only race (whose moves come one by one on its clock)."""
        lobby = self.lobby
        return lobby.started and not lobby.paced and not lobby.is_person(seat)

    @property
    def status(self) -> Status:
        """``waiting`` for people to join, ``playing``, or ``over``."""
        if self.game.is_over:
            return "over"
        return "playing" if self.lobby.started else "waiting"

    def head(self) -> RecordHead:
        """What a store keeps beside the race for cheap reads: the seats' token digests
        (to authenticate, and to answer 410 once the race is gone) and the clock."""
        return RecordHead(self.lobby.seat_digests(), self.lobby.deadline)

    def record_events(self, events: list[Event]) -> None:
        """Append the events of one ``Game.apply`` (or the opening deal) to the public log,
        and keep the move that made them (:mod:`app.races.history`)."""
        self.events.extend(events)
        if self.moves is not None:
            seat = next((e.seat for e in events if e.seat is not None), None)
            before = self._hands[seat] if seat is not None and seat < len(self._hands) else []
            after = self.game.hands[seat] if seat is not None else []
            move = history.action_of(events, before, after)
            if move is not None:
                self.moves.append(history.encode(*move))
        self._hands = [list(hand) for hand in self.game.hands]

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to continue the race elsewhere (secrets included: server-side
        storage only). No token is in it, only the seats' digests."""
        return {
            "format": SESSION_FORMAT,
            "id": self.id,
            "config": self.config.to_dict(),
            "game": self.game.to_dict(),
            "seed": self.seed,
            "seed_chosen": self.seed_chosen,
            "engine_seed": self.engine_seed,
            "lobby": self.lobby.to_dict(),
            "turn": self.turn,
            "log": self.events.to_packed(),
            "bot_decisions": self.bot_decisions,
            "bot_budget_ms": self.bot_budget_ms,
            "practice": self.practice,
            "moves": self.moves,
            "reviews": self.reviews,
            "par": self.par,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameSession:
        """Restore a session saved by :meth:`to_dict`; raises ``ValueError`` if unknown."""
        if data.get("format") != SESSION_FORMAT:
            raise ValueError("Unknown saved-session format.")
        return cls(
            id=str(data["id"]),
            config=GameConfig.from_dict(data["config"]),
            game=Game.from_dict(data["game"]),
            seed=int(data["seed"]),
            seed_chosen=bool(data["seed_chosen"]),
            engine_seed=int(data["engine_seed"]),
            lobby=Lobby.from_dict(data["lobby"]),
            turn=int(data["turn"]),
            events=EventLog.from_packed(data["log"])
            if "log" in data
            else EventLog.from_list(data["events"]),
            bot_decisions=int(data["bot_decisions"]),
            bot_budget_ms=int(data.get("bot_budget_ms", DEFAULT_BOT_BUDGET_MS)),
            practice=bool(data.get("practice", False)),
            moves=data.get("moves"),
            reviews=dict(data.get("reviews") or {}),
            par=dict(data.get("par") or {}),
        )


def derive_engine_seed(seed: int, settings: Settings) -> int:
    """Shuffle seed for the engine, keyed with the server secret.

    The public seed is shown in the finished game's record. Keying it means nobody can
    feed it to the (open source) engine offline and recover the deals and so the identity
    of face-down cards; the same server (same secret) still replays the same seed exactly.
    """
    key = settings.seed_secret.get_secret_value().encode()
    digest = hmac.new(key, str(seed).encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def new_session(
    config: GameConfig, settings: Settings, creator_name: str | None = None
) -> GameSession:
    """Deal a new race and seat its people and bots (not stored yet; no bot has played).

    The creator's token is in ``session.token``.
    """
    seed_chosen = config.seed is not None
    seed = config.seed if config.seed is not None else secrets.randbelow(2**53)
    engine_seed = derive_engine_seed(seed, settings)
    game = new_game(players=config.players, seed=engine_seed, variants=config.variants)
    token = new_token()
    if config.watch:
        lobby = Lobby.bots_only(config.players, settings.watch_pace_seconds)
    else:
        lobby = Lobby.create(
            config.players,
            config.people,
            token_digest(token),
            turn_seconds=settings.turn_seconds,
            creator_name=creator_name,
        )
    session = GameSession(
        id=new_game_id(),
        config=config,
        game=game,
        seed=seed,
        seed_chosen=seed_chosen,
        engine_seed=engine_seed,
        lobby=lobby,
        bot_budget_ms=settings.bot_time_budget_ms,
        token=token,
    )
    # new_game() reports nothing; the log opens with the first deal, like every later one.
    session.record_events([game.deal_event()])
    return session
