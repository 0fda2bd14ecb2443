"""Alembic migrations of the race file (:mod:`app.storage.sqlite`), one per schema change."""
