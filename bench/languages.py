"""What a language costs a table: ``python -m bench languages [--renders 40] [--moves 6]``.

Starts a real uvicorn on 127.0.0.1 (free port, rate limits off). First, per shipped
language (the ``zzv_lang`` cookie, as the picker sets it), the page weight of a new race's
table in a fresh browser: the page and every stylesheet and script it links, compressed
(:func:`bench.weight.first_load`). Then it deals one seeded race, plays its first
``--moves`` moves through the site and asks for that same table in every language: the
whole page and the htmx fragment, compressed as a browser asks; per language the bytes on
the wire and the median and p90 time of a render seen from loopback. English (the
baseline) is in the same run and each language's difference from it is printed beside it.
The languages take turns in every round (rotated), so a busy machine slows them all
alike. Prints, never asserts.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import httpx

from app.http.i18n import COOKIE, DEFAULT, LANGUAGES
from bench.server import find_free_port, percentile, stop_server
from bench.weight import ENCODINGS, first_load, move_fields, start_server, submit_move, wire_bytes

PAGES = {"page": {}, "fragment": {"HX-Request": "true"}}
"""The two renders of a table: the whole page, and the fragment htmx asks for."""


def _deal(client: httpx.Client, moves: int) -> str:
    """A seeded 4-player race with ``moves`` of its person's moves played; its path."""
    rng = random.Random(7)
    created = client.post("/games", data={"players": "4", "bots": "normal", "seed": "7"})
    location = created.headers["location"]
    page = client.get(location).text
    for _ in range(moves):
        for fields in move_fields(page, rng):
            _, page, ok = submit_move(client, location, fields, "js")
            if ok:
                break
    return location


def _measure(url: str, renders: int, moves: int) -> dict[tuple[str, str], tuple[int, list[float]]]:
    """(language, render) -> (bytes on the wire, seconds per render)."""
    headers = {"Accept-Encoding": ENCODINGS["compressed"]}
    found: dict[tuple[str, str], tuple[int, list[float]]] = {}
    with httpx.Client(base_url=url, headers=headers, timeout=60) as client:
        location = _deal(client, moves)
        languages = list(LANGUAGES)
        for round_number in range(renders):
            turn = round_number % len(languages)
            for language in languages[turn:] + languages[:turn]:
                client.cookies.set(COOKIE, language)
                for render, extra in PAGES.items():
                    started = time.perf_counter()
                    answer = client.get(location, headers=extra)
                    elapsed = time.perf_counter() - started
                    if answer.status_code != 200:
                        raise SystemExit(f"{language} {render}: {answer.status_code}")
                    times = found.get((language, render), (0, []))[1]
                    found[(language, render)] = (wire_bytes(answer), [*times, elapsed])
    return found


def _report(found: dict[tuple[str, str], tuple[int, list[float]]], renders: int) -> None:
    print(f"a 4-player table in each language, {renders} renders each, compressed")
    head = ("language", "render", "KiB", "vs en", "median ms", "p90 ms", "vs en")
    print("{:<10}{:<10}{:>7}{:>8}{:>11}{:>8}{:>8}".format(*head))
    for (language, render), (size, times) in found.items():
        base_size, base_times = found[(DEFAULT, render)]
        median = statistics.median(times)
        base_median = statistics.median(base_times)
        print(
            f"{language:<10}{render:<10}{size / 1024:7.1f}{(size / base_size - 1):+8.1%}"
            f"{median * 1000:11.2f}{percentile(times, 90) * 1000:8.2f}"
            f"{(median / base_median - 1):+8.1%}"
        )


def bench_languages(renders: int, moves: int) -> None:
    """Start a server, measure every shipped language's table beside English, print."""
    port = find_free_port()
    process = start_server(port)
    url = f"http://127.0.0.1:{port}"
    try:
        loads = {code: sum(first_load(url, {COOKIE: code}).values()) for code in LANGUAGES}
        found = _measure(url, renders, moves)
    finally:
        stop_server(process)
    print("page weight: a new race's table in a fresh browser (page, CSS, JS), compressed")
    for code, size in loads.items():
        print(f"  {code:<8}{size / 1024:7.1f} KiB  {size / loads[DEFAULT] - 1:+7.1%}")
    _report(
        dict(sorted(found.items(), key=lambda item: (item[0][1], item[0][0] != DEFAULT))), renders
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--renders", type=int, default=40, help="renders per language and kind")
    parser.add_argument("--moves", type=int, default=6, help="moves played before measuring")
