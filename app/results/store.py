"""The results' repository: each public method one transaction taking and returning frozen
dataclasses (an unreachable database: ``ResultsUnavailable``). Recording is idempotent: the
race's id, the ``finished_races`` key, is inserted before any rating moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import secrets
from collections.abc import AsyncIterator, Sequence
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import orjson
from alembic import command
from alembic.config import Config
from sqlalchemy import Select, func, insert, select, text
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.results.daily_times import sealed_until
from app.results.database import connect, is_sqlite
from app.results.errors import reaching_the_database
from app.results.models import FinishedRace, Player, RaceResult, ServerKey
from app.results.ratings import BOT_RATINGS, Rating, display, rate
from engine.cards import RACER_SUIT_IDS, SEAT_COLOURS

MIGRATIONS_DIR = Path(__file__).with_name("migrations")

HISTORY_LIMIT = 200
"""Most races :meth:`ResultsStore.history` returns (the newest)."""

PLAYER_COOKIE_KEY = "player_cookie"
"""The ``server_keys`` row of the player cookie's signing key."""

SEED_KEY = "seed_secret"
"""The ``server_keys`` row of the seed key (public seed to shuffle seed, page memory's
signature) when ``ZZV_SEED_SECRET`` is not set (read as :mod:`app.main` starts an app)."""


def pseudonym(player_id: int) -> str:
    """A player's name until they choose one: colour, racer, number, one to one with the
    ids (no board of "Racer 1234"s; the name tells nothing about the player)."""
    turn, colour = divmod(player_id, len(SEAT_COLOURS))
    number, racer = divmod(turn, len(RACER_SUIT_IDS))
    return f"{SEAT_COLOURS[colour].capitalize()} {RACER_SUIT_IDS[racer].capitalize()} {number + 1}"


def digest(token: str) -> str:
    """SHA-256 of a player token: all the database keeps of it."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A player as the layers above see it."""

    id: int
    name: str | None
    show_on_leaderboard: bool
    rating: Rating
    races: int
    """Rated races (practice does not count)."""

    @property
    def shown_name(self) -> str:
        """The chosen name, else the generated one (:func:`pseudonym`)."""
        return self.name or pseudonym(self.id)

    @property
    def display(self) -> int:
        return display(self.rating)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's result: a person's (``player_id``) or a bot's (``bot_level``)."""

    seat: int
    name: str
    place: int
    laps: int
    tricks: int
    gas: int
    player_id: int | None = None
    bot_level: str | None = None
    left: bool = False
    """The person stopped playing and is placed last (docs/ratings.md)."""


@dataclass(frozen=True, slots=True)
class Race:
    """What a finished race and a player's history entry of it both tell."""

    game_id: str
    finished_at: datetime
    players: int
    people: int
    bots: str


@dataclass(frozen=True, slots=True)
class Finish(Race):
    """A finished race, as the domain hands it over."""

    settings: dict[str, Any]
    practice: bool
    record: dict[str, Any]
    seats: tuple[SeatResult, ...]
    kind: str = "race"
    sealed: dict[str, Any] | None = None
    """Record fields held back until the race's day or week closes
    (:meth:`ResultsStore.finished_record`)."""

    def to_json(self) -> bytes:
        """Compact JSON: what an outbox keeps until the finish is recorded."""
        return orjson.dumps(asdict(self))

    @classmethod
    def from_json(cls, data: bytes) -> Finish:
        """Inverse of :meth:`to_json` (``ValueError``/``KeyError``/``TypeError`` else)."""
        found = orjson.loads(data)
        found["finished_at"] = _utc(datetime.fromisoformat(found["finished_at"]))
        found["seats"] = tuple(SeatResult(**seat) for seat in found["seats"])
        return cls(**found)


@dataclass(frozen=True, slots=True)
class HistoryEntry(Race):
    """One race in a player's history (their first seat in it)."""

    kind: str
    place: int
    practice: bool
    rating_before: int | None
    rating_after: int | None
    left: bool = False


@dataclass(frozen=True, slots=True)
class LevelRecord:
    """A player's races alone against one bot level, wins and current winning streak."""

    races: int = 0
    wins: int = 0
    streak: int = 0


def _info(row: Player) -> PlayerInfo:
    return PlayerInfo(
        row.id, row.name, row.show_on_leaderboard, Rating(row.mu, row.sigma), row.races
    )


def _utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; every stored moment is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


Kept = TypeVar("Kept")

Ratings = dict[int, tuple[Rating, Rating]]
"""Each rated person's (before, after) of a race."""


def from_row(kind: type[Kept], row: object) -> Kept:
    """Dataclass ``kind`` of ``row``'s attributes of its fields' names (``left``: ``left_race``)."""
    # fields() is typed for dataclasses alone, which a TypeVar cannot say.
    listed = fields(kind)  # type: ignore[arg-type]
    return kind(*(getattr(row, "left_race" if f.name == "left" else f.name) for f in listed))


class ResultsStore:
    def __init__(self, url: URL | str) -> None:
        """A store on async SQLAlchemy ``url``; nothing is opened yet."""
        self.url = make_url(url) if isinstance(url, str) else url
        self._engine: AsyncEngine | None = None
        self._sessions: async_sessionmaker[AsyncSession] | None = None
        # SQLite has one writer; calls of this process take turns instead of waiting
        # inside SQLite (where a wait would hold a connection, and an in-memory
        # database has only one).
        self._serial: contextlib.AbstractAsyncContextManager[Any] = (
            asyncio.Lock() if is_sqlite(self.url) else contextlib.nullcontext()
        )
        self._signing_key: bytes | None = None

    async def open(self) -> async_sessionmaker[AsyncSession]:
        """Connect and bring the schema to the newest migration (``alembic upgrade head``)."""
        if self._sessions is None:
            engine = connect(self.url)
            try:
                async with _file_lock(self.url), engine.begin() as conn:
                    await conn.run_sync(_upgrade)
            except BaseException:
                await engine.dispose()
                raise
            self._engine = engine
            self._sessions = async_sessionmaker(engine, expire_on_commit=False)
        return self._sessions

    async def close(self) -> None:
        """Close every connection (an in-memory database is then gone)."""
        if self._engine is not None:
            await self._engine.dispose()
        self._engine, self._sessions = None, None

    @contextlib.asynccontextmanager
    async def unit(self) -> AsyncIterator[AsyncSession]:
        """A session in one transaction, committed on leaving (SQLite's calls take turns)."""
        with reaching_the_database():
            sessions = self._sessions or await self.open()
            async with self._serial, sessions() as session, session.begin():
                yield session

    async def add_once(self, row: object) -> bool:
        """Insert ``row``; False when a unique key is taken (of two at once, one wins)."""
        try:
            async with self.unit() as session:
                session.add(row)
        except IntegrityError:
            return False
        return True

    async def ping(self) -> None:
        """A round trip to the database (raises when it is unreachable)."""
        async with self.unit() as session:
            await session.execute(select(1))

    async def player_for(self, token: str | None) -> PlayerInfo | None:
        if not token:
            return None
        async with self.unit() as session:
            row = await session.scalar(select(Player).where(Player.token_digest == digest(token)))
            return None if row is None else _info(row)

    async def create_player(self, name: str | None = None) -> tuple[PlayerInfo, str]:
        """A new player (``name`` already cleaned) and their token of 256 random bits."""
        token = secrets.token_urlsafe(32)
        start = Rating()
        row = Player(
            token_digest=digest(token),
            name=name,
            show_on_leaderboard=True,
            mu=start.mu,
            sigma=start.sigma,
            ordinal=start.ordinal,
            races=0,
            created_at=datetime.now(UTC),
        )
        async with self.unit() as session:
            session.add(row)
            await session.flush()
            return _info(row), token

    async def identify(self, token: str | None) -> tuple[PlayerInfo, str]:
        """The player ``token`` names, else a new one (a client cannot pick its own token)."""
        found = await self.player_for(token)
        if found is not None and token:
            return found, token
        return await self.create_player()

    async def rename(
        self, player_id: int, name: str | None, show_on_leaderboard: bool | None = None
    ) -> PlayerInfo:
        """Set the name (None: generated) and leaderboard choice (``NoResultFound``: unknown)."""
        async with self.unit() as session:
            row = await session.get_one(Player, player_id, with_for_update=True)
            row.name = name
            if show_on_leaderboard is not None:
                row.show_on_leaderboard = show_on_leaderboard
            return _info(row)

    async def import_browser_record(self, player_id: int, record: dict[str, LevelRecord]) -> bool:
        """Keep the record a browser kept before, once (False when one is kept already)."""
        async with self.unit() as session:
            row = await session.get_one(Player, player_id, with_for_update=True)
            if row.browser_record is not None:
                return False
            row.browser_record = {level: asdict(r) for level, r in record.items()}
            return True

    async def server_key(self, name: str) -> bytes:
        """The secret ``name`` every worker here shares, made now if missing (32 random
        bytes; of two made at once, the first written wins)."""
        while True:
            async with self.unit() as session:
                row = await session.get(ServerKey, name)
            if row is not None:
                return bytes.fromhex(row.value)
            await self.add_once(ServerKey(name=name, value=secrets.token_hex(32)))

    async def signing_key(self) -> bytes:
        """The player cookie's signing key (:meth:`server_key`)."""
        if self._signing_key is None:
            self._signing_key = await self.server_key(PLAYER_COOKIE_KEY)
        return self._signing_key

    async def record_finish(self, finish: Finish) -> Ratings | None:
        """Keep a finished race and its seats; unless practice, rate each person once. The
        ratings moved (player -> before, after); None when the race was kept already."""
        try:
            async with self.unit() as session:
                return await _record(session, finish)
        except IntegrityError:
            if await self.finished_record(finish.game_id) is not None:
                return None  # another worker recorded it meanwhile
            raise

    async def finished_record(
        self, game_id: str, now: float | None = None
    ) -> dict[str, Any] | None:
        """A finished race's public record, or None; a daily or cup race's deal revealed
        once its day or week closed by wall-clock ``now`` (:func:`sealed_until`)."""
        async with self.unit() as session:
            row = await session.get(FinishedRace, game_id)
        if row is None:
            return None
        closes = sealed_until(row.settings.get("daily"), row.settings.get("cup"))
        if row.sealed and closes is not None and now is not None and now >= closes:
            return {**row.record, **row.sealed}
        return row.record

    async def finished_seats(self, game_id: str) -> list[SeatResult]:
        """A finished race's seats' results in seat order (empty: not kept)."""
        query = select(RaceResult).filter_by(game_id=game_id).order_by(RaceResult.seat)
        async with self.unit() as session:
            return [from_row(SeatResult, row) for row in await session.scalars(query)]

    async def history(self, player_id: int, limit: int = HISTORY_LIMIT) -> list[HistoryEntry]:
        """The player's finished races, newest first (their first seat in each)."""
        newest = FinishedRace.finished_at.desc(), FinishedRace.game_id
        query = _first_seats(player_id).order_by(*newest).limit(limit)
        async with self.unit() as session:
            return [_history_entry(*row) for row in await session.execute(query)]

    async def level_records(self, player_id: int) -> dict[str, LevelRecord]:
        """Per bot level, practice out, the browser's old record in."""
        alone = FinishedRace.people == 1, FinishedRace.practice.is_(False)
        oldest = FinishedRace.finished_at, FinishedRace.game_id
        query = _first_seats(player_id).where(*alone).order_by(*oldest)
        async with self.unit() as session:
            rows = (await session.execute(query)).all()
            player = await session.get_one(Player, player_id)
        tally = {level: LevelRecord(**old) for level, old in (player.browser_record or {}).items()}
        for race, result in rows:
            level, won = race.bots, result.place == 1
            was = tally.get(level, LevelRecord())
            tally[level] = LevelRecord(was.races + 1, was.wins + won, was.streak + 1 if won else 0)
        return dict(sorted(tally.items()))

    async def leaderboard(self, limit: int = 50) -> list[PlayerInfo]:
        """The best ratings, best first, of players with a rated race who did not opt out."""
        shown = Player.show_on_leaderboard.is_(True), Player.races > 0
        query = select(Player).where(*shown).order_by(Player.ordinal.desc(), Player.id).limit(limit)
        async with self.unit() as session:
            return [_info(row) for row in await session.scalars(query)]


MIGRATION_LOCK = 0x7A7A76
"""The PostgreSQL advisory lock that lets one process at a time migrate ("zzv")."""


def _upgrade(connection: Connection) -> None:
    """``alembic upgrade head``, processes taking turns on PostgreSQL's advisory lock (a
    SQLite file's is :func:`_file_lock`) so no schema is created twice."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


@contextlib.asynccontextmanager
async def _file_lock(url: URL) -> AsyncIterator[None]:
    """An exclusive lock on a SQLite file's ``<file>.lock`` while it migrates."""
    database = url.database
    if not is_sqlite(url) or not database or database == ":memory:":
        yield
        return
    handle = await asyncio.to_thread(open, f"{database}.lock", "a")
    try:
        await asyncio.to_thread(fcntl.flock, handle.fileno(), fcntl.LOCK_EX)
        yield
    finally:
        handle.close()  # closing releases the lock


async def _record(session: AsyncSession, finish: Finish) -> Ratings:
    """:meth:`ResultsStore.record_finish`'s statements; a race kept already fails on its key."""
    # Each column of finished_races is the finish's field of the same name.
    race = {c.key: getattr(finish, c.key) for c in FinishedRace.__table__.c}
    await session.execute(insert(FinishedRace).values(race))
    ids = sorted({s.player_id for s in finish.seats if s.player_id is not None})
    query = select(Player).where(Player.id.in_(ids)).order_by(Player.id).with_for_update()
    rows = {row.id: row for row in await session.scalars(query)} if ids else {}
    players = {player_id: Rating(row.mu, row.sigma) for player_id, row in rows.items()}
    changes = {} if finish.practice else _new_ratings(finish.seats, players)
    for player_id, (_, after) in changes.items():
        row = rows[player_id]  # locked: its count goes up by exactly one
        row.mu, row.sigma, row.ordinal = after.mu, after.sigma, after.ordinal
        row.races += 1
    await session.execute(
        insert(RaceResult), [_result_row(finish, seat, players, changes) for seat in finish.seats]
    )
    return changes


def _result_row(
    finish: Finish, seat: SeatResult, players: dict[int, Rating], changes: Ratings
) -> dict[str, Any]:
    """One seat's row of ``race_results``."""
    known = seat.player_id if seat.player_id in players else None
    change = changes.get(known) if known is not None else None
    row = asdict(seat) | {"game_id": finish.game_id, "player_id": known, "name": seat.name[:40]}
    row["left_race"] = row.pop("left")
    for when, rating in zip(("before", "after"), change or (None, None), strict=True):
        row[f"mu_{when}"] = None if rating is None else rating.mu
        row[f"sigma_{when}"] = None if rating is None else rating.sigma
    return row


def _new_ratings(seats: Sequence[SeatResult], players: dict[int, Rating]) -> Ratings:
    """Each person's (before, after): every seat rates (bots at their level's rating, a
    person the server does not know as a newcomer) but a person's seats after their first."""
    rated: dict[int, int] = {}  # each known person's place in ``ratings``
    ratings: list[Rating] = []
    places: list[int] = []
    for seat in seats:
        person = seat.player_id if seat.player_id in players else None
        if person is not None:
            if person in rated:
                continue
            rated[person] = len(ratings)
            ratings.append(players[person])
        else:
            ratings.append(BOT_RATINGS.get(seat.bot_level or "", Rating()))
        places.append(seat.place)
    after = rate(ratings, places) if rated else []
    return {person: (ratings[i], after[i]) for person, i in rated.items()}


def _first_seats(player_id: int) -> Select[FinishedRace, RaceResult]:
    """Each finished race of the player's, with their first seat's result."""
    first_seat = (
        select(RaceResult.game_id, func.min(RaceResult.seat).label("seat"))
        .where(RaceResult.player_id == player_id)
        .group_by(RaceResult.game_id)
        .subquery()
    )
    return (
        select(FinishedRace, RaceResult)
        .join(first_seat, first_seat.c.game_id == FinishedRace.game_id)
        .join(
            RaceResult,
            (RaceResult.game_id == first_seat.c.game_id) & (RaceResult.seat == first_seat.c.seat),
        )
    )


def _shown(mu: float | None, sigma: float | None) -> int | None:
    return None if mu is None or sigma is None else display(Rating(mu, sigma))


def _history_entry(race: FinishedRace, result: RaceResult) -> HistoryEntry:
    return HistoryEntry(
        game_id=race.game_id,
        finished_at=_utc(race.finished_at),
        kind=race.kind,
        players=race.players,
        people=race.people,
        bots=race.bots,
        place=result.place,
        practice=race.practice,
        rating_before=_shown(result.mu_before, result.sigma_before),
        rating_after=_shown(result.mu_after, result.sigma_after),
        left=result.left_race,
    )
