"""Everyone is on the rating board unless they opt out (under a generated name until they
choose one), so the board is never empty: players who never ticked the box now show.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision, down_revision = "r0005", "r0004"


def upgrade() -> None:
    """Show every player, and new players by default."""
    with op.batch_alter_table("players") as batch:
        batch.alter_column(
            "show_on_leaderboard", server_default=sa.true(), existing_type=sa.Boolean()
        )
    op.execute(sa.text("UPDATE players SET show_on_leaderboard = :yes").bindparams(yes=True))


def downgrade() -> None:
    """New players hidden by default again (who shows stays as it is)."""
    with op.batch_alter_table("players") as batch:
        batch.alter_column(
            "show_on_leaderboard", server_default=sa.false(), existing_type=sa.Boolean()
        )
