"""The weekly cup's counted attempts: one per player, week and deal."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from app.results.migrations import foreign_key

revision, down_revision = "r0007", "r0006"


def upgrade() -> None:
    """Create ``cup_entries``."""
    op.create_table(
        "cup_entries",
        sa.Column("week", sa.String(length=8), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=True),
        foreign_key("cup_entries", "player_id", "players.id", "CASCADE"),
        sa.PrimaryKeyConstraint("week", "player_id", "deal", name=op.f("pk_cup_entries")),
        sa.UniqueConstraint("game_id", name=op.f("uq_cup_entries_game_id")),
    )
    op.create_index("ix_cup_entries_week_deal_address", "cup_entries", ["week", "deal", "address"])


def downgrade() -> None:
    """Drop ``cup_entries``."""
    op.drop_index("ix_cup_entries_week_deal_address", table_name="cup_entries")
    op.drop_table("cup_entries")
