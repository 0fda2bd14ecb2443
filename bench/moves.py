"""Redis commands and server CPU per human move, for two builds side by side.

``python -m bench.moves [--races N] [--warmup N] [--baseline REV | --no-baseline]``

For each build ("before": a temporary detached ``git worktree`` of ``REV``; "after": this
checkout) it starts a ``redis-server`` of its own on a free loopback port and a real server
on 127.0.0.1 with ``ZZV_REDIS_URL`` set, started by that build's own ``zzv serve`` (the
console script its ``pyproject.toml`` names) with the build's directory as working
directory and ``PYTHONPATH``. Against them, one request at a time, the builds taking turns
move by move, it plays seeded 4-player races with normal bots (``POST /api/games`` with a
``seed``, or the start page's form with one), the person at seat 0 playing by
:func:`bench.moves_replay.pick`:

* **API**: every move is ``POST /api/games/{id}/actions``;
* **htmx**: every move is the table's move form as the page posts it (``HX-Request: true``,
  the form's own fields, same-origin headers), plus whatever the answer's fragment loads
  by itself (``hx-get`` on ``load``/``every``/``revealed``/``intersect``);
* **page view**: before every (htmx) move, a ``GET`` of the table page with the seat's
  cookie, plus what that page loads by itself; only the views are counted there.

Races are created before each measured phase and warm-up races are played first, so a
phase holds moves (or views) only. Redis commands are counted per request from
``INFO commandstats`` deltas on a separate connection, each ``INFO`` of the bench taken off
(commands run inside Lua scripts count too); for the API and htmx phases the mean is the
whole phase's delta over its moves, so commands a server issues after its answer are
counted too. ``MONITOR`` over the warm-up splits them into sent and scripted. Server CPU
is utime+stime of the server process (its ``stat`` in ``/proc``) over the whole phase,
divided by its moves. Then, with no server running, :mod:`bench.moves_replay` plays the
races of the API and htmx phases again with each build's engine and bots alone: their own
share of the CPU. A server draws each race's bots' key in secret, so one seed meets other
bots in each race; the replay takes each race's key from its finished record (``bot_key``)
and checks that it plays the race the server recorded. A build whose record reveals no key
seeded its bots from the deal's engine seed, which is then the key. Last, the size of each
API race's stored record at its end (``HSTRLEN``, per person's move), and
:mod:`bench.record_load` on each build's own code: loading a stored 5-racer race of 40
moves, whole and after one more move. The aims are issue
18's; figures only, no verdict. ``docs/benchmarks.md`` tells the method.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlencode

import httpx

from bench.moves_replay import (
    BOTS,
    PLAYERS,
    Choice,
    engine_seed,
    matches,
    options_from_actions,
    pick,
)
from bench.redis_process import RedisProcess
from bench.server import find_free_port, percentile, stop_server, wait_until_healthy

DEFAULT_BASELINE = "f80d5c7"
"""The "before" of issue 18: the last commit before the unit-of-work restructure."""

SEED_SECRET = "bench-moves-seed-secret"
"""``ZZV_SEED_SECRET`` of every server the bench starts, so the replay deals the same cards."""

FIRST_SEED = 1000
WARMUP_SEED = 900_000

REPO = Path(__file__).resolve().parent.parent
REPLAY_SCRIPT = Path(__file__).resolve().with_name("moves_replay.py")
RECORD_SCRIPT = Path(__file__).resolve().with_name("record_load.py")

ROWS: tuple[tuple[str, str], ...] = (
    ("Redis commands per human move, API", "<= 10"),
    ("Redis commands per human move, htmx", "<= 10"),
    ("Redis commands per table page view", "<= 4"),
    ("Server CPU per human move, API (ms)", "<= 0.75"),
    ("Server CPU per human move, htmx (ms)", "<= 1.3"),
    ("Server CPU per GET /healthz (ms): one Redis round trip", ""),
    ("Engine + bots in-process per move (ms)", ""),
    ("  + the person's observation (ms)", ""),
    ("Stored race at its end, bytes per person's move (API)", ""),
    ("Load a stored 5-racer race of 40 moves (ms)", "<= 2"),
    ("  the same after one more move, the worker's copy kept (ms)", ""),
    ("  its stored JSON (bytes)", ""),
)
"""The table's rows and issue 18's aim beside each."""

T = TypeVar("T")


# ------------------------------------------------------------------ measuring


@dataclass(frozen=True)
class Snapshot:
    """Redis's per-command call counts, and how many of the bench's own INFOs preceded it."""

    calls: Counter[str]
    infos_before: int


class CommandCounter:
    """``INFO commandstats`` over a connection of its own (plain RESP, no client library)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self._reader = self._sock.makefile("rb")
        self._infos = 0

    def close(self) -> None:
        """Close the connection."""
        self._reader.close()
        self._sock.close()

    def snapshot(self) -> Snapshot:
        """The call counts now."""
        self._sock.sendall(b"*2\r\n$4\r\nINFO\r\n$12\r\ncommandstats\r\n")
        header = self._reader.readline()
        if not header.startswith(b"$"):
            raise RuntimeError(f"unexpected INFO reply from redis: {header!r}")
        body = self._reader.read(int(header[1:]) + 2).decode()
        calls: Counter[str] = Counter()
        for line in body.splitlines():
            if line.startswith("cmdstat_"):
                name, _, stats = line.removeprefix("cmdstat_").partition(":")
                fields = dict(item.split("=", 1) for item in stats.split(","))
                calls[name] = int(fields["calls"])
        taken = Snapshot(calls, self._infos)
        self._infos += 1
        return taken

    @staticmethod
    def between(before: Snapshot, after: Snapshot) -> Counter[str]:
        """The commands run between two snapshots, the bench's own INFOs taken off (Redis
        counts a command once it has run, so ``after`` holds ``before``'s INFO, not its own)."""
        delta = Counter({name: after.calls[name] - before.calls[name] for name in after.calls})
        delta["info"] -= after.infos_before - before.infos_before
        return +delta

    def field_length(self, key: str, name: str) -> int:
        """``HSTRLEN key name``: the bytes of a hash's field (0 if absent)."""
        words = [b"HSTRLEN", key.encode(), name.encode()]
        self._sock.sendall(
            f"*{len(words)}\r\n".encode()
            + b"".join(b"$%d\r\n%s\r\n" % (len(word), word) for word in words)
        )
        reply = self._reader.readline()
        if not reply.startswith(b":"):
            raise RuntimeError(f"unexpected HSTRLEN reply from redis: {reply!r}")
        return int(reply[1:])

    def around(self, send: Callable[[], T]) -> tuple[T, Counter[str]]:
        """``send()``'s result and the commands run while it ran."""
        before = self.snapshot()
        result = send()
        return result, self.between(before, self.snapshot())


class MonitorTap:
    """Redis's ``MONITOR`` feed read up to a marker: how many commands clients sent and how
    many ran inside Lua scripts (``INFO commandstats`` counts both alike). Slows Redis, so
    the bench taps only its warm-up."""

    def __init__(self, port: int) -> None:
        self._feed = socket.create_connection(("127.0.0.1", port), timeout=30)
        self._lines = self._feed.makefile("rb")
        self._feed.sendall(b"MONITOR\r\n")
        if self._lines.readline().strip() != b"+OK":
            raise RuntimeError("redis refused MONITOR")
        self._marker = socket.create_connection(("127.0.0.1", port), timeout=30)
        self._replies = self._marker.makefile("rb")
        self._marks = 0

    def close(self) -> None:
        """Close both connections."""
        for closing in (self._lines, self._feed, self._replies, self._marker):
            closing.close()

    def split(self) -> tuple[int, int]:
        """(sent by clients, run inside scripts) since the previous call."""
        self._marks += 1
        mark = f'"bench-moves-mark-{self._marks}"'
        self._marker.sendall(f"ECHO {mark}\r\n".encode())
        self._replies.readline(), self._replies.readline()  # the bulk reply: length, text
        sent = inner = 0
        while not (line := self._lines.readline().decode(errors="replace").rstrip()).endswith(mark):
            if not line:
                raise RuntimeError("the MONITOR feed closed")
            # +<time> [<db> <client address, or "lua">] "COMMAND" "arg" ...
            source = line.partition("[")[2].partition("]")[0].split()
            if source[-1:] == ["lua"]:
                inner += 1
            else:
                sent += 1
        return sent, inner


def cpu_ms(pid: int) -> float:
    """utime + stime of process ``pid`` so far, in milliseconds (its threads included)."""
    stat = Path("/proc", str(pid), "stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()  # the name may hold spaces; fields 3.. follow
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


@dataclass
class Phase:
    """One measured phase: per-request command counts, the whole phase's, and its CPU."""

    counts: list[int] = field(default_factory=list)
    mix: Counter[str] = field(default_factory=Counter)
    wall_ms: list[float] = field(default_factory=list)
    follow_ups: int = 0
    total_commands: int = 0
    cpu_ms: float = 0.0

    def add(self, commands: Counter[str], wall_ms: float) -> None:
        """Count one measured request (with its follow-up fetches)."""
        self.counts.append(sum(commands.values()))
        self.mix.update(commands)
        self.wall_ms.append(wall_ms)

    @property
    def requests(self) -> int:
        """Moves (or views) measured."""
        return len(self.counts)

    def mean(self, whole_phase: bool) -> float:
        """Commands per request: the phase's own delta over its requests, or the mean of
        the per-request counts (when the phase also holds unmeasured requests)."""
        if not self.counts:
            return float("nan")
        if whole_phase:
            return self.total_commands / self.requests
        return statistics.fmean(self.counts)

    def cell(self, whole_phase: bool) -> str:
        """``mean (p50 x, max y)``."""
        if not self.counts:
            return "n/a"
        p50, top = percentile([float(c) for c in self.counts], 50), max(self.counts)
        return f"{self.mean(whole_phase):.1f} (p50 {p50:.0f}, max {top})"


@contextlib.contextmanager
def measured(counter: CommandCounter, pid: int, phase: Phase) -> Iterator[None]:
    """Take the whole phase's command delta and server CPU around the block."""
    before, cpu_before = counter.snapshot(), cpu_ms(pid)
    yield
    phase.cpu_ms = cpu_ms(pid) - cpu_before
    phase.total_commands = sum(counter.between(before, counter.snapshot()).values())


# ------------------------------------------------------------------ the table's HTML


class TablePage(HTMLParser):
    """What a browser would send and fetch from a table page or ``#table`` fragment: the
    move form's fields (as htmx serialises them), its card choices, and the ``hx-get`` URLs
    the markup loads without anybody clicking."""

    AUTO_TRIGGERS = ("load", "every", "revealed", "intersect")

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.has_form = False
        self.fields: list[list[str]] = []
        self.choices: dict[Choice, int] = {}
        self.auto_loads: list[str] = []
        self.event_streams: list[str] = []
        self._in_form = False
        self._choice_slot: int | None = None
        self._select: list[str] | None = None
        self._select_value: str | None = None
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {name: value or "" for name, value in attrs}
        trigger = attr.get("hx-trigger", "")
        if "hx-get" in attr and any(word in trigger for word in self.AUTO_TRIGGERS):
            self.auto_loads.append(attr["hx-get"])
        if "sse-connect" in attr:
            self.event_streams.append(attr["sse-connect"])
        if tag == "form" and attr.get("id") == "move-form":
            self.has_form = self._in_form = True
        if not self._in_form or "disabled" in attr:
            return
        name, kind = attr.get("name"), attr.get("type", "text")
        if tag == "input" and name:
            self._input(name, kind, attr)
        elif tag == "select" and name:
            self._select = [name, ""]
            self._select_value = None
            self.fields.append(self._select)
        elif (
            tag == "option"
            and self._select is not None
            and (self._select_value is None or "selected" in attr)
        ):
            self._select_value = attr.get("value", "")
            self._select[1] = self._select_value

    def _input(self, name: str, kind: str, attr: dict[str, str]) -> None:
        if name == "choice":
            mode, _, suit = attr["value"].partition(":")
            if mode in ("up", "down"):
                self.choices[(mode, suit)] = int(attr.get("data-gas-max") or 0)
            if self._choice_slot is None:  # one radio group: one field, where the first sits
                self._choice_slot = len(self.fields)
                self.fields.append(["choice", ""])
            return
        if kind in ("submit", "button", "image", "reset", "file"):
            return  # Enter submits with no button pressed, so no button's value is sent
        if kind in ("radio", "checkbox") and "checked" not in attr:
            return
        self.fields.append([name, attr.get("value", "on" if kind == "checkbox" else "")])

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._in_form = False
        elif tag == "select":
            self._select = None

    def submission(self, choice: Choice, gas: int) -> str:
        """The urlencoded body the form posts with ``choice`` picked and ``gas`` typed."""
        fields = [list(pair) for pair in self.fields]
        for pair in fields:
            if pair[0] == "choice":
                pair[1] = f"{choice[0]}:{choice[1]}"
            elif pair[0] == "gas":
                pair[1] = str(gas)  # the page's script sets 0 for a Tune Up
        return urlencode([(name, value) for name, value in fields])


def _checked(response: httpx.Response, *expected: int) -> httpx.Response:
    if response.status_code not in expected:
        raise SystemExit(
            f"{response.request.method} {response.request.url.path} answered "
            f"{response.status_code}: {response.text[:300]}"
        )
    return response


# ------------------------------------------------------------------ the two clients


@dataclass
class Race:
    """A race of the bench, as the client knows it."""

    seed: int
    game_id: str
    token: str
    state: dict[str, Any] | None = None
    page: TablePage | None = None
    moves: int = 0


class ApiClient:
    """A JSON client: Bearer token, the state of each answer."""

    def __init__(self, http: httpx.Client) -> None:
        self.http = http

    def create(self, seed: int) -> Race:
        """Deal the seeded race (its bots that lead play before this returns)."""
        body = {"players": PLAYERS, "bots": BOTS, "seed": seed}
        created = _checked(self.http.post("/api/games", json=body), 201).json()
        return Race(seed, created["game_id"], created["token"], state=created["state"])

    def move(self, race: Race) -> None:
        """The person's next move, by :func:`pick`."""
        assert race.state is not None
        actions = race.state["legal_actions"]
        choice, gas = pick(options_from_actions(actions), race.seed, race.moves)
        action = next(a for a in actions if matches(a, choice, gas))
        payload = {"turn": race.state["turn"], "action": action}
        headers = {"Authorization": f"Bearer {race.token}"}
        url = f"/api/games/{race.game_id}/actions"
        race.state = _checked(self.http.post(url, json=payload, headers=headers), 200).json()
        race.moves += 1

    def over(self, race: Race) -> bool:
        """Whether the race has ended."""
        return race.state is None or bool(race.state["game_over"])

    def record(self, race: Race) -> dict[str, Any]:
        """The race's public record (to check it against the replay)."""
        headers = {"Authorization": f"Bearer {race.token}"}
        response = self.http.get(f"/api/games/{race.game_id}/record", headers=headers)
        record: dict[str, Any] = _checked(response, 200).json()
        return record


class BrowserClient:
    """What the table page sends from a browser with JavaScript on: the start page's form,
    the page with the seat's cookie, the move form through htmx, and the fragments the
    markup loads by itself."""

    def __init__(self, http: httpx.Client) -> None:
        self.http = http
        self.origin = str(http.base_url).rstrip("/")
        self.follow_ups = 0

    def _same_origin(self, race_path: str) -> dict[str, str]:
        return {"Origin": self.origin, "Referer": self.origin + race_path}

    def create(self, seed: int) -> Race:
        """Post the start page's form with a seed, then load the table it redirects to."""
        body = urlencode({"players": PLAYERS, "bots": BOTS, "seed": seed})
        headers = {
            **self._same_origin("/"),
            "Content-Type": "application/x-www-form-urlencoded",
            "Sec-Fetch-Site": "same-origin",
        }
        created = _checked(self.http.post("/games", content=body, headers=headers), 303)
        path = created.headers["location"]
        game_id = path.rstrip("/").rsplit("/", 1)[-1]
        token = self.http.cookies.get(f"zzv_{game_id}", path=path)
        if token is None:
            raise SystemExit(f"the start page's form set no seat cookie for {path}")
        race = Race(seed, game_id, token)
        self.view(race)
        return race

    def _auto_loads(self, page: TablePage, race_path: str) -> None:
        for url in page.auto_loads:
            headers = {"HX-Request": "true", "HX-Current-URL": self.origin + race_path}
            _checked(self.http.get(url, headers={**headers, "Sec-Fetch-Site": "same-origin"}), 200)
            self.follow_ups += 1

    def view(self, race: Race) -> None:
        """A view of the table page (a load or a reload), and what the page loads itself."""
        path = f"/games/{race.game_id}"
        response = _checked(self.http.get(path, headers={"Sec-Fetch-Site": "same-origin"}), 200)
        race.page = TablePage(response.text)
        self._auto_loads(race.page, path)

    def move(self, race: Race) -> None:
        """The move form posted as htmx posts it, and what the new fragment loads itself."""
        assert race.page is not None and race.page.has_form
        path = f"/games/{race.game_id}"
        choice, gas = pick(race.page.choices, race.seed, race.moves)
        headers = {
            **self._same_origin(path),
            "Content-Type": "application/x-www-form-urlencoded",
            "Sec-Fetch-Site": "same-origin",
            "HX-Request": "true",
            "HX-Current-URL": self.origin + path,
            "HX-Target": "table",
            "HX-Trigger": "move-form",
        }
        body = race.page.submission(choice, gas)
        response = _checked(self.http.post(f"{path}/move", content=body, headers=headers), 200)
        race.page = TablePage(response.text)
        race.moves += 1
        self._auto_loads(race.page, path)

    def over(self, race: Race) -> bool:
        """Whether the table offers no move (the race of one person against bots is then
        over: the bots always play up to the person's turn)."""
        return race.page is None or not race.page.has_form


# ------------------------------------------------------------------ one build


@dataclass
class Build:
    """A build of the server to measure."""

    label: str
    root: Path
    revision: str


@dataclass
class Figures:
    """Everything measured for one build."""

    build: Build
    phases: dict[str, Phase]
    idle_commands: int
    event_streams: int
    split: dict[str, list[int]]
    stored_per_move: float
    """The API races' stored records at their end, bytes per person's move."""
    replay: dict[str, Any]
    mismatches: list[str]
    floor_ms: float
    record: dict[str, Any]
    """:mod:`bench.record_load`'s figures on the build's own code."""

    def cells(self) -> list[str]:
        """The build's column of the table, row by row (see :data:`ROWS`)."""
        api, htmx = self.phases["API"], self.phases["htmx"]
        return [
            api.cell(whole_phase=True),
            htmx.cell(whole_phase=True),
            self.phases["views"].cell(whole_phase=False),
            f"{api.cpu_ms / max(1, api.requests):.3f}",
            f"{htmx.cpu_ms / max(1, htmx.requests):.3f}",
            f"{self.floor_ms:.3f}",
            f"{self.replay['ms_per_move']:.3f}",
            f"{self.replay['ms_per_move_observed']:.3f}",
            f"{self.stored_per_move:.0f}",
            f"{self.record['load_ms']:.3f}",
            f"{self.record['load_after_move_ms']:.3f}",
            f"{self.record['bytes']}",
        ]


def server_env(root: Path, redis_url: str) -> dict[str, str]:
    """The server's environment: nothing inherited from ``ZZV_*``; Redis; a fixed seed
    secret; no rate limits or caps (every race comes from 127.0.0.1); quiet logs; no
    expiry sweep during the run (it would add Redis commands of its own)."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("ZZV_")}
    env.update(
        PYTHONPATH=str(root),
        ZZV_REDIS_URL=redis_url,
        ZZV_SEED_SECRET=SEED_SECRET,
        ZZV_RATE_LIMIT_ENABLED="false",
        ZZV_MAX_GAMES="100000",
        ZZV_MAX_GAMES_PER_CLIENT="100000",
        ZZV_ACCESS_LOG="false",
        ZZV_LOG_LEVEL="warning",
        ZZV_SWEEP_INTERVAL_SECONDS="86400",
        ZZV_WORKERS="1",
    )
    return env


_LAUNCH = (
    "import importlib, sys; module, name = sys.argv[1:3]; sys.argv = ['zzv', *sys.argv[3:]]; "
    "sys.exit(getattr(importlib.import_module(module), name)())"
)


def serve_command(root: Path, port: int) -> list[str]:
    """``zzv serve`` of the build at ``root``: the console script its own pyproject names,
    run from its directory by this interpreter."""
    scripts = tomllib.loads((root / "pyproject.toml").read_text())["project"]["scripts"]
    module, _, function = scripts["zzv"].partition(":")
    serve = ["serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "1"]
    return [sys.executable, "-c", _LAUNCH, module, function, *serve]


def _check_imports_from(root: Path, env: dict[str, str]) -> None:
    """Stop unless ``app`` and ``engine`` resolve inside ``root`` under ``env``."""
    probe = "import app, engine; print(app.__file__); print(engine.__file__)"
    found = subprocess.run(
        [sys.executable, "-c", probe], cwd=root, env=env, capture_output=True, text=True
    )
    files = found.stdout.split()
    if found.returncode != 0 or not all(Path(f).resolve().is_relative_to(root) for f in files):
        raise SystemExit(f"the build at {root} does not import its own code: {found}")


@contextlib.contextmanager
def running_server(root: Path, redis_url: str) -> Iterator[tuple[str, int]]:
    """The build's server on a free loopback port: its base URL and process id."""
    env = server_env(root, redis_url)
    _check_imports_from(root, env)
    port = find_free_port()
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            serve_command(root, port),
            cwd=root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            try:
                wait_until_healthy(process, port)
            except SystemExit:
                log.seek(0)
                sys.stderr.write(log.read().decode(errors="replace")[-3000:])
                raise
            yield f"http://127.0.0.1:{port}", process.pid
        finally:
            stop_server(process)


PHASES = ("API", "htmx", "views")
"""The measured phases: moves through the JSON API, moves through the htmx table, and page
views of the table (one before each htmx move; only the views counted)."""


@dataclass
class Target:
    """A build's running server, its own Redis, and the two clients talking to it."""

    build: Build
    pid: int
    counter: CommandCounter
    api: ApiClient
    browser: BrowserClient
    phases: dict[str, Phase] = field(default_factory=dict)
    races: dict[str, list[Race]] = field(default_factory=dict)
    idle_commands: int = 0
    split: dict[str, list[int]] = field(default_factory=dict)
    """Per phase, over the warm-up: commands sent by the server, run inside its scripts,
    requests."""

    def client(self, phase: str) -> ApiClient | BrowserClient:
        """Who plays the races of ``phase``."""
        return self.api if phase == "API" else self.browser

    def play(
        self, phase: str, race: Race, measure: Phase | None, tap: MonitorTap | None = None
    ) -> None:
        """Play ``race`` to its end, counting the requests of ``phase`` into ``measure``
        (or splitting their commands with ``tap``)."""
        while self.step(phase, race, measure, tap):
            pass

    def step(
        self, phase: str, race: Race, measure: Phase | None, tap: MonitorTap | None = None
    ) -> bool:
        """Play the person's next move of ``race`` (after a view of the page in the views
        phase); False, and nothing sent, once the race is over."""
        client = self.client(phase)
        if client.over(race):
            return False
        if phase == "views":
            self._send(phase, functools.partial(self.browser.view, race), measure, tap)
            self.browser.move(race)
        else:
            self._send(phase, functools.partial(client.move, race), measure, tap)
        return True

    def _send(
        self, phase: str, send: Callable[[], None], measure: Phase | None, tap: MonitorTap | None
    ) -> None:
        if tap is not None:
            tap.split()
            send()
            split = self.split.setdefault(phase, [0, 0, 0])
            for index, count in enumerate((*tap.split(), 1)):
                split[index] += count
        elif measure is None:
            send()
        else:
            started = time.perf_counter()
            _, commands = self.counter.around(send)
            measure.add(commands, (time.perf_counter() - started) * 1000)


@contextlib.contextmanager
def started(build: Build, scratch: Path) -> Iterator[Target]:
    """``build``'s server on a Redis of its own (its files in ``scratch``), and its clients."""
    redis = RedisProcess(find_free_port(), scratch)
    redis.start()
    try:
        with (
            running_server(build.root, redis.url) as (base, pid),
            httpx.Client(base_url=base, timeout=60) as api_http,
            httpx.Client(base_url=base, timeout=60) as browser_http,
        ):
            counter = CommandCounter(redis.port)
            try:
                yield Target(build, pid, counter, ApiClient(api_http), BrowserClient(browser_http))
            finally:
                counter.close()
    finally:
        redis.stop()


def run_phase(targets: list[Target], phase: str, seeds: list[int]) -> None:
    """Create ``seeds``' races on every target, then play them one request at a time, race
    by race and move by move, the targets taking turns (ABBA) on the same race, so a change
    of load on the machine falls on every build alike. Each target's figures cover its own
    server and Redis only."""
    for target in targets:
        target.races[phase] = [target.client(phase).create(seed) for seed in seeds]
        target.browser.follow_ups = 0
        target.phases[phase] = Phase()
    with contextlib.ExitStack() as stack:
        for target in targets:
            stack.enter_context(measured(target.counter, target.pid, target.phases[phase]))
        for index in range(len(seeds)):
            playing, turn = list(targets), 0
            while playing:
                finished = []
                for target in playing if turn % 2 == 0 else playing[::-1]:
                    if not target.step(phase, target.races[phase][index], target.phases[phase]):
                        finished.append(target)
                playing = [target for target in playing if target not in finished]
                turn += 1
    for target in targets:
        if phase != "API":
            target.phases[phase].follow_ups = target.browser.follow_ups


FLOOR_REQUESTS = 400
"""``GET /healthz`` requests per build for the floor row, in rounds the builds take in turn."""


def request_floor(targets: list[Target], rounds: int = 8) -> dict[str, float]:
    """Each build's server CPU per ``GET /healthz`` on a kept-alive connection, in ms: what
    uvicorn, the middlewares, FastAPI and the kernel cost a request that makes one Redis
    round trip (the live-race count) and touches no race, beside which the per-move
    figures read. The builds take turns, round by round."""
    spent = {target.build.label: 0.0 for target in targets}
    per_round = FLOOR_REQUESTS // rounds
    for target in targets:  # warm: the first requests pay for imports and caches
        for _ in range(20):
            _checked(target.api.http.get("/healthz"), 200)
    for turn in range(rounds):
        for target in targets if turn % 2 == 0 else targets[::-1]:
            before = cpu_ms(target.pid)
            for _ in range(per_round):
                _checked(target.api.http.get("/healthz"), 200)
            spent[target.build.label] += cpu_ms(target.pid) - before
    return {label: ms / (per_round * rounds) for label, ms in spent.items()}


Outcome = tuple[int, int, int | None]
"""A race's (person's moves, public events, winner)."""


@dataclass(frozen=True)
class Played:
    """A race a build's server played to its end, as its public record tells it."""

    phase: str
    seed: int
    bot_key: int
    outcome: Outcome


def _played(client: ApiClient, phase: str, races: list[Race]) -> list[Played]:
    """Each race's bots' key and outcome, from the server's public record. A record that
    reveals no key is taken for a build's that seeded its bots from the deal's engine seed
    (as builds before per-race keys did)."""
    played = []
    for race in races:
        record = client.record(race)
        key = record.get("bot_key")
        bot_key = engine_seed(race.seed, SEED_SECRET) if key is None else int(key)
        outcome = (race.moves, len(record["events"]), record["winner"])
        played.append(Played(phase, race.seed, bot_key, outcome))
    return played


def _build_figures(root: Path, script: Path, *arguments: str) -> dict[str, Any]:
    """The JSON figures ``script`` prints when run on the build at ``root`` in a fresh
    interpreter (none of this shell's ``ZZV_`` settings), checked to come from that build's
    engine."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("ZZV_")}
    env["PYTHONPATH"] = str(root)
    command = [sys.executable, str(script), *arguments]
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{script.name} failed:\n{done.stderr[-3000:]}")
    figures: dict[str, Any] = json.loads(done.stdout)
    if not Path(figures["engine_file"]).resolve().is_relative_to(root):
        raise SystemExit(f"{script.name} imported {figures['engine_file']}, not the build's")
    return figures


def _replay(root: Path, races: list[Played], min_seconds: float) -> dict[str, Any]:
    """:mod:`bench.moves_replay` run once on the build's own engine over ``races`` (their
    seeds and bots' keys)."""
    return _build_figures(
        root,
        REPLAY_SCRIPT,
        *("--secret", SEED_SECRET, "--repeat", "1", "--min-seconds", str(min_seconds)),
        *("--seeds", ",".join(str(race.seed) for race in races)),
        *("--bot-keys", ",".join(str(race.bot_key) for race in races)),
    )


def record_load(root: Path) -> dict[str, Any]:
    """:mod:`bench.record_load` run on the build's own code."""
    return _build_figures(root, RECORD_SCRIPT)


def stored_per_move(target: Target) -> float:
    """The bytes of the API races' stored records at their end, per person's move (each
    record is a Redis hash ``zzv:game:<id>``, the race in its ``data`` field)."""
    races = target.races["API"]
    stored = sum(target.counter.field_length(f"zzv:game:{race.game_id}", "data") for race in races)
    return stored / max(1, sum(race.moves for race in races))


def replays(
    builds: list[Build], played: dict[str, list[Played]], repeat: int, min_seconds: float
) -> dict[str, dict[str, Any]]:
    """Each build's replay figures over the races its own server played (``played``, by
    build label): the median of ``repeat`` runs, the builds in turn (ABBA), so a change of
    load falls on every build alike."""
    runs: dict[str, list[dict[str, Any]]] = {build.label: [] for build in builds}
    for index in range(repeat):
        for build in builds if index % 2 == 0 else builds[::-1]:
            runs[build.label].append(_replay(build.root, played[build.label], min_seconds))
    summary = {}
    for label, done in runs.items():
        if any(run["results"] != done[0]["results"] for run in done):
            raise SystemExit(f"the {label} build's replays did not play the same races")
        summary[label] = {
            **done[0],
            "ms_per_move": statistics.median(run["ms_per_move"] for run in done),
            "ms_per_move_observed": statistics.median(r["ms_per_move_observed"] for r in done),
        }
    return summary


def _compare(played: list[Played], replay: dict[str, Any]) -> list[str]:
    """Races whose server record differs from the replay's (phase, seed: what differs)."""
    problems = []
    for race, result in zip(played, replay["results"], strict=True):
        if (result["seed"], result["bot_key"]) != (race.seed, race.bot_key):
            raise SystemExit(f"the replay played seed {result['seed']} for {race}")
        want = (result["human_moves"], result["events"], result["winner"])
        if race.outcome != want:
            problems.append(
                f"{race.phase} seed {race.seed}: (moves, events, winner) {race.outcome} on "
                f"the server, {want} in the replay"
            )
    return problems


def measure(
    builds: list[Build], races: int, warmup: int, repeat: int, min_seconds: float
) -> list[Figures]:
    """Every figure of every build: its servers side by side through the three phases
    (after a warm-up), then, with the servers stopped, the replays."""
    seeds = [FIRST_SEED + i for i in range(races)]
    played: dict[str, list[Played]] = {}
    found: dict[str, tuple[dict[str, Phase], int, int, dict[str, list[int]], float]] = {}
    with contextlib.ExitStack() as stack:
        targets = []
        for build in builds:
            scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="zzv-redis-")))
            targets.append(stack.enter_context(started(build, scratch)))
        for target in targets:
            tap = MonitorTap(target.counter.port)
            try:
                for seed in range(WARMUP_SEED, WARMUP_SEED + warmup):
                    for phase in PHASES:
                        target.play(phase, target.client(phase).create(seed), None, tap)
            finally:
                tap.close()
        for target in targets:
            quiet = target.counter.snapshot()
            time.sleep(0.5)
            target.idle_commands = sum(
                target.counter.between(quiet, target.counter.snapshot()).values()
            )
        for phase in PHASES:
            run_phase(targets, phase, seeds)
        floors = request_floor(targets)
        for target in targets:
            label = target.build.label
            played[label] = [
                race
                for phase in ("API", "htmx")
                for race in _played(target.api, phase, target.races[phase])
            ]
            pages = [race.page for race in target.races["htmx"]]
            streams = sum(bool(page and page.event_streams) for page in pages)
            kept = stored_per_move(target)
            found[label] = (target.phases, target.idle_commands, streams, target.split, kept)
    replayed = replays(builds, played, max(1, repeat), min_seconds)
    figures = []
    for build in builds:
        label = build.label
        replay = replayed[label]
        mismatches = _compare(played[label], replay)
        loads = record_load(build.root)
        figures.append(Figures(build, *found[label], replay, mismatches, floors[label], loads))
    return figures


# ------------------------------------------------------------------ builds and report


def _git(*args: str) -> str:
    done = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout.strip()


def this_checkout() -> Build:
    """The working tree the bench runs from, uncommitted changes included."""
    revision = _git("rev-parse", "--short", "HEAD")
    if _git("status", "--porcelain", "--untracked-files=no"):
        revision += "+changes"
    return Build("after", REPO, revision)


@contextlib.contextmanager
def baseline_checkout(revision: str) -> Iterator[Build]:
    """A detached worktree of ``revision`` in a temporary directory, removed afterwards."""
    short = _git("rev-parse", "--short", f"{revision}^{{commit}}")
    with tempfile.TemporaryDirectory(prefix="zzv-bench-moves-") as scratch:
        root = Path(scratch).resolve() / "src"
        _git("worktree", "add", "--detach", "--quiet", str(root), short)
        try:
            yield Build("before", root, short)
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(root)])


def _mix(phase: Phase) -> str:
    per_move = max(1, phase.requests)
    top = phase.mix.most_common()
    return ", ".join(f"{name} {calls / per_move:.1f}" for name, calls in top) or "none"


def _split(split: dict[str, list[int]]) -> str:
    if not split:
        return "n/a (no warm-up)"
    parts = []
    for phase in PHASES:
        sent, inner, requests = split.get(phase, [0, 0, 0])
        if requests:
            parts.append(f"{phase} {sent / requests:.1f} + {inner / requests:.1f}")
    return ", ".join(parts)


def report(figures: list[Figures], races: int, warmup: int, load: tuple[float, float]) -> str:
    """The side-by-side table, then each build's details; ``load`` is the machine's load
    average (1 min) at the start and at the end."""
    heads = [f"{f.build.label} ({f.build.revision})" for f in figures]
    columns = [f.cells() for f in figures]
    width = max(len(label) for label, _ in ROWS) + 2
    cell = max(
        24, *(len(c) + 2 for column in columns for c in column), *(len(h) + 2 for h in heads)
    )
    lines = [
        f"Moves benchmark: {races} seeded {PLAYERS}-player races with {BOTS} bots per phase "
        f"(seeds {FIRST_SEED}-{FIRST_SEED + races - 1}; {warmup} warm-up races first), "
        "one request at a time, the builds taking turns move by move, each on its own Redis",
        f"Machine: {os.cpu_count()} cores, load average {load[0]:.1f} at the start and "
        f"{load[1]:.1f} at the end (CPU per move grows with contention)",
        "",
        "".ljust(width) + "".join(h.ljust(cell) for h in heads) + "aim",
    ]
    for row, (label, aim) in enumerate(ROWS):
        lines.append(label.ljust(width) + "".join(c[row].ljust(cell) for c in columns) + aim)
    for f in figures:
        api, htmx, views = (f.phases[phase] for phase in PHASES)
        lines += [
            "",
            f"{f.build.label} ({f.build.revision}, {f.build.root}):",
            f"  measured: {api.requests} API moves, {htmx.requests} htmx moves, "
            f"{views.requests} page views; follow-up fetches {htmx.follow_ups} (htmx), "
            f"{views.follow_ups} (views); tables with an event stream: {f.event_streams}",
            f"  Redis commands per API move: {_mix(api)}",
            f"  Redis commands per htmx move: {_mix(htmx)}",
            f"  Redis commands per page view: {_mix(views)}",
            f"  of those, sent by the server + run inside its Lua scripts (MONITOR, over the "
            f"warm-up): {_split(f.split)}",
            "  commands between requests (phase minus per-request sums): "
            f"API {api.total_commands - sum(api.counts)}, "
            f"htmx {htmx.total_commands - sum(htmx.counts)}; while idle 0.5 s: "
            f"{f.idle_commands}",
            "  wall time per request p50 (client side, ms): "
            f"API {percentile(api.wall_ms, 50):.2f}, htmx {percentile(htmx.wall_ms, 50):.2f}, "
            f"view {percentile(views.wall_ms, 50):.2f}",
            f"  replay: {f.replay['moves']} person's moves; races identical to the server's "
            f"(moves, events, winner): {'all' if not f.mismatches else 'NOT all'}",
            *(f"  mismatch: {m}" for m in f.mismatches),
        ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Measure the baseline and this checkout, print the table."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.moves", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--races", type=int, default=6, help="races per phase (default 6)")
    parser.add_argument("--warmup", type=int, default=2, help="warm-up races (default 2)")
    parser.add_argument(
        "--repeat", type=int, default=7, help="timed in-process replays, median (default 7)"
    )
    parser.add_argument(
        "--replay-seconds",
        type=float,
        default=0.6,
        help="CPU seconds each timed replay lasts at least, both variants (default 0.6)",
    )
    parser.add_argument(
        "--baseline", default=DEFAULT_BASELINE, help="git revision of the 'before' build"
    )
    parser.add_argument("--no-baseline", action="store_true", help="measure this checkout only")
    args = parser.parse_args(argv)
    races = max(1, args.races)
    load_before = os.getloadavg()[0]
    with contextlib.ExitStack() as stack:
        builds = [] if args.no_baseline else [stack.enter_context(baseline_checkout(args.baseline))]
        builds.append(this_checkout())
        figures = measure(builds, races, max(0, args.warmup), args.repeat, args.replay_seconds)
    print(report(figures, races, args.warmup, (load_before, os.getloadavg()[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
