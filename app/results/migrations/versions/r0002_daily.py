"""The daily deal's counted attempts: one per player and day."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from app.results.migrations import create_entries

revision, down_revision = "r0002", "r0001"


def upgrade() -> None:
    create_entries("daily_entries", sa.Column("day", sa.String(length=10), nullable=False))


def downgrade() -> None:
    op.drop_table("daily_entries")
