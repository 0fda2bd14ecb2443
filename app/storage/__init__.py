"""Where live races are kept: the store interface, the rules every store keeps (written
once, :mod:`app.storage.policy`) and the two backends below them, SQLite (a file, or
memory) and Redis (shared by every worker)."""
