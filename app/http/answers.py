"""How the web layer answers: JSON, pages, htmx fragments (at the pages' own addresses, so
they say so to caches: :func:`vary`), and the redirect a form without JavaScript gets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
from fastapi import Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import BaseModel

from app.http.previews import View, with_previews
from app.http.web.templating import templates


class FastJSON(JSONResponse):
    """JSON encoded by orjson: the same document, several times faster to build."""

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def json_response(content: Any, status_code: int = 200) -> JSONResponse:
    """``content`` as JSON; an API route returns it rather than its model, which FastAPI
    would validate again on every move (the tests validate real answers against it)."""
    return FastJSON(content, status_code=status_code)


def seat_body(
    game_id: str, token: str, state: View, seat: int | None = None, **more: Any
) -> dict[str, Any]:
    """A seat's answer: its race, its seat (when named), its token, its state with the
    turn's previews, then ``more``."""
    seated = {} if seat is None else {"seat": seat}
    return {"game_id": game_id, **seated, "token": token, "state": with_previews(state), **more}


def published(model: type[BaseModel], item: object) -> dict[str, Any]:
    """The fields ``model`` (a response model) names, read off ``item``: what the API
    publishes of it and nothing more (a player's id stays out)."""
    return {name: getattr(item, name) for name in model.model_fields}


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def vary(response: Response) -> Response:
    response.headers["Vary"] = "HX-Request"
    response.headers.setdefault("Cache-Control", "no-store")
    return response


def page(
    request: Request,
    name: str,
    context: dict[str, Any],
    status_code: int = 200,
    block: str | None = None,
) -> Response:
    return vary(
        templates.TemplateResponse(
            request, name, context, status_code=status_code, block_name=block
        )
    )


def see_other(url: str) -> Response:
    return vary(RedirectResponse(url, status_code=303))


def redirect_or_fragment(request: Request, url: str, fragment: Callable[[], Response]) -> Response:
    """htmx gets the ``fragment``; any other client a 303 to ``url``, where the page shows
    the same (so a reload never repeats a form's POST)."""
    return fragment() if is_htmx(request) else see_other(url)
