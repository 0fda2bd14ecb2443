"""Alembic's entry point, run only by :func:`app.storage.sqlite.migrate` on the
connection it puts in the config's attributes (no ``alembic.ini``, no offline mode): the
race file is only ever upgraded, so its scripts have no ``downgrade``."""

from __future__ import annotations

from alembic import context

context.configure(connection=context.config.attributes["connection"], render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
