"""Each race's head beside it (its seats' digests, whether it is over, its player) and its
place in creation order, so the caps and reads are answered from the file.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision, down_revision = "0003", "0002"


def upgrade() -> None:
    # The store fills them in as it opens the file.
    with op.batch_alter_table("races") as batch:
        batch.add_column(sa.Column("head", sa.String(), nullable=True))
        batch.add_column(sa.Column("player", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("live", sa.Boolean(), nullable=True))
        batch.add_column(sa.Column("seq", sa.Integer(), nullable=True))
    op.create_index("ix_races_owner", "races", ["owner"])
    op.create_index("ix_races_player", "races", ["player"])
