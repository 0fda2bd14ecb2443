"""The web layer reads a submitted form with Starlette's own parser: its text fields, and a
400 with a sentence for a form with too many fields."""

from __future__ import annotations

import asyncio

from fastapi.testclient import TestClient
from starlette.requests import Request

from app.http.web.forms import form_fields


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


def test_urlencoded_fields_are_read_as_text() -> None:
    body = b"turn=3&choice=up%3Azero&gas=2&a=1&a=2&b=&name=%C3%A9l%C3%A8ne+x"
    fields = asyncio.run(form_fields(_request(body, "application/x-www-form-urlencoded")))
    assert fields == {
        "turn": "3",
        "choice": "up:zero",
        "gas": "2",
        "a": "2",
        "b": "",
        "name": "élène x",
    }


def test_a_multipart_form_is_read_too() -> None:
    body = b'--xx\r\nContent-Disposition: form-data; name="gas"\r\n\r\n4\r\n--xx--\r\n'
    request = _request(body, "multipart/form-data; boundary=xx")
    assert asyncio.run(form_fields(request)) == {"gas": "4"}


def test_too_many_fields_is_a_400_with_a_sentence(client: TestClient) -> None:
    body = "&".join(f"f{i}=1" for i in range(1001))
    headers = {"content-type": "application/x-www-form-urlencoded", "accept": "application/json"}
    response = client.post("/games", content=body, headers=headers)
    # Starlette's 400 for a body it cannot read is answered as any malformed input.
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "invalid_request"
