"""The HTML site (htmx pages). Deliberately empty of imports: :mod:`app.http.errors` uses the
templating module, and importing this package must not pull in the routes."""
