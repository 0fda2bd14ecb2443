"""The live races and the tombstones of gone ones."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision, down_revision = "0001", None


def upgrade() -> None:
    tables: dict[str, dict[str, sa.types.TypeEngine[Any]]] = {
        "races": {"owner": sa.String(), "data": sa.LargeBinary(), "updated_at": sa.Float()},
        "tombstones": {"digests": sa.String(), "reason": sa.String(), "gone_at": sa.Float()},
    }
    for table, columns in tables.items():
        required = (sa.Column(name, kind, nullable=False) for name, kind in columns.items())
        op.create_table(table, sa.Column("id", sa.String(), primary_key=True), *required)
    op.create_index("ix_tombstones_gone_at", "tombstones", ["gone_at"])
