"""The web layer's form reader gives the same fields as Starlette's own parser."""

from __future__ import annotations

import asyncio

import pytest
from fastapi import HTTPException
from starlette.requests import Request

from app.http.web.form_body import MAX_FIELDS, form_fields

BODIES = [
    b"turn=3&choice=up%3Azero&gas=2&zero_effect=speed&intent=play",
    b"a=1&a=2&b=&c",  # a repeated name (the last wins), a blank value, a bare name
    b"name=%C3%A9l%C3%A8ne+x&x=%ZZ&y=caf\xe9",  # UTF-8 escapes, a bad escape, raw Latin-1
    b"&&a=1&",
    b"a=b=c&d=%2B+",
    b"",
]


def _request(body: bytes, content_type: str) -> Request:
    sent = False

    async def receive() -> dict[str, object]:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    headers = [(b"content-type", content_type.encode())]
    return Request({"type": "http", "method": "POST", "headers": headers}, receive)


async def _starlette_fields(body: bytes) -> dict[str, str]:
    form = await _request(body, "application/x-www-form-urlencoded").form()
    return {k: v for k, v in form.items() if isinstance(v, str)}


@pytest.mark.parametrize("body", BODIES)
@pytest.mark.parametrize(
    "content_type",
    ["application/x-www-form-urlencoded", "Application/X-WWW-Form-Urlencoded; charset=UTF-8"],
)
def test_urlencoded_fields_match_starlette(body: bytes, content_type: str) -> None:
    ours = asyncio.run(form_fields(_request(body, content_type)))
    assert ours == asyncio.run(_starlette_fields(body))


def test_multipart_form_goes_through_starlette() -> None:
    body = b'--xx\r\nContent-Disposition: form-data; name="gas"\r\n\r\n4\r\n--xx--\r\n'
    request = _request(body, "multipart/form-data; boundary=xx")
    assert asyncio.run(form_fields(request)) == {"gas": "4"}


def test_too_many_fields_is_a_400_with_a_sentence() -> None:
    body = "&".join(f"f{i}=1" for i in range(MAX_FIELDS + 1)).encode()
    with pytest.raises(HTTPException) as caught:
        asyncio.run(form_fields(_request(body, "application/x-www-form-urlencoded")))
    assert caught.value.status_code == 400
    assert "Too many fields" in caught.value.detail
