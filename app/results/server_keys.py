"""The seed key made once in the results database (``ResultsStore.server_key``) and shared
by every worker and replica on it, before and after a restart."""

from __future__ import annotations

from pydantic import SecretStr

from app.results.store import ResultsStore
from app.settings import Settings

SEED_KEY = "seed_secret"
"""The key that turns a public seed into the engine's shuffle seed and signs the table's
page memory, when ``ZZV_SEED_SECRET`` is not set."""


async def with_shared_seed_secret(settings: Settings, results: ResultsStore) -> Settings:
    """``settings``, with the results database's seed key unless ``ZZV_SEED_SECRET`` was
    given: then every worker and replica on that database, and the server after a restart,
    deals the same cards for a seed and reads the page memory the others signed."""
    if "seed_secret" in settings.model_fields_set:
        return settings
    key = await results.server_key(SEED_KEY)
    return settings.model_copy(update={"seed_secret": SecretStr(key.hex())})


__all__ = ["SEED_KEY", "with_shared_seed_secret"]
