"""Everyone is on the rating board unless they opt out (under a generated name until they
choose one), so the board is never empty: players who never ticked the box now show.

Revision ID: r0005
Revises: r0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "r0005"
down_revision: str | None = "r0004"
branch_labels: str | None = None
depends_on: str | None = None


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
