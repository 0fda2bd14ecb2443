"""The web layer, the only one that knows HTTP: dependencies, error answers, security,
the protocol's limits, logging, docs and static files, and the API and HTML routes."""
