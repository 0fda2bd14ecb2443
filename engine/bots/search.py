"""The hard bot: determinized Monte Carlo search with the policy's rollouts (docs/bots.md,
"The hard bot"). With ``workers=N`` the worlds split into N jobs the caller runs through
``map_jobs`` (a process pool's ``map``, say): the engine starts no process itself."""

from __future__ import annotations

import inspect
import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from engine.actions import Action
from engine.bots.base import DEFAULT_BOT_BUDGET_MS, Bot, Seen, decision_rng, mix_seed
from engine.bots.candidates import Evaluator, best_candidate, weights_of
from engine.bots.determinize import Determinizer, fixed_deal
from engine.bots.heuristic import EASY, NORMAL, Style
from engine.bots.infer import Inference
from engine.bots.policy import choose_id, scan
from engine.bots.rollout import Decisions, outcome
from engine.bots.rollout import rollout_seats as sim_rollout
from engine.rng import Rng
from engine.seat_view import SeatView
from engine.sim import ACTION_ID, ACTIONS, SimState, legal_ids

DEFAULT_CANDIDATES = 16
"""How many of the normal policy's best sensible actions the search compares unless told
(the best move against the real deal is rarely left out: ``python -m bench.truth_regret``)."""
DEFAULT_NOISE = 0.15
"""Softmax temperature (in the heuristic's gas units) of the modelled opponents' choices
in the rollouts (why not 0, nor much more: docs/bots.md, "The hard bot")."""
SKIP = math.log(1000.0)
"""A world weighed below a thousandth of the best so far is not played (little weight)."""
_SAFETY_MS = 8.0  # stop this much before the budget: the last rollout batch must fit


#: The searching bot's models of the other seats, one per sampled world in turn: the normal
#: bot, a passive and a bold variant of it, and one that hoards high cards (modelling all as
#: the normal bot let a bigger budget overfit: at 400 ms it lost to itself at 200 ms).
OPPONENT_MODELS: tuple[Style, ...] = (
    NORMAL,
    replace(NORMAL, willing=0.5, early_commit=2),
    replace(NORMAL, willing=0.8, early_commit=4),
    replace(NORMAL, keep_value=EASY.keep_value, later_tuners=0.3),
)


@lru_cache(maxsize=256)
def noisy_model(model: int, noise: float) -> Style:
    """``OPPONENT_MODELS[model]`` at temperature ``noise``, one object per pair (the policy
    keeps tables per style object)."""
    return replace(OPPONENT_MODELS[model], temperature=noise)


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.monotonic, "cpu": time.thread_time}
"""The clocks a time budget can run on: ``wall`` (the server's: a move must come in time)
and ``cpu``, the searching thread's CPU time (tournaments measure the bot, not the load)."""


@dataclass(frozen=True, slots=True)
class Stop:
    """When a search stops: after ``rollouts`` rollouts, or when :data:`CLOCKS`' ``clock``
    passes ``deadline``."""

    rollouts: int | None
    deadline: float | None
    clock: str = "wall"

    def reached(self, used: int) -> bool:
        if self.rollouts is not None and used >= self.rollouts:
            return True
        return self.deadline is not None and CLOCKS[self.clock]() >= self.deadline


@dataclass(frozen=True, slots=True)
class Told:
    """What a search is told about the other seats, all of it public: the ``normal_seats``
    play the normal policy exactly in its rollouts; the ``hard_seats`` choose at temperature
    ``hard_noise`` (None: the search's ``noise``; hard bots' moves are best predicted near 1,
    ``python -m bench.model_fit``); the first of the ``searcher_seats`` to move after a
    candidate replies with its best of ``reply_width`` moves (:func:`play_replying`).
    A seat is a normal bot or a searching bot, not both (a ``ValueError``)."""

    normal_seats: tuple[int, ...] = ()
    hard_seats: tuple[int, ...] = ()
    hard_noise: float | None = None
    searcher_seats: tuple[int, ...] = ()
    reply_width: int = 3

    def __post_init__(self) -> None:
        if min((*self.normal_seats, *self.searcher_seats, *self.hard_seats), default=0) < 0:
            raise ValueError("normal_seats, searcher_seats and hard_seats are seat numbers.")
        if set(self.normal_seats) & (set(self.searcher_seats) | set(self.hard_seats)):
            raise ValueError("A seat is a normal bot or a searching bot, not both.")
        if self.hard_noise is not None and not 0.0 <= self.hard_noise <= 10.0:
            raise ValueError("hard_noise (the hard seats' temperature) runs from 0 to 10.")
        if self.reply_width < 1:
            raise ValueError("reply_width (a searching seat's replies weighed) is at least 1.")

    def tables(self, seat: int, players: int, models: int, noise: float) -> list[list[Style]]:
        """Per opponent model, who plays what in ``seat``'s rollouts (:func:`seat_styles`)."""
        warm = noise if self.hard_noise is None else self.hard_noise
        normal, hard = self.normal_seats, self.hard_seats
        pairs = [(noisy_model(m, noise), noisy_model(m, warm)) for m in range(models)]
        return [seat_styles(seat, players, cool, normal, hot, hard) for cool, hot in pairs]


NOTHING_TOLD = Told()


def run_worlds(
    observation: Seen,
    actions: list[Action],
    seed: int,
    stop: Stop,
    models: int = 1,
    prune: bool = True,
    noise: float = DEFAULT_NOISE,
    infer: float = 0.0,
    told: Told = NOTHING_TOLD,
) -> SearchPart:
    """Evaluate ``actions`` on sampled worlds until ``stop`` or pruning has left one (NaN
    for a candidate pruned). World n models the other seats with ``OPPONENT_MODELS[n %
    models]`` at temperature ``noise``, as ``told``; with ``infer`` a world is weighted
    (:class:`Inference`, as one rollout), not played under :data:`SKIP`."""
    determinizer = Determinizer(observation)
    seat = determinizer.seat
    inference = Inference(determinizer.view, infer) if infer > 0.0 else None
    inference = inference if inference is not None and inference.active else None
    rng = Rng(seed)
    ids = [ACTION_ID[action] for action in actions]
    stats = Evaluator(len(actions))
    tables = told.tables(seat, determinizer.view.players, models, noise)
    paired: list[list[float]] = []
    logs: list[float] = []
    used, best = 0, -math.inf
    decisions = Decisions()  # the rollouts' choices, shared across worlds and candidates
    starts = [-1] * len(actions)  # per candidate, its public state's id there (_play)
    searchers, width = frozenset(told.searcher_seats) - {seat}, told.reply_width
    # Once pruning has left one candidate, no world to come can change the choice.
    while (len(stats.alive) > 1 or not prune) and not stop.reached(used):
        world, rest = determinizer.sample_parts(rng)
        rollout_seed = rng.next_u64()
        log = 0.0
        if inference is not None:
            used += 1  # so that a fixed budget ends even when every world is skipped
            log = inference.log_weight(world, rest, best - SKIP)
            if log < best - SKIP:
                continue
            best = max(best, log)
        styles = tables[stats.worlds % models]
        row = [math.nan] * len(actions)
        for i in stats.alive:
            if stop.reached(used):
                return paired, logs, used, stats.alive
            if searchers:
                values, rollouts = play_replying(
                    world, ids[i], rollout_seed, styles, decisions, searchers, width
                )
                used += max(1, rollouts)  # a round that ended at once still counts
            else:
                values = _play(world, ids[i], rollout_seed, styles, decisions, starts, i)
                used += 1
            row[i] = values[seat]
        stats.add(row)
        paired.append(row)
        logs.append(log)
        if prune and stats.worlds % 4 == 0:
            stats.drop_behind(paired, None if inference is None else weights_of(logs))
    return paired, logs, used, stats.alive


def _play(
    world: SimState,
    action: int,
    seed: int,
    styles: list[Style],
    decisions: Decisions,
    starts: list[int],
    i: int,
) -> list[float]:
    """The rollout of candidate ``i`` (action id ``action``) in ``world``. ``starts[i]``, the
    public state's id after the candidate (-1: not yet known), is the same in every world:
    it is worked out (and the styles bound) on the first one only."""
    state = world.clone()
    state.apply(action)
    if starts[i] < 0:
        decisions.bind(state, styles)
        starts[i] = decisions.segment(state)
    return sim_rollout(state, Rng(seed), styles, False, decisions, starts[i])


def play_replying(
    world: SimState,
    action: int,
    seed: int,
    styles: list[Style],
    decisions: Decisions,
    searchers: frozenset[int],
    width: int,
) -> tuple[list[float], int]:
    """The rollout of ``action`` in ``world`` and the rollouts it took: the first of the
    ``searchers`` to move plays, of the normal policy's ``width`` best sensible actions, the
    one whose rollout (one seed for each) leaves it the best chance, so a plan that needs it
    to misplay is scored by the reply that punishes it (erring on the side of caution)."""
    state = world.clone()
    rng = Rng(seed)
    going = state.play_out(action)
    while going and state.winner < 0 and state.turn not in searchers:
        going = state.play_out(choose_id(state, styles[state.turn], rng))
    if not going or state.winner >= 0:
        return outcome(state), 0
    replier = state.turn
    legal = legal_ids(state.legal_key())
    ranked = best_sensible(state, width)
    reply_seed = rng.next_u64()
    best: list[float] | None = None
    for i in ranked:
        branch = state.clone()
        if branch.play_out(legal[i]) and branch.winner < 0:
            values = sim_rollout(branch, Rng(reply_seed), styles, False, decisions)
        else:
            values = outcome(branch)
        if best is None or values[replier] > best[replier]:
            best = values
    assert best is not None  # a seat to move has a sensible action
    return best, len(ranked)


def seat_styles(
    seat: int,
    players: int,
    model: Style,
    normal_seats: tuple[int, ...],
    hard_model: Style | None = None,
    hard_seats: tuple[int, ...] = (),
) -> list[Style]:
    """Each seat's style in a rollout: ``seat`` and the ``normal_seats`` play the normal
    policy, the ``hard_seats`` ``hard_model``, every other seat ``model``."""
    hard = model if hard_model is None else hard_model
    return [
        NORMAL if i == seat or i in normal_seats else hard if i in hard_seats else model
        for i in range(players)
    ]


def run_job(args: SearchJob) -> SearchPart:
    """One worker's share of a decision. A wall-clock deadline is absolute (a job that
    waited in a pool's queue runs for what is left of it)."""
    observation, ids, seed, stop, budget_s, options = args
    if stop.clock != "wall" and stop.deadline is not None:
        stop = replace(stop, deadline=CLOCKS[stop.clock]() + budget_s)
    return run_worlds(observation, [ACTIONS[i] for i in ids], seed, stop, **options)


#: One worker's share of a decision (picklable: it crosses to another process).
SearchJob = tuple[SeatView, list[int], int, "Stop", float, dict[str, Any]]
#: What a share returns: per world the candidates' values, its log weight; rollouts run,
#: survivors.
SearchPart = tuple[list[list[float]], list[float], int, list[int]]
#: Runs :func:`run_job` over one decision's jobs like ``map``, the parts in order.
MapJobs = Callable[[Callable[[SearchJob], SearchPart], Sequence[SearchJob]], Iterable[SearchPart]]


def rank_candidates(observation: Seen, actions: list[Action], count: int) -> list[Action]:
    """The normal policy's ``count`` best sensible ``actions`` (the observation's legal
    ones, in order), best first: the candidates the search compares."""
    return [actions[i] for i in best_sensible(fixed_deal(observation), count)]


def best_sensible(state: SimState, count: int) -> list[int]:
    """As :func:`rank_candidates`, as indices into ``state``'s legal actions."""
    found = scan(state, state.legal_key(), NORMAL, math.inf, True)[0]
    return [f[0] for f in sorted(found, key=lambda f: -f[1])][:count]


def _seats(seats: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted({int(i) for i in seats}))


class HardBot(Bot):
    """The determinized search (module docstring); its options: :func:`engine.bots.make_bot`."""

    kind = "hard"

    def __init__(
        self,
        seed: int,
        time_budget_ms: float = DEFAULT_BOT_BUDGET_MS,
        iterations: int | None = None,
        workers: int = 1,
        candidates: int = DEFAULT_CANDIDATES,
        models: int = 1,
        clock: str = "wall",
        noise: float = DEFAULT_NOISE,
        map_jobs: MapJobs | None = None,
        infer: float = 0.0,
        normal_seats: Iterable[int] = (),
        searcher_seats: Iterable[int] = (),
        reply_width: int = 3,
        hard_seats: Iterable[int] = (),
        hard_noise: float | None = None,
    ) -> None:
        super().__init__(seed)
        if time_budget_ms <= 0 or (iterations is not None and iterations <= 0):
            raise ValueError("The hard bot needs a positive time budget or iteration count.")
        if workers < 1 or candidates < 1:
            raise ValueError("workers and candidates must be at least 1.")
        if not 1 <= models <= len(OPPONENT_MODELS):
            raise ValueError(f"models runs from 1 (normal only) to {len(OPPONENT_MODELS)}.")
        if not 0.0 <= noise <= 10.0:
            raise ValueError("noise (the opponent models' temperature) runs from 0 to 10.")
        if not 0.0 <= infer <= 10.0:
            raise ValueError("infer (the inference's temperature, 0: off) runs from 0 to 10.")
        if workers > 1 and map_jobs is None:
            raise ValueError("A search over several workers needs map_jobs to run them.")
        if clock not in CLOCKS:
            raise ValueError(f"The clock is one of {', '.join(CLOCKS)}, not {clock!r}.")
        self.time_budget_ms, self.iterations = float(time_budget_ms), iterations
        self.workers, self.candidates = int(workers), int(candidates)
        self.clock, self.map_jobs = clock, map_jobs
        warm = None if hard_noise is None else float(hard_noise)
        #: What the search is told of the other seats (:class:`Told`).
        self.told = Told(
            _seats(normal_seats), _seats(hard_seats), warm, _seats(searcher_seats), int(reply_width)
        )
        #: The keyword options of every :func:`run_worlds` of a decision.
        self.options: dict[str, Any] = dict(
            models=int(models), noise=float(noise), infer=float(infer), told=self.told
        )
        #: Rollouts of the last :meth:`choose`, and whether pruning ended it early in every
        #: worker (diagnostics).
        self.last_rollouts = 0
        self.last_settled = False

    def pick(self, view: SeatView, actions: list[Action]) -> Action:
        start = CLOCKS[self.clock]()
        shortlist = rank_candidates(view, actions, self.candidates)
        if len(shortlist) == 1:
            return shortlist[0]
        seed = decision_rng(self.seed, view).next_u64()
        budget_s = max(0.0, self.time_budget_ms - _SAFETY_MS) / 1000.0
        deadline = None if self.iterations is not None else start + budget_s
        share = None if self.iterations is None else -(-self.iterations // self.workers)
        stop = Stop(share, deadline, self.clock)
        if self.workers == 1:
            parts = [run_worlds(view, shortlist, seed, stop, **self.options)]
        else:
            ids = [ACTION_ID[a] for a in shortlist]
            jobs: list[SearchJob] = [
                (view, ids, mix_seed(seed, w), stop, budget_s, self.options)
                for w in range(self.workers)
            ]
            assert self.map_jobs is not None  # checked in __init__
            parts = list(self.map_jobs(run_job, jobs))
        self.last_rollouts = sum(used for _, _, used, _ in parts)
        self.last_settled = all(len(alive) == 1 for _, _, _, alive in parts)
        rows = [row for part, _, _, _ in parts for row in part]
        weights = weights_of([log for _, logs, _, _ in parts for log in logs])
        # Keep the candidates no worker pruned (or, should they disagree on all, any one ran).
        running = [set(alive) for _, _, _, alive in parts]
        survivors = set.intersection(*running) or set.union(*running)
        return shortlist[best_candidate(rows, sorted(survivors), weights)]


#: The keyword options of :class:`HardBot` (and so of ``make_bot("hard", ...)``).
HARD_OPTIONS = frozenset(inspect.signature(HardBot).parameters) - {"seed"}
