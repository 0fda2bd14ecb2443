"""The language picker: a plain form on every page that keeps the choice in a cookie
and sends the browser back where it was (post/redirect/get, no script needed)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse

from app.http import i18n
from app.http.deps import SettingsDep, is_https
from app.http.errors import InvalidRequest
from app.http.i18n import N_
from app.http.web.forms import form_fields

router = APIRouter(include_in_schema=False)

COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600


class UnknownLanguage(InvalidRequest, status=400, code="unknown_language"):
    """The picker sent a language the site does not have (400)."""

    sentence = N_("That language is not one this site speaks.")


@router.post("/language")
async def pick_language(request: Request, settings: SettingsDep) -> RedirectResponse:
    """Keep the picked language and go back to the page the picker was on."""
    form = await form_fields(request)
    code = i18n.known(form.get("lang"))
    if code is None:
        raise UnknownLanguage()
    target = form.get("next")
    # Only a path on this site, else the start page: the picker must not send a browser away.
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        target = "/"
    response = RedirectResponse(target, 303)
    response.set_cookie(
        i18n.COOKIE,
        code,
        path="/",
        max_age=COOKIE_MAX_AGE_SECONDS,
        samesite="lax",
        secure=is_https(request, settings),
    )
    return response
