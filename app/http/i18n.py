"""The language of each answer, chosen per request (:func:`choose`: ``?lang=``, the
``zzv_lang`` cookie, then ``Accept-Language``; English when nothing matches), and its
gettext catalogs (docs/translating.md), each compiled in memory on first use. The
pseudo-locale ``en-XA`` brackets and lengthens every message of the English template, so
a test finds text that skips the catalog and pages that cannot take longer words."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from functools import cache
from gettext import NullTranslations
from pathlib import Path

from babel import Locale
from babel.dates import format_date, format_interval, format_time, get_datetime_format
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent
from babel.support import Translations
from starlette.datastructures import Headers, MutableHeaders, QueryParams
from starlette.requests import cookie_parser
from starlette.types import Receive, Scope, Send

from app.http.asgi import HttpMiddleware, WatchedSend

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"  # in the package: the wheel ships it

DOMAIN = "messages"

DEFAULT = "en"

LANGUAGES: dict[str, str] = {
    "en": "English",
    "es": "Español",
    "pt-BR": "Português (Brasil)",
    "de": "Deutsch",
    "fr": "Français",
    "ja": "日本語",
    "ar": "العربية",
}
"""The languages a player can pick, by BCP 47 tag, each named in itself."""

PUBLIC_PATHS = frozenset(
    {"/", "/rules", "/how-to-play", "/learn", "/daily", "/leaderboard", "/fair"}
)
"""The pages a search engine may list, each offered in every language (``hreflang``)."""

PSEUDO = "en-XA"
"""The pseudo-locale: never offered in the picker, chosen only by its exact tag, never as
another tag's fallback."""

COOKIE = "zzv_lang"


def known(tag: str | None) -> str | None:
    """``tag`` as one of :data:`LANGUAGES` (or :data:`PSEUDO`), matched without regard to
    case or ``-``/``_``; None when it is not one."""
    wanted = tag.strip().replace("_", "-").lower() if tag else None
    return next((code for code in (*LANGUAGES, PSEUDO) if code.lower() == wanted), None)


# One entry of an ``Accept-Language`` header: a tag (or ``*``) and perhaps its quality.
_ACCEPTED = re.compile(
    r"\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*(?:[qQ]\s*=(.*?))?)?\s*", re.DOTALL
)


def parse_accept_language(header: str) -> list[str]:
    """The tags of an ``Accept-Language`` header, most wanted first (by quality value,
    then order); tags with ``q=0`` and malformed entries are dropped."""
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")):
        entry = _ACCEPTED.fullmatch(part)
        if entry is None:
            continue
        try:
            quality = 1.0 if entry[2] is None else float(entry[2])
        except ValueError:
            continue
        if quality > 0:
            ranked.append((-quality, position, entry[1]))
    return [tag for _, _, tag in sorted(ranked)]


def negotiate(accepted: Iterable[str]) -> str | None:
    """The first of :data:`LANGUAGES` that the tags ``accepted`` (most wanted first) ask
    for: an exact tag (:data:`PSEUDO` too), else the same language in another region
    (``pt-PT`` finds ``pt-BR``, ``es-MX`` finds ``es``); None if none does."""
    for tag in accepted:
        language = tag.split("-")[0].lower()
        same = (code for code in LANGUAGES if code.split("-")[0].lower() == language)
        if found := known(tag) or next(same, None):
            return found
    return None


def choose(query_lang: str | None, cookie_lang: str | None, accept_language: str) -> str:
    """The language of one answer: the query's, else the cookie's, else the header's."""
    return (
        known(query_lang)
        or known(cookie_lang)
        or negotiate(parse_accept_language(accept_language))
        or DEFAULT
    )


@dataclass(frozen=True, slots=True)
class Language:
    code: str
    locale: Locale
    dir: str  # for ``<html dir>``: rtl or ltr, as Babel has the locale


@cache
def language(code: str) -> Language:
    locale = Locale.parse("en" if code == PSEUDO else code.replace("-", "_"))
    return Language(code, locale, locale.text_direction)


_current: ContextVar[str] = ContextVar("zzv_language", default=DEFAULT)


def current() -> Language:
    return language(_current.get())


def use(code: str) -> None:
    _current.set(code)


def catalog_path(code: str) -> Path:
    return LOCALE_DIR / code.replace("-", "_") / "LC_MESSAGES" / f"{DOMAIN}.po"


def template_path() -> Path:
    return LOCALE_DIR / f"{DOMAIN}.pot"


# A value a message is filled with (``%(laps)s``): every translation keeps each one.
PLACEHOLDER = re.compile(r"%\([A-Za-z_][A-Za-z0-9_]*\)[sd]|%[sd]|\{[A-Za-z_][A-Za-z0-9_]*\}")
# Kept as they are by the pseudo-locale: placeholders, inline tags, character references
# (one group, so that splitting on it keeps them, at the odd places).
_NOT_WORDS = re.compile(rf"({PLACEHOLDER.pattern}|<[^>]*>|&#?\w+;)")


def pseudo(text: str) -> str:
    """``text`` as the pseudo-locale shows it: bracketed, vowels doubled (about 40% longer)."""
    parts = _NOT_WORDS.split(text)
    for index in range(0, len(parts), 2):
        parts[index] = re.sub(r"([aeiouAEIOU])", r"\1\1", parts[index])
    return "[" + "".join(parts) + "]"


@cache
def translations(code: str) -> NullTranslations:
    """``code``'s catalog, compiled in memory (the pseudo-locale's from the template)."""
    path = template_path() if code == PSEUDO else catalog_path(code)
    if code == DEFAULT or not path.exists():
        return NullTranslations()
    catalog = read_po(io.BytesIO(path.read_bytes()), locale=language(code).locale)
    if code == PSEUDO:
        for message in catalog:
            if message.id:
                ids = message.id
                message.string = pseudo(ids) if isinstance(ids, str) else tuple(map(pseudo, ids))
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(fp=compiled, domain=DOMAIN)


def N_(message: str) -> str:
    """``message`` itself, marked for the catalog: written where no request's language is
    known yet, translated with :func:`gettext` where it is shown."""
    return message


def gettext(message: str) -> str:
    return translations(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations(_current.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` as meant in ``context`` ("random" bots, a "random" seed)."""
    return translations(_current.get()).pgettext(context, message)


def number(value: float) -> str:
    """``value`` as the current language writes numbers, ungrouped (a rating reads as one)."""
    return format_decimal(value, locale=current().locale, group_separator=False)


def percent(share: float) -> str:
    """``share`` (0 to 1) as a whole percentage in the current language."""
    # Rounded as the rest of the site rounds (round(100 * share)), then written.
    return format_percent(round(100 * share) / 100, locale=current().locale)


_ORDINALS = {
    "one": N_("%(n)sst"),
    "two": N_("%(n)snd"),
    "few": N_("%(n)srd"),
    "other": N_("%(n)sth"),
}


def ordinal(n: int) -> str:
    """``n`` as a place, by the language's ordinal rule (CLDR's one/two/few/other)."""
    form = current().locale.ordinal_form(n)
    return gettext(_ORDINALS.get(form, _ORDINALS["other"])) % {"n": n}


def day(value: date | str) -> str:
    """A day (a ``date`` or ``YYYY-MM-DD``) in the current language."""
    when = date.fromisoformat(value) if isinstance(value, str) else value
    return format_date(when, "medium", locale=current().locale)


def days(first: date, last: date) -> str:
    """The days ``first`` to ``last`` as one span."""
    return format_interval(first, last, "yMMMd", locale=current().locale)


def clock(value: time | datetime) -> str:
    """A time of day, UTC, in the current language's short form."""
    return format_time(value, "short", tzinfo=UTC, locale=current().locale)


def moment(value: datetime) -> str:
    """A day and time, UTC, in the current language."""
    locale = current().locale
    # A naive value is UTC already (as the results store keeps times).
    shown = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return (
        str(get_datetime_format("medium", locale=locale))
        .replace("{0}", format_time(shown, "short", tzinfo=UTC, locale=locale))
        .replace("{1}", format_date(shown, "medium", locale=locale))
    )


def _vary(headers: MutableHeaders) -> None:
    headers.add_vary_header("Accept-Language, Cookie")


class LanguageMiddleware(HttpMiddleware):
    """Sets each request's language (:func:`choose`) for its task, in a context variable
    that templates, error pages and the API's ``message`` all read, and adds ``Vary`` by it."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = Headers(scope=scope)
        query = QueryParams(scope.get("query_string", b"")).get("lang")
        cookie = cookie_parser(headers.get("cookie", "")).get(COOKIE)
        code = choose(query, cookie, headers.get("accept-language", ""))
        token = _current.set(code)
        scope.setdefault("state", {})["language"] = code

        try:
            await self.app(scope, receive, WatchedSend(send, _vary))
        finally:
            _current.reset(token)
