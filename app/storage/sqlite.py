"""The stores on SQLite, under :mod:`app.storage.policy`'s rules: in this process's memory
(:class:`MemoryStore`), or the default, the races in a file (:class:`SqliteStore`), in
:data:`SCHEMA`'s tables, every change committed before its verb returns (WAL,
``synchronous=NORMAL``: only an OS crash can lose the last commits). The claims (locks,
slots) and each race's head and last use stay in memory (a restart counts every race as
just used). Verbs run on the calling thread under the mutex: a small commit costs less than
a hop to a worker thread (``python -m bench durable``). Token digests only, never tokens.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import SQLAlchemyError

from app.metrics import STORE_ERRORS
from app.storage.interface import Clock, Lease, R, RecordHead, StoreUnavailable, Tombstone, decode
from app.storage.policy import SWEPT_AT_ONCE, SWEPT_ON_CREATE, Found, PolicyStore, Take

log = logging.getLogger("zzv.store")

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
"""The Alembic scripts that build the schema (shipped inside the package)."""

SCHEMA = """
CREATE TABLE races (id VARCHAR NOT NULL, owner VARCHAR NOT NULL, data BLOB NOT NULL,
  updated_at FLOAT NOT NULL, head VARCHAR, player INTEGER, live BOOLEAN, seq INTEGER,
  PRIMARY KEY (id));
CREATE INDEX ix_races_owner ON races (owner);
CREATE INDEX ix_races_player ON races (player);
CREATE TABLE tombstones (id VARCHAR NOT NULL, digests VARCHAR NOT NULL,
  reason VARCHAR NOT NULL, gone_at FLOAT NOT NULL, PRIMARY KEY (id));
CREATE INDEX ix_tombstones_gone_at ON tombstones (gone_at);
CREATE TABLE outbox (id VARCHAR NOT NULL, data BLOB NOT NULL, added_at FLOAT NOT NULL,
  PRIMARY KEY (id));
"""
"""The schema the migrations build (a test checks that they match), for a database in
memory. A race's ``head`` is NULL while its row is unreadable; ``seq`` is its place in
creation order; a tombstone's ``digests`` are a JSON list."""


class MemoryStore(PolicyStore[R]):
    """A :class:`~app.storage.policy.PolicyStore` on SQLite, in memory or on the file
    ``path``, opened on first use if nobody calls :meth:`open`; every read decodes a fresh
    copy. ``clock`` dates the races loaded, ``wall_clock`` the rows; the newest
    ``expired_memory`` tombstones are kept."""

    def __init__(
        self,
        loader: Callable[[dict[str, Any]], R],
        *,
        clock: Clock = time.monotonic,
        expired_memory: int = 10_000,
        path: Path | None = None,
        wall_clock: Clock = time.time,
        **bounds: Any,
    ) -> None:
        super().__init__(loader, clock=clock, **bounds)
        self.path = path
        self.expired_memory = expired_memory
        self.wall_clock = wall_clock
        self.skipped = 0
        """Rows :meth:`open` could not read (logged and left in the file)."""
        self.mutex = threading.Lock()
        """Held by every verb: tests and benchmarks may call from another thread."""
        self._conn: sqlite3.Connection | None = None
        self._closed = False
        self._known: OrderedDict[str, tuple[float, RecordHead]] = OrderedDict()
        self._claims: dict[str, tuple[str, float]] = {}
        self._waiting: dict[str, asyncio.Event] = {}
        self._seq = 0

    async def open(self) -> None:
        """Create or migrate the file (or build the schema in memory), then load it."""
        with self.mutex:
            self._open()

    def _open(self) -> sqlite3.Connection:
        if self._conn is not None:
            return self._conn
        try:
            if self.path is None:
                conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
                conn.executescript(SCHEMA)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                # The races hold every hand and the deck: readable by this user only. SQLite
                # gives its -wal and -shm files the main file's mode.
                os.close(os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600))
                engine = connect(self.path)
                try:
                    migrate(engine)
                finally:
                    engine.dispose()
                conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
                _pragmas(conn)
            self._conn = conn
            self._load(conn)
        except (sqlite3.Error, SQLAlchemyError, OSError, StoreUnavailable) as exc:
            self._conn = None
            raise StoreUnavailable(f"the race file {self.path} cannot be opened") from exc
        return conn

    def _load(self, conn: sqlite3.Connection) -> None:
        """Check every row (filling in a head an older version left out), counting the
        unreadable in :attr:`skipped`; the rest count as just used, in write order."""
        now = self.clock()
        heads: list[tuple[str | None, int | None, bool | None, str]] = []
        rows = conn.execute("SELECT id, data, head FROM races ORDER BY updated_at").fetchall()
        for game_id, data, stored in rows:
            try:
                head = self.loader(decode(bytes(data))).head()
            except Exception as exc:  # any row the loader cannot read, whatever its fault
                self.skipped += 1
                log.error(
                    "a stored race is unreadable; skipped",
                    extra={"game_id": str(game_id), "error": repr(exc)},
                )
                if stored is not None:
                    heads.append((None, None, None, game_id))
                continue
            self._known[str(game_id)] = (now, head)
            if stored is None:
                heads.append((head.to_json(), head.player, head.live, game_id))
        with self._transaction():
            conn.executemany("UPDATE races SET head=?, player=?, live=? WHERE id=?", heads)
            conn.execute("UPDATE races SET seq = rowid WHERE seq IS NULL")
            self._prune(conn)
        self._seq = conn.execute("SELECT coalesce(max(seq), 0) FROM races").fetchone()[0]

    async def close(self) -> None:
        """Close the file for good (all is written); memory stays open (it would be lost)."""
        await super().close()
        if self.path is None:
            return
        with self.mutex:
            self._closed = True
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    async def ping(self) -> None:
        with self.mutex:
            self._ready()

    def _ready(self) -> sqlite3.Connection:
        """The connection, opened on first use (an app served without its lifespan); under
        the mutex."""
        if self._conn is None and self._closed:
            raise StoreUnavailable("the race file is not open")
        return self._open()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One transaction; a refusal is a counted :class:`StoreUnavailable`, writing nothing."""
        conn = self._ready()
        try:
            conn.execute("BEGIN")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            STORE_ERRORS.labels(operation="write").inc()
            log.error("a race could not be written to its file", extra={"error": repr(exc)})
            raise StoreUnavailable("the race file refused a write") from exc

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        try:
            return self._ready().execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            STORE_ERRORS.labels(operation="read").inc()
            raise StoreUnavailable("the race file refused a read") from exc

    async def admit(
        self, game_id: str, owner: str, head: RecordHead, data: bytes
    ) -> tuple[str, tuple[str, ...]]:
        now = self.clock()
        with self.mutex:
            self._retire(self._unused(now - self.idle_seconds, SWEPT_ON_CREATE))
            mine = () if head.player is None else self._live("player", head.player)
            if self.per_player is not None and len(mine) >= self.per_player:
                return "player", mine
            cap = self.per_address
            if cap is not None and len(self._live("owner", owner)) >= cap:
                return "address", mine
            if len(self._known) >= self.max_games:
                evicted = self._unused(now - self.evict_idle_seconds, 1)
                if not evicted:
                    return "full", mine
                self._retire(evicted)
            self._put(game_id, owner, head, data, now)
            return "ok", ()

    def restore(self, game_id: str, data: bytes, owner: str) -> None:
        """Put back a saved race as just used, past every cap (``ValueError``: unreadable)."""
        head = self.loader(decode(data)).head()
        with self.mutex:
            self._put(game_id, owner, head, data, self.clock())

    def _put(self, game_id: str, owner: str, head: RecordHead, data: bytes, now: float) -> None:
        """Write the race's row, replacing any tombstone of its id (under the mutex)."""
        seq = self._seq + 1
        with self._transaction() as conn:
            conn.execute("DELETE FROM tombstones WHERE id = ?", (game_id,))
            conn.execute(
                "INSERT OR REPLACE INTO races (id, owner, data, updated_at, head, player, live,"
                " seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, owner, data, self.wall_clock(), head.to_json(), head.player,
                 head.live, seq),
            )  # fmt: skip
        self._seq = seq
        self._use(game_id, now, head)

    async def read(self, game_id: str, digest: str | None, lock: Take = None) -> Found:
        now = self.clock()
        with self.mutex:
            seen, head = self._known.get(game_id, (None, None))
            if seen is not None and seen <= now - self.idle_seconds and not self._locked(game_id):
                self._retire([game_id])  # stale: it goes as it is found
                head = None
            if head is None:
                self._drop(f"lock:{game_id}")  # nobody will take its lock now
                return Found(gone=self._tombstone(game_id))
            if digest is not None and head.seat_of(digest) is None:
                return Found(head=head)
            if lock is not None and self._locked(game_id):
                return Found(head=head, busy=True)
            rows = self._query("SELECT data FROM races WHERE id = ?", (game_id,))
            if lock is not None:
                self._claims[f"lock:{game_id}"] = (lock[0], time.monotonic() + lock[1])
            elif digest is not None:
                self._use(game_id, now, head)
            return Found(head, bytes(rows[0][0]))

    def _use(self, game_id: str, now: float, head: RecordHead) -> None:
        self._known[game_id] = (now, head)
        self._known.move_to_end(game_id)

    async def write(
        self, lease: Lease, head: RecordHead, data: bytes, outbox: bytes | None, notice: bytes
    ) -> bool:
        """The fenced save (this backend announces nothing)."""
        game_id = lease.game_id
        with self.mutex:
            if self._held(f"lock:{game_id}") != lease.token or game_id not in self._known:
                return False
            stamp = self.wall_clock()
            with self._transaction() as conn:
                if self._known[game_id][1] == head:  # the usual move: no head to encode
                    conn.execute(_OVERWRITE, (data, stamp, game_id))
                else:
                    conn.execute(
                        "UPDATE races SET data=?, head=?, player=?, live=?, updated_at=?"
                        " WHERE id=?",
                        (data, head.to_json(), head.player, head.live, stamp, game_id),
                    )
                if outbox is not None:
                    conn.execute(
                        "INSERT INTO outbox (id, data, added_at) VALUES (?, ?, ?)"
                        " ON CONFLICT (id) DO UPDATE SET data = excluded.data",
                        (game_id, outbox, stamp),
                    )
            self._drop(f"lock:{game_id}")
            self._use(game_id, self.clock(), head)
            return True

    def overwrite(self, game_id: str, data: bytes) -> None:
        """Write a race's JSON alone (what ``python -m bench durable`` times)."""
        with self.mutex, self._transaction() as conn:
            conn.execute(_OVERWRITE, (data, self.wall_clock(), game_id))

    async def wipe(self, game_id: str) -> None:
        with self.mutex, self._transaction() as conn:
            conn.execute("DELETE FROM races WHERE id = ?", (game_id,))
            conn.execute("DELETE FROM tombstones WHERE id = ?", (game_id,))
            self._known.pop(game_id, None)

    async def sweep(self) -> int:
        with self.mutex:
            self._ready()
            going = self._unused(self.clock() - self.idle_seconds, SWEPT_AT_ONCE)
            self._retire(going)
            return len(going)

    def _unused(self, before: float, limit: int, locked_too: bool = False) -> list[str]:
        going: list[str] = []
        # Front of the dict = least recently used, so stop at the first fresh race.
        for game_id, (seen, _) in self._known.items():
            if seen > before or len(going) >= limit:
                break
            if locked_too or not self._locked(game_id):
                going.append(game_id)
        return going

    def _retire(self, ids: list[str]) -> None:
        """Drop ``ids``, each leaving a tombstone (unless none are kept)."""
        if not ids:
            return
        stamp = self.wall_clock()
        with self._transaction() as conn:
            if self.expired_memory > 0:
                conn.executemany(
                    "INSERT OR REPLACE INTO tombstones (id, digests, reason, gone_at)"
                    " SELECT id, json_extract(head, '$[0]'), 'expired', ? FROM races"
                    " WHERE id = ? AND head IS NOT NULL",
                    [(stamp, game_id) for game_id in ids],
                )
            conn.executemany("DELETE FROM races WHERE id = ?", [(i,) for i in ids])
            self._prune(conn)
        for game_id in ids:
            del self._known[game_id]

    async def idle_ids(self, seconds: float, limit: int = 1000) -> list[str]:
        with self.mutex:
            return self._unused(self.clock() - seconds, limit, locked_too=True)

    def _live(self, column: str, key: str | int) -> tuple[str, ...]:
        """The live races whose ``column`` (owner or player) is ``key``, oldest first."""
        rows = self._query(
            f"SELECT id FROM races WHERE {column} = ? AND live AND head IS NOT NULL ORDER BY seq",
            (key,),
        )
        return tuple(str(game_id) for (game_id,) in rows if game_id in self._known)

    async def count(self) -> int:
        with self.mutex:
            self._ready()
            return len(self._known)

    def __len__(self) -> int:
        """Races held (read without I/O)."""
        return len(self._known)

    def size(self) -> int:
        """Bytes of the database's pages (memory that Python's tracing does not see)."""
        with self.mutex:
            pages = self._query("PRAGMA page_count")[0][0]
            return int(pages) * int(self._query("PRAGMA page_size")[0][0])

    def _tombstone(self, game_id: str) -> Tombstone | None:
        rows = self._query("SELECT digests, reason FROM tombstones WHERE id = ?", (game_id,))
        if not rows:
            return None
        digests, reason = rows[0]
        kept = tuple(str(d) for d in orjson.loads(digests))
        return Tombstone(kept, "restarted" if reason == "restarted" else "expired")

    def bury(self, game_id: str, tombstone: Tombstone) -> None:
        """Keep a tombstone for a race known lost (a restart's)."""
        if self.expired_memory <= 0:
            return
        listed = orjson.dumps(list(tombstone.digests)).decode()
        with self.mutex, self._transaction() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO tombstones (id, digests, reason, gone_at)"
                " VALUES (?, ?, ?, ?)",
                (game_id, listed, tombstone.reason, self.wall_clock()),
            )

    def _prune(self, conn: sqlite3.Connection) -> None:
        conn.execute(
            "DELETE FROM tombstones WHERE rowid IN (SELECT rowid FROM tombstones"
            " ORDER BY gone_at, rowid LIMIT max(0, (SELECT count(*) FROM tombstones) - ?))",
            (max(0, self.expired_memory),),
        )

    def rows(self) -> list[tuple[str, bytes, str]]:
        """Every race as ``(id, its JSON, owner)``, least recently used first."""
        with self.mutex:
            found = {
                str(game_id): (bytes(data), str(owner))
                for game_id, data, owner in self._query("SELECT id, data, owner FROM races")
            }
            order = list(self._known)
        return [(game_id, *found[game_id]) for game_id in order if game_id in found]

    def heads(self) -> dict[str, RecordHead]:
        with self.mutex:
            return {game_id: head for game_id, (_, head) in self._known.items()}

    def _held(self, name: str) -> str | None:
        found = self._claims.get(name)
        if found is not None and found[1] <= time.monotonic():
            self._drop(name)
            return None
        return None if found is None else found[0]

    def _drop(self, name: str) -> None:
        """Empty claim ``name`` and wake its waiters in the order they came: the first takes
        it, the others find it held and wait again."""
        self._claims.pop(name, None)
        waiting = self._waiting.pop(name, None)
        if waiting is not None:
            waiting.set()

    def _locked(self, game_id: str) -> bool:
        return self._held(f"lock:{game_id}") is not None

    async def claim(self, name: str, value: str, ttl_seconds: float) -> str:
        with self.mutex:
            held = self._held(name)
            if held is None:
                self._claims[name] = (value, time.monotonic() + ttl_seconds)
            return value if held is None else held

    async def held(self, name: str) -> str | None:
        with self.mutex:
            return self._held(name)

    async def renew(self, name: str, value: str, ttl_seconds: float) -> bool:
        with self.mutex:
            if self._held(name) != value:
                return False
            self._claims[name] = (value, time.monotonic() + ttl_seconds)
            return True

    async def release(self, name: str, value: str) -> None:
        with self.mutex:
            if self._held(name) == value:
                self._drop(name)

    async def wait(self, name: str, seconds: float) -> None:
        """Sleep until the claim is emptied (whatever empties it wakes its waiters: no
        polling), runs out, or ``seconds`` pass."""
        with self.mutex:
            found = self._claims.get(name)
            if found is None:
                return
            waiting = self._waiting.setdefault(name, asyncio.Event())
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(min(seconds, found[1] - time.monotonic())):
                await waiting.wait()

    async def outbox(self) -> dict[str, bytes]:
        with self.mutex:
            return {str(i): bytes(d) for i, d in self._query("SELECT id, data FROM outbox")}

    async def clear_outbox(self, game_id: str) -> None:
        with self.mutex, self._transaction() as conn:
            conn.execute("DELETE FROM outbox WHERE id = ?", (game_id,))

    def keep_outbox(self, messages: dict[str, bytes]) -> None:
        """Put messages back in the outbox (a saved store's start)."""
        stamp = self.wall_clock()
        with self.mutex, self._transaction() as conn:
            conn.executemany(
                "INSERT OR REPLACE INTO outbox (id, data, added_at) VALUES (?, ?, ?)",
                [(game_id, data, stamp) for game_id, data in messages.items()],
            )


class SqliteStore(MemoryStore[R]):
    """The store on the file ``path``, made with its folder at :meth:`open` or first use."""

    def __init__(self, path: Path, loader: Callable[[dict[str, Any]], R], **bounds: Any) -> None:
        super().__init__(loader, path=path, **bounds)
        self.path: Path = path

    async def open(self) -> None:
        """Create or migrate the file, check every row, take over an older server's save."""
        await super().open()
        imported = self._import_saved(self.path.with_name("races.json"))
        counts = {"restored": len(self), "imported": imported, "skipped": self.skipped}
        log.info("races loaded", extra={"file": str(self.path), **counts})

    def _import_saved(self, saved: Path) -> int:
        """Take over the races an older server's memory store saved on its graceful stop
        (those not in the file yet), then keep its file aside as ``races.json.imported``;
        how many came in."""
        if not saved.is_file():
            return 0
        try:
            payload = orjson.loads(saved.read_bytes())
            items = list(payload["races"]) if payload.get("format") == 1 else []
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            log.error("an older server's saved races are unreadable", extra={"error": repr(exc)})
            return 0
        imported = 0
        for item in items:
            try:
                game_id, owner = str(item["race"]["id"]), str(item["owner"])
                if game_id not in self._known:
                    self.restore(game_id, orjson.dumps(item["race"]), owner)
                    imported += 1
            except (ValueError, KeyError, TypeError) as exc:
                log.error(
                    "a race saved by an older server is unreadable; skipped",
                    extra={"error": repr(exc)},
                )
        saved.rename(saved.with_name(saved.name + ".imported"))
        log.info("races taken over from an older server's save", extra={"imported": imported})
        return imported

    async def checkpoint(self) -> None:
        """As a stop begins: fold the write-ahead log into the main file."""
        with self.mutex, contextlib.suppress(sqlite3.Error, StoreUnavailable):
            self._ready().execute("PRAGMA wal_checkpoint(PASSIVE)")
        log.info(
            "races saved as the stop began", extra={"saved": len(self), "file": str(self.path)}
        )


_OVERWRITE = "UPDATE races SET data=?, updated_at=? WHERE id=?"


def _pragmas(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA journal_mode=WAL")
    # NORMAL: a process kill loses nothing committed; only an OS crash or power cut can
    # lose the last commits (module doc).
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA busy_timeout=5000")


def connect(path: Path) -> Engine:
    """An engine on the SQLite file ``path``, every connection set as :func:`_pragmas`."""
    engine = create_engine(f"sqlite+pysqlite:///{path}")

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
        _pragmas(dbapi_connection)

    return engine


def migrate(engine: Engine) -> None:
    """Bring the file's schema to the newest migration (``alembic upgrade head``)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
