"""Alembic migrations of the race file (:mod:`app.storage.sqlite`): ``env.py`` runs them on
the connection :func:`app.storage.sqlite_backend.migrate` hands over, ``versions/`` holds one
script per schema change, oldest first."""
