"""The HTML site: routes (:mod:`app.web.routes`), forms (:mod:`app.web.forms`), the one
Jinja environment (:mod:`app.web.templating`), labels (:mod:`app.web.labels`), event
sentences (:mod:`app.web.narration`), the event log's grouping (:mod:`app.web.timeline`)
and the table's view models (:mod:`app.web.table`).

Deliberately empty of imports: :mod:`app.errors` uses the templating module, and importing
this package must not pull in the routes (which import :mod:`app.errors`)."""
