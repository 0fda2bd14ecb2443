"""The days each player raced the daily deal, found without reading everyone's (streaks)."""

from __future__ import annotations

from alembic import op

revision, down_revision = "r0003", "r0002"


def upgrade() -> None:
    op.create_index("ix_daily_entries_player_day", "daily_entries", ["player_id", "day"])


def downgrade() -> None:
    op.drop_index("ix_daily_entries_player_day", table_name="daily_entries")
