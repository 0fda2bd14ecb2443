"""Starlette's gzip middleware deflating with ISA-L (``isal``) where it can be imported: the
same gzip, several times faster than zlib's level 3 at a close size (docs/benchmarks.md)."""

from __future__ import annotations

import zlib
from typing import Any

from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware, GZipResponder
from starlette.types import Receive, Scope, Send

try:
    from isal import isal_zlib as _isal
except ImportError:  # pragma: no cover - isal ships wheels for the platforms we run on
    _isal = None  # type: ignore[assignment]

# ISA-L's level (0 to 3): 1 is its fast deflate with Huffman tables made for the data,
# within a few percent of zlib's level 3 on the table's HTML.
ISAL_LEVEL = 1
GZIP_WBITS = 16 + zlib.MAX_WBITS  # a gzip header and trailer around the deflate stream


def gzip_compressor(zlib_level: int) -> Any:
    """A fresh compressor for one answer: ISA-L's when installed, else zlib's at ``zlib_level``."""
    if _isal is not None:
        return _isal.compressobj(ISAL_LEVEL, _isal.DEFLATED, GZIP_WBITS)
    return zlib.compressobj(zlib_level, zlib.DEFLATED, GZIP_WBITS)


class _Responder(GZipResponder):
    """Starlette's gzip responder with :func:`gzip_compressor` doing the deflate."""

    @property
    def compressor(self) -> Any:
        if self._compressor is None:
            self._compressor = gzip_compressor(self.compresslevel)
        return self._compressor


class GzipAnswers(GZipMiddleware):
    """Starlette's ``GZipMiddleware`` with ISA-L; ``compresslevel`` is zlib's (no ``isal``)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or "gzip" not in Headers(scope=scope).get("Accept-Encoding", ""):
            await super().__call__(scope, receive, send)  # as it is: no deflate to swap
            return
        responder = _Responder(
            self.app,
            self.minimum_size,
            compresslevel=self.compresslevel,
            thread_minimum_size=self.thread_minimum_size,
            exclude_content_types=self.exclude_content_types,
        )
        await responder(scope, receive, send)
