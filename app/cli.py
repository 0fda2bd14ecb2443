"""The ``zzv`` command line: starts the web server for local play.

Production containers run uvicorn directly (see the Dockerfile); this entry point is the
friendly way to start the game on a laptop, with defaults taken from the ``ZZV_*``
settings so the command line and the environment never disagree.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import uvicorn

from app.protocol import IMPORT_PATH as HTTP_PROTOCOL
from app.settings import get_settings

APP_IMPORT_PATH = "app.main:app"
"""Import string handed to uvicorn; a string (not the object) so ``--reload`` can re-import."""

GRACEFUL_SHUTDOWN_SECONDS = 10
"""How long in-flight requests may run after SIGINT/SIGTERM; the Dockerfile uses the same."""


def browser_url(host: str, port: int) -> str:
    """Return the address a person should open for a server bound to ``host``:``port``.

    A wildcard bind address is not something a browser can visit, so it is shown as the
    loopback address, which always reaches a server listening on every interface.

    >>> browser_url("0.0.0.0", 8000)
    'http://127.0.0.1:8000'
    >>> browser_url("::1", 9000)
    'http://[::1]:9000'
    """
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser for ``zzv`` and its ``serve`` subcommand."""
    settings = get_settings()
    parser = argparse.ArgumentParser(
        prog="zzv",
        description="Zoom Zoom Vroom online: a race card game against computer opponents.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    serve = commands.add_parser(
        "serve",
        help="start the web server",
        description=(
            "Start the Zoom Zoom Vroom web server. Defaults come from the ZZV_HOST and "
            "ZZV_PORT environment variables when they are set."
        ),
    )
    serve.add_argument(
        "--host",
        default=settings.host,
        help="interface to listen on (default: %(default)s)",
    )
    serve.add_argument(
        "--port",
        type=int,
        default=settings.port,
        help="TCP port to listen on (default: %(default)s)",
    )
    serve.add_argument(
        "--reload",
        action="store_true",
        help="restart when source files change (development only)",
    )
    return parser


def serve(host: str, port: int, *, reload: bool = False) -> None:
    """Run the web server in the foreground until it is interrupted.

    Uvicorn owns signal handling: on SIGINT or SIGTERM it stops accepting connections,
    lets in-flight requests finish for up to the configured grace period, then runs the
    application's shutdown hook.
    """
    settings = get_settings()
    print(
        f"Zoom Zoom Vroom is running at {browser_url(host, port)} — open it in your browser",
        flush=True,
    )
    uvicorn.run(
        APP_IMPORT_PATH,
        host=host,
        port=port,
        reload=reload,
        # Games live in this process's memory, so exactly one worker may own them.
        workers=1,
        http=HTTP_PROTOCOL,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
        log_level=settings.log_level,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``zzv`` console script; returns the process exit status."""
    args = build_parser().parse_args(argv)
    if args.command == "serve":
        serve(args.host, args.port, reload=args.reload)
    return 0


if __name__ == "__main__":
    sys.exit(main())
