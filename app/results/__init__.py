"""Results that outlast a race (players, ratings, finished races, seats' results) in SQL with
Alembic migrations of their own, read and written through
:class:`~app.results.store.ResultsStore`; the domain hands a race over as a
:class:`~app.results.store.Finish`. This layer knows neither the web stack nor the races.
"""
