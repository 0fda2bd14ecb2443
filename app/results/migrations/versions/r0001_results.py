"""Players, finished races, each seat's result and the shared server keys."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from app.results.migrations import foreign_key

revision, down_revision = "r0001", None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("token_digest", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=True),
        sa.Column("show_on_leaderboard", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("races", sa.Integer(), server_default="0", nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("browser_record", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("token_digest", name=op.f("uq_players_token_digest")),
    )
    op.create_index("ix_players_board", "players", ["show_on_leaderboard", "ordinal"])
    op.create_table(
        "finished_races",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.String(length=16), server_default="race", nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("people", sa.Integer(), nullable=False),
        sa.Column("bots", sa.String(length=16), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("practice", sa.Boolean(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_finished_races")),
    )
    op.create_index(op.f("ix_finished_races_finished_at"), "finished_races", ["finished_at"])
    op.create_table(
        "race_results",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("bot_level", sa.String(length=16), nullable=True),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("laps", sa.Integer(), nullable=False),
        sa.Column("tricks", sa.Integer(), nullable=False),
        sa.Column("gas", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=True),
        sa.Column("sigma_before", sa.Float(), nullable=True),
        sa.Column("mu_after", sa.Float(), nullable=True),
        sa.Column("sigma_after", sa.Float(), nullable=True),
        foreign_key("race_results", "game_id", "finished_races.game_id", "CASCADE"),
        foreign_key("race_results", "player_id", "players.id", "SET NULL"),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_race_results")),
    )
    op.create_index(op.f("ix_race_results_player_id"), "race_results", ["player_id"])
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("value", sa.String(length=128), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_server_keys")),
    )


def downgrade() -> None:
    op.drop_table("server_keys")
    op.drop_index(op.f("ix_race_results_player_id"), table_name="race_results")
    op.drop_table("race_results")
    op.drop_index(op.f("ix_finished_races_finished_at"), table_name="finished_races")
    op.drop_table("finished_races")
    op.drop_index("ix_players_board", table_name="players")
    op.drop_table("players")
