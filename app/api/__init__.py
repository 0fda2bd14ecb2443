"""The JSON API under ``/api``: its routes (:mod:`app.api.routes`) and the Pydantic models
that document and validate it (:mod:`app.api.models`)."""
