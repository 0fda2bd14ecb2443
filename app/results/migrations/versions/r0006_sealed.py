"""A finished race's sealed fields: what its record reveals only later (a daily attempt's
deal, once its day closed).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision, down_revision = "r0006", "r0005"


def upgrade() -> None:
    with op.batch_alter_table("finished_races") as batch:
        batch.add_column(sa.Column("sealed", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("finished_races") as batch:
        batch.drop_column("sealed")
