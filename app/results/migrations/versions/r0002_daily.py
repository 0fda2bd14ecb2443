"""The daily deal's counted attempts: one per player and day."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from app.results.migrations import foreign_key

revision, down_revision = "r0002", "r0001"


def upgrade() -> None:
    """Create ``daily_entries``."""
    op.create_table(
        "daily_entries",
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        foreign_key("daily_entries", "player_id", "players.id", "CASCADE"),
        sa.PrimaryKeyConstraint("day", "player_id", name=op.f("pk_daily_entries")),
        sa.UniqueConstraint("game_id", name=op.f("uq_daily_entries_game_id")),
    )


def downgrade() -> None:
    """Drop ``daily_entries``."""
    op.drop_table("daily_entries")
