"""A small HTML tree for tests that assert on elements rather than on substrings.

Built with the standard library's :class:`html.parser.HTMLParser`: elements keep their tag,
attributes, children and text, so a test can ask for "the ``li`` elements with class
``lane``" and read their classes, attributes and text, as a browser would see them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

EXPLANATION_KINDS = frozenset(
    {"gas", "speed", "laps", "middle", "removed", "lead", "zero_five", "why", "fx", "clock"}
)
"""Kinds of explanation the table offers (``data-explain`` up to its first dash); the
tests of the explanations must meet each."""

VOID_TAGS = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    ]
)
"""Elements that have no end tag."""


@dataclass(eq=False)
class Element:
    """One element: its tag, attributes (valueless ones as ``""``) and children."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Element | str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        """The element's classes."""
        return set(self.attrs.get("class", "").split())

    def find_all(self, tag: str | None = None, cls: str | None = None) -> list[Element]:
        """Descendants in document order with this tag and/or class."""
        found = []
        for child in self.children:
            if isinstance(child, Element):
                if (tag is None or child.tag == tag) and (cls is None or cls in child.classes):
                    found.append(child)
                found.extend(child.find_all(tag, cls))
        return found

    def find(self, tag: str | None = None, cls: str | None = None) -> Element:
        """The one descendant with this tag and/or class (an assertion fails otherwise)."""
        found = self.find_all(tag, cls)
        assert len(found) == 1, f"{len(found)} <{tag or '*'} class={cls!r}> in <{self.tag}>"
        return found[0]

    def text(self) -> str:
        """The text inside, whitespace runs collapsed to one space."""
        parts = [c if isinstance(c, str) else c.text() for c in self.children]
        return " ".join(" ".join(parts).split())


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document")
        self.open: list[Element] = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {name: value or "" for name, value in attrs})
        self.open[-1].children.append(element)
        if tag not in VOID_TAGS:
            self.open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.open[-1].children.append(Element(tag, {name: value or "" for name, value in attrs}))

    def handle_endtag(self, tag: str) -> None:
        # Close up to the matching open element; a stray end tag closes nothing.
        for depth in range(len(self.open) - 1, 0, -1):
            if self.open[depth].tag == tag:
                del self.open[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.open[-1].children.append(data)


def parse_html(html: str) -> Element:
    """The document as a tree (its root is a ``#document`` element)."""
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root
