"""Which of a decision's candidates a search plays: compared world by world (paired, the
worlds weighted with inference), those clearly behind dropped, the best survivor played."""

from __future__ import annotations

import math


class Evaluator:
    """Each candidate's sum and count over the worlds it was played in, and those still
    running (``alive``)."""

    def __init__(self, count: int) -> None:
        self.sums = [0.0] * count
        self.counts = [0] * count
        self.alive = list(range(count))
        self.worlds = 0

    def add(self, row: list[float]) -> None:
        for i in self.alive:
            self.sums[i] += row[i]
            self.counts[i] += 1
        self.worlds += 1

    def drop_behind(self, paired: list[list[float]], weights: list[float] | None) -> None:
        """Drop the candidates clearly behind the leader (:func:`_behind`) and blank their
        values in every row: later comparisons use only the worlds every survivor saw."""
        if self.worlds < 6 or len(self.alive) <= 1:
            return
        if weights is None:
            sums, counts = self.sums, self.counts
            leader = max(self.alive, key=lambda i: sums[i] / counts[i] if counts[i] else 0.0)
        else:
            leader = max(self.alive, key=lambda i: _weighted_sum(paired, weights, i))
        keep = []
        for i in self.alive:
            if i == leader or not _behind(paired, weights, leader, i):
                keep.append(i)
            else:
                for row in paired:
                    row[i] = math.nan
        self.alive = keep


def _weighted_sum(paired: list[list[float]], weights: list[float], i: int) -> float:
    return sum(w * row[i] for row, w in zip(paired, weights, strict=True) if not math.isnan(row[i]))


def _behind(paired: list[list[float]], weights: list[float] | None, leader: int, i: int) -> bool:
    """Whether candidate ``i`` is clearly behind ``leader`` over the worlds both saw (with
    ``weights``, one per world, weighted): the mean paired deficit above 2.5 standard
    errors, over at least 6 worlds' worth of weight (the effective sample size)."""
    if weights is None:
        # Every row holds a value for each candidate still running: filter only on a NaN.
        diffs = [world[leader] - world[i] for world in paired]
        if math.isnan(sum(diffs)):
            diffs = [d for d in diffs if not math.isnan(d)]
        n = len(diffs)
        if n < 6:
            return False
        mean = sum(diffs) / n
        var = sum([(d - mean) ** 2 for d in diffs]) / (n - 1)
        return mean > 2.5 * math.sqrt(var / n) + 1e-6
    pairs = [(world[leader] - world[i], weights[n]) for n, world in enumerate(paired)]
    pairs = [(d, w) for d, w in pairs if not math.isnan(d)]
    total = sum(w for _, w in pairs)
    squares = sum(w * w for _, w in pairs)
    if total <= 0.0 or total * total < 6.0 * squares:
        return False
    effective = total * total / squares
    mean = sum(w * d for d, w in pairs) / total
    var = sum(w * (d - mean) ** 2 for d, w in pairs) / total * effective / (effective - 1.0)
    return mean > 2.5 * math.sqrt(var / effective) + 1e-6


def weights_of(logs: list[float]) -> list[float]:
    """Weights in proportion to ``exp(logs)``, the largest 1.

    >>> weights_of([0.0, math.log(0.5)])
    [1.0, 0.5]
    """
    if not logs:
        return []
    top = max(logs)
    return [math.exp(x - top) for x in logs]


def best_candidate(
    rows: list[list[float]], survivors: list[int], weights: list[float] | None = None
) -> int:
    """The candidate to play: of the ``survivors`` (in heuristic order), the best (weighted)
    mean over the worlds where all were played; on a tie, or with no such world, the one
    the heuristic ranks first.

    >>> best_candidate([[0.2, 0.5, 0.1], [0.4, 0.3, 0.9]], [0, 1])
    1
    >>> best_candidate([[0.5, 0.5], [0.1, 0.1]], [0, 1]), best_candidate([], [2, 1])
    (0, 1)
    """
    ordered = sorted(survivors)
    if weights is None:
        weights = [1.0] * len(rows)
    complete = [
        (row, w)
        for row, w in zip(rows, weights, strict=True)
        if all(not math.isnan(row[i]) for i in ordered)
    ]
    if not complete:
        return ordered[0]
    totals = [sum(row[i] * w for row, w in complete) for i in ordered]
    best = max(totals)
    # Equal actions (jelly or beans, a gas that changes nothing) sum the same values in
    # another order: within rounding they are a tie, and the heuristic's order decides.
    return next(i for i, t in zip(ordered, totals, strict=True) if t >= best - 1e-9 * len(complete))
