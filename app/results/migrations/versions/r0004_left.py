"""A seat's "left" outcome (a person who stopped playing, placed last), and the address
digest each counted daily attempt came from (the per-address daily limit).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision, down_revision = "r0004", "r0003"


def upgrade() -> None:
    with op.batch_alter_table("race_results") as batch:
        batch.add_column(
            sa.Column("left_race", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    with op.batch_alter_table("daily_entries") as batch:
        batch.add_column(sa.Column("address", sa.String(length=64), nullable=True))
    op.create_index("ix_daily_entries_day_address", "daily_entries", ["day", "address"])


def downgrade() -> None:
    op.drop_index("ix_daily_entries_day_address", table_name="daily_entries")
    with op.batch_alter_table("daily_entries") as batch:
        batch.drop_column("address")
    with op.batch_alter_table("race_results") as batch:
        batch.drop_column("left_race")
