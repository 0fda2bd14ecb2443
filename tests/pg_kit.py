"""Test kit for the results store: a real PostgreSQL (Debian's ``postgresql`` package) per
test session on a free loopback port, and a fresh database per test.

``initdb`` and ``pg_ctl`` are looked up under ``/usr/lib/postgresql/*/bin`` (newest
first), then on PATH. PostgreSQL refuses to run as root, and CI runs as root: then both
run as the ``postgres`` OS user (the package creates it) through ``runuser``, in a
temporary folder that user owns. The ``postgres_server`` fixture (tests/conftest.py)
yields a :class:`PostgresServer`.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path

from bench.server import find_free_port

INSTALL_HINT = "install it with `sudo apt-get install -y postgresql`"
SUPERUSER = "zzv"
DEBIAN_VERSIONS = Path("/usr/lib/postgresql")
"""Where Debian's packages put each PostgreSQL version's programs, a folder per version."""


def find_binary(name: str) -> str:
    """The newest installed PostgreSQL's ``name`` (initdb, pg_ctl, createdb)."""
    versions = sorted(
        (folder for folder in DEBIAN_VERSIONS.glob("*") if folder.name.isdigit()),
        key=lambda folder: int(folder.name),
        reverse=True,
    )
    for version in versions:
        program = version / "bin" / name
        if program.is_file():
            return str(program)
    found = shutil.which(name)
    if found is None:
        raise RuntimeError(f"PostgreSQL's {name} not found: {INSTALL_HINT}")
    return found


@dataclass
class PostgresServer:
    """A PostgreSQL cluster of its own, trusting local connections, on ``port``."""

    port: int
    folder: Path
    _names: count[int] = field(default_factory=lambda: count(1))

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def as_other_user(self) -> list[str]:
        """The prefix that runs a command as ``postgres`` when this process is root."""
        return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def _run(self, *command: str) -> None:
        done = subprocess.run(
            [*self.as_other_user, *command], capture_output=True, text=True, timeout=120
        )
        if done.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {done.stdout}{done.stderr}")

    def start(self) -> None:
        """initdb, then start the server and wait until it accepts connections."""
        self._run(
            find_binary("initdb"), "-D", str(self.data), "-U", SUPERUSER,
            "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8",
        )  # fmt: skip
        self.resume()

    def resume(self) -> None:
        """Start the initialised cluster and wait until it accepts connections."""
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c full_page_writes=off -c max_connections=100"
        )
        self._run(
            find_binary("pg_ctl"), "-D", str(self.data), "-o", options,
            "-l", str(self.folder / "server.log"), "-w", "-t", "60", "start",
        )  # fmt: skip

    def halt(self) -> None:
        """Stop the server (fast shutdown: connections are cut) and keep its data, for
        :meth:`resume`."""
        self._run(find_binary("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def stop(self) -> None:
        """Stop the server (fast shutdown) and remove its folder."""
        try:
            self._run(find_binary("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        """A plain ``postgresql://`` URL of ``database`` (the server adds its driver)."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh empty database's URL."""
        name = f"results_{os.getpid()}_{next(self._names)}"
        self._run(
            find_binary("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", SUPERUSER,
            name,
        )  # fmt: skip
        return self.url(name)


def start_postgres() -> PostgresServer:
    """A fresh cluster on a free loopback port (stop it with ``.stop()``)."""
    folder = Path(tempfile.mkdtemp(prefix="zzv-pg-"))
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError as exc:
            raise RuntimeError(f"no `postgres` user to run PostgreSQL as: {INSTALL_HINT}") from exc
        os.chown(folder, user.pw_uid, user.pw_gid)
    server = PostgresServer(find_free_port(), folder)
    try:
        server.start()
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return server
