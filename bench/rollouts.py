"""Hard-bot rollouts per real search, this checkout against a baseline revision, in one run.

``python -m bench rollouts [--baseline REV] [--runs 3] [--positions 30] [--budget-ms 200]``

A decision of the hard bot is a search with a budget of CPU time; how many rollouts it
holds is how fast the rules core, the rollouts and the search are together, on the path
the bot really takes (its later rollouts reuse what the first ones scored). This bench
runs that search at ``bench.search_speed``'s seeded four-player openings for two builds:
the baseline (a temporary detached ``git worktree`` of ``REV``; by default f80d5c7, the
engine before issue 20) and this checkout, each in a child process of its own
(:mod:`bench.rollouts_probe` with the build first on ``PYTHONPATH``). The two take turns
position by position, each going first at every other one, so that the machine's speed,
which drifts by a quarter within seconds on a shared machine, falls on both alike.

A search that pruned all its candidates but one stops before its budget, and the
baseline's search never does, so the two are compared on the positions where this
checkout's search ran its whole budget: the rollouts per decision there, for each build,
and their ratio. Figures only, no verdict; the ratio is the figure that carries across
machines (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from bench.moves import Build, baseline_checkout, this_checkout

DEFAULT_BASELINE = "f80d5c7"
"""Issue 20's "before": the last commit before the one rules core."""

AIM_RATIO = 1000 / 520
"""Issue 20's aim as a ratio: 1,000 rollouts per 200 ms of CPU where the baseline ran
about 520 on the machine it was filed on."""

PROBE = Path(__file__).resolve().with_name("rollouts_probe.py")


@dataclass(frozen=True)
class Sample:
    """One decision: its rollouts, whether it settled early, its CPU milliseconds."""

    rollouts: int
    settled: bool
    cpu_ms: float


class Probe:
    """One build's child process, searching the positions it is sent."""

    def __init__(self, build: Build, positions: int, budget_ms: float) -> None:
        self.build = build
        self.process = subprocess.Popen(
            [sys.executable, str(PROBE), str(positions), str(budget_ms)],
            cwd=build.root,
            env={**os.environ, "PYTHONPATH": str(build.root)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        if self._line() != "ready":
            raise SystemExit(f"the {build.label} build's probe did not start")

    def _line(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the {self.build.label} build's probe stopped")
        return line.strip()

    def search(self, position: int) -> Sample:
        """The decision at ``position``, searched now."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{position}\n")
        self.process.stdin.flush()
        rollouts, settled, cpu_ms = json.loads(self._line())
        return Sample(int(rollouts), bool(settled), float(cpu_ms))

    def close(self) -> None:
        """End the child."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("\n")
        self.process.stdin.close()
        self.process.wait(timeout=60)
        self.process.stdout.close()


def one_run(first: Probe, second: Probe, positions: int) -> tuple[list[Sample], list[Sample]]:
    """Every position searched by both probes, taking turns at going first; the samples of
    ``first``'s build and of ``second``'s, in position order."""
    of_first: list[Sample] = []
    of_second: list[Sample] = []
    for position in range(positions):
        if position % 2 == 0:
            of_first.append(first.search(position))
            of_second.append(second.search(position))
        else:
            of_second.append(second.search(position))
            of_first.append(first.search(position))
    return of_first, of_second


@dataclass(frozen=True)
class Run:
    """One run of both builds: their mean rollouts and CPU ms over the positions where
    this checkout's search ran its whole budget."""

    positions: int
    baseline: float
    baseline_ms: float
    current: float
    current_ms: float

    @property
    def ratio(self) -> float:
        """This checkout's rollouts per decision over the baseline's."""
        return self.current / self.baseline


def compare(baseline: list[Sample], current: list[Sample]) -> Run | None:
    """The run's figures on the positions where ``current`` ran its whole budget (None
    if it settled everywhere).

    >>> old = [Sample(200, False, 199.0), Sample(210, False, 199.0)]
    >>> new = [Sample(450, False, 196.0), Sample(90, True, 40.0)]
    >>> run = compare(old, new)
    >>> run.positions, run.baseline, run.current, run.ratio
    (1, 200.0, 450.0, 2.25)
    """
    whole = [i for i, sample in enumerate(current) if not sample.settled]
    if not whole:
        return None
    return Run(
        len(whole),
        statistics.fmean(baseline[i].rollouts for i in whole),
        statistics.fmean(baseline[i].cpu_ms for i in whole),
        statistics.fmean(current[i].rollouts for i in whole),
        statistics.fmean(current[i].cpu_ms for i in whole),
    )


def bench_rollouts(args: argparse.Namespace) -> None:
    """Print each run's figures, then the ratio over all runs beside issue 20's aim."""
    current_build = this_checkout()
    with baseline_checkout(args.baseline) as baseline_build:
        print(
            f"hard bot, 4 players, {args.positions} positions, {args.budget_ms:g} ms of CPU "
            f"a decision; baseline {baseline_build.revision}, this checkout "
            f"{current_build.revision}"
        )
        baseline = Probe(baseline_build, args.positions, args.budget_ms)
        current = Probe(current_build, args.positions, args.budget_ms)
        try:
            ratios = [_print_run(n, baseline, current, args.positions) for n in range(args.runs)]
        finally:
            baseline.close()
            current.close()
    found = [ratio for ratio in ratios if ratio is not None]
    if found:
        print(
            f"this checkout / baseline: {statistics.mean(found):.2f}x over {len(found)} "
            f"runs ({min(found):.2f}-{max(found):.2f}, median "
            f"{statistics.median(found):.2f}x); issue 20's aim: {AIM_RATIO:.2f}x"
        )


def _print_run(number: int, baseline: Probe, current: Probe, positions: int) -> float | None:
    before, after = one_run(baseline, current, positions)
    run = compare(before, after)
    if run is None:
        print(f"run {number + 1}: every search settled early; nothing to compare")
        return None
    print(
        f"run {number + 1}: {run.positions} whole-budget decisions: baseline "
        f"{run.baseline:,.0f} rollouts ({run.baseline_ms:.0f} CPU ms), this checkout "
        f"{run.current:,.0f} ({run.current_ms:.0f} CPU ms): {run.ratio:.2f}x"
    )
    return run.ratio


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``python -m bench rollouts``."""
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="the revision to compare")
    parser.add_argument("--runs", type=int, default=3, help="runs, builds taking turns")
    parser.add_argument("--positions", type=int, default=30, help="seeded openings per run")
    parser.add_argument("--budget-ms", type=float, default=200.0, help="CPU ms a decision")
