"""The text fields of a submitted form, read the way Starlette reads them.

Owned by the web layer. A form the site's pages post is ``application/x-www-form-urlencoded``
and a few dozen bytes long; Starlette parses it with ``python-multipart``'s streaming parser,
one Python callback per piece of every field. The standard library's query-string parser
reads the same body to the same fields (names and values decoded from Latin-1 and
percent-decoded as UTF-8, blank values kept, the last of a repeated name winning) in one
call. Any other form (multipart) still goes through Starlette.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

from fastapi import HTTPException, Request

URLENCODED = "application/x-www-form-urlencoded"

MAX_FIELDS = 1000
"""As many fields as Starlette accepts in a form (its own default)."""


def _is_urlencoded(content_type: str) -> bool:
    return content_type.partition(";")[0].strip().lower() == URLENCODED


async def form_fields(request: Request) -> dict[str, str]:
    """The submitted form's text fields (files, which the site's forms never send, left out)."""
    if not _is_urlencoded(request.headers.get("content-type", "")):
        return {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
    body = (await request.body()).decode("latin-1")
    try:
        pairs = parse_qsl(body, keep_blank_values=True, max_num_fields=MAX_FIELDS)
    except ValueError:
        message = f"Too many fields. Maximum number of fields is {MAX_FIELDS}."
        raise HTTPException(400, message) from None
    return dict(pairs)
