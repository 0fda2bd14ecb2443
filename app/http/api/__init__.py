"""The JSON API under ``/api``: its routes (:mod:`app.http.api.routes`) and the Pydantic models
that document and validate it (:mod:`app.http.api.models`)."""
