"""``zzv backup FOLDER``: SQLite's online backup of the race and results files while the
server runs (``cp`` of a WAL file being written can be torn); Redis and PostgreSQL are
named, not copied.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from app.paths import data_folder
from app.races.stores import RACE_FILE
from app.results.database import is_sqlite, results_url
from app.settings import Settings


class BackupRefused(ValueError):
    """The backup would overwrite a file already in the destination folder."""


def back_up(settings: Settings, destination: Path) -> tuple[list[Path], list[str]]:
    """Copy each SQLite file ``settings`` keep data in (if made yet) into ``destination``, a
    snapshot each; the copies, and a sentence for each kind of data kept somewhere else (or
    nowhere, in memory). :class:`BackupRefused`, writing nothing, if one would replace a
    file there."""
    files: list[Path] = []
    elsewhere: list[str] = []
    if settings.redis_url is not None:
        elsewhere.append("The live races are in Redis: back them up with its own persistence.")
    elif settings.durable:
        files.append(data_folder(settings) / RACE_FILE)
    else:
        elsewhere.append("The live races are in memory only (ZZV_DURABLE=false).")
    url = results_url(settings)
    if not is_sqlite(url):
        elsewhere.append("The results are in PostgreSQL: back them up with pg_dump.")
    elif url.database in (None, "", ":memory:"):
        elsewhere.append("The results are in memory only (ZZV_DURABLE=false, no ZZV_DATA_DIR).")
    else:
        files.append(Path(url.database))
    present = [source for source in files if source.is_file()]
    taken = [
        destination / source.name for source in present if (destination / source.name).exists()
    ]
    if taken:
        names = ", ".join(str(path) for path in taken)
        raise BackupRefused(f"{names} already exists: back up into a new or empty folder.")
    destination.mkdir(parents=True, exist_ok=True)
    copied = []
    for source in present:
        target = destination / source.name
        partial = target.with_name(target.name + ".partial")
        with closing(sqlite3.connect(source)) as origin, closing(sqlite3.connect(partial)) as copy:
            origin.backup(copy)
        partial.rename(target)  # a copy is whole, or not there
        copied.append(target)
    return copied, elsewhere
