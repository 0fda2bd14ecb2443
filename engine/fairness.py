"""A race's commitment to its deal seed: published, salted, when the race starts; the seed
and salt are revealed when it ends, so anyone can check it (docs/fair-play.md).
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
