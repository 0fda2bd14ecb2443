"""A ``redis-server`` child process on a loopback port: what the store benchmark
(``python -m bench load --compare``) and the tests run their Redis with."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class RedisProcess:
    """A ``redis-server`` (Debian's package) on a loopback port with its own directory and
    append-only persistence (no snapshots)."""

    port: int
    directory: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Its URL for ``ZZV_REDIS_URL``."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start it and wait (up to 20 s) until it answers; RuntimeError otherwise."""
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server not found: sudo apt-get install -y redis-server")
        command = [
            binary, "--port", str(self.port), "--bind", "127.0.0.1",
            "--dir", str(self.directory), "--save", "", "--appendonly", "yes",
        ]  # fmt: skip
        # The child writes to its own copy of the descriptor; ours is closed at once.
        with (self.directory / "redis.log").open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError((self.directory / "redis.log").read_text())
            if self.command("PING") == "+PONG":
                return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not answer within 20 s")

    def stop(self) -> None:
        """Stop it (SIGTERM, which flushes the append-only file; then SIGKILL)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def command(self, *words: str) -> str | None:
        """Send one inline command; its first reply line, or None if unreachable."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=2) as sock:
                sock.sendall(" ".join(words).encode() + b"\r\n")
                return sock.recv(4096).split(b"\r\n", 1)[0].decode()
        except OSError:
            return None

    def flush(self) -> None:
        """Empty its database."""
        if self.command("FLUSHALL") != "+OK":
            raise RuntimeError("FLUSHALL failed")
