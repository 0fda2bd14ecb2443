"""After the race: the hard bot's search reviews a seat's decisions from what the seat saw
then, and plays par on the same deal (docs/review.md). :class:`Reviews` runs both in the
review worker processes and keeps each result with its race."""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from app.bots import pool as bot_pool
from app.bots.runner import bot_seed
from app.races.errors import NotReviewed, RaceNotOver, ReviewNotRequested, TooManyReviews
from app.races.lobby import Lobby, Seat, bot_name, clean_name, token_digest
from app.races.record import (
    GameSession,
    decode_move,
    encode_move,
    move_kind,
    move_seat,
    new_game_id,
    new_token,
    replay_moves,
)
from app.races.unit import Races
from engine import (
    Action,
    ActionType,
    EventKind,
    EventLog,
    Game,
    Observation,
    observe,
    supply_after_effect,
)
from engine.bots import make_bot
from engine.bots.base import Bot, as_view, decision_rng
from engine.bots.determinize import fixed_deal
from engine.bots.heuristic import NORMAL
from engine.bots.policy import score_ids
from engine.bots.search import NOTHING_TOLD, Stop, Told, rank_candidates, run_worlds
from engine.options import trick_stake
from engine.sim import ACTIONS, legal_ids

log = logging.getLogger("zzv.review")

VERDICTS = {"good": 0.0, "inaccuracy": 0.03, "mistake": 0.07, "blunder": 0.15}
"""Each verdict by the least loss in win chance (best - played, a share in [0, 1]) that
earns it (docs/review.md)."""
ACCURACY_SCALE = 0.20
"""A decision's accuracy is ``100 * (1 - loss / ACCURACY_SCALE)``, floored at 0."""
SHOWN_DIGITS = 4
"""Decimal places of the win chances and losses a review keeps and shows."""

REVIEWS_PER_CLIENT = 2
"""Reviews one client may have in progress at once."""
PAR_ITERATIONS = 200
"""Rollouts per decision of every hard bot in a par race (a fixed amount, not a clock)."""
PAR_LEVEL_FOR_PEOPLE = "normal"
"""Who plays the other people's seats in a par race (the turn clock's autopilot)."""
_SEAT_SALT = 1 << 40  # keeps the par bot's seeds apart from the race's own bot seeds


@dataclass(frozen=True, slots=True)
class Budget:
    """A review's fixed work per decision: ``worlds`` sampled worlds, each candidate (at
    most ``candidates`` of the hard bot's shortlist, plus the move played) rolled out
    once in each, the worlds drawn from a generator seeded by ``seed`` and the position."""

    worlds: int = 96
    candidates: int = 8
    seed: int = 20_261_201


DEFAULT_BUDGET = Budget()


def verdict(loss: float) -> str:
    """The verdict on a decision that cost ``loss`` win chance."""
    return [name for name, least in VERDICTS.items() if loss >= least or name == "good"][-1]


def accuracy(losses: Sequence[float]) -> float | None:
    """The accuracy (0 to 100) of decisions that cost ``losses``; None for none."""
    if not losses:
        return None
    each = [max(0.0, 1.0 - loss / ACCURACY_SCALE) for loss in losses]
    return round(100.0 * sum(each) / len(each), 1)


@dataclass(frozen=True, slots=True)
class Estimate:
    """One candidate of a decision and its estimated chance of winning the race."""

    action: Action
    value: float


def estimate(
    observation: Observation, budget: Budget, extra: Action | None = None, told: Told = NOTHING_TOLD
) -> list[Estimate]:
    """Every candidate of the seat whose ``observation`` this is, with its win chance: the
    hard bot's shortlist (best first) and ``extra`` if it is not in it, each on the same
    worlds sampled from the observation alone (its value never depends on the others)."""
    view = as_view(observation)
    actions = view.legal_actions()
    many = len(actions) > 1
    shortlist = rank_candidates(view, actions, budget.candidates) if many else list(actions)
    if extra is not None and extra not in shortlist:
        shortlist.append(extra)
    seed = decision_rng(budget.seed, view).next_u64()
    stop = Stop(budget.worlds * len(shortlist), None)
    rows = run_worlds(view, shortlist, seed, stop, prune=False, told=told)[0]
    means = [sum(column) / len(rows) for column in zip(*rows, strict=True)]
    return [Estimate(a, min(1.0, max(0.0, mean))) for a, mean in zip(shortlist, means, strict=True)]


def best_of(estimates: Sequence[Estimate], played: Action | None = None) -> Estimate:
    """The best candidate: the highest value; on a tie (to the :data:`SHOWN_DIGITS` a review
    shows) the move played, else the one the shortlist ranks first."""
    top = round(max(e.value for e in estimates), SHOWN_DIGITS)
    mine = [e for e in estimates if e.action == played and round(e.value, SHOWN_DIGITS) >= top]
    return mine[0] if mine else max(estimates, key=lambda e: e.value)


def _trick_chance(action: Action, chance: float) -> str:
    if action.type is ActionType.TUNE_UP:
        return "passes"
    if chance >= 0.95:
        return "wins"
    if chance >= 0.6:
        return "likely"
    return "may" if chance > 0.05 else "cannot"


def reason_data(observation: Observation, played: Estimate, best: Estimate) -> dict[str, Any]:
    """A decision's reason as codes and numbers, from what the seat saw then (docs/review.md):
    the trick, its ``stake``, and for ``played`` and ``best`` the trick's chance (``wins``,
    ``likely``, ``may``, ``cannot``, ``passes``), the gas kept and the chance of winning."""
    trick = observation["trick"]
    # The normal heuristic's chance that each move wins the trick, from the observation alone.
    state = fixed_deal(observation)
    key = state.legal_key()
    _, chances = score_ids(state, key, NORMAL)
    odds = {ACTIONS[i]: chance for i, chance in zip(legal_ids(key), chances, strict=True)}
    gas = observation["players"][observation["seat"]]["gas"]

    def move(estimate: Estimate) -> dict[str, Any]:
        action = estimate.action
        # The gas kept: the card's effect first, then the gas it carries (R8, R10, R20, R22).
        after = supply_after_effect(action, gas, observation["middle"], observation["removed"])
        return {
            "trick": _trick_chance(action, odds.get(action, 0.0)),
            "gas": gas if action.type is ActionType.TUNE_UP else max(0, after - action.gas),
            "race": round(estimate.value, SHOWN_DIGITS),
        }

    return {"trick": trick, "stake": trick_stake(trick), "played": move(played), "best": move(best)}


@dataclass(frozen=True, slots=True)
class Deal:
    """What rebuilds a race (picklable: it crosses to a worker process)."""

    start: dict[str, Any]
    """The race as dealt (``Game.to_dict``)."""
    moves: tuple[int, ...]
    """The race's recorded moves (:func:`app.races.record.encode_move` numbers)."""
    bots_key: int
    """The key the race's bots were seeded from."""

    @classmethod
    def of(cls, session: GameSession) -> Deal:
        return cls(session.dealt().to_dict(), tuple(session.moves), session.bot_key)

    def fresh(self) -> Game:
        """The race as dealt, before any move."""
        return Game.from_dict(self.start)

    def replay(self) -> Iterator[tuple[int, int, Action, Game]]:
        """Each kept move as (index, seat, action, the game just before it)."""
        game = self.fresh()
        for index, kept in enumerate(self.moves):
            _kind, seat, action = decode_move(kept)
            if game.current_seat != seat:
                raise ValueError("The kept moves do not follow from the deal.")
            yield index, seat, action, game
            game.apply(action, seat=seat)


def decisions_of(deal: Deal, seat: int) -> list[int]:
    """The indices (into the kept moves) of ``seat``'s decisions, in order."""
    return [i for i, kept in enumerate(deal.moves) if move_seat(kept) == seat]


def review_told(session: GameSession, seat: int) -> Told:
    """What the review of ``seat`` tells its search, as the table showed everyone: which
    other seats are the race's normal bots (played exactly as they play)."""
    if session.config.bots != "normal":
        return NOTHING_TOLD
    bots = tuple(s.index for s in session.lobby.seats if s.index != seat and not s.person)
    return Told(normal_seats=bots)


def review_moves(
    deal: Deal, seat: int, indices: Sequence[int], budget: Budget, told: Told = NOTHING_TOLD
) -> list[dict[str, Any]]:
    """The review entries of ``seat``'s decisions at ``indices`` (one worker's job), each
    from ``observe(game, seat)`` of the rebuilt race at that moment."""
    number = {index: n for n, index in enumerate(decisions_of(deal, seat))}  # ``decision``
    replayed = itertools.islice(deal.replay(), max(indices, default=-1) + 1)
    return [
        _entry(observe(game, seat), action, budget, index, number[index], told)
        for index, _, action, game in replayed
        if index in indices
    ]


def _entry(
    observation: Observation, played: Action, budget: Budget, index: int, decision: int, told: Told
) -> dict[str, Any]:
    estimates = estimate(observation, budget, extra=played, told=told)
    mine = next(e for e in estimates if e.action == played)
    best = best_of(estimates, played)
    # From the values as shown: a move called worse than the best loses at least the
    # last digit shown, never a loss that rounds to 0.
    shown_best, shown_mine = round(best.value, SHOWN_DIGITS), round(mine.value, SHOWN_DIGITS)
    loss = 0.0 if best.action == played else round(shown_best - shown_mine, SHOWN_DIGITS)
    return {
        "move": index,
        "decision": decision,
        "round": observation["round"],
        "trick": observation["trick"],
        "played": dict(played.to_dict()),
        "best": dict(best.action.to_dict()),
        "played_value": shown_mine,
        "best_value": shown_best,
        "loss": loss,
        "verdict": verdict(loss),
        "forced": len(observation["legal_actions"]) == 1,
        "reason_data": reason_data(observation, mine, best),
        "candidates": [
            {"action": dict(e.action.to_dict()), "value": round(e.value, SHOWN_DIGITS)}
            for e in estimates
        ],
    }


def summary(entries: Sequence[dict[str, Any]], budget: Budget) -> dict[str, Any]:
    """The race's figures (docs/review.md): accuracy, total loss and verdict counts over
    the decisions that had a choice, and per round."""
    chosen = [e for e in entries if not e["forced"]]

    def figures(mine: list[dict[str, Any]]) -> dict[str, Any]:
        losses = [e["loss"] for e in mine]
        return {"accuracy": accuracy(losses), "total_loss": round(sum(losses), 4)}

    rounds = []
    for number in sorted({e["round"] for e in entries}):
        mine = [e for e in chosen if e["round"] == number]
        rounds.append({"round": number, "decisions": len(mine), **figures(mine)})
    return {
        "decisions": len(entries),
        "choices": len(chosen),
        **figures(chosen),
        "verdicts": {name: sum(e["verdict"] == name for e in chosen) for name in VERDICTS},
        "rounds": rounds,
        "budget": asdict(budget),
    }


def standing(game: Game, events: Sequence[Any], seat: int) -> dict[str, int]:
    """``seat``'s place in a finished race (the winner first, then by laps, then tricks
    won; equal seats share it), laps and tricks won (the race's ``events`` tell them)."""
    tricks = Counter(event.seat for event in events if event.kind is EventKind.TRICK_WON)
    keys = [(int(game.winner == s), game.laps[s], tricks[s]) for s in range(game.players)]
    place = 1 + sum(key > keys[seat] for key in keys)
    return {"place": place, "laps": game.laps[seat], "tricks": tricks[seat]}


def par_seat_bot(seat: int, levels: Sequence[str], seed: int, iterations: int) -> Bot:
    """The hard bot in ``seat`` of a par race whose seats bots of ``levels`` play, told
    which other seats are normal bots (as the table shows)."""
    normal = tuple(s for s, level in enumerate(levels) if s != seat and level == "normal")
    return make_bot("hard", seed, iterations=iterations, normal_seats=normal)


def play_par(
    deal: Deal, seat: int, levels: Sequence[str], iterations: int = PAR_ITERATIONS
) -> dict[str, Any]:
    """The deal played again with the hard bot (:func:`par_seat_bot`) in ``seat``, every
    other seat ``s`` by a bot of ``levels[s]`` seeded as the race seeded its bots; hard
    bots work to ``iterations`` rollouts a decision, not a clock."""
    game = deal.fresh()
    events: list[Any] = []
    decisions = own = 0
    while not game.is_over:
        mover = game.current_seat
        assert mover is not None
        if mover == seat:
            bot = par_seat_bot(
                seat, levels, bot_seed(deal.bots_key, seat + _SEAT_SALT, own), iterations
            )
            own += 1
        else:
            level = levels[mover]
            options: dict[str, Any] = {"iterations": iterations} if level == "hard" else {}
            bot = make_bot(level, bot_seed(deal.bots_key, mover, decisions), **options)
            decisions += 1
        action = bot.choose(observe(game, mover))
        events.extend(game.apply(action, seat=mover))
    mine = standing(game, events, seat)
    return {**mine, "seat": seat, "winner": game.winner, "iterations": iterations}


def practice_from(session: GameSession, seat: int, move: int, turn_seconds: float) -> GameSession:
    """A practice race from just before kept move ``move``, a decision in ``seat``'s finished
    review (else :class:`NotReviewed`): the same hidden deal and moves before it, the bots as
    they were, a person only at ``seat`` (whose token is in ``token``). Whatever else people
    decided before it is history; from there every other seat is a bot."""
    reviewed = session.reviews.get(str(seat))
    if reviewed is None or all(entry["move"] != move for entry in reviewed["decisions"]):
        raise NotReviewed()
    names = [bot_name(s.index) for s in session.lobby.seats]
    names[seat] = clean_name(session.lobby.seats[seat].name, seat)
    seats = [Seat(index, index == seat, name) for index, name in enumerate(names)]
    token = new_token()
    seats[seat].token_digest = token_digest(token)
    lobby = Lobby(seats, started=True, turn_seconds=turn_seconds)
    # Recorded as the practice race's own seats are: the seat a person's, the rest bots'
    # (so a take-back there replays it exactly).
    kept = [decode_move(code) for code in session.moves[:move]]
    moves = [encode_move("person" if s == seat else "bot", s, action) for _, s, action in kept]
    game = session.dealt()
    events = EventLog([game.deal_event()])
    replay_moves(game, events, moves)
    turn = sum(s == seat for _, s, _ in kept)
    return replace(
        session,
        id=new_game_id(),
        game=game,
        lobby=lobby,
        turn=turn,
        events=events,
        bot_decisions=len(moves) - turn,
        practice=True,
        moves=moves,
        token=token,
        reviews={},
        par={},
        left=[],
        said=[],
        said_count=0,
    )


@dataclass(eq=False)
class _Job:
    """One review in progress in this process."""

    game_id: str
    seat: int
    client: str
    total: int
    entries: dict[int, dict[str, Any]] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None


class Reviews:
    """The reviews and par races of one server process (see the module docstring)."""

    def __init__(
        self,
        races: Races,
        workers: int = 2,
        per_client: int = REVIEWS_PER_CLIENT,
        budget: Budget = DEFAULT_BUDGET,
        executor: Callable[[], Executor] | None = None,
        par_iterations: int = PAR_ITERATIONS,
    ) -> None:
        """Reviews run by ``workers`` review processes (``executor``, for tests and benches,
        replaces that pool)."""
        self.races = races
        self.per_client = per_client
        self.budget = budget
        self.par_iterations = par_iterations
        self._executor = executor or functools.partial(bot_pool.get_review_pool, workers)
        self._jobs: dict[tuple[str, int], _Job] = {}
        self._par: dict[tuple[str, int], asyncio.Task[None]] = {}

    async def _keep(self, game_id: str, kept: str, seat: int, result: dict[str, Any]) -> None:
        """Keep ``result`` in the race's ``kept`` field (``reviews`` or ``par``) by seat."""
        # By id alone: no token is kept once the request that asked for the review ended.
        async with self.races.open(game_id, None, write=True, spectator=True) as race:
            getattr(race.session, kept)[str(seat)] = result
            race.changed = True

    def in_progress(self, client: str) -> int:
        return sum(job.client == client for job in self._jobs.values())

    def status(self, session: GameSession, seat: int) -> dict[str, Any]:
        """The review of ``seat`` as the API shows it (:class:`ReviewNotRequested` when
        there is none, :class:`RaceNotOver` while the race runs)."""
        if not session.game.is_over:
            raise RaceNotOver()
        kept = kept_review(session, seat)
        if kept is not None:
            return kept
        job = self._jobs.get((session.id, seat))
        if job is None:
            raise ReviewNotRequested()
        done = [job.entries[index] for index in sorted(job.entries)]
        progress = round(len(job.entries) / job.total, 3) if job.total else 1.0
        return _shown(session, "running", progress, {"decisions": done, "summary": {}})

    def request(self, session: GameSession, seat: int, client: str) -> dict[str, Any]:
        """Start the review (and the par race) of ``seat`` unless kept or running; its status."""
        if not session.game.is_over:
            raise RaceNotOver()
        self.request_par(session, seat)
        key = (session.id, seat)
        if str(seat) not in session.reviews and key not in self._jobs:
            if self.in_progress(client) >= self.per_client:
                raise TooManyReviews(self.per_client)
            deal = Deal.of(session)
            indices = decisions_of(deal, seat)
            job = self._jobs[key] = _Job(session.id, seat, client, len(indices))
            run = self._run(job, deal, indices, review_told(session, seat))
            job.task = asyncio.get_running_loop().create_task(run)
        return self.status(session, seat)

    async def _run(self, job: _Job, deal: Deal, indices: list[int], told: Told) -> None:
        loop = asyncio.get_running_loop()
        executor = self._executor()
        # One decision per job: progress moves per decision, each worker taking the next.
        futures = [
            loop.run_in_executor(executor, review_moves, deal, job.seat, [i], self.budget, told)
            for i in indices
        ]
        try:
            for future in asyncio.as_completed(futures):
                for entry in await future:
                    job.entries[entry["move"]] = entry
            entries = [job.entries[i] for i in indices]
            kept = {"decisions": entries, "summary": summary(entries, self.budget)}
            await self._keep(job.game_id, "reviews", job.seat, kept)
        except asyncio.CancelledError:
            for future in futures:
                future.cancel()
            raise
        except Exception as exc:  # the review is lost; the race is untouched
            log.error("a review failed", extra={"error": type(exc).__name__})
        finally:
            self._jobs.pop((job.game_id, job.seat), None)

    def request_par(self, session: GameSession, seat: int) -> bool:
        """Start the par race of ``seat`` unless kept or running; whether it runs now."""
        kept = str(seat) in session.par
        if kept or not session.game.is_over or not session.lobby.is_person(seat):
            return False
        key = (session.id, seat)
        if key not in self._par:
            # Who plays each seat: the race's bots, the autopilot's level for people.
            bots = session.config.bots
            levels = [PAR_LEVEL_FOR_PEOPLE if s.person else bots for s in session.lobby.seats]
            yours = standing(session.game, session.events.events(), seat)
            run = self._run_par(session.id, seat, Deal.of(session), levels, yours)
            self._par[key] = asyncio.get_running_loop().create_task(run)
        return True

    async def _run_par(
        self, game_id: str, seat: int, deal: Deal, levels: list[str], yours: dict[str, int]
    ) -> None:
        loop = asyncio.get_running_loop()
        try:
            result = await loop.run_in_executor(
                self._executor(), play_par, deal, seat, levels, self.par_iterations
            )
            await self._keep(game_id, "par", seat, {**result, "yours": yours})
        except Exception as exc:  # not a cancellation (a BaseException): the race is untouched
            log.error("a par race failed", extra={"error": type(exc).__name__})
        finally:
            self._par.pop((game_id, seat), None)

    async def stop(self) -> None:
        """Cancel what is running (a stopping server; the reviews are asked for again)."""
        tasks = [job.task for job in self._jobs.values() if job.task] + list(self._par.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _shown(
    session: GameSession, status: str, progress: float, kept: dict[str, Any]
) -> dict[str, Any]:
    """A review (``kept``: its decisions and summary) as the API shows it, each entry without
    ``decision`` and with ``turn``, the race's turn counter (people's moves) before the
    entry's move, as the state's ``turn``."""
    turns = list(itertools.accumulate((move_kind(m) != "bot" for m in session.moves), initial=0))
    shown = [{k: v for k, v in e.items() if k != "decision"} for e in kept["decisions"]]
    rows = [{**e, "turn": turns[e["move"]]} for e in shown]
    return {"status": status, "progress": progress, "decisions": rows, "summary": kept["summary"]}


def kept_review(session: GameSession, seat: int) -> dict[str, Any] | None:
    """The finished review of ``seat`` as the API shows it, or None."""
    kept = session.reviews.get(str(seat))
    return None if kept is None else _shown(session, "done", 1.0, kept)
