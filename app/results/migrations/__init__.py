"""The results' migrations (``versions/``), and the one piece several of them write: old
migrations use it, so it never changes."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


def foreign_key(table: str, column: str, target: str, ondelete: str) -> sa.ForeignKeyConstraint:
    """``table.column`` referring to ``target`` (``table.column``), named as
    :data:`app.results.models.NAMING` names it."""
    referred = target.split(".")[0]
    name = op.f(f"fk_{table}_{column}_{referred}")
    return sa.ForeignKeyConstraint([column], [target], name=name, ondelete=ondelete)
