"""One unit of work per request, the only way the web layer touches a race
(docs/architecture.md, "One move, top to bottom"): ``async with races.open(game_id,
token) as race:`` loads the race once, settles what is due, hands the route a
:class:`Race`, and saves and announces a changed race once on leaving."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import anyio.to_thread
import orjson

from app import metrics
from app.bots.runner import HUMAN_SEAT, BotRunner
from app.races import leaving, operations
from app.races.errors import (
    GameExpired,
    GameLost,
    GameNotFound,
    LobbyRefused,
    NotAway,
    RaceError,
    RaceNotStarted,
    ServerFull,
    StaleTurn,
    TooManyGames,
)
from app.races.lobby import Answer, Lobby, token_digest
from app.races.operations import SessionState, SessionStore
from app.races.record import DERIVED, GameConfig, GameSession, Said, new_session, new_token
from app.results.recorder import Recorder
from app.results.store import ResultsStore
from app.settings import Settings
from app.storage.interface import ClientFull, Fetched, Lease, LeaseLost, StoreFull
from engine import Action, Observation

log = logging.getLogger("zzv.races")

Since = int | Callable[[GameSession], int] | None
"""Where a state's ``events`` start: the seat's delivery cursor (None), an index, or one
worked out from the race."""

Publish = Callable[[str, Said | None], Awaitable[None]]
"""Tells a race's followers it changed (the live hub's ``publish``), with the quick message
that was all the change, if so."""


class Seated(NamedTuple):
    """A seat just taken (a quick race, a rematch): its race, seat, token and first state."""

    game_id: str
    seat: int
    token: str
    state: SessionState


@dataclass(eq=False)
class Race:
    """One request's hold on one race, loaded once: ``seat`` is the seat its token opened
    (None: a spectator), ``now`` the wall-clock time every decision of the request uses."""

    session: GameSession
    seat: int | None
    now: float
    runner: BotRunner = field(repr=False)
    changed: bool = False
    lease: Lease | None = field(default=None, repr=False)
    """Set when opened for writing, under the race's lock."""
    over_at_open: bool = False
    """Whether the race was over when loaded (a change that ends it is recorded)."""
    said_alone: Said | None = None
    """The quick message this request said when it is all the request changed."""

    @property
    def id(self) -> str:
        return self.session.id

    @property
    def config(self) -> GameConfig:
        return self.session.config

    @property
    def own_seat(self) -> int:
        """The seat this request sits at (:class:`GameNotFound` for a spectator)."""
        if self.seat is None:
            raise GameNotFound()
        return self.seat

    def _locked(self, change: bool = False) -> GameSession:
        if self.lease is None:  # a route opened for reading called an operation that writes
            raise RuntimeError("This race was opened for reading; open it with write=True.")
        self.changed = self.changed or change
        return self.session

    def state(self, since: Since = None, *, deliver: bool = True) -> SessionState:
        """:func:`operations.session_state` of this seat (or a spectator) now."""
        seat = self.seat
        moves = deliver and seat is not None and operations.cursor_behind(self.session, seat)
        if moves:
            self._locked(change=True)
        start = since(self.session) if callable(since) else since
        notice = self.runner.notice(self.session.config.bots)
        return operations.session_state(
            self.session, start, seat, deliver=moves, now=self.now, notice=notice
        )

    async def play(self, turn: int, action: Action, since: Since = None) -> SessionState:
        """Apply this seat's ``action`` for ``turn`` and the bots' replies; the new state (a
        refusal changes nothing)."""
        seat = self.own_seat
        session = self._locked()
        # A stale turn's state is a delivery like any other answer's (its events are sent).
        if turn > session.turn:
            raise StaleTurn(self.state(), turn=turn, now=session.turn)
        if turn != session.turn:
            raise StaleTurn(self.state())
        if session.status == "waiting":
            raise RaceNotStarted()
        if session.game.current_seat not in (None, seat):
            raise StaleTurn(self.state(), "not_your_turn")
        await operations.play(session, seat, action, self.now, self.runner)
        self.changed = True  # only now: a refused move leaves the race as it was
        metrics.MOVES.inc()
        return self.state(since)

    async def start(self) -> SessionState:
        """The creator starts now (empty seats become bots); the creator's state.
        ``not_creator`` for any other seat; a running race changes nothing."""
        if self.seat != HUMAN_SEAT:
            raise RaceError("not_creator")
        if not self.session.lobby.started:
            session = self._locked(change=True)
            session.lobby.start()
            await operations.begin(session, self.now, self.runner)
        return self.state()

    async def join(self, code: str, name: str | None, player: int | None = None) -> str:
        """Seat the person holding invite ``code`` (the results' ``player``, if known); their
        new token (this hold becomes theirs). A refusal changes nothing."""
        if self.session.lobby.seat_of_player(player) is not None:
            raise LobbyRefused("second_seat")
        session = self._locked(change=True)
        token = new_token()
        self.seat = session.lobby.join(code, token_digest(token), name)
        session.lobby.seats[self.seat].player = player
        if session.lobby.started:
            await operations.begin(session, self.now, self.runner)
        return token

    async def take_back(self, since: Since = None) -> SessionState:
        """:func:`operations.take_back` for this seat; its state at its previous turn."""
        seat = self.own_seat
        await anyio.to_thread.run_sync(operations.take_back, self._locked(), seat, self.now)
        self.changed = True
        return self.state(since)

    async def say(self, code: str, pace: Callable[[int], Awaitable[None]] | None = None) -> Said:
        """This seat says ``code`` (:func:`operations.say`); ``pace(seat)``, once the message
        is allowed, may still refuse it. A refusal changes nothing."""
        seat = self.own_seat
        session = self._locked()
        operations.check_talk(session, seat, code)
        if pace is not None:
            await pace(seat)
        message = operations.say(session, seat, code, self.now)
        self.said_alone = None if self.changed else message
        self.changed = True
        return message

    def end_left(self, seats: list[int]) -> None:
        """End the race because the people at ``seats`` left: nothing moves in it again."""
        session = self._locked(change=True)
        session.left = sorted(set(session.left) | set(seats))
        session.lobby.deadline = None

    def leave(self) -> None:
        """This seat's person leaves a race against bots (docs/ratings.md): nothing when it
        is over, ``leave_with_people`` where other people race."""
        seat = self.own_seat
        if self.session.status == "over":
            return
        if self.session.lobby.people() > 1:
            raise RaceError("leave_with_people")
        self.end_left([seat])

    def come_back(self) -> None:
        """This seat's person takes their seat back from the bot; :class:`NotAway` when they
        were not away or the race is over."""
        session = self._locked()
        if session.status == "over" or not session.lobby.come_back(self.own_seat):
            raise NotAway()
        session.lobby.last_mover = None
        self.changed = True

    def note_rematch(self, game_id: str, seat: int, answer: Answer) -> None:
        """Keep, in this finished race, ``seat``'s ``answer`` to its rematch ``game_id``."""
        lobby = self._locked(change=True).lobby
        offer = lobby.rematch or {"game_id": game_id, "answers": {}}
        offer["answers"][str(seat)] = answer
        lobby.rematch = offer

    async def close_seat(self, seat: int) -> None:
        """:meth:`Lobby.close_seat`, and the race begins if that started it."""
        session = self._locked(change=True)
        session.lobby.close_seat(seat)
        if session.lobby.started:
            await operations.begin(session, self.now, self.runner)

    def mark_practice(self) -> None:
        self._locked(change=True).practice = True

    def claim_seat(self, player: int) -> None:
        self._locked(change=True).lobby.seats[self.own_seat].player = player

    def record(self) -> dict[str, Any]:
        return operations.game_record(self.session, self.now)

    def observation(self) -> Observation | None:
        """This seat's observation when it is its turn in a running race (for a hint)."""
        seat, game = self.own_seat, self.session.game
        playing = game.current_seat == seat and self.session.status == "playing"
        return game.observation(seat) if playing else None


class Races:
    """The races of one app: created here, then opened once per request."""

    def __init__(
        self,
        store: SessionStore,
        settings: Settings,
        runner: BotRunner | None = None,
        publish: Publish | None = None,
        clock: Callable[[], float] | None = None,
        results: ResultsStore | None = None,
    ) -> None:
        """``clock`` is the turn clock (default :data:`operations.wall_clock`); finished
        races are recorded in ``results`` (if given) through the store's outbox."""
        self.store = store
        self.settings = settings
        self.runner = runner if runner is not None else BotRunner(settings)
        self.publish = publish
        self._clock = clock
        self.results = results
        self.recorder = None if results is None else Recorder(results, store)

    def now(self) -> float:
        return self._clock() if self._clock is not None else operations.wall_clock()

    async def create(
        self,
        config: GameConfig,
        owner: str,
        creator_name: str | None = None,
        player: int | None = None,
        engine_seed: int | None = None,
        bot_key: int | None = None,
        seats: Callable[[str], Lobby] | None = None,
    ) -> tuple[GameSession, SessionState]:
        """Deal a race for client ``owner`` (and the results' ``player``, if known: both
        caps count it) and :meth:`store_and_begin` it. ``seats``, given the creator's token
        digest, seats the race otherwise (a rematch)."""
        session = new_session(config, self.settings, creator_name, engine_seed, bot_key)
        if seats is not None:
            session.lobby = seats(token_digest(session.token))
        if player is not None and not config.watch:
            session.lobby.seats[0].player = player
        started = await self.store_and_begin(session, owner)
        metrics.RACES_STARTED.inc()
        return started

    async def store_and_begin(
        self, session: GameSession, owner: str
    ) -> tuple[GameSession, SessionState]:
        """Store the just-dealt ``session`` for client ``owner`` (reserving its place before
        any bot thinks), then let the bots play until a person is to move; the stored race
        (with ``session``'s token) and the creator's state."""
        try:
            await self.store.create(session, owner)
        except StoreFull as exc:
            raise ServerFull() from exc
        except ClientFull as exc:
            raise TooManyGames(exc.limit, exc.cap, exc.races) from exc
        watch = session.config.watch
        async with self.open(session.id, session.token, write=True, spectator=watch) as race:
            race.changed = True  # the bots' opening moves, or at least the clock, to keep
            await operations.begin(race.session, race.now, self.runner)
            state = race.state()
        race.session.token = session.token  # the stored copy keeps only the seats' digests
        return race.session, state

    async def running(self, game_id: str) -> GameSession | None:
        """The stored race ``game_id`` while it is not over (a look that changes nothing)."""
        session = (await self.store.fetch(game_id)).record
        return None if session is None or session.status == "over" else session

    @contextlib.asynccontextmanager
    async def open(
        self,
        game_id: str,
        token: str | None,
        *,
        write: bool = False,
        deliver: bool = False,
        spectator: bool = False,
    ) -> AsyncIterator[Race]:
        """The request's :class:`Race`: ``token`` opens a seat, ``spectator`` the public view
        (moving no idle clock). ``write`` takes the race's lock; ``deliver`` says the
        request reads the seat's state as a delivery (locking only if that moves its
        cursor). Raises :class:`GameNotFound` for an unknown id and a token that opens no
        seat alike; :class:`GameExpired` or :class:`GameLost` only to a gone race's seat."""
        digest = None if spectator or not token else token_digest(token)
        if digest is None and not spectator:
            raise GameNotFound()
        now = self.now()
        if not write:
            found = await self.store.fetch(game_id, digest)
            session, seat = _opened(found, digest), found.seat
            # A read writes when a bot turn or a clock move is owed, or it moves a cursor.
            behind = deliver and seat is not None and operations.cursor_behind(session, seat)
            if not (operations.bots_pending(session) or session.lobby.overdue(now) or behind):
                yield Race(session, seat, now, self.runner)
                return
        async with self.store.lock(game_id, digest) as found:
            session = _opened(found, digest)
            race = Race(session, found.seat, now, self.runner, lease=found.lease)
            race.over_at_open = session.status == "over"
            race.changed = await operations.settle(session, now, self.runner)
            try:
                yield race
            except RaceError:
                if race.changed:  # what was settled before the refusal still stands
                    await self._keep(race)
                raise
            if race.changed:
                await self._keep(race)

    async def _keep(self, race: Race) -> None:
        assert race.lease is not None
        result: bytes | None = None  # its result's outbox message, when this change ended it
        if self.recorder is not None and not race.over_at_open and race.session.status == "over":
            finish = leaving.finish_of(race.session, race.now)
            result = None if finish is None else finish.to_json()
        # What a store that announces saves tells the live streams (app.live.hub): the quick
        # message when it was all the change.
        notice = None if race.said_alone is None else orjson.dumps(race.said_alone)
        try:
            await self.store.save(race.session, race.lease, result, notice)
        except LeaseLost as exc:
            log.error("a race's lease ran out before its save; the change was not kept")
            raise RaceError("move_not_kept") from exc
        # Only a stored race is kept derived: a failed save must not leave this process
        # a copy of moves the store does not hold.
        DERIVED.keep(race.session)
        if self.publish is not None:
            await self.publish(race.id, race.said_alone)
        if result is not None and self.recorder is not None:
            # Never raises: a result not recorded now stays in the outbox for the recorder.
            await self.recorder.deliver(race.id, result)


def _opened(found: Fetched[GameSession], digest: str | None) -> GameSession:
    if found.record is not None:
        return found.record
    gone = found.gone
    if gone is not None and digest is not None and gone.seat_of(digest) is not None:
        raise GameLost(cause="restart") if gone.reason == "restarted" else GameExpired()
    raise GameNotFound()


def left_after(settings: Settings) -> float:
    """Seconds a rated race may sit untouched before its people count as gone."""
    return settings.idle_expiry_seconds * 0.5


async def end_idle_races(races: Races) -> int:
    """End as left the rated races with a person untouched for :func:`left_after` seconds,
    before the store forgets them (docs/ratings.md); how many were ended."""
    ended = 0
    for game_id in await races.store.idle_ids(left_after(races.settings)):
        found = (await races.store.fetch(game_id)).record
        if found is None or not leaving.rated_with_people(found):
            continue
        try:
            async with races.open(game_id, None, write=True, spectator=True) as race:
                if leaving.rated_with_people(race.session):
                    race.end_left([seat.index for seat in race.session.lobby.seats if seat.person])
                    ended += 1
        except RaceError:  # gone meanwhile, or its save was refused: the next sweep sees it
            continue
    return ended
