"""Results that outlast a race, in SQL, through :class:`~app.results.store.ResultsStore`
(a race arrives as a :class:`~app.results.store.Finish`); knows neither web nor races."""
