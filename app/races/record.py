"""One race as the server keeps it: :class:`GameSession`, its settings, deal, seats and
moves, and its JSON form (docs/architecture.md, "One move, top to bottom")."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from typing_extensions import TypedDict

from app.races import lesson
from app.races.lobby import Lobby, Status, known_fields, token_digest
from app.settings import Settings
from app.storage.interface import RecordHead
from app.vocabulary import BotLevel, TalkCode
from engine import Action, ActionDict, Event, EventLog, Game, IllegalAction, Variants, new_game
from engine.bots import DEFAULT_BOT_BUDGET_MS
from engine.sim import ACTION_ID, ACTIONS

SESSION_FORMAT = 3
"""Version of :meth:`GameSession.to_dict`: a field that changes meaning needs a new one and
a migration of the stored races (``app/storage/migrations``); a new field does not."""


@dataclass(frozen=True)
class GameConfig:
    """What a player chose when starting a race."""

    players: int = 4
    bots: BotLevel = "normal"
    variants: Variants = field(default_factory=Variants)
    seed: int | None = None
    """The public seed; None asks the server to draw one (a chosen seed makes practice)."""
    people: int = 1
    """How many seats are people's: the creator and ``people - 1`` invited friends."""
    watch: bool = False
    """A bots-only race paced for spectators."""
    lesson: bool = False
    """The guided first race (:mod:`app.races.lesson`)."""
    quick: bool = False
    """A "Race strangers" race (:mod:`app.races.seating`)."""
    daily: str | None = None
    """The UTC date (``YYYY-MM-DD``) of the daily deal this race is (its seed hidden)."""
    cup: str | None = None
    """The ISO week (``YYYY-Www``) of the weekly cup this race is a deal of (likewise)."""
    cup_deal: int | None = None
    """Which of the cup's deals (1 to :data:`app.races.daily.CUP_DEALS`)."""

    def to_dict(self) -> dict[str, Any]:
        data = {**asdict(self), "variants": self.variants.to_dict()}
        if self.cup is None:
            del data["cup"], data["cup_deal"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameConfig:
        variants = Variants.from_dict(data["variants"])
        return cls(**known_fields(cls, data) | {"variants": variants})


MOVE_KINDS = ("person", "autopilot", "bot")
_SEATS = 8  # a power of two above the most seats (5): the seat is a code's low bits


def encode_move(kind: str, seat: int, action: Action) -> int:
    """One recorded action as one small number (its action's id in :data:`engine.sim.ACTIONS`)."""
    return (ACTION_ID[action] * len(MOVE_KINDS) + MOVE_KINDS.index(kind)) * _SEATS + seat


def decode_move(code: int) -> tuple[str, int, Action]:
    """``(kind, seat, action)`` of an :func:`encode_move` number."""
    rest, seat = divmod(code, _SEATS)
    action_id, kind = divmod(rest, len(MOVE_KINDS))
    return MOVE_KINDS[kind], seat, ACTIONS[action_id]


def move_seat(code: int) -> int:
    return code % _SEATS


def move_kind(code: int) -> str:
    return MOVE_KINDS[code // _SEATS % len(MOVE_KINDS)]


def new_game_id() -> str:
    return secrets.token_urlsafe(12)  # unguessable, but not a credential


def new_token() -> str:
    """A fresh player token: the only credential for a seat."""
    return secrets.token_urlsafe(32)


def deal_bot_key(engine_seed: int) -> int:
    """The bots' key of a race whose seed was chosen: the same seed races the same way."""
    digest = hashlib.blake2b(f"bots:{engine_seed}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


class Said(TypedDict):
    """A quick message said at the table (public: every seat and watcher sees it)."""

    n: int
    """The message's number in the race, from 1."""
    seat: int
    """Who said it."""
    code: TalkCode
    """What was said (the words are the client's)."""
    at: float
    """When, in Unix seconds."""
    after: int
    """Public events before it: where it stands in the log."""


class RecordedAction(TypedDict):
    """One applied action of a finished race: the seat that moved and what it did."""

    seat: int
    action: ActionDict


@dataclass(eq=False)
class GameSession:
    """One live race. ``game`` and ``events`` (the public log) are derived from the deal
    and :attr:`moves`; ``turn`` counts the people's applied actions; ``token`` is the
    creator's, known only to the request that created the race (stores keep digests)."""

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
    """A chosen seed, a take-back or a reviewed position: counted in no rating or board."""
    start: dict[str, Any] | None = field(default=None, repr=False)
    """A set-up deal (:meth:`engine.Game.to_dict`) dealt instead of the seed's or lesson's."""
    moves: list[int] = field(default_factory=list, repr=False)
    """Every action applied since the deal, in order (:func:`encode_move` numbers). It
    names face-down cards, so it never leaves the server."""
    token: str = field(default="", repr=False)
    reviews: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)
    """Finished reviews by seat (as a string, a JSON key): :mod:`app.races.review`."""
    par: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)
    """The hard bot's result in each person's seat on this deal, by seat."""
    left: list[int] = field(default_factory=list)
    """The seats whose person left a race ended for it: over though its game is not."""
    bot_key: int = field(default_factory=lambda: secrets.randbits(64), repr=False)
    """The secret of the bots' randomness (:func:`app.bots.runner.bot_seed`), per race."""
    salt: str | None = field(default=None, repr=False)
    """The secret salt of the deal's commitment (:func:`engine.fairness.commit`); None
    for a deal that commits to nothing (the lesson)."""
    said: list[Said] = field(default_factory=list)
    """The latest quick messages, oldest first (:func:`app.races.operations.say`)."""
    said_count: int = 0
    """How many quick messages the race has had (numbers them)."""

    def record_action(self, seat: int, action: Action, kind: str = "bot") -> None:
        self.moves.append(encode_move(kind, seat, action))

    def actions(self) -> list[RecordedAction]:
        moves = (decode_move(code) for code in self.moves)
        return [{"seat": seat, "action": action.to_dict()} for _kind, seat, action in moves]

    def dealt(self) -> Game:
        """The race's game as dealt, before any move (a new game each call)."""
        return dealt_game(self.config, self.engine_seed, self.start)

    def bots_may_move(self, seat: int) -> bool:
        """Whether the bots play ``seat`` now (a bots-only race's clock moves them)."""
        lobby = self.lobby
        started = lobby.started and not self.left
        bots = not lobby.is_person(seat) or lobby.is_away(seat)
        return started and not lobby.paced and bots

    @property
    def status(self) -> Status:
        if self.game.is_over or self.left:
            return "over"
        return "playing" if self.lobby.started else "waiting"

    def head(self) -> RecordHead:
        """What a store keeps beside the race for cheap reads (the caps count the creator's
        player)."""
        lobby = self.lobby
        return RecordHead(
            lobby.seat_digests(),
            lobby.deadline,
            live=self.status != "over",
            player=lobby.seats[0].player,
        )

    def record_events(self, events: list[Event]) -> None:
        self.events.extend(events)

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to continue the race elsewhere (secrets, but no token)."""
        data = {"format": SESSION_FORMAT, **{name: getattr(self, name) for name in _SAVED}}
        data["config"], data["lobby"] = self.config.to_dict(), self.lobby.to_dict()
        if self.start is not None:
            data["start"] = self.start
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameSession:
        """Restore a session saved by :meth:`to_dict`; ``ValueError`` if unknown or if a move
        does not follow."""
        if data.get("format") != SESSION_FORMAT:
            raise ValueError("Unknown saved-session format.")
        config = GameConfig.from_dict(data["config"])
        moves = [int(code) for code in data["moves"]]
        deal = (config, int(data["engine_seed"]), data.get("start"))
        game, events = DERIVED.derive(str(data["id"]), deal, moves)
        lobby = Lobby.from_dict(data["lobby"])
        derived = {"config": config, "lobby": lobby, "game": game, "events": events, "moves": moves}
        return cls(**known_fields(cls, data) | derived)


_SAVED = tuple(
    f.name for f in fields(GameSession) if f.name not in ("game", "events", "start", "token")
)
"""The fields :meth:`GameSession.to_dict` always saves, in order (``start`` only when set)."""


def dealt_game(config: GameConfig, engine_seed: int, start: dict[str, Any] | None) -> Game:
    """A race's game as dealt: ``start`` if any, else the lesson's, else ``engine_seed``'s."""
    if start is not None:
        return Game.from_dict(start)
    if config.lesson:
        return lesson.lesson_game()
    return new_game(players=config.players, seed=engine_seed, variants=config.variants)


def replay_moves(game: Game, events: EventLog, moves: list[int]) -> None:
    """Apply the recorded ``moves`` to ``game`` and ``events``; ``ValueError`` if one is not
    legal where it stands."""
    try:
        for code in moves:
            _kind, seat, action = decode_move(code)
            events.extend(game.apply(action, seat=seat))
    except (IllegalAction, IndexError) as exc:
        raise ValueError(f"A recorded move does not follow from the deal: {exc}") from None


Deal = tuple[GameConfig, int, dict[str, Any] | None]
"""What a race's deal follows from: its settings, engine seed and set-up ``start``."""


@dataclass
class _Derived:
    deal: Deal
    moves: list[int]
    game: Game
    events: EventLog


class DerivedCache:
    """Copies of the derived game and log of the races this process used lately (the least
    recently used go first), so loading a race after its next move replays that move
    only; an entry serves only the same deal and a record that begins with its moves."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._entries: OrderedDict[str, _Derived] = OrderedDict()
        self._mutex = threading.Lock()

    def ids(self) -> list[str]:
        with self._mutex:
            return list(self._entries)

    def clear(self) -> None:
        with self._mutex:
            self._entries.clear()

    def moves(self, game_id: str) -> list[int] | None:
        with self._mutex:
            entry = self._entries.get(game_id)
            return None if entry is None else list(entry.moves)

    def keep(self, session: GameSession) -> None:
        """Remember ``session`` as it is (once stored: a failed save must leave no copy)."""
        deal = (session.config, session.engine_seed, session.start)
        game, events = session.game.clone(), session.events.copy()
        self._put(session.id, _Derived(deal, list(session.moves), game, events))

    def derive(self, game_id: str, deal: Deal, moves: list[int]) -> tuple[Game, EventLog]:
        with self._mutex:
            entry = self._entries.get(game_id)
        done = 0
        if entry is not None and entry.deal == deal and moves[: len(entry.moves)] == entry.moves:
            game, events, done = entry.game.clone(), entry.events.copy(), len(entry.moves)
        else:
            game = dealt_game(*deal)
            events = EventLog([game.deal_event()])
        if done < len(moves):
            replay_moves(game, events, moves[done:])
            self._put(game_id, _Derived(deal, list(moves), game.clone(), events.copy()))
        elif entry is not None and done:  # used again: the last to be dropped
            self._put(game_id, entry)
        return game, events

    def _put(self, game_id: str, entry: _Derived) -> None:
        with self._mutex:
            self._entries[game_id] = entry
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.limit:
                self._entries.popitem(last=False)


DERIVED_LIMIT = 512
"""The most races :data:`DERIVED` keeps: some 30 MiB (60 KiB a race, ``python -m bench memory``)."""

DERIVED = DerivedCache(DERIVED_LIMIT)
"""The process's :class:`DerivedCache`."""


def derive_engine_seed(seed: int, settings: Settings) -> int:
    """The engine's shuffle seed of public ``seed``, keyed with the server secret (nobody
    can deal a shown seed's cards offline)."""
    return keyed(settings.seed_secret.get_secret_value().encode(), str(seed))


def keyed(key: bytes, text: str, bits: int = 64) -> int:
    """The first ``bits`` (at most 64) of the HMAC-SHA-256 of ``text`` under ``key``."""
    digest = hmac.new(key, text.encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - bits)


def new_session(
    config: GameConfig,
    settings: Settings,
    creator_name: str | None = None,
    engine_seed: int | None = None,
    bot_key: int | None = None,
) -> GameSession:
    """Deal a new race and seat it (not stored; no bot has played). ``engine_seed`` and
    ``bot_key`` replace the derived seed and a fresh key (the daily's). A chosen seed
    makes practice, except the daily's and the cup's (their seeds are secret)."""
    seed_chosen = config.seed is not None
    seed = config.seed if config.seed is not None else secrets.randbelow(2**53)
    if engine_seed is None:
        engine_seed = derive_engine_seed(seed, settings)
    salt: str | None = secrets.token_hex(16)
    if config.lesson:  # the lesson's deal and bots are the same on every server, by design
        engine_seed = bot_key = lesson.LESSON_ENGINE_SEED
        salt = None
    if bot_key is None:
        bot_key = deal_bot_key(engine_seed) if seed_chosen else secrets.randbits(64)
    game = dealt_game(config, engine_seed, None)
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
            wait_seconds=settings.quick_wait_seconds if config.quick else None,
        )
    return GameSession(
        id=new_game_id(),
        config=config,
        game=game,
        seed=seed,
        seed_chosen=seed_chosen,
        engine_seed=engine_seed,
        lobby=lobby,
        bot_budget_ms=settings.bot_time_budget_ms,
        token=token,
        practice=config.lesson or (seed_chosen and config.daily is None and config.cup is None),
        bot_key=bot_key,
        salt=salt,
        events=EventLog([game.deal_event()]),  # the log opens with the deal, like every later one
    )
