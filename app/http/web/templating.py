"""The one Jinja environment of the site, for pages, fragments and error pages alike: every
template sees the same globals (fingerprinted asset URLs, the vendored htmx, the suits'
display data, the move form's labels), so an error page loads the same files as any page.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, MutableMapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, Template, select_autoescape
from jinja2.runtime import Context
from jinja2_fragments.fastapi import Jinja2Blocks
from markupsafe import Markup, escape
from starlette.requests import Request

try:
    # MarkupSafe's C escaper, without the Markup that escape() wraps its result in.
    from markupsafe._speedups import _escape_inner as _escape_text
except ImportError:  # pragma: no cover - MarkupSafe without its C part: escape does the same
    _escape_text = escape

from app.http import i18n
from app.http.addresses import public_base_url
from app.http.web import labels
from app.http.web.forms import bot_level
from app.http.web.site import DARK_BACKGROUND, LIGHT_BACKGROUND
from app.paths import STATIC_DIR, TEMPLATES_DIR
from engine import LAPS_TO_WIN, MAX_GAS, TRICKS_PER_ROUND


@lru_cache(maxsize=64)
def _fingerprint(path: str, mtime_ns: int) -> str:
    # Keyed on the modification time too, so an edited file gets a new fingerprint.
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:10]


def asset_url(name: str) -> str:
    """URL of a file under ``static/`` with a content fingerprint, so browsers never run
    a stale stylesheet or script after a deploy."""
    path = STATIC_DIR / name
    try:
        version = _fingerprint(str(path), path.stat().st_mtime_ns)
    except OSError:
        return f"/static/{name}"
    return f"/static/{name}?v={version}"


def _vendored(pattern: str) -> str | None:
    """The newest vendored file matching ``pattern`` (its pinned version is in its name)."""
    found = sorted((STATIC_DIR / "vendor").glob(pattern))
    return f"vendor/{found[-1].name}" if found else None


class _Environment(Environment):
    """Jinja's environment with each template's globals as one plain dict, not a
    ``ChainMap`` that every render and include walks key by key in Python. The globals are
    all set in this module before any template is loaded, so a snapshot sees them all."""

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return {**self.globals, **(d or {})}

    def getattr(self, obj: Any, attribute: str) -> Any:
        """``obj.attribute`` as Jinja resolves it, a plain dict's keys looked up first (Jinja
        tries the attribute first: on a dict, a raised and caught exception per lookup). A
        dict has no attributes but its type's, so for any other name the answer is the same."""
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        # Jinja's own lookup, written out: no extra frame per lookup.
        try:
            return getattr(obj, attribute)
        except AttributeError:
            pass
        try:
            return obj[attribute]
        except (TypeError, LookupError, AttributeError):
            return self.undefined(obj=obj, name=attribute)


_DICT_ATTRIBUTES = frozenset(dir(dict))
"""Names that ``some_dict.name`` finds as attributes (``items``, ``get``, ...)."""


def _output_escape(value: Any) -> Any:
    """What ``{{ value }}`` prints, the same text as :func:`markupsafe.escape` gives, but not
    wrapped in ``Markup`` (an output is only ever joined into the page)."""
    kind = type(value)
    if kind is Markup:
        return value
    if kind is str:
        return _escape_text(value)
    if kind is int:
        return str(value)
    return escape(value)


class _Template(Template):
    """Jinja's template, its printed values escaped by :func:`_output_escape` (Jinja's
    ``escape`` wraps even a number in a new ``Markup``, hundreds of times per table)."""

    @classmethod
    def _from_namespace(
        cls,
        environment: Environment,
        namespace: MutableMapping[str, Any],
        globals: MutableMapping[str, Any],
    ) -> Template:
        if namespace.get("escape") is escape:
            namespace["escape"] = _output_escape
        return super()._from_namespace(environment, namespace, globals)


class _Context(Context):
    """Jinja's context, calling :data:`_PLAIN_CALLS` (mostly :func:`piece`, dozens of times
    per table) directly: :meth:`Context.call` inspects every callable for a context to pass."""

    def call(__self, __obj: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if __obj in _PLAIN_CALLS:
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
            return __obj(*args, **kwargs)
        return super().call(__obj, *args, **kwargs)


_Environment.template_class = _Template
_Environment.context_class = _Context


templates = Jinja2Blocks(
    env=_Environment(
        loader=FileSystemLoader(str(TEMPLATES_DIR)),
        # Asked for every include and macro call of every render: decided once per name.
        autoescape=lru_cache(maxsize=256)(select_autoescape()),
        # Each template is read once per process (a system call per include saved);
        # ``zzv serve --reload`` restarts the process when a template changes.
        auto_reload=False,
        # A fixed set of files: a plain dict, not Jinja's LRU cache (a lock and a deque
        # on every include).
        cache_size=-1,
        extensions=["jinja2.ext.i18n"],
    )
)
"""Renders every page, fragment (``block_name=``) and error page."""

# The callables read the request's language (app.http.i18n) each time, so one environment
# serves every language; newstyle: ``_("Lap %(n)s", n=laps)`` formats and escapes itself.
templates.env.install_gettext_callables(  # type: ignore[attr-defined]
    i18n.gettext, i18n.ngettext, newstyle=True, pgettext=i18n.pgettext
)


def once(name: str) -> Markup:
    """Template ``name`` rendered from the globals alone, once per process and language:
    for markup that is the same on every page."""
    return _once(name, i18n.current().code)


@lru_cache(maxsize=64)
def _once(name: str, language: str) -> Markup:
    return Markup(templates.env.get_template(name).render())


PIECES_KEPT = 4096
"""How many rendered pieces :func:`piece` keeps (least recently used go first)."""


@lru_cache(maxsize=PIECES_KEPT)
def _piece(ref: str, args: tuple[Hashable, ...], language: str) -> Markup:
    name, macro = ref.split(":")
    module = templates.env.get_template(f"partials/{name}.html").module
    return Markup(getattr(module, macro)(*args))


def piece(ref: str, *args: Hashable) -> Markup:
    """Macro ``name:macro`` of ``templates/partials/name.html`` called with ``args``, each set
    of (hashable, immutable) arguments rendered once per language and kept: for markup that
    is a function of its arguments alone (a card's face, a lane), as the macro sees the
    globals, never a page's context."""
    return _piece(ref, args, i18n.current().code)


def public_url(request: Request, path: str) -> str:
    """``path`` on the site's public address (``ZZV_PUBLIC_URL``, else the request's own):
    the absolute address a link preview needs."""
    return public_base_url(request) + path.lstrip("/")


_PLAIN_GLOBALS: dict[str, Callable[..., Any]] = {
    "language": i18n.current,
    "once": once,
    "public_url": public_url,
    "piece": piece,
    "asset_url": asset_url,
    "seat_name": labels.seat_name,
    "bot_level": bot_level,
}
"""The template globals that are plain functions of their arguments (no Jinja context)."""

_PLAIN_CALLS = frozenset(_PLAIN_GLOBALS.values())

templates.env.globals.update(
    _PLAIN_GLOBALS,
    languages=i18n.LANGUAGES,
    public_paths=i18n.PUBLIC_PATHS,
    theme_light=LIGHT_BACKGROUND,
    theme_dark=DARK_BACKGROUND,
    # htmx fingerprinted like every asset, so browsers may keep it for good.
    htmx_src=asset_url(htmx) if (htmx := _vendored("htmx-2.*.min.js")) else None,
    sse_src=f"/static/{sse}" if (sse := _vendored("sse-2.*.min.js")) else None,
    suits=labels.SUITS,
    values=labels.PRINTED_VALUES,
    zero_effect_labels=labels.ZERO_EFFECT_LABELS,
    zero_five_labels=labels.ZERO_FIVE_LABELS,
    tricks_per_round=TRICKS_PER_ROUND,
    laps_to_win=LAPS_TO_WIN,
    max_gas=MAX_GAS,
)

# What a player reads as a number, a place, a share or a date: in the request's language.
templates.env.filters.update(
    ordinal=i18n.ordinal, number=i18n.number, percent=i18n.percent, day=i18n.day, moment=i18n.moment
)
