"""The template environment's shortcuts print what plain Jinja prints."""

from __future__ import annotations

from typing import Any

import pytest
from jinja2 import Environment, select_autoescape
from markupsafe import Markup, escape

from app.http.web.labels import seat_name
from app.http.web.templating import _output_escape, templates


class _Html:
    def __html__(self) -> str:
        return "<i>own</i>"

    def __repr__(self) -> str:  # a stable test id for every xdist worker
        return "_Html()"


VALUES: list[Any] = [
    "plain",
    "<b>\"Tom\" & 'Jerry'</b>",
    "",
    Markup("<b>kept</b>"),
    0,
    42,
    -7,
    True,
    None,
    2.5,
    _Html(),
    ["a<", 1],
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_a_printed_value_reads_as_markupsafe_escapes_it(value: Any) -> None:
    assert str(_output_escape(value)) == str(escape(value))


SOURCE = (
    "{% macro m(x) %}<i>{{ x }}</i>{% endmacro %}"
    "{% for v in values %}{{ v }}|{{ f(v) }}|{{ m(v) }}|{{ d.k }}|{{ o.real }}"
    "|{{ seat_name(loop.index0 % 4, 1) }};{% endfor %}"
    "{{ missing }}{{ d.nothing }}{{ f(loop_free=1) }}"
)


def test_a_template_renders_as_in_plain_jinja() -> None:
    """Printing, calls of plain functions and macros, and attribute lookups on dicts and
    objects give the same page in the site's environment as in Jinja's own."""

    def f(v: Any = None, loop_free: int = 0) -> str:
        return f"<{v!r}:{loop_free}>"

    # seat_name is one of the functions the site's context calls directly.
    context = {"values": VALUES, "f": f, "d": {"k": "<dict>"}, "o": 3, "seat_name": seat_name}
    plain = Environment(autoescape=select_autoescape(default_for_string=True))
    ours = templates.env.overlay()
    ours.autoescape = plain.autoescape
    expected = plain.from_string(SOURCE).render(context)
    assert ours.from_string(SOURCE).render(context) == expected
    assert "&lt;b&gt;" in expected and "<b>kept</b>" in expected and "You;" in expected
