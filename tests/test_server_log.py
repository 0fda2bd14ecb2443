"""One log format: a real server's stderr, uvicorn's own lines included, is JSON lines.

Both ways the project starts uvicorn are checked: ``zzv serve`` (what a self-hoster and
the Docker image run) and the command the tests and benchmarks use
(:func:`bench.server.uvicorn_command`). Each server is started, asked a good request and a
malformed one, and stopped with SIGTERM; a second ``zzv serve`` on the same port fails to
bind, which uvicorn reports at error level.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from bench.server import find_free_port, uvicorn_command, wait_until_healthy

REPO_ROOT = Path(__file__).resolve().parent.parent
ZZV = Path(sys.executable).parent / "zzv"
BASE_KEYS = {"ts", "level", "logger", "msg"}
ACCESS_KEYS = BASE_KEYS | {"method", "path", "status", "ms", "client"}
UVICORN_LINES = (
    "Started server process [",
    "Waiting for application startup.",
    "Application startup complete.",
    "Uvicorn running on http://127.0.0.1:",
    "Invalid HTTP request received.",
    "Shutting down",
    "Waiting for application shutdown.",
    "Application shutdown complete.",
    "Finished server process [",
)
"""What uvicorn itself says over one server's life here, in order."""


def _start(command: list[str], port: int, tmp_path: Path, name: str) -> subprocess.Popen[bytes]:
    """Start a server with its stdout and stderr in files of their own; wait until healthy."""
    with (tmp_path / f"{name}.out").open("wb") as out, (tmp_path / f"{name}.err").open("wb") as err:
        process = subprocess.Popen(
            command,
            cwd=REPO_ROOT,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            env={**_environment(), "ZZV_PORT": str(port)},
        )
    try:
        return wait_until_healthy(process, port)
    except SystemExit as failed:
        process.kill()
        pytest.fail(f"{failed}: {(tmp_path / f'{name}.err').read_text(encoding='utf-8')}")


def _environment() -> dict[str, str]:
    return {**os.environ, "PYTHONUNBUFFERED": "1", "ZZV_HOST": "127.0.0.1"}


def _exercise(port: int) -> None:
    """One good request, then bytes that are no HTTP request (uvicorn warns about those)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as answer:
        assert answer.status == 200
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        raw.sendall(b"NOT HTTP\x00\x01\r\n\r\n")
        assert raw.recv(100).startswith(b"HTTP/1.1 400")


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=20)
        pytest.fail("the server did not stop on SIGTERM")


def _records(stderr: Path) -> list[dict[str, Any]]:
    """Every line of ``stderr`` as a JSON object (the test fails on any other line)."""
    lines = stderr.read_text(encoding="utf-8").splitlines()
    assert lines, "the server wrote nothing to stderr"
    records = []
    for line in lines:
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            pytest.fail(f"a line of the server's stderr is not JSON: {line!r}")
        assert isinstance(record, dict), line
        records.append(record)
    return records


def _check_format(records: list[dict[str, Any]]) -> list[str]:
    """Every record has the app's keys; uvicorn's have exactly those. Uvicorn's messages."""
    for record in records:
        assert set(record) >= BASE_KEYS, record
        assert isinstance(record["ts"], float) and record["level"] in (
            "debug",
            "info",
            "warning",
            "error",
            "critical",
        ), record
        if record["logger"].startswith("uvicorn"):
            assert set(record) == BASE_KEYS, record  # no terminal-coloured copy of the text
        if record["logger"] == "zzv.access":
            assert set(record) == ACCESS_KEYS, record
    return [r["msg"] for r in records if r["logger"].startswith("uvicorn")]


def _in_order(messages: list[str], expected: tuple[str, ...]) -> bool:
    """Whether each expected message starts one of ``messages``, in this order."""
    remaining = iter(messages)
    return all(any(m.startswith(prefix) for m in remaining) for prefix in expected)


@pytest.mark.parametrize("launcher", ["zzv serve", "uvicorn_command"])
def test_every_line_of_the_server_log_is_json(tmp_path: Path, launcher: str) -> None:
    port = find_free_port()
    command = (
        [str(ZZV), "serve", "--port", str(port)]
        if launcher == "zzv serve"
        else uvicorn_command(port, "--workers", "1")
    )
    server = _start(command, port, tmp_path, "server")
    try:
        _exercise(port)
    finally:
        _stop(server)
    records = _records(tmp_path / "server.err")
    messages = _check_format(records)
    assert _in_order(messages, UVICORN_LINES), messages
    assert {"started", "request", "shutting down"} <= {r["msg"] for r in records}
    warning = next(r for r in records if r["msg"] == "Invalid HTTP request received.")
    assert (warning["level"], warning["logger"]) == ("warning", "uvicorn.error")


def test_a_server_that_cannot_bind_says_so_in_json(tmp_path: Path) -> None:
    """uvicorn's error when the port is taken comes out as a JSON line at error level."""
    port = find_free_port()
    first = _start([str(ZZV), "serve", "--port", str(port)], port, tmp_path, "first")
    try:
        second = subprocess.run(
            [str(ZZV), "serve", "--port", str(port)],
            cwd=REPO_ROOT,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=_environment(),
            timeout=60,
            check=False,
        )
    finally:
        _stop(first)
    assert second.returncode != 0
    (tmp_path / "second.err").write_bytes(second.stderr)
    records = _records(tmp_path / "second.err")
    _check_format(records)
    errors = [r for r in records if r["level"] == "error"]
    assert errors and all(r["logger"] == "uvicorn.error" for r in errors), records
    assert any("address already in use" in r["msg"] for r in errors), errors
    _check_format(_records(tmp_path / "first.err"))
