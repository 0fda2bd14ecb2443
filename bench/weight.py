"""Page-weight benchmark: bytes on the wire per move of whole races (prints, never asserts).

``python -m bench weight [--races 3] [--bots normal]``

Starts a real uvicorn on 127.0.0.1 (free port, rate limits off) and plays whole races
through the HTML site the way a browser does: with JavaScript (the move form posted by htmx
with ``HX-Request``, answered by the table fragment) and without it (the plain POST, its
``303`` and the ``GET`` of the full page it leads to). Every race is played twice, asking
for ``Accept-Encoding: identity`` and for ``gzip, br``; both runs deal the same seeded race
and choose the same moves. A response's weight is its status line and headers plus the body
as sent (compressed bytes when compressed). Prints the median and the max per move for 3
and 5 players, and first the table's first load: the page of a new race and every
stylesheet and script it links, compressed, beside the bound it must stay under (the
sounds are made by the Web Audio API after the first move: no file to load).

The module only drives the site over HTTP, so the same file measures any checkout of the
project (run ``python -m bench.weight`` from that checkout).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
from dataclasses import dataclass, field
from typing import Any

from bench.server import stop_server, uvicorn_command, wait_until_healthy

_CHOICE = re.compile(r'name="choice" value="([^"]+)"')
_TURN = re.compile(r'name="turn" value="(\d+)"')
_ZERO_EFFECT = re.compile(r'name="zero_effect" value="([^"]+)"')
_ZF_VALUE = re.compile(r'name="zf_value" value="([^"]+)"')
_DISCARD = re.compile(r'name="discard">\s*<option value="([^"]+)"')
_ASSET = re.compile(r'<(?:link[^>]+rel="stylesheet"[^>]*href|script[^>]*src)="(/[^"]+)"')
FIRST_LOAD_BOUND_KIB = 150
"""Most a table's first load may weigh, compressed (HTML, CSS and JS together)."""

ENCODINGS = {"identity": "identity", "compressed": "gzip, br"}
"""The two ways a browser may ask: nothing compressed, or gzip/brotli accepted."""


@dataclass
class Weights:
    """Bytes on the wire per human move, by mode (``js``/``nojs``) and encoding."""

    per_move: dict[tuple[str, str], list[int]] = field(default_factory=dict)

    def add(self, mode: str, encoding: str, size: int) -> None:
        """Record one move's bytes."""
        self.per_move.setdefault((mode, encoding), []).append(size)


def wire_bytes(response: Any) -> int:
    """Status line + headers + body as transmitted (``num_bytes_downloaded``)."""
    head = len(f"HTTP/1.1 {response.status_code} {response.reason_phrase}\r\n")
    head += sum(len(k) + len(v) + 4 for k, v in response.headers.raw) + 2
    return head + int(response.num_bytes_downloaded)


def move_fields(page: str, rng: random.Random) -> list[dict[str, str]]:
    """Candidate submissions of the move form in ``page``, in the order to try them.

    A random face-up card (with the form's first detail choices and no gas) first, then
    every Tune Up; the server refuses what the rules forbid and the next one is tried.
    """
    turn = _TURN.search(page)
    if turn is None:
        return []
    choices = _CHOICE.findall(page)
    ups = [c for c in choices if not c.startswith("down:")]
    rng.shuffle(ups)
    downs = [c for c in choices if c.startswith("down:")]
    base = {"turn": turn.group(1), "gas": "0"}
    for pattern, name in ((_ZERO_EFFECT, "zero_effect"), (_ZF_VALUE, "zf_value")):
        found = pattern.search(page)
        if found:
            base[name] = found.group(1)
    discard = _DISCARD.search(page)
    if discard:
        base["discard"] = discard.group(1)
    return [{**base, "choice": choice} for choice in [*ups[:1], *downs]]


def _play_race(base_url: str, players: int, bots: str, seed: int, encoding: str) -> Weights:
    """Play one seeded race with and without JS; return the bytes per move."""
    import httpx

    weights = Weights()
    for mode in ("js", "nojs"):
        rng = random.Random(seed)
        headers = {"Accept-Encoding": ENCODINGS[encoding]}
        with httpx.Client(base_url=base_url, headers=headers, timeout=60) as client:
            form = {"players": str(players), "bots": bots, "seed": str(seed)}
            created = client.post("/games", data=form)
            location = created.headers["location"]
            page = client.get(location).text
            while True:
                candidates = move_fields(page, rng)
                if not candidates:
                    break
                for fields in candidates:
                    size, page, ok = submit_move(client, location, fields, mode)
                    if ok:
                        weights.add(mode, encoding, size)
                        break
                else:
                    raise SystemExit(f"no move was accepted at {location}")
    return weights


def submit_move(
    client: Any, location: str, fields: dict[str, str], mode: str
) -> tuple[int, str, bool]:
    """Submit one move; (bytes on the wire, the table's HTML, accepted?)."""
    if mode == "js":
        answer = client.post(f"{location}/move", data=fields, headers={"HX-Request": "true"})
        return wire_bytes(answer), answer.text, answer.status_code == 200
    answer = client.post(f"{location}/move", data=fields)
    if answer.status_code != 303:
        return 0, answer.text, False
    page = client.get(answer.headers["location"])
    return wire_bytes(answer) + wire_bytes(page), page.text, True


def start_server(port: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "ZZV_RATE_LIMIT_ENABLED": "false",
        "ZZV_ACCESS_LOG": "false",
        "ZZV_LOG_LEVEL": "warning",
        "ZZV_SEED_SECRET": "bench-weight",  # the same seeds deal the same races every run
    }
    command = uvicorn_command(port, "--no-access-log", "--log-level", "warning")
    process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL)
    return wait_until_healthy(process, port)


def _free_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def first_load(base_url: str, cookies: dict[str, str] | None = None) -> dict[str, int]:
    """Bytes on the wire, compressed, to open a new race's table in a fresh browser (one
    holding ``cookies``): the page, and each stylesheet and script it links (by path)."""
    import httpx

    sizes: dict[str, int] = {}
    headers = {"Accept-Encoding": ENCODINGS["compressed"]}
    with httpx.Client(base_url=base_url, headers=headers, cookies=cookies, timeout=60) as client:
        created = client.post("/games", data={"players": "4", "bots": "normal"})
        page = client.get(created.headers["location"])
        sizes["page"] = wire_bytes(page)
        for path in dict.fromkeys(_ASSET.findall(page.text)):
            sizes[path] = wire_bytes(client.get(path))
    return sizes


def _report_first_load(sizes: dict[str, int]) -> None:
    total = sum(sizes.values())
    print(
        f"table's first load, compressed: {total / 1024:.1f} KiB "
        f"(bound {FIRST_LOAD_BOUND_KIB} KiB) in {len(sizes)} responses"
    )
    for name, size in sorted(sizes.items(), key=lambda item: -item[1]):
        print(f"  {size / 1024:6.1f} KiB  {name}")


def _report(players: int, weights: Weights) -> None:
    labels = {"js": "move with JS (htmx fragment)", "nojs": "move without JS (303 + page)"}
    for (mode, encoding), sizes in sorted(weights.per_move.items()):
        print(
            f"  {players} players  {labels[mode]:<30} {encoding:<10} "
            f"median {statistics.median(sizes) / 1024:6.1f} KiB   max {max(sizes) / 1024:6.1f} KiB"
            f"   ({len(sizes)} moves)"
        )


def bench_weight(races: int, bots: str, url: str | None) -> None:
    """Play ``races`` seeded races at 3 and at 5 players and print the bytes per move."""
    process = None
    if url is None:
        port = _free_port()
        process = start_server(port)
        url = f"http://127.0.0.1:{port}"
    try:
        _report_first_load(first_load(url))
        print(f"bytes on the wire per human move: {races} races each, {bots} bots, {url}")
        for players in (3, 5):
            total = Weights()
            for seed in range(1, races + 1):
                for encoding in ENCODINGS:
                    got = _play_race(url, players, bots, seed, encoding)
                    for key, sizes in got.per_move.items():
                        total.per_move.setdefault(key, []).extend(sizes)
            _report(players, total)
    finally:
        if process is not None:
            stop_server(process)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options (shared with ``python -m bench weight``)."""
    parser.add_argument("--races", type=int, default=3, help="seeded races per player count")
    parser.add_argument("--bots", default="normal", choices=("random", "easy", "normal", "hard"))
    parser.add_argument("--url", default=None, help="use a running server instead of starting one")


def main(argv: list[str] | None = None) -> None:
    """Command-line entry point: ``python -m bench.weight``."""
    parser = argparse.ArgumentParser(prog="python -m bench.weight", description=__doc__)
    add_arguments(parser)
    args = parser.parse_args(argv)
    bench_weight(args.races, args.bots, args.url)


if __name__ == "__main__":
    main()
