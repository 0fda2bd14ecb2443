"""The local uvicorn the benchmarks and the tests start: its command line, a free port,
and the wait until it answers ``/healthz``; and the percentile every benchmark reports."""

from __future__ import annotations

import atexit
import functools
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from app.http.logging import LOG_CONFIG
from app.http.protocol import IMPORT_PATH as HTTP_PROTOCOL


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile of ``values`` (nearest rank; NaN when there are none).

    >>> percentile([5.0, 1.0, 3.0], 50), percentile([], 99)
    (3.0, nan)
    """
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


@functools.cache
def scratch_data_dir() -> str:
    """A folder of this process for the servers a benchmark starts (``ZZV_DATA_DIR``): they
    run the default, durable store on a fresh race file, and nothing is left behind."""
    folder = tempfile.mkdtemp(prefix="zzv-bench-data-")
    atexit.register(shutil.rmtree, folder, True)
    return folder


def find_free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing is listening on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def uvicorn_command(port: int, *options: str) -> list[str]:
    """The command line of a uvicorn serving this checkout on 127.0.0.1:``port``.

    ``options`` are appended as given. The test suite starts its servers with this too, so
    the benchmarks and the tests run the server the same way, and with ``zzv serve``'s
    logging configuration: every line on stderr is one JSON object.
    """
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "app.main:create_app",
        "--factory",
        "--host",
        "127.0.0.1",
    ]
    return [
        *command,
        "--port",
        str(port),
        "--http",
        HTTP_PROTOCOL,
        "--log-config",
        str(LOG_CONFIG),
        *options,
    ]


def wait_until_healthy(
    process: subprocess.Popen[bytes], port: int, timeout: float = 60.0
) -> subprocess.Popen[bytes]:
    """Return ``process`` once its server answers ``/healthz``; kill it and exit otherwise."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("the server exited during start-up")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"the server did not become healthy within {timeout:.0f} s")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """Stop a server this benchmark started: SIGINT (a graceful stop), a kill after 15 s."""
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=15)
