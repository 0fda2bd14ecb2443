"""The HTML site: routes (:mod:`app.http.web.routes`), forms (:mod:`app.http.web.forms`), the one
Jinja environment (:mod:`app.http.web.templating`), labels (:mod:`app.http.web.labels`), event
sentences (:mod:`app.http.web.narration`), the event log's grouping (:mod:`app.http.web.timeline`)
and the table's view models (:mod:`app.http.web.table`).

Deliberately empty of imports: :mod:`app.http.errors` uses the templating module, and importing
this package must not pull in the routes (which import :mod:`app.http.errors`)."""
