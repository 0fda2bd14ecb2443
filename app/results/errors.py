"""The results' one error, their database unreachable (:mod:`app.http.errors`: 503)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import asyncpg.exceptions  # type: ignore[import-untyped]
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError


class ResultsUnavailable(Exception):
    """The results database cannot be reached now; nothing was read or written."""

    code = "results_unavailable"


UNREACHABLE: tuple[type[BaseException], ...] = (
    OperationalError,
    InterfaceError,
    OSError,  # ConnectionRefusedError and its kin, from the driver's connect
    TimeoutError,
    # asyncpg's own, raised before SQLAlchemy wraps anything: a refused or cut connection,
    # a server shutting down or starting up.
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.InterfaceError,
    asyncpg.exceptions.OperatorInterventionError,
)
"""Every failure that means the database cannot be reached."""


@contextlib.contextmanager
def reaching_the_database() -> Iterator[None]:
    """The block's connection failures (not a refused query) as :class:`ResultsUnavailable`."""
    try:
        yield
    except Exception as exc:
        if isinstance(exc, UNREACHABLE) or (
            isinstance(exc, DBAPIError) and exc.connection_invalidated
        ):
            raise ResultsUnavailable() from exc
        raise
