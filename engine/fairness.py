"""A race's commitment to its deal: published when the race starts, checkable when it ends.

A race is dealt by :func:`engine.new_game` from its *deal seed*. When the race starts,
its public record carries ``commit(deal_seed, salt)``; the salt is a secret random
string the server draws, so the commitment reveals nothing about the seed. When the race
ends, the record reveals the deal seed and the salt: anyone can recompute the
commitment (the server could not have swapped the deal mid-race) and deal the cards
again from the seed (docs/fair-play.md).
"""

from __future__ import annotations

import hashlib

COMMITMENT_SCHEME = "sha256(zzv-deal-1:{deal_seed}:{salt})"
"""How :func:`commit` builds its digest, in the words a verifier reads."""


def commit(deal_seed: int, salt: str) -> str:
    """The hex SHA-256 of ``zzv-deal-1:{deal_seed}:{salt}`` (see :data:`COMMITMENT_SCHEME`).

    >>> commit(42, "00ff")
    '7959b69436e99de58fead43409e5275b60cbf4f5b20953bac61a2aa709c008ff'
    """
    return hashlib.sha256(f"zzv-deal-1:{deal_seed}:{salt}".encode()).hexdigest()
