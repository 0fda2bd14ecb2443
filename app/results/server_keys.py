"""Named secrets made once in the results database (the ``server_keys`` table) and shared
by every worker and replica on it, before and after a restart."""

from __future__ import annotations

import secrets

from pydantic import SecretStr
from sqlalchemy.exc import IntegrityError

from app.results.models import ServerKey
from app.results.store import ResultsStore
from app.settings import Settings

SEED_KEY = "seed_secret"
"""The key that turns a public seed into the engine's shuffle seed and signs the table's
page memory, when ``ZZV_SEED_SECRET`` is not set."""


async def server_key(results: ResultsStore, name: str) -> bytes:
    """The secret called ``name``, made now (32 random bytes) if the database holds none;
    when two workers make it at once, the one written first is everyone's."""
    found = await _read(results, name)
    if found is None:
        try:
            async with results.unit() as session:
                session.add(ServerKey(name=name, value=secrets.token_hex(32)))
        except IntegrityError:  # another worker made it first: theirs is the key
            pass
        found = await _read(results, name)
    assert found is not None
    return found


async def _read(results: ResultsStore, name: str) -> bytes | None:
    async with results.unit() as session:
        row = await session.get(ServerKey, name)
        return None if row is None else bytes.fromhex(row.value)


async def with_shared_seed_secret(settings: Settings, results: ResultsStore) -> Settings:
    """``settings``, with the results database's seed key unless ``ZZV_SEED_SECRET`` was
    given: then every worker and replica on that database, and the server after a restart,
    deals the same cards for a seed and reads the page memory the others signed."""
    if "seed_secret" in settings.model_fields_set:
        return settings
    key = await server_key(results, SEED_KEY)
    return settings.model_copy(update={"seed_secret": SecretStr(key.hex())})


__all__ = ["SEED_KEY", "server_key", "with_shared_seed_secret"]
