"""Every error the server answers with: a stable ``code`` and a ``message``, as JSON
(``/api`` and clients that ask for it), as ``templates/error.html``, or to htmx as that
page's ``error`` block alone. The races' refusals get their status here
(:data:`RACE_STATUS`). A message never holds a token, a hidden card or anything else the
client did not already send or see."""

from __future__ import annotations

import html
import logging
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from app.http.answers import is_htmx, page, vary
from app.http.i18n import N_, ngettext
from app.http.i18n import gettext as _
from app.http.previews import with_previews
from app.http.race_words import race_sentence
from app.live.hub import TooManyStreams as StreamsFull
from app.races.errors import RaceError, TalkTooFast
from app.results.errors import ResultsUnavailable
from app.storage.interface import StoreUnavailable

log = logging.getLogger("zzv.errors")

ExceptionHandler = Callable[[Request, Exception], Awaitable[Response]]


# Whatever failed (a store, a database, a restart) usually comes back within seconds.
RETRY_SOON = {"Retry-After": "5"}


class AppError(Exception):
    """A deliberate error answer. A subclass names its status and code in its class line,
    its default sentence (translated when used) and the headers every answer of it carries."""

    status_code: int = 500
    code: str = "internal_error"
    sentence: ClassVar[str] = N_("Something went wrong on our side.")
    fixed_headers: ClassVar[dict[str, str]] = {}
    payload: dict[str, Any] | None = None  # the whole JSON body, when it says more

    def __init_subclass__(cls, *, status: int | None = None, code: str | None = None) -> None:
        super().__init_subclass__()
        if status is not None:
            cls.status_code = status
        if code is not None:
            cls.code = code

    def __init__(self, message: str | None = None, *, headers: dict[str, str] | None = None):
        self.message = message or self.default_message()
        self.headers = {**self.fixed_headers, **(headers or {})}
        super().__init__(self.message)

    @classmethod
    def default_message(cls) -> str:
        return _(cls.sentence)

    def body(self) -> dict[str, Any]:
        if self.payload is not None:
            return self.payload
        return {"code": self.code, "message": self.message}


class InvalidRequest(AppError, status=422, code="invalid_request"):
    sentence = N_("The request does not match the expected format.")

    def __init__(self, message: str | None = None, errors: list[dict[str, Any]] | None = None):
        """Keep a list of ``{loc, msg, type}`` problems, without echoing input values."""
        super().__init__(message)
        self.payload = {**self.body(), "errors": errors or []}


_PLACES = {
    "body": "%(name)s",
    "query": N_("query parameter %(name)s"),
    "path": N_("path parameter %(name)s"),
    "header": N_("header %(name)s"),
}


def _where(source: str, path: list[str]) -> str:
    if not path:
        return source
    name = ".".join(path)
    return _(_PLACES[source]) % {"name": name} if source in _PLACES else f"{source} {name}"


def problem_sentence(problems: list[dict[str, Any]]) -> str:
    """What :class:`InvalidRequest` says of field-level ``problems``: the first, by field,
    and how many more (the ``errors`` sent beside it list them all, without values)."""
    if not problems:
        return InvalidRequest.default_message()
    first = problems[0]
    if first["type"] == "json_invalid":
        return _("The request body is not valid JSON.")
    source, *path = first["loc"] or ["body"]
    # The problem itself is pydantic's, in English, as in the errors list.
    words = {"where": _where(source, path), "problem": first["msg"], "num": len(problems) - 1}
    if len(problems) == 1:
        return _("The request does not match the expected format: %(where)s: %(problem)s.") % words
    return (
        ngettext(
            "The request does not match the expected format: %(where)s: %(problem)s (and %(num)s "
            "more problem).",
            "The request does not match the expected format: %(where)s: %(problem)s (and %(num)s "
            "more problems).",
            words["num"],
        )
        % words
    )


# No credentials at all; says nothing about whether the race exists.
class Unauthorized(AppError, status=401, code="unauthorized"):
    sentence = N_("Send the race's token as `Authorization: Bearer <token>`.")
    fixed_headers = {"WWW-Authenticate": "Bearer"}


class CrossSiteRequest(AppError, status=403, code="cross_site_request"):
    sentence = N_("This request came from another site and was refused.")


class UnknownHost(AppError, status=400, code="unknown_host"):
    sentence = N_(
        "This server does not answer to the host name this request was sent to; use "
        "its published address."
    )


class NotFound(AppError, status=404, code="not_found"):
    sentence = N_("Nothing lives at this address.")


class MethodNotAllowed(AppError, status=405, code="method_not_allowed"):
    sentence = N_("This address does not accept that method.")


class TooManyStreams(AppError, status=429, code="too_many_streams"):
    sentence = N_("Too many live connections from this client; close one and try again.")
    fixed_headers = RETRY_SOON


class PayloadTooLarge(AppError, status=413, code="payload_too_large"):
    sentence = N_("The request body is too large.")


class RateLimited(AppError, status=429, code="rate_limited"):
    sentence = N_("Too many requests. Slow down a little and try again.")

    def __init__(self, retry_after: int):
        super().__init__(
            _("Too many requests. Try again in %(seconds)s s.") % {"seconds": retry_after},
            headers={"Retry-After": str(retry_after)},
        )


class GameServerUnavailable(AppError, status=503, code="unavailable"):
    sentence = N_("The game server is unavailable right now. Please try again in a moment.")
    fixed_headers = RETRY_SOON


# The results database is down (:class:`ResultsUnavailable`); races go on meanwhile.
class ResultsDown(AppError, status=503, code=ResultsUnavailable.code):
    sentence = N_(
        "Players, ratings and finished races cannot be reached right now. Races go on, "
        "and every race that finishes meanwhile will be counted once they are back. "
        "Please try again in a moment."
    )
    fixed_headers = RETRY_SOON


class ServerStopping(AppError, status=503, code="server_stopping"):
    sentence = N_(
        "The server is restarting and could not finish this request; nothing of it was "
        "answered. Please send it again in a moment."
    )
    fixed_headers = {**RETRY_SOON, "Connection": "close"}


_RACE_STATUS_CODES = {
    400: "illegal_action",
    403: "not_creator",
    404: "not_found invite_not_found review_not_requested decision_not_reviewed",
    409: "stale_turn not_your_turn not_started invite_used race_started second_seat "
    "takeback_with_people leave_with_people not_away rematch_unavailable rematch_answered "
    "rematch_started no_rematch nothing_to_take_back takeback_race_over takeback_unavailable "
    "race_not_over daily_attempt_running cup_attempt_running talk_without_people talk_race_over",
    410: "expired",
    422: "unknown_message",
    429: "too_many_games too_many_reviews cup_address_full daily_address_full talk_too_fast",
    503: "server_full move_not_kept",
}
RACE_STATUS = {code: n for n, codes in _RACE_STATUS_CODES.items() for code in codes.split()}
"""The HTTP status of each race refusal's code; any other code (a name that does not fit)
is 422 (:func:`race_status`)."""


def race_status(code: str) -> int:
    return RACE_STATUS.get(code, InvalidRequest.status_code)


_RETRY_AFTER = {"too_many_games": "60", "server_full": "60", "move_not_kept": "1"}


def resume_links(game_ids: list[str], api: bool) -> list[dict[str, str]]:
    """Each race a refusal names (``too_many_games``: the player's unfinished races) with
    the address that resumes it: the API's (with the race's token) or its table's."""
    base = "/api/games/" if api else "/games/"
    return [{"game_id": game_id, "url": base + game_id} for game_id in game_ids]


def race_answer(error: RaceError, api: bool = True) -> AppError:
    """The web layer's answer to a race's refusal: same code and sentence, with its status
    and, where waiting helps, ``Retry-After``; the races it names linked for the API, or
    for the site when not ``api``."""
    retry = _RETRY_AFTER.get(error.code)
    if isinstance(error, TalkTooFast):
        retry = str(error.retry_after)
    message = race_sentence(error)
    answer = AppError(message, headers={"Retry-After": retry} if retry else None)
    answer.status_code = race_status(error.code)
    answer.code = error.code
    # a stale turn's refusal carries the current state
    answer.payload = {**error.body(), "message": message}
    if isinstance(answer.payload.get("state"), dict):
        answer.payload["state"] = with_previews(answer.payload["state"])
    if isinstance(answer.payload.get("races"), list):
        answer.payload["races"] = resume_links(answer.payload["races"], api)
    return answer


_JSON_PATHS = frozenset({"/healthz", "/readyz", "/openapi.json"})


def wants_json(request: Request) -> bool:
    if request.url.path.startswith("/api") or request.url.path in _JSON_PATHS:
        return True
    accept = request.headers.get("accept", "")
    return "text/html" not in accept and "application/json" in accept


def render_error(request: Request, error: AppError) -> Response:
    if wants_json(request):
        return JSONResponse(error.body(), status_code=error.status_code, headers=error.headers)
    fragment = is_htmx(request)
    context = {
        "status_code": error.status_code,
        "code": error.code,
        "message": error.message,
        "races": (error.payload or {}).get("races", []),
    }
    try:
        block = "error" if fragment else None
        answer = page(request, "error.html", context, error.status_code, block)
    except Exception:  # an error page must never fail: fall back to the plain one
        log.exception("error template failed")
        title = html.escape(error.message)
        panel = (
            f'<section class="error-panel"><h1>{title}</h1>'
            '<p><a href="/">Start a new race</a></p></section>'
        )
        if not fragment:
            panel = (
                "<!doctype html><html lang=en><head><meta charset=utf-8>"
                f"<title>{title}</title></head><body><main>{panel}</main></body></html>"
            )
        answer = vary(HTMLResponse(panel, status_code=error.status_code))
    answer.headers.update(error.headers)
    return answer


_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(request: Request) -> list[str]:
    """Every method the app's routes accept at the request's path (Starlette's own 405
    names none), and HEAD wherever GET is (:class:`app.http.asgi.HeadAsGetMiddleware`)."""

    def accepts(method: str) -> bool:
        scope = {**request.scope, "method": method}
        return any(route.matches(scope)[0] == Match.FULL for route in request.app.routes)

    return [name for name in _METHODS if accepts(name) or (name == "HEAD" and accepts("GET"))]


def _method_sentence(request: Request, allowed: list[str]) -> str:
    # A person who opened a form's address as a page (a bookmark, a link) hears it has none.
    if request.method == "GET" and "POST" in allowed and not wants_json(request):
        return _("This address is where a button sends its form; it has no page of its own.")
    return _("This address does not take %(method)s requests; it takes %(allowed)s.") % {
        "method": request.method,
        "allowed": ", ".join(allowed),
    }


def http_error(request: Request, exc: StarletteHTTPException) -> AppError:
    error: AppError
    if exc.status_code == 400:
        # Starlette's "error parsing the body": malformed input like any other (422).
        error = InvalidRequest(_("The request body could not be read as JSON or a form."))
    elif exc.status_code == 404:
        error = NotFound()
    elif exc.status_code == 405:
        allowed = allowed_methods(request)
        sentence = _method_sentence(request, allowed)
        error = MethodNotAllowed(sentence, headers={"Allow": ", ".join(allowed)})
    else:
        error = AppError(str(exc.detail))
        error.status_code = exc.status_code
        error.code = "http_error"
    error.headers = {**(exc.headers or {}), **error.headers}  # our Allow over Starlette's
    return error


def invalid_request(request: Request, exc: RequestValidationError) -> AppError:
    # Echo only where and what, never the submitted values (they may hold anything).
    problems = [
        {
            "loc": [str(part) for part in err.get("loc", ())],
            "msg": str(err.get("msg", "")),
            "type": str(err.get("type", "")),
        }
        for err in exc.errors()
    ]
    return InvalidRequest(problem_sentence(problems), problems)


def _answering(answer: Callable[[Request, Any], AppError], failed: str = "") -> ExceptionHandler:
    """A handler rendering what ``answer`` makes of the exception, logging ``failed`` if named."""

    async def handler(request: Request, exc: Exception) -> Response:
        if failed:
            log.warning("%s on %s %s", failed, request.method, request.url.path)
        return render_error(request, answer(request, exc))

    return handler


def install_error_handlers(app: FastAPI) -> None:
    """Route every error (ours, validation, 404/405, unexpected) through :func:`render_error`."""
    # Imported here: the page reads the seat's cookie helpers, whose module imports this one.
    from app.http.web.missing import missing_race_page

    @app.exception_handler(RaceError)
    async def on_race_error(request: Request, exc: RaceError) -> Response:
        """JSON where asked for; to a browser the missing race's page, or the error page."""
        missing = None if wants_json(request) else missing_race_page(request, exc)
        return missing or render_error(
            request, race_answer(exc, request.url.path.startswith("/api"))
        )

    handlers: dict[type[Exception], ExceptionHandler] = {
        AppError: _answering(lambda request, exc: exc),
        RequestValidationError: _answering(invalid_request),
        StarletteHTTPException: _answering(http_error),
        StreamsFull: _answering(lambda request, exc: TooManyStreams()),
        StoreUnavailable: _answering(
            lambda request, exc: GameServerUnavailable(), "game store unavailable"
        ),
        ResultsUnavailable: _answering(
            lambda request, exc: ResultsDown(), "results database unavailable"
        ),
    }
    for exception, handler in handlers.items():
        app.add_exception_handler(exception, handler)

    @app.exception_handler(Exception)
    async def on_crash(request: Request, exc: Exception) -> Response:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return render_error(request, AppError())
