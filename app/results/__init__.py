"""Results that outlast a race: players, their ratings, finished races and each seat's
result, in SQL (SQLAlchemy 2, async) with Alembic migrations of their own.

A SQLite file ``results.sqlite3`` in the data folder by default, PostgreSQL when
``ZZV_DATABASE_URL`` is set (:mod:`app.results.database`); :class:`~app.results.store.
ResultsStore` is the one way the layers above read and write them, one transaction per
call. This layer knows neither the web stack nor the races' domain: the domain turns a
finished race into a :class:`~app.results.store.Finish` and hands it here.
"""
