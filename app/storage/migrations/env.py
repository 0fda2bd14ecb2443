"""Alembic's entry point: run the migrations on the connection the store opened.

Only :func:`app.storage.sqlite_backend.migrate` runs this (it puts the connection in the config's
attributes); there is no ``alembic.ini`` and no offline mode.
"""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
