"""The outbox: a message a race's save leaves for delivery (a finished race's result)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision, down_revision = "0002", "0001"


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column("id", sa.String(), primary_key=True),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("added_at", sa.Float(), nullable=False),
    )
