"""The weekly cup's counted attempts: one per player, week and deal."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from app.results.migrations import create_entries

revision, down_revision = "r0007", "r0006"


def upgrade() -> None:
    week = sa.Column("week", sa.String(length=8), nullable=False)
    create_entries(
        "cup_entries", week, sa.Column("deal", sa.Integer(), nullable=False), address=True
    )
    op.create_index("ix_cup_entries_week_deal_address", "cup_entries", ["week", "deal", "address"])


def downgrade() -> None:
    op.drop_index("ix_cup_entries_week_deal_address", table_name="cup_entries")
    op.drop_table("cup_entries")
