"""The live races and the tombstones of gone ones."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision, down_revision = "0001", None


def upgrade() -> None:
    op.create_table(
        "races",
        sa.Column("id", sa.String(), primary_key=True),
        sa.Column("owner", sa.String(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "tombstones",
        sa.Column("id", sa.String(), primary_key=True),
        sa.Column("digests", sa.String(), nullable=False),
        sa.Column("reason", sa.String(), nullable=False),
        sa.Column("gone_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_tombstones_gone_at", "tombstones", ["gone_at"])


def downgrade() -> None:
    op.drop_index("ix_tombstones_gone_at", table_name="tombstones")
    op.drop_table("tombstones")
    op.drop_table("races")
