"""A tiny Server-Sent Events reader for tests: one background thread per stream.

Each message is parsed into ``(received_at, event, data)`` and put on a queue, so a test
can wait for "the next state with turn >= n" with a timeout instead of sleeping.
"""

from __future__ import annotations

import contextlib
import json
import queue
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx


class SseReader:
    """Follows ``url`` (GET, with ``headers``) in a thread until :meth:`close`."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        """Connect and start reading at once; :attr:`status` is the HTTP status."""
        self.url = url
        self.headers = headers or {}
        self.messages: queue.Queue[tuple[float, str, str]] = queue.Queue()
        self.status: int | None = None
        self.content_type: str | None = None
        self.content_encoding: str | None = None
        self.error: BaseException | None = None
        self._connected = threading.Event()
        self._socket: socket.socket | None = None
        self._client = httpx.Client(timeout=httpx.Timeout(10.0, read=None))
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._connected.wait(10)

    def _run(self) -> None:
        try:
            with self._client.stream("GET", self.url, headers=self.headers) as response:
                self.status = response.status_code
                self._socket = response.extensions["network_stream"].get_extra_info("socket")
                self.content_type = response.headers.get("content-type")
                self.content_encoding = response.headers.get("content-encoding")
                self._connected.set()
                event, data = "message", []
                for line in response.iter_lines():
                    if line == "":
                        if data:
                            self.messages.put((time.monotonic(), event, "\n".join(data)))
                        event, data = "message", []
                    elif line.startswith("event:"):
                        event = line[6:].strip()
                    elif line.startswith("data:"):
                        data.append(line[5:].lstrip())
        except BaseException as exc:  # closing the client ends the stream this way too
            self.error = exc
        finally:
            self._connected.set()

    def next_state(
        self, accept: Callable[[dict[str, Any]], bool], timeout: float
    ) -> tuple[float, dict[str, Any]]:
        """The first ``state`` message that ``accept`` takes, with when it arrived."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no accepted message from {self.url} in {timeout} s")
            try:
                at, event, data = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if event == "state":
                state = json.loads(data)
                if accept(state):
                    return at, state

    def ended(self, timeout: float) -> bool:
        """Whether the server ended the stream (waiting up to ``timeout`` seconds)."""
        self._thread.join(timeout)
        return not self._thread.is_alive() and self.error is None

    def received(self) -> list[tuple[str, str]]:
        """Every ``(event, data)`` not yet taken by :meth:`next_state`, in order."""
        found: list[tuple[str, str]] = []
        while not self.messages.empty():
            _at, event, data = self.messages.get_nowait()
            found.append((event, data))
        return found

    def close(self) -> None:
        """Stop reading and close the connection, so the server sees the client leave now.

        Closing a socket that another thread is blocked reading from does not end the
        connection on Linux (the blocked read keeps it open until data arrives), so the
        socket is shut down first: that sends the FIN at once and wakes the reader.
        """
        if self._socket is not None:
            with contextlib.suppress(OSError):  # the server may have ended it first
                self._socket.shutdown(socket.SHUT_RDWR)
        self._client.close()
        self._thread.join(5)
