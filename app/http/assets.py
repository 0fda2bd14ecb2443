"""Serving ``static/``: fingerprinted files are cached for a year, the rest revalidated.

Pages link their stylesheet and scripts with a content fingerprint (``?v=<hash>``, see
``asset_url`` in the web layer): such a URL never changes meaning, so browsers and proxies
may keep it for good. A URL without one (an icon sprite, a screenshot) may change on the
next deploy and is revalidated instead.
"""

from __future__ import annotations

import os
from typing import Any

from fastapi.staticfiles import StaticFiles
from starlette.datastructures import QueryParams
from starlette.responses import Response
from starlette.types import Scope

IMMUTABLE = "public, max-age=31536000, immutable"
"""``Cache-Control`` of a fingerprinted asset."""

REVALIDATE = "no-cache"
"""``Cache-Control`` of any other static file (kept, but checked with its ETag)."""


class StaticAssets(StaticFiles):
    """:class:`StaticFiles` with ``Cache-Control`` chosen by the URL's fingerprint."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        """The file's response, with a year's caching when the URL carries ``?v=``."""
        response = super().file_response(full_path, stat_result, scope, status_code)
        query = QueryParams(scope.get("query_string", b""))
        response.headers["Cache-Control"] = IMMUTABLE if query.get("v") else REVALIDATE
        return response


def static_app(directory: Any) -> StaticAssets:
    """The app mounted at ``/static``."""
    return StaticAssets(directory=directory, check_dir=False)
