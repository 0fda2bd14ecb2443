"""The default store: the in-memory store, written through to a SQLite file on every change.

Every change a request makes to a race (:meth:`SqliteStore.create`, ``save``, ``wipe``) and
every race the store retires on its own (idle expiry, eviction of the least recently used
idle race) is committed to the file, in one transaction, before the call returns. Reads
are served from memory, as by :class:`~app.storage.memory.MemoryStore`, so a read costs
no SQL. At start-up :meth:`SqliteStore.open` brings the schema up to date with the Alembic
migrations shipped in ``app/storage/migrations`` and loads every live race and every
tombstone, so a killed process (``kill -9``, an out-of-memory kill) loses no answered move:
every race continues from the turn it had, and a race that had expired still answers 410.

Three tables (:data:`METADATA`): ``races`` (one row per live race: its JSON, its owner, when
it was last written), ``tombstones`` (the seats' token digests of a gone race, why and
when it went) and ``outbox`` (a message a save left for delivery, committed in the save's
own transaction and deleted only by :meth:`SqliteStore.clear_outbox`). Token digests are
stored, never tokens.

The file is in WAL mode with ``synchronous=NORMAL``: a commit is appended to the
write-ahead log and handed to the operating system without waiting for the disk. That is
enough for a process that dies, however it dies: what the OS was handed is written out
by the OS. Only an operating-system crash or a power cut can lose the last transactions
(never corrupt the file); ``synchronous=FULL`` would close that window at the price of a
disk flush per move.

The writes run on the calling thread, inside the store's mutex: a commit of one small row
without a disk flush takes far less time than handing it to a worker thread would add
(``python -m bench durable`` prints both), and doing it in the same critical section as
the change in memory keeps the file's order of changes exactly the memory's.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import (
    Column,
    Connection,
    Engine,
    Float,
    LargeBinary,
    MetaData,
    String,
    Table,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import SQLAlchemyError

from app.metrics import STORE_ERRORS
from app.storage.interface import (
    ClientFull,
    Fetched,
    Lease,
    LeaseLost,
    R,
    StoreFull,
    StoreUnavailable,
    Tombstone,
    encode,
)
from app.storage.memory import MemoryStore

log = logging.getLogger("zzv.store")

MIGRATIONS_DIR = Path(__file__).with_name("migrations")

SAVED_BY_OLDER_SERVERS = "races.json"
"""The file the memory store saves its races to on a graceful stop, in the same folder."""
"""The Alembic scripts that build the schema (shipped inside the package)."""

METADATA = MetaData()
"""The schema the migrations build (a test checks that they match)."""

RACES = Table(
    "races",
    METADATA,
    Column("id", String, primary_key=True),
    Column("owner", String, nullable=False),
    Column("data", LargeBinary, nullable=False),
    Column("updated_at", Float, nullable=False),
)
"""One row per live race: its stored JSON (:func:`app.storage.interface.encode`)."""

TOMBSTONES = Table(
    "tombstones",
    METADATA,
    Column("id", String, primary_key=True),
    Column("digests", String, nullable=False),
    Column("reason", String, nullable=False),
    Column("gone_at", Float, nullable=False, index=True),
)
"""One row per gone race: its seats' token digests (a JSON list) and why it went."""

OUTBOX = Table(
    "outbox",
    METADATA,
    Column("id", String, primary_key=True),
    Column("data", LargeBinary, nullable=False),
    Column("added_at", Float, nullable=False),
)
"""One row per message a save left for delivery (a finished race's result), by race id."""

_Op = tuple[str, str, tuple[str, ...]]
"""A retirement not yet written: ("bury", game id, digests)."""


class SqliteStore(MemoryStore[R]):
    """A :class:`~app.storage.memory.MemoryStore` written through to the SQLite file
    ``path`` (see the module doc). A write the file refuses raises
    :class:`~app.storage.interface.StoreUnavailable` and leaves the race as it was."""

    def __init__(
        self,
        path: Path,
        loader: Callable[[dict[str, Any]], R],
        wall_clock: Callable[[], float] = time.time,
        **bounds: Any,
    ) -> None:
        """A store on the file ``path`` (created with its folder at :meth:`open`);
        ``loader`` and ``bounds`` as for MemoryStore. ``wall_clock`` dates the rows."""
        super().__init__(loader, **bounds)
        self.path = path
        self.wall_clock = wall_clock
        self.skipped = 0
        """Rows :meth:`open` could not read (logged and left in the file)."""
        self._engine: Engine | None = None
        self._conn: Connection | None = None
        self._pending: list[_Op] = []
        self._closed = False

    # ------------------------------------------------------------------ upkeep

    async def open(self) -> None:
        """Create or migrate the file, then load every live race and tombstone from it."""
        self._open_file()

    def _open_file(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # The races hold every hand and the deck: readable by this user only. SQLite gives
        # its -wal and -shm files the main file's mode.
        os.close(os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600))
        self._engine = connect(self.path)
        try:
            migrate(self._engine)
            self._conn = self._engine.connect()
            restored, buried = self._load(self._conn)
            restored += self._import_saved(self.path.with_name(SAVED_BY_OLDER_SERVERS))
        except SQLAlchemyError as exc:
            raise StoreUnavailable(f"the race file {self.path} cannot be opened") from exc
        log.info(
            "races loaded",
            extra={
                "file": str(self.path),
                "restored": restored,
                "tombstones": buried,
                "skipped": self.skipped,
            },
        )

    def _import_saved(self, saved: Path) -> int:
        """Take over the races a server without the race file saved at its last graceful
        stop (``races.json`` beside it, :mod:`app.storage.saved`'s form): each one not in
        the file yet is written to it; the old file is then kept aside as
        ``races.json.imported``, so an upgrade loses no race. Returns how many came in."""
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
                if game_id in self._games:
                    continue
                data = orjson.dumps(item["race"])
                self.restore(game_id, data, owner)
            except (ValueError, KeyError, TypeError) as exc:
                log.error(
                    "a race saved by an older server is unreadable; skipped",
                    extra={"error": repr(exc)},
                )
                continue
            with self._mutex:
                self._commit([], put=(game_id, owner, data, True))
            imported += 1
        saved.rename(saved.with_name(saved.name + ".imported"))
        log.info("races taken over from an older server's save", extra={"imported": imported})
        return imported

    def _ready(self) -> None:
        """Open the file on first use when nobody called :meth:`open` (an app served
        without its lifespan); a closed store stays closed."""
        if self._conn is None and not self._closed:
            self._open_file()

    async def checkpoint(self) -> None:
        """Called as a stop begins: every race is in the file already (each change was
        committed before its answer); fold the write-ahead log into the main file, so the
        next start reads one file."""
        self._ready()
        with self._mutex:
            self._commit([])
            if self._conn is not None:
                with contextlib.suppress(SQLAlchemyError):
                    self._conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
                    self._conn.commit()
            saved = len(self._games)
        log.info("races saved as the stop began", extra={"saved": saved, "file": str(self.path)})

    async def close(self) -> None:
        """Write what is pending and close the file (everything else is written already)."""
        self._closed = True
        with self._mutex:
            if self._conn is not None:
                with contextlib.suppress(StoreUnavailable):
                    self._commit([])
                self._conn.close()
                self._conn = None
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None

    async def ping(self) -> None:
        """Reachable while the file is open (opening it if nobody did yet)."""
        self._ready()
        if self._conn is None:
            raise StoreUnavailable("the race file is not open")

    # ------------------------------------------------------------------ verbs

    async def create(self, record: R, owner: str) -> None:
        """Store ``record`` for ``owner`` as MemoryStore does, and write it, with any race
        retired to make room, in one transaction (if the file refuses, the race is not
        stored)."""
        self._ready()
        try:
            # No await inside: nothing runs between the change in memory and its commit.
            await super().create(record, owner)
        except (ClientFull, StoreFull):
            self._flush()  # expiries found on the way are kept
            raise
        with self._mutex:
            entry = self._games[record.id]
            try:
                self._commit([], put=(record.id, owner, entry.data, True))
            except StoreUnavailable:
                del self._games[record.id]
                self._disown(record.id, entry)
                raise

    async def fetch(self, game_id: str, digest: str | None = None) -> Fetched[R]:
        """As MemoryStore; a race found expired on the way is written as gone."""
        self._ready()
        found = await super().fetch(game_id, digest)
        self._flush()
        return found

    @contextlib.asynccontextmanager
    async def lock(self, game_id: str, digest: str | None = None) -> AsyncIterator[Fetched[R]]:
        """As MemoryStore; a race found expired on the way is written as gone."""
        self._ready()
        async with super().lock(game_id, digest) as found:
            self._flush()
            yield found

    async def save(self, record: R, lease: Lease, outbox: bytes | None = None) -> None:
        """Write the race (and ``outbox``, in the same transaction) to the file, then to
        memory (only with its current lease)."""
        self._ready()
        data = encode(record)
        head = record.head()
        with self._mutex:
            entry = self._games.get(record.id)
            if entry is None or lease.game_id != record.id or entry.lease != lease.token:
                raise LeaseLost()
            self._commit([], put=(record.id, entry.owner, data, False), outbox=outbox)
            entry.data, entry.head, entry.lease = data, head, None
            if outbox is not None:
                self._outbox[record.id] = outbox
        self._touch(record.id)

    async def clear_outbox(self, game_id: str) -> None:
        """Drop ``game_id``'s message from the file, then from memory."""
        self._ready()
        with self._mutex:
            if game_id not in self._outbox:
                return
            if self._conn is None:
                raise StoreUnavailable("the race file is not open")
            try:
                with self._conn.begin():
                    self._conn.execute(_DELETE_OUTBOX, {"gid": game_id})
            except SQLAlchemyError as exc:
                STORE_ERRORS.labels(operation="write").inc()
                raise StoreUnavailable("the race file refused a write") from exc
            del self._outbox[game_id]

    async def wipe(self, game_id: str) -> None:
        """Forget ``game_id`` in memory and in the file, tombstone included."""
        self._ready()
        with self._mutex:
            self._commit([("wipe", game_id, ())])
            entry = self._games.pop(game_id, None)
            if entry is not None:
                self._disown(game_id, entry)
            if self._gone is not None:
                self._gone.pop(game_id, None)

    async def sweep(self) -> int:
        """As MemoryStore, and the races dropped are written as gone."""
        self._ready()
        dropped = await super().sweep()
        self._flush()
        return dropped

    def tombstones(self) -> dict[str, Tombstone]:
        """Every remembered gone race by id (what :meth:`open` loads back)."""
        with self._mutex:
            return dict(self._gone.items()) if self._gone is not None else {}

    # ------------------------------------------------------------------ the file

    def _retire(self, game_id: str) -> None:
        """As MemoryStore, and the tombstone is queued for the next commit (always made
        before the public call that retired the race returns)."""
        digests = self._games[game_id].head.digests
        super()._retire(game_id)
        self._pending.append(("bury", game_id, digests))

    def _flush(self) -> None:
        if self._pending:
            with self._mutex:
                self._commit([])

    def _commit(
        self,
        ops: list[_Op],
        put: tuple[str, str, bytes, bool] | None = None,
        outbox: bytes | None = None,
    ) -> None:
        """Write the pending retirements, ``ops``, ``put`` (id, owner, data, is new) and
        ``put``'s ``outbox`` message in one transaction; called with the mutex held.
        Retirements stay pending if the write fails (the next commit retries them)."""
        work = [*self._pending, *ops]
        if not work and put is None:
            return
        if self._conn is None:
            raise StoreUnavailable("the race file is not open")
        stamp = self.wall_clock()
        conn = self._conn
        try:
            with conn.begin():
                for kind, game_id, digests in work:
                    conn.execute(_DELETE_RACE, {"gid": game_id})
                    if kind == "bury":
                        listed = orjson.dumps(list(digests)).decode()
                        conn.execute(_BURY, {"gid": game_id, "digests": listed, "stamp": stamp})
                    else:
                        conn.execute(_DELETE_TOMBSTONE, {"gid": game_id})
                if put is not None:
                    game_id, owner, data, new = put
                    row = {"gid": game_id, "owner": owner, "data": data, "stamp": stamp}
                    if new:
                        conn.execute(_DELETE_TOMBSTONE, row)
                        conn.execute(_INSERT_RACE, row)
                    else:
                        conn.execute(_UPDATE_RACE, row)
                    if outbox is not None:
                        conn.execute(_PUT_OUTBOX, {"gid": game_id, "data": outbox, "stamp": stamp})
        except SQLAlchemyError as exc:
            STORE_ERRORS.labels(operation="write").inc()
            log.error("a race could not be written to its file", extra={"error": repr(exc)})
            raise StoreUnavailable("the race file refused a write") from exc
        self._pending.clear()

    def _load(self, conn: Connection) -> tuple[int, int]:
        """Put every readable row back in memory; count the others in :attr:`skipped`."""
        restored = buried = 0
        for game_id, owner, data in conn.execute(
            select(RACES.c.id, RACES.c.owner, RACES.c.data).order_by(RACES.c.updated_at)
        ):
            try:
                self.restore(str(game_id), bytes(data), str(owner))
            except Exception as exc:  # any row the loader cannot read, whatever its fault
                self.skipped += 1
                log.error(
                    "a stored race is unreadable; skipped",
                    extra={"game_id": str(game_id), "error": repr(exc)},
                )
                continue
            restored += 1
        for game_id, data in conn.execute(select(OUTBOX.c.id, OUTBOX.c.data)):
            self._outbox[str(game_id)] = bytes(data)
        remembered = self._gone.maxsize if self._gone is not None else 0
        rows = conn.execute(
            select(TOMBSTONES.c.id, TOMBSTONES.c.digests, TOMBSTONES.c.reason, TOMBSTONES.c.gone_at)
            .order_by(TOMBSTONES.c.gone_at.desc())
            .limit(int(remembered))
        ).all()
        # Older tombstones than memory holds would never be read again: keep the file small.
        if not remembered:
            conn.execute(delete(TOMBSTONES))
        elif len(rows) == remembered:
            conn.execute(delete(TOMBSTONES).where(TOMBSTONES.c.gone_at < rows[-1].gone_at))
        for game_id, digests, reason, _ in reversed(rows):  # oldest first: the LRU keeps the newest
            try:
                found = orjson.loads(digests)
                tombstone = Tombstone(
                    tuple(str(d) for d in found),
                    "restarted" if reason == "restarted" else "expired",
                )
            except (ValueError, TypeError) as exc:
                self.skipped += 1
                log.error(
                    "a stored tombstone is unreadable; skipped",
                    extra={"game_id": str(game_id), "error": repr(exc)},
                )
                continue
            self.bury(str(game_id), tombstone)
            buried += 1
        conn.commit()
        return restored, buried


# Built once: a statement built per call costs several times the commit itself.
_DELETE_RACE = delete(RACES).where(RACES.c.id == bindparam("gid"))
_DELETE_TOMBSTONE = delete(TOMBSTONES).where(TOMBSTONES.c.id == bindparam("gid"))
_INSERT_RACE = insert(RACES).values(
    id=bindparam("gid"), owner=bindparam("owner"), data=bindparam("data"),
    updated_at=bindparam("stamp"),
)  # fmt: skip
_UPDATE_RACE = (
    update(RACES)
    .where(RACES.c.id == bindparam("gid"))
    .values(data=bindparam("data"), updated_at=bindparam("stamp"))
)
_DELETE_OUTBOX = delete(OUTBOX).where(OUTBOX.c.id == bindparam("gid"))
_PUT_OUTBOX_ROW = sqlite_insert(OUTBOX).values(
    id=bindparam("gid"), data=bindparam("data"), added_at=bindparam("stamp")
)
_PUT_OUTBOX = _PUT_OUTBOX_ROW.on_conflict_do_update(
    index_elements=[OUTBOX.c.id], set_={"data": _PUT_OUTBOX_ROW.excluded.data}
)
_BURY_ROW = sqlite_insert(TOMBSTONES).values(
    id=bindparam("gid"), digests=bindparam("digests"), reason="expired",
    gone_at=bindparam("stamp"),
)  # fmt: skip
_BURY = _BURY_ROW.on_conflict_do_update(
    index_elements=[TOMBSTONES.c.id],
    set_={"digests": _BURY_ROW.excluded.digests, "gone_at": _BURY_ROW.excluded.gone_at},
)


def connect(path: Path) -> Engine:
    """An engine on the SQLite file ``path`` through the standard library's driver, every
    connection in WAL mode with ``synchronous=NORMAL`` (see the module doc)."""
    engine = create_engine(
        f"sqlite+pysqlite:///{path}",
        connect_args={"check_same_thread": False},  # used under the store's mutex only
    )

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        # NORMAL: a process kill loses nothing committed; only an OS crash or power cut
        # can lose the last commits (module doc).
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()

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
