"""Alembic's entry point for the results' migrations: on the connection
:meth:`app.results.store.ResultsStore.open` hands over (the config's ``connection``), else on
the database the settings name (``alembic -c app/results/alembic.ini upgrade head``).
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from app.results.database import connect, results_url
from app.results.models import METADATA
from app.settings import Settings

VERSION_TABLE = "results_alembic_version"
"""The results' own version table, so they never mix with another set of migrations."""


def run(connection: Connection) -> None:
    """Upgrade on ``connection`` in one transaction."""
    context.configure(
        connection=connection,
        target_metadata=METADATA,
        version_table=VERSION_TABLE,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_from_settings() -> None:
    engine = connect(results_url(Settings()))
    try:
        async with engine.begin() as conn:
            await conn.run_sync(run)
    finally:
        await engine.dispose()


given = context.config.attributes.get("connection")
if given is not None:
    run(given)
else:
    asyncio.run(run_from_settings())
