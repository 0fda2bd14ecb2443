"""Duplicate-style bot tournaments: ``python -m bench.tournament``.

Each deal (a game seed) is played once per seat rotation, and once per rotation of the
reversed order when that is a different table, so every bot kind sits in every seat of
every deal and next to each other bot on either side (:func:`seat_orders`). The games'
random streams (deals, first lead) come from ``--seed`` and the deal number; the bots'
streams from ``--seed``, the game, the seat and the decision number — the two never mix,
so changing a bot does not change the deals.

Printed per bot kind: seat-games played, wins, win rate with its 95% Wilson interval,
mean finishing place (the winner is 1st; the others are ranked by laps, then gas, sharing
places on ties) and milliseconds per move (mean and 99th percentile).

Seat tokens are bot kinds (``random``, ``easy``, ``normal``, ``hard``); a hard bot may
carry its own budget, ``hard:400ms`` or ``hard:300it``, and is then reported under that
label; ``hard:200ms:4models`` also sets its opponent models, ``:noise0`` their
temperature and ``:24cand`` how many candidates it compares. Every hard bot is told
which seats are normal bots, as a table shows every player which seats are bots of which
level, and models those seats exactly; ``:blind`` keeps that from it. ``:reply3`` also
tells it which seats are hard bots, the first of which to move answers each candidate in
its rollouts with the best of the normal policy's 3 best moves for itself. Hard bots' budgets
run on ``--clock cpu`` by default, the CPU time of the searching process (so a budget
buys the same search however busy the machine is, and figures measured under load still
compare); ``--clock wall`` gives them real time, as the server does. Moves are timed on
that clock. Each pair of bots is also compared deal by deal (:func:`paired_difference`).
Example::

    python -m bench.tournament --players 4 --seats hard,normal,normal,normal \
        --games 400 --seed 1

``python -m bench.tournament`` plays the games one after another: :func:`run` takes a
``map``-like callable (the builtin by default), and ``python -m bench tournament --jobs 2
...`` hands it a process pool's, with the same options and the same report.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.bots import BOT_LEVELS, make_bot
from engine.bots.base import Bot, mix_seed
from engine.bots.search import CLOCKS
from engine.cards import Suit
from engine.game import MAX_DECISIONS, new_game
from engine.variants import Variants

_DEAL_STREAM = 0x6465616C  # "deal"
_BOT_STREAM = 0x626F74  # "bot"


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """One seat's bot: its kind, options, and the label its figures are reported under."""

    label: str
    kind: str
    options: tuple[tuple[str, int | float | str], ...] = ()

    def build(self, seed: int, table: tuple[str, ...] = ()) -> Bot:
        """A fresh bot of this kind. Unless it is ``:blind``, a hard bot is told which
        seats of the ``table`` (the kind of bot in each seat, which a table shows every
        player) are normal bots and which are hard bots (``hard_seats``; with ``:replyN``
        also ``searcher_seats``), as the server tells its own."""
        options: dict[str, Any] = dict(self.options)
        if self.kind == "hard" and not options.pop("blind", 0):
            options["normal_seats"] = tuple(s for s, kind in enumerate(table) if kind == "normal")
            hard = tuple(s for s, kind in enumerate(table) if kind == "hard")
            options["hard_seats"] = hard
            if "reply_width" in options:
                options["searcher_seats"] = hard
        return make_bot(self.kind, seed, **options)


def parse_seat(
    token: str, budget_ms: int | None, iterations: int | None, clock: str | None = None
) -> SeatSpec:
    """Parse ``kind`` or ``hard:400ms`` / ``hard:300it``, optionally with ``:4models``
    (the hard bot's opponent models), ``:noise0.5`` (their temperature), ``:24cand``
    (how many candidates it compares), ``:hardnoise1`` (the temperature of the seats it
    is told are hard bots), ``:blind`` (it is not told which seats are normal or hard
    bots, so it models them with noise like anyone) and ``:reply3`` (the first hard seat
    to move after its candidate replies with the best of that many moves,
    :class:`SeatSpec`); the global budget and ``clock`` apply to hard.

    >>> parse_seat("hard:300it", None, None)
    SeatSpec(label='hard:300it', kind='hard', options=(('iterations', 300),))
    >>> parse_seat("hard:200ms:4models", None, None).options
    (('models', 4), ('time_budget_ms', 200))
    >>> parse_seat("hard:200ms:noise0", None, None).options
    (('noise', 0.0), ('time_budget_ms', 200))
    >>> parse_seat("hard:24cand:blind", None, None).options
    (('blind', 1), ('candidates', 24))
    >>> parse_seat("hard:knows:reply2:infer0.3", None, None).options
    (('infer', 0.3), ('reply_width', 2))
    >>> parse_seat("hard:hardnoise1", None, None).options
    (('hard_noise', 1.0),)
    >>> parse_seat("hard:400ms", None, None, "cpu").options
    (('clock', 'cpu'), ('time_budget_ms', 400))
    >>> parse_seat("normal", 100, None, "cpu").options
    ()
    """
    kind, *parts = token.strip().split(":")
    if kind not in BOT_LEVELS:
        raise ValueError(f"Unknown bot kind {kind!r}: choose from {', '.join(BOT_LEVELS)}.")
    options: dict[str, int | float | str] = {}
    if kind == "hard":
        if clock is not None:
            options["clock"] = clock
        if budget_ms is not None:
            options["time_budget_ms"] = budget_ms
        if iterations is not None:
            options["iterations"] = iterations
    if parts and kind != "hard":
        raise ValueError(f"Only the hard bot takes a budget, not {kind!r}.")
    for part in parts:
        _hard_option(part, options)
    return SeatSpec(token.strip(), kind, tuple(sorted(options.items())))


def _hard_option(part: str, options: dict[str, int | float | str]) -> None:
    """Put one ``:part`` of a hard seat's token into ``options`` (see :func:`parse_seat`);
    a budget replaces the global one."""
    if part == "blind":
        options["blind"] = 1
        return
    if part == "knows":  # what every hard seat is told now; kept so old commands run
        return
    for suffix, name in (("models", "models"), ("cand", "candidates")):
        if part.endswith(suffix):
            options[name] = int(part[: -len(suffix)])
            return
    numbers: tuple[tuple[str, str, type[int] | type[float]], ...] = (
        ("reply", "reply_width", int),
        ("hardnoise", "hard_noise", float),
        ("noise", "noise", float),
        ("infer", "infer", float),
    )
    for prefix, name, number in numbers:
        if part.startswith(prefix):
            options[name] = number(part[len(prefix) :])
            return
    options.pop("iterations", None)
    options.pop("time_budget_ms", None)
    if part.endswith("ms"):
        options["time_budget_ms"] = int(part[:-2])
    elif part.endswith("it"):
        options["iterations"] = int(part[:-2])
    else:
        raise ValueError(f"A budget is like 400ms or 300it, not {part!r}.")


def parse_variants(text: str) -> Variants:
    """``larger_hands,zero_suit=chippy,zero_five`` (any subset, or empty) to :class:`Variants`.

    >>> parse_variants("zero_five,zero_suit=salty")
    Variants(larger_hands=False, zero_suit=<Suit.SALTY: 'salty'>, zero_five=True)
    """
    larger = zero_five = False
    zero_suit: Suit | None = None
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        if name == "larger_hands":
            larger = True
        elif name == "zero_five":
            zero_five = True
        elif name == "zero_suit":
            zero_suit = Suit(value or "chippy")
        else:
            raise ValueError(f"Unknown variant {name!r}.")
    return Variants(larger_hands=larger, zero_suit=zero_suit, zero_five=zero_five)


@dataclass(slots=True)
class SeatResult:
    """How one seat of one game went: the bot's label, the seat it sat in, the result."""

    label: str
    seat: int
    won: bool
    place: float
    move_ms: list[float]
    deal: int = 0
    game: int = 0

    def to_dict(self) -> dict[str, Any]:
        """This result as JSON-ready data (:meth:`from_dict` reads it back)."""
        return {
            "label": self.label,
            "seat": self.seat,
            "won": self.won,
            "place": self.place,
            "move_ms": [round(ms, 2) for ms in self.move_ms],
            "deal": self.deal,
            "game": self.game,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatResult:
        """The result :meth:`to_dict` wrote.

        >>> result = SeatResult("hard", 1, True, 1.0, [180.5], deal=4, game=13)
        >>> SeatResult.from_dict(result.to_dict()) == result
        True
        """
        return cls(
            str(data["label"]),
            int(data["seat"]),
            bool(data["won"]),
            float(data["place"]),
            [float(ms) for ms in data["move_ms"]],
            int(data["deal"]),
            int(data["game"]),
        )


@dataclass(frozen=True, slots=True)
class GameJob:
    """Everything a worker needs to play one game of the tournament."""

    index: int
    players: int
    variants: Variants
    seed: int
    seats: tuple[SeatSpec, ...]
    clock: str = "wall"


def places(laps: Sequence[int], gas: Sequence[int], winner: int | None) -> list[float]:
    """Finishing places: the winner first, then by laps and gas; ties share the mean place.

    >>> places([2, 1, 1, 0], [0, 3, 3, 5], 0)
    [1.0, 2.5, 2.5, 4.0]
    """
    keys = [(seat == winner, laps[seat], gas[seat]) for seat in range(len(laps))]
    result = []
    for key in keys:
        better = sum(1 for other in keys if other > key)
        tied = sum(1 for other in keys if other == key)
        result.append(better + (tied + 1) / 2)
    return result


def seat_orders(seats: Sequence[SeatSpec]) -> list[tuple[SeatSpec, ...]]:
    """The seatings one deal is played in: every rotation of ``seats``, then, unless it
    is one of them, every rotation of the order reversed. A bot's neighbours matter in
    a trick-taking game (who plays just before it, who just after), and rotations alone
    keep them the same in every game: at a table of three different bots one of them
    would always play straight after another. With the reversed order as well, each
    bot sits in every seat and, at a table of three, plays after each of the others
    equally often.

    >>> specs = tuple(parse_seat(k, None, None) for k in ("easy", "normal", "random"))
    >>> for order in seat_orders(specs):
    ...     print(*(spec.label for spec in order))
    easy normal random
    normal random easy
    random easy normal
    easy random normal
    random normal easy
    normal easy random
    >>> len(seat_orders(tuple(parse_seat(k, None, None) for k in ("hard", "easy", "easy"))))
    3
    """
    ahead = _rotations(tuple(seats))
    backwards = _rotations((seats[0], *reversed(seats[1:])))
    labels = {tuple(spec.label for spec in order) for order in ahead}
    if tuple(spec.label for spec in backwards[0]) in labels:
        return ahead
    return ahead + backwards


def _rotations(order: tuple[SeatSpec, ...]) -> list[tuple[SeatSpec, ...]]:
    """``order`` turned round the table by 0, 1, 2 ... seats."""
    return [order[turn:] + order[:turn] for turn in range(len(order))]


def whole_deals(seats: Sequence[SeatSpec], games: int) -> int:
    """How many games ``games`` becomes, rounded up to whole deals of ``seats`` (at least
    one deal): each deal is played in every one of its :func:`seat_orders`.

    >>> whole_deals(tuple(parse_seat(k, None, None) for k in ("easy", "normal", "random")), 7)
    12
    """
    per_deal = len(seat_orders(seats))
    return max(1, math.ceil(games / per_deal)) * per_deal


def seating(job: GameJob) -> tuple[int, tuple[SeatSpec, ...]]:
    """The deal game ``job.index`` plays and the bot in each seat: a deal's games are
    its :func:`seat_orders`, one after another.

    >>> specs = tuple(parse_seat(k, None, None) for k in ("easy", "normal", "normal"))
    >>> [[s.label for s in seating(GameJob(i, 3, Variants(), 1, specs))[1]] for i in (3, 4)]
    [['easy', 'normal', 'normal'], ['normal', 'normal', 'easy']]
    """
    orders = seat_orders(job.seats)
    deal, game = divmod(job.index, len(orders))
    return deal, orders[game]


def play_game(job: GameJob) -> list[SeatResult]:
    """Play one game of the tournament (see :func:`seating`), seat results in seat order."""
    deal, seats = seating(job)
    game = new_game(
        players=job.players,
        seed=mix_seed(job.seed, _DEAL_STREAM, deal),
        variants=job.variants,
    )
    timings: list[list[float]] = [[] for _ in range(job.players)]
    clock = CLOCKS[job.clock]
    table = tuple(spec.kind for spec in seats)
    decisions = 0
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(f"Game {job.index} did not end after {MAX_DECISIONS} moves.")
        observation = game.view(seat)
        seed = mix_seed(job.seed, _BOT_STREAM, job.index, seat, decisions)
        bot = seats[seat].build(seed, table)
        start = clock()
        action = bot.choose(observation)
        timings[seat].append((clock() - start) * 1000.0)
        game.apply(action, seat)
    finish = places(game.laps, game.gas, game.winner)
    return [
        SeatResult(seats[s].label, s, game.winner == s, finish[s], timings[s], deal, job.index)
        for s in range(job.players)
    ]


MapGames = Callable[
    [Callable[[GameJob], list[SeatResult]], Iterable[GameJob]], Iterable[list[SeatResult]]
]
"""Something shaped like the builtin ``map``: plays each job with the given function and
yields the seat results, in any order (a pool's ``imap_unordered`` will do)."""


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for ``wins`` successes in ``n`` trials.

    >>> lo, hi = wilson(40, 100); round(lo, 3), round(hi, 3)
    (0.309, 0.498)
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # At p = 0 or 1 an end of the interval is p itself, which rounding can miss.
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (nearest rank) of ``values``; 0 for none.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50)
    2.0
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass(slots=True)
class Tally:
    """Running figures for one bot label."""

    games: int = 0
    wins: int = 0
    place_sum: float = 0.0
    move_ms: list[float] = field(default_factory=list)
    #: Seat-games and wins per deal, for the paired differences between bots.
    by_deal: dict[int, list[int]] = field(default_factory=dict)

    def add(self, result: SeatResult) -> None:
        """Count one seat-game, in all and in its deal's tally."""
        self.games += 1
        self.wins += result.won
        self.place_sum += result.place
        self.move_ms.extend(result.move_ms)
        games_wins = self.by_deal.setdefault(result.deal, [0, 0])
        games_wins[0] += 1
        games_wins[1] += result.won

    def deal_rate(self, deal: int) -> float:
        """This bot's win rate in ``deal``."""
        games, wins = self.by_deal[deal]
        return wins / games

    def summary(self) -> dict[str, Any]:
        """The figures the tournament prints, as JSON-ready data."""
        lo, hi = wilson(self.wins, self.games)
        ms = self.move_ms
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.wins / self.games if self.games else 0.0,
            "ci95": [lo, hi],
            "mean_place": self.place_sum / self.games if self.games else 0.0,
            "ms_per_move_mean": sum(ms) / len(ms) if ms else 0.0,
            "ms_per_move_p99": percentile(ms, 99),
        }


def paired_difference(
    rates: Sequence[tuple[float, float]], z: float = 1.96
) -> tuple[float, float, float]:
    """The mean of ``a - b`` over deals, ``rates`` holding each deal's win rates of two
    bots, with its 95% interval from the spread of the deals' differences.

    Duplicate deals seat every bot in every seat of a deal, so a deal's luck (a hand
    that wins from any seat) cancels inside the deal's difference: the interval is that
    much narrower than one that treats the games as independent.

    >>> mean, low, high = paired_difference([(2 / 3, 1 / 3), (1 / 3, 1 / 3), (1 / 3, 0.0)])
    >>> round(mean, 4), round(low, 4), round(high, 4)
    (0.2222, 0.0044, 0.44)
    """
    diffs = [a - b for a, b in rates]
    n = len(diffs)
    if n < 2:
        return (sum(diffs) / n if n else 0.0, -1.0, 1.0)
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    return (mean, mean - z * spread, mean + z * spread)


def _count(tallies: dict[str, Tally], results: list[SeatResult], done: int, every: int) -> None:
    """Add one game's results; every ``every`` games, print the running wins to stderr."""
    for result in results:
        tallies[result.label].add(result)
    if every and done % every == 0:
        wins = ", ".join(f"{label} {t.wins}/{t.games}" for label, t in tallies.items())
        print(f"after {done} games: {wins}", file=sys.stderr, flush=True)


def run(
    players: int,
    seats: Sequence[SeatSpec],
    games: int,
    seed: int,
    variants: Variants | None = None,
    clock: str = "wall",
    progress: int = 0,
    map_games: MapGames = map,
    played: Iterable[list[SeatResult]] = (),
    on_game: Callable[[list[SeatResult]], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games (rounded up to whole deals, :func:`seat_orders`) and return the
    figures; moves are timed on ``clock`` (see :data:`~engine.bots.search.CLOCKS`). With
    ``progress`` N, a line of running wins goes to stderr every N games (a long run can be
    read early). ``map_games`` plays the games (see :data:`MapGames`); the figures do not
    depend on the order its results come back in.

    ``played`` holds games of this same tournament already played (each game's seat
    results, as an earlier run's ``on_game`` was handed them): they are counted, not
    played again, so a long tournament can be stopped and taken up later. ``on_game``
    gets every newly played game's results as they come in."""
    if len(seats) != players:
        raise ValueError(f"Give one bot per seat: {players} seats, {len(seats)} bots.")
    variants = variants or Variants()
    total = whole_deals(seats, games)
    per_deal = len(seat_orders(seats))
    tallies: dict[str, Tally] = {spec.label: Tally() for spec in seats}
    earlier = {results[0].game: results for results in played if results[0].game < total}
    for seat_results in earlier.values():
        _count(tallies, seat_results, 0, 0)
    work = [
        GameJob(i, players, variants, seed, tuple(seats), clock)
        for i in range(total)
        if i not in earlier
    ]
    for done, seat_results in enumerate(map_games(play_game, work), len(earlier) + 1):
        _count(tallies, seat_results, done, progress)
        if on_game is not None:
            on_game(seat_results)
    return {
        "players": players,
        "games": total,
        "deals": total // per_deal,
        "seatings": per_deal,
        "seed": seed,
        "clock": clock,
        "variants": variants.to_dict(),
        "bots": {label: tally.summary() for label, tally in tallies.items()},
        "differences": differences(tallies),
    }


def differences(tallies: dict[str, Tally]) -> list[dict[str, Any]]:
    """For each pair of bots (in seat order), the first's win rate minus the second's,
    paired by deal (:func:`paired_difference`)."""
    labels = list(tallies)
    found = []
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            deals = sorted(tallies[a].by_deal.keys() & tallies[b].by_deal.keys())
            rates = [(tallies[a].deal_rate(d), tallies[b].deal_rate(d)) for d in deals]
            mean, low, high = paired_difference(rates)
            found.append(
                {"a": a, "b": b, "deals": len(deals), "difference": mean, "ci95": [low, high]}
            )
    return found


def render(report: dict[str, Any]) -> str:
    """The figures as a plain-text table."""
    width = max(12, *(len(label) + 2 for label in report["bots"]))  # labels may be long
    variants = [k for k, v in report["variants"].items() if v]
    lines = [
        f"{report['players']} players, {report['games']} games "
        f"({report['deals']} deals x {report['seatings']} seatings), "
        f"seed {report['seed']}, variants: {', '.join(variants) or 'none'}, "
        f"{report['clock']} clock",
        f"{'bot':<{width}}{'games':>7}{'wins':>7}{'win rate':>10}{'95% CI':>17}"
        f"{'mean place':>12}{'ms/move':>10}{'p99 ms':>9}",
    ]
    for label, s in report["bots"].items():
        lo, hi = s["ci95"]
        lines.append(
            f"{label:<{width}}{s['games']:>7}{s['wins']:>7}{s['win_rate']:>10.1%}"
            f"{f'[{lo:.1%}, {hi:.1%}]':>17}{s['mean_place']:>12.2f}"
            f"{s['ms_per_move_mean']:>10.1f}{s['ms_per_move_p99']:>9.1f}"
        )
    for d in report["differences"]:
        lo, hi = d["ci95"]
        lines.append(
            f"{d['a']} minus {d['b']}: {100 * d['difference']:+.1f} points "
            f"[{100 * lo:+.1f}, {100 * hi:+.1f}], paired over {d['deals']} deals"
        )
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The tournament's options (``python -m bench tournament`` takes the same ones)."""
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seats", default="hard,normal,normal,normal")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", default="", help="e.g. larger_hands,zero_suit=jelly")
    parser.add_argument("--budget-ms", type=int, default=None, help="hard bots' time budget")
    parser.add_argument("--iterations", type=int, default=None, help="hard bots' fixed work")
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="what hard bots' budgets and the move timings count: this process's CPU time "
        "(default; load does not change the search) or wall time (as the server)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--progress", type=int, default=0, help="print running wins every N games (stderr)"
    )


def run_arguments(
    args: argparse.Namespace,
    map_games: MapGames = map,
    played: Iterable[list[SeatResult]] = (),
    on_game: Callable[[list[SeatResult]], None] | None = None,
) -> int:
    """Play the tournament :func:`add_arguments` parsed (``played`` and ``on_game`` as
    :func:`run` takes them); print the table (or JSON with ``--json``) and return the
    exit status (2, with a sentence on stderr, for bad options)."""
    try:
        seats = [
            parse_seat(t, args.budget_ms, args.iterations, args.clock)
            for t in args.seats.split(",")
        ]
        report = run(
            args.players,
            seats,
            args.games,
            args.seed,
            parse_variants(args.variants),
            args.clock,
            args.progress,
            map_games,
            played,
            on_game,
        )
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(report) if args.json else render(report))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point: the games one after another, in this process."""
    parser = argparse.ArgumentParser(description="Bot tournament, duplicate style.")
    add_arguments(parser)
    return run_arguments(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
