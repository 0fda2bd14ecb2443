"""The ``zzv`` command line (the Docker image's): ``serve``, ``backup``, ``verify``."""

from __future__ import annotations

import argparse
import json
import logging
import socket
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import uvicorn
from sse_starlette.sse import AppStatus

from app.backup import BackupRefused, back_up
from app.http.logging import LOG_CONFIG
from app.http.protocol import IMPORT_PATH as HTTP_PROTOCOL
from app.http.web.fair import event_details, headline, round_words, scheme_words, verdict_sentence
from app.settings import Settings, get_settings
from engine.verify import verify_record

APP_IMPORT_PATH = "app.main:create_app"
"""Import string handed to uvicorn; a string (not the object) so ``--reload`` can re-import."""

GRACEFUL_SHUTDOWN_SECONDS = 10
"""How long requests in flight run after SIGINT/SIGTERM before a 503 (inside compose's 30 s;
the races are saved first, so ``docker stop``'s 10 s loses no answered move)."""

STARTUP_FAILURE = 3
"""Exit status when the server could not start (uvicorn's own)."""

VERIFY_EXIT = {"ok": 0, "tampered": 1, "refused": 2}
"""``zzv verify``'s exit status by verdict (refused: unreadable, or no revealed record)."""

log = logging.getLogger("zzv.app")


def find_save_hook(app: Any) -> Callable[[], Awaitable[None]] | None:
    """The ``state.save_now`` hook of the app inside uvicorn's wrappers, if any."""
    for _ in range(16):  # uvicorn's middlewares each keep the app they wrap in `.app`
        hook = getattr(getattr(app, "state", None), "save_now", None)
        if hook is not None or (app := getattr(app, "app", None)) is None:
            return hook
    return None


class SavingServer(uvicorn.Server):
    """Uvicorn's server, saving the races as a stop begins (uvicorn's shutdown comes after
    the graceful window: a slow request would hold them unsaved until a SIGKILL)."""

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Stop listening, end the event streams, save, then uvicorn's own shutdown."""
        for server in self.servers:
            server.close()
        # sse_starlette wraps uvicorn's signal handler only when imported before uvicorn
        # installs it, which it is not: end the streams here (their browsers reconnect),
        # or each open table page would hold the window open to its end.
        AppStatus.should_exit = True
        if AppStatus.should_exit_event is not None:
            AppStatus.should_exit_event.set()
        hook = find_save_hook(self.config.loaded_app)
        if hook is not None:
            try:
                await hook()
            except Exception:  # the stop must go on; the store saves again at the end
                log.exception("saving the races as the stop began failed")
        await super().shutdown(sockets)


def browser_url(host: str, port: int) -> str:
    """The address to open for a server bound to ``host``:``port`` (wildcard: loopback)."""
    host = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host, host)
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def build_parser() -> argparse.ArgumentParser:
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
    for name, kind, words in (
        ("host", str, "interface to listen on (default: %(default)s)"),
        ("port", int, "TCP port to listen on (default: %(default)s)"),
        (
            "workers",
            int,
            "worker processes (default: %(default)s, from ZZV_WORKERS); more than one needs "
            "the shared store, ZZV_REDIS_URL",
        ),
    ):
        serve.add_argument(f"--{name}", type=kind, default=getattr(settings, name), help=words)
    serve.add_argument(
        "--reload", action="store_true", help="restart when source files change (development only)"
    )
    backup = commands.add_parser(
        "backup",
        help="copy the data's SQLite files, consistently, while the server runs",
        description=(
            "Copy the live races' and the results' SQLite files (from ZZV_DATA_DIR, or the "
            "files the ZZV_* settings name) into FOLDER, each as one consistent snapshot, "
            "while the server runs. Data kept in Redis or PostgreSQL is named, not copied."
        ),
    )
    backup.add_argument("folder", type=Path, metavar="FOLDER", help="a new or empty folder")
    verify = commands.add_parser(
        "verify",
        help="check a finished race's record: its commitment, its deal and every move",
        description=(
            "Check a finished race's public record (GET /api/games/RACE/record): recompute "
            "the commitment it published at the start from the revealed seed and salt, deal "
            "the race again from the seed, replay every move, and compare every event and "
            "the winner. Prints the verdict and the deal card by card. Exit status: 0 it "
            "checks out, 1 it does not, 2 nothing to check (unreadable input, or a record "
            "that reveals no deal)."
        ),
    )
    verify.add_argument("file", metavar="FILE", help="the record's JSON file, or - for stdin")
    return parser


def workers_problem(workers: int, settings: Settings) -> str | None:
    """Why ``workers`` cannot run with ``settings``, as a sentence; None if they can."""
    if workers < 1:
        return "--workers must be at least 1."
    if workers > 1 and settings.redis_url is None:
        return (
            f"{workers} workers need a shared game store: set ZZV_REDIS_URL to a Redis. "
            "With the in-memory store each worker would hold its own races, and a player "
            "whose request reached another worker would lose theirs."
        )
    return None


def serve(host: str, port: int, *, workers: int = 1, reload: bool = False) -> None:
    """Run the server until SIGINT/SIGTERM: one worker as :class:`SavingServer`, several
    (on Redis) under uvicorn's supervisor."""
    settings = get_settings()
    print(
        f"Zoom Zoom Vroom is running at {browser_url(host, port)} — open it in your browser",
        flush=True,
    )
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "factory": True,
        "http": HTTP_PROTOCOL,
        # X-Forwarded-* are trusted only from FORWARDED_ALLOW_IPS (uvicorn reads it).
        "proxy_headers": True,
        "timeout_graceful_shutdown": GRACEFUL_SHUTDOWN_SECONDS,
        "log_config": str(LOG_CONFIG),  # uvicorn's own lines in the app's JSON format
        "log_level": settings.log_level,
    }
    if reload or workers > 1:
        includes = ["*.py", "*.html"] if reload else None
        uvicorn.run(
            APP_IMPORT_PATH, reload=reload, reload_includes=includes, workers=workers, **options
        )
        return
    server = SavingServer(uvicorn.Config(APP_IMPORT_PATH, **options))
    server.run()
    if not server.started:
        sys.exit(STARTUP_FAILURE)


def main(argv: Sequence[str] | None = None) -> int:
    """The ``zzv`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "backup":
        return run_backup(args.folder, get_settings())
    if args.command == "verify":
        return run_verify(args.file)
    problem = workers_problem(args.workers, get_settings())
    if problem is not None:
        parser.exit(2, f"zzv serve: {problem}\n")
    serve(args.host, args.port, workers=args.workers, reload=args.reload)
    return 0


def run_backup(folder: Path, settings: Settings) -> int:
    """``zzv backup``: copy, say what was copied and what lives elsewhere; 2 if refused."""
    try:
        copied, elsewhere = back_up(settings, folder)
    except BackupRefused as refused:
        print(f"zzv backup: {refused}", file=sys.stderr)
        return 2
    for path in copied:
        print(f"copied {path}")
    for sentence in elsewhere:
        print(sentence)
    if not copied and not elsewhere:
        print("Nothing to back up yet: no race has been saved.")
    return 0


def run_verify(file: str) -> int:
    """``zzv verify``: print ``file``'s (``-``: stdin) verdict and deal; :data:`VERIFY_EXIT`."""
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
        record = json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        print(f"zzv verify: cannot read a record from {file}: {exc}", file=sys.stderr)
        return VERIFY_EXIT["refused"]
    verdict = verify_record(record)
    print(f"{headline(verdict.status)}. {verdict_sentence(verdict)}")
    for label, event in event_details(verdict):
        print(f"  {label}: {event}")
    if verdict.commitment is not None:
        text = scheme_words(record["deal_seed"], record["salt"])
        print(f"\nsha256 of {text!r}:\n  {verdict.commitment}")
        print(f"The commitment the race published at its start:\n  {record['commitment']}")
    if verdict.deal:
        print("\nThe deal, card by card (each hand as dealt, in suit order):")
    for deal in verdict.deal:
        words = round_words(deal)
        print(f"\n{words.title}")
        for seat, cards in words.hands:
            print(f"  {seat}: {cards}")
        if words.set_aside is not None:
            print(f"  Put aside unseen: {words.set_aside}")
    return VERIFY_EXIT[verdict.status]


if __name__ == "__main__":
    sys.exit(main())
