"""The days each player raced the daily deal, found without reading everyone's (streaks).

Revision ID: r0003
Revises: r0002
"""

from __future__ import annotations

from alembic import op

revision = "r0003"
down_revision: str | None = "r0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Index ``daily_entries`` by player, then day."""
    op.create_index("ix_daily_entries_player_day", "daily_entries", ["player_id", "day"])


def downgrade() -> None:
    """Drop that index."""
    op.drop_index("ix_daily_entries_player_day", table_name="daily_entries")
