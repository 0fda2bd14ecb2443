"""The review's win-chance graph, laid out on the server for an inline SVG: one point per
decision at the chance of winning the race after the move played, a line through them,
and the rounds marked along the bottom. No script draws it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

WIDTH = 420
"""The SVG's user units across (it scales to the page's width)."""
HEIGHT = 120
LEFT, RIGHT, TOP, BOTTOM = 34, 6, 8, 20
"""Room for the chance labels on the left and the round labels below."""


@dataclass(frozen=True, slots=True)
class Point:
    """One decision on the graph."""

    x: float
    y: float
    move: int
    verdict: str
    value: float


@dataclass(slots=True)
class Graph:
    """What ``partials/review_graph.html`` draws."""

    width: int = WIDTH
    height: int = HEIGHT
    points: list[Point] = field(default_factory=list)
    line: str = ""
    rounds: list[tuple[float, float, int]] = field(default_factory=list)
    """Each round's left edge, the middle of its span and its number."""
    levels: list[tuple[float, int]] = field(default_factory=list)
    """The chance gridlines: y and the percentage."""
    left: int = LEFT
    right: int = WIDTH - RIGHT


def graph(decisions: list[dict[str, Any]]) -> Graph:
    """The graph of ``decisions`` (in order, each with ``move``, ``round``, ``verdict`` and
    ``played_value``).

    >>> g = graph([{"move": 0, "round": 1, "verdict": "good", "played_value": 0.5},
    ...            {"move": 4, "round": 2, "verdict": "blunder", "played_value": 0.0}])
    >>> [(p.move, p.y) for p in g.points], [r[2] for r in g.rounds]
    ([(0, 54.0), (4, 100.0)], [1, 2])
    """
    out = Graph()
    if not decisions:
        return out
    span = (WIDTH - LEFT - RIGHT) / len(decisions)
    tall = HEIGHT - TOP - BOTTOM

    def y_of(value: float) -> float:
        return round(TOP + (1 - value) * tall, 1)

    out.levels = [(y_of(v / 100), v) for v in (0, 50, 100)]
    for i, d in enumerate(decisions):
        x = round(LEFT + (i + 0.5) * span, 1)
        value = float(d["played_value"])
        out.points.append(Point(x, y_of(value), int(d["move"]), str(d["verdict"]), value))
    out.line = " ".join(f"{p.x},{p.y}" for p in out.points)
    starts: dict[int, int] = {}
    for i, d in enumerate(decisions):
        starts.setdefault(int(d["round"]), i)
    bounds = [*starts.values(), len(decisions)]
    for (number, first), last in zip(starts.items(), bounds[1:], strict=True):
        edge = round(LEFT + first * span, 1)
        out.rounds.append((edge, round(LEFT + (first + last) / 2 * span, 1), number))
    return out


__all__ = ["Graph", "Point", "graph"]
