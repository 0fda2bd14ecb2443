"""The outbox: a message a race's save leaves for delivery (a finished race's result).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the outbox."""
    op.create_table(
        "outbox",
        sa.Column("id", sa.String(), primary_key=True),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("added_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    """Drop the outbox."""
    op.drop_table("outbox")
