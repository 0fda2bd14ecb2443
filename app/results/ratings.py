"""Ratings: openskill's Plackett-Luce model, one ``(mu, sigma)`` per person, rated after each
race not practice against every seat by place; bots keep the fixed :data:`BOT_RATINGS`
(docs/ratings.md), so a rating means the same against bots or people.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate: ``mu`` and its uncertainty ``sigma``."""

    mu: float = float(MODEL.mu)
    sigma: float = float(MODEL.sigma)

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: a skill the player is very likely above."""
        return self.mu - 3 * self.sigma


BOT_RATINGS: dict[str, Rating] = {
    "random": Rating(2.0, 1.0),
    "easy": Rating(21.5, 1.0),
    "normal": Rating(31.5, 1.0),
    "hard": Rating(47.0, 1.0),
}
"""Each bot level's fixed rating (docs/ratings.md: the calibration and its figures)."""


def display(rating: Rating) -> int:
    """The rating as shown: ``1000 + 40 * (mu - 3 sigma)``, rounded; a new player shows 1000."""
    return round(1000 + 40 * rating.ordinal)


def rate(ratings: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """Every seat's rating after a race where seat ``i`` finished ``places[i]`` (1 first;
    equal places tie); the bots' are for the caller to ignore."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [Rating(float(team[0].mu), float(team[0].sigma)) for team in rated]


def places(
    laps: Sequence[int], gas: Sequence[int], winner: int | None, left: Collection[int] = ()
) -> list[int]:
    """Each seat's place: the winner first, then by laps, then by gas left, and the seats
    in ``left`` (people who left, docs/ratings.md) after everyone else; seats equal on all
    of it share the better place (1, 2, 2, 4)."""
    keys = [
        (False, False, 0, 0) if seat in left else (True, seat == winner, laps[seat], gas[seat])
        for seat in range(len(laps))
    ]
    return [1 + sum(1 for other in keys if other > key) for key in keys]
