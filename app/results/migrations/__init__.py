"""The results' migrations (``versions/``), and the pieces several of them write: old
migrations use them, so they never change."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op


def foreign_key(table: str, column: str, target: str, ondelete: str) -> sa.ForeignKeyConstraint:
    """``table.column`` referring to ``target`` (``table.column``), named as
    :data:`app.results.models.NAMING` names it."""
    referred = target.split(".")[0]
    name = op.f(f"fk_{table}_{column}_{referred}")
    return sa.ForeignKeyConstraint([column], [target], name=name, ondelete=ondelete)


def create_entries(table: str, *key: sa.Column[Any], address: bool = False) -> None:
    """A table of counted attempts: ``key``'s first column, the player, its others, the
    race's id (unique), its start and (``address``) the client's address digest, keyed by
    ``key`` and the player."""
    first, *rest = key
    address_column = sa.Column("address", sa.String(length=64), nullable=True)
    op.create_table(
        table,
        first,
        sa.Column("player_id", sa.Integer(), nullable=False),
        *rest,
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        *([address_column] if address else []),
        foreign_key(table, "player_id", "players.id", "CASCADE"),
        sa.PrimaryKeyConstraint(
            first.name, "player_id", *(c.name for c in rest), name=op.f(f"pk_{table}")
        ),
        sa.UniqueConstraint("game_id", name=op.f(f"uq_{table}_game_id")),
    )
