"""One Alembic script per schema change of the race file."""
