"""The seeded generator inside a game's state: SplitMix64, whose whole state is one
integer, so a game's randomness survives a JSON round trip exactly and clones for free
(the engine never uses the global :mod:`random`)."""

from __future__ import annotations

from typing import TypeVar

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
"""SplitMix64's step; code that inlines :meth:`Rng.next_u64` for speed reads these two."""

T = TypeVar("T")

# The rejection threshold of below(n), per n: the largest multiple of n within 64 bits.
_LIMIT: dict[int, int] = {}


class Rng:
    """A deterministic SplitMix64 generator whose state is a single 64-bit integer.

    >>> a, b = Rng(7), Rng(7)
    >>> [a.below(10) for _ in range(5)] == [b.below(10) for _ in range(5)]
    True
    >>> r = Rng(1); cards = list(range(6)); r.shuffle(cards); sorted(cards)
    [0, 1, 2, 3, 4, 5]
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next_u64(self) -> int:
        """Return the next 64-bit output and advance the state."""
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``range(n)`` (rejection sampling, so unbiased)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        # next_u64 inlined: the engine's hottest call (every deal and simulated choice).
        # engine.bots.rollout inlines it too: a change of generator goes there as well.
        limit = _LIMIT.get(n)
        if limit is None:
            limit = _LIMIT[n] = (1 << 64) - ((1 << 64) % n)
        state = self.state
        while True:
            state = (state + GOLDEN_GAMMA) & MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            z ^= z >> 31
            if z < limit:
                self.state = state
                return z % n

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher–Yates)."""
        below = self.below
        for i in range(len(items) - 1, 0, -1):
            j = below(i + 1)
            items[i], items[j] = items[j], items[i]
