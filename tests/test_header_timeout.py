"""The request-header timeout: a connection that never completes its request line and
headers is closed, on a real uvicorn started the way the tests and the image start it."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.slow


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (fails on a 20 s wait)."""
    sock.settimeout(20)
    received = b""
    while chunk := sock.recv(4096):
        received += chunk
    return received


def test_a_connection_without_complete_headers_is_closed(
    launch_server: Callable[..., Any], server_command: Callable[..., list[str]], free_port: int
) -> None:
    env = {"ZZV_HEADER_TIMEOUT_SECONDS": "1", "ZZV_ACCESS_LOG": "false"}
    server = launch_server(server_command(free_port), port=free_port, env=env)
    with (
        socket.create_connection(("127.0.0.1", free_port)) as partial,
        socket.create_connection(("127.0.0.1", free_port)) as silent,
        socket.create_connection(("127.0.0.1", free_port)) as slow_headers,
    ):
        partial.sendall(b"GET /hea")  # half a request line, then nothing
        slow_headers.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # no blank line
        for sock in (partial, silent, slow_headers):
            assert read_until_closed(sock) == b""  # dropped without an answer
    with socket.create_connection(("127.0.0.1", free_port)) as complete:
        complete.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert read_until_closed(complete).startswith(b"HTTP/1.1 200")
    assert httpx.get(f"{server.url}/healthz").status_code == 200


def test_the_image_and_zzv_serve_use_the_guarded_protocol() -> None:
    from app.http.protocol import IMPORT_PATH
    from bench.server import uvicorn_command

    assert IMPORT_PATH in " ".join(uvicorn_command(8000))
    # The image starts through `zzv serve`, which hands uvicorn the guarded protocol.
    dockerfile = (Path(__file__).resolve().parent.parent / "Dockerfile").read_text(encoding="utf-8")
    assert 'CMD ["zzv", "serve"]' in dockerfile
    cli = (Path(__file__).resolve().parent.parent / "app" / "cli.py").read_text(encoding="utf-8")
    assert '"http": HTTP_PROTOCOL' in cli
