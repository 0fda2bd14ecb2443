"""Serving ``static/``: a fingerprinted URL (``?v=<hash>``, ``asset_url`` in the web layer)
never changes meaning, so it is cached for a year; any other may change on the next deploy
and is revalidated."""

from __future__ import annotations

import os

from fastapi.staticfiles import StaticFiles
from starlette.datastructures import QueryParams
from starlette.responses import Response
from starlette.types import Scope

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"  # kept, but checked with its ETag


class StaticAssets(StaticFiles):
    """:class:`StaticFiles` with ``Cache-Control`` chosen by the URL's fingerprint."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        query = QueryParams(scope.get("query_string", b""))
        response.headers["Cache-Control"] = IMMUTABLE if query.get("v") else REVALIDATE
        return response
