"""Where live races are kept: the rules every store keeps (:mod:`app.storage.policy`) over
two backends, SQLite (a file, or memory) and Redis (shared by every worker)."""
