"""The message catalogs (issue #59, docs/translating.md): every language the site offers
is complete, and the English template holds every message the sources mark.

``app.http.i18n.LANGUAGES`` lists only shipped languages: for each of them but English,
its ``.po`` exists, translates every message of ``messages.pot`` (every plural form its
language has), marks nothing fuzzy, compiles with Babel, and keeps each message's
placeholders and inline tags. A language whose catalog is not there yet stays out of
``LANGUAGES``; these tests fail for one listed too early. ``messages.pot`` must be what
extraction makes of the sources now, so no sentence reaches a page without a translator
seeing it.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from app.http import i18n

ROOT = Path(__file__).resolve().parent.parent

_TAG = re.compile(r"</?[A-Za-z][^<>]*>")


def _placeholders(text: str) -> Counter[str]:
    return Counter(i18n.PLACEHOLDER.findall(text))


def _tags(text: str) -> Counter[str]:
    """Each tag of ``text`` whole, attributes included, its whitespace normalised."""
    return Counter(" ".join(tag.split()) for tag in _TAG.findall(text))


def _shown(message: Message) -> str:
    return str(message.id if isinstance(message.id, str) else message.id[0])[:60]


def _form_problems(english: Message, forms: tuple[str, ...], plural: bool) -> list[str]:
    """What is wrong with the translated ``forms`` of ``english``: an empty form, a tag not
    kept, a placeholder not kept or not the English's. A plural form may leave out a
    placeholder it spells out in words (Arabic's "one day", "two days"), as long as
    some form of the message has it."""
    problems = []
    source = str(english.id[1] if plural else english.id)
    wanted = _placeholders(source)
    for index, form in enumerate(forms):
        where = f"{_shown(english)!r} form {index}" if plural else repr(_shown(english))
        if not form:
            problems.append(f"{where}: not translated")
            continue
        if _tags(form) != _tags(source):
            problems.append(f"{where}: tags differ from the English {sorted(_tags(source))}")
        kept = _placeholders(form)
        if kept != wanted and not (plural and set(kept) <= set(wanted)):
            problems.append(f"{where}: placeholders differ from the English {sorted(wanted)}")
    if plural and all(forms):
        unused = set(wanted) - {mark for form in forms for mark in _placeholders(form)}
        if unused:
            problems.append(f"{_shown(english)!r}: no form has {sorted(unused)}")
    return problems


def catalog_problems(template: Catalog, catalog: Catalog) -> list[str]:
    """Everything that keeps ``catalog`` from shipping against ``template``: a message
    missing, untranslated (in any plural form) or fuzzy, a placeholder or a tag not kept,
    a plural count unlike its language's, or what Babel's own checks and compiler find.
    Empty when it can ship."""
    problems = []
    plurals = get_plural(catalog.locale).num_plurals if catalog.locale else 2
    if catalog.num_plurals != plurals:
        problems.append(
            f"{catalog.num_plurals} plural forms in the header, the language has {plurals}"
        )
    if catalog.fuzzy:
        problems.append("the header is fuzzy")
    for english in template:
        if not english.id:
            continue
        plural = not isinstance(english.id, str)
        translated = catalog.get(english.id[0] if plural else english.id, english.context)
        if translated is None:
            problems.append(f"{_shown(english)!r}: missing")
            continue
        if translated.fuzzy:
            problems.append(f"{_shown(english)!r}: fuzzy")
        if plural != (not isinstance(translated.id, str)):
            problems.append(f"{_shown(english)!r}: plural in one catalog only")
            continue
        forms = translated.string if isinstance(translated.string, tuple) else (translated.string,)
        if plural and len(forms) != plurals:
            problems.append(f"{_shown(english)!r}: {len(forms)} plural forms, not {plurals}")
        problems.extend(_form_problems(english, tuple(str(f or "") for f in forms), plural))
    for message, errors in catalog.check():
        problems.extend(f"{_shown(message)!r}: {error}" for error in errors)
    try:
        write_mo(io.BytesIO(), catalog)
    except Exception as exc:  # whatever keeps Babel from compiling it
        problems.append(f"does not compile: {exc!r}")
    return problems


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as po:
        return read_po(po, locale=locale)


def _po(body: str, locale: str = "de") -> Catalog:
    """A catalog from the text of a ``.po`` file, as a translator writes it."""
    return read_po(io.StringIO(body), locale=locale)


SHIPPED = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]


@pytest.mark.parametrize("code", SHIPPED)
def test_every_offered_language_has_a_complete_catalog(code: str) -> None:
    path = i18n.catalog_path(code)
    assert path.is_file(), f"{code} is offered but has no catalog at {path}"
    catalog = _read(path, code.replace("-", "_"))
    problems = catalog_problems(_read(i18n.template_path()), catalog)
    assert not problems, f"{code}: {len(problems)} problems, first: " + "; ".join(problems[:10])


def test_the_english_template_holds_what_the_sources_mark(tmp_path: Path) -> None:
    """The same extraction as docs/translating.md's, into a file of its own."""
    fresh = tmp_path / "messages.pot"
    CommandLineInterface().run(
        [
            "pybabel",
            "--quiet",
            "extract",
            "-F",
            str(ROOT / "app" / "locale" / "babel.cfg"),
            "-o",
            str(fresh),
            "--no-location",
            "--sort-output",
            "-k",
            "_",
            "-k",
            "gettext",
            "-k",
            "ngettext:1,2",
            str(ROOT),
        ]
    )
    marked = {message.id for message in _read(fresh) if message.id}
    committed = {message.id for message in _read(i18n.template_path()) if message.id}
    assert marked, "extraction found no messages"
    assert not marked - committed, f"not extracted yet: {sorted(map(str, marked - committed))[:10]}"
    assert not committed - marked, (
        f"no longer in the sources: {sorted(map(str, committed - marked))[:10]}"
    )


_TEMPLATE = """
msgid "Race now"
msgstr ""

msgid "Lap %(lap)s of %(laps)s"
msgstr ""

msgid "Read <a href=\\"%(url)s\\">the rules</a> first."
msgstr ""

msgid "%(num)s lap"
msgid_plural "%(num)s laps"
msgstr[0] ""
msgstr[1] ""
"""

_GERMAN = """
msgid ""
msgstr ""
"Language: de\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "Race now"
msgstr "Jetzt fahren"

msgid "Lap %(lap)s of %(laps)s"
msgstr "Runde %(lap)s von %(laps)s"

msgid "Read <a href=\\"%(url)s\\">the rules</a> first."
msgstr "Lies zuerst <a href=\\"%(url)s\\">die Regeln</a>."

msgid "%(num)s lap"
msgid_plural "%(num)s laps"
msgstr[0] "eine Runde"
msgstr[1] "%(num)s Runden"
"""


def test_a_complete_catalog_has_no_problems() -> None:
    assert catalog_problems(_po(_TEMPLATE, "en"), _po(_GERMAN)) == []


@pytest.mark.parametrize(
    ("good", "bad", "says"),
    [
        ("Runde %(lap)s von %(laps)s", "Runde %(lap)s von %(total)s", "placeholders"),
        ("Runde %(lap)s von %(laps)s", "Runde %(lap)s", "placeholders"),
        ('<a href=\\"%(url)s\\">die Regeln</a>', "die Regeln", "tags"),
        ("Runde %(lap)s von %(laps)s", "Runde %(lap)s von %(lap)s", "placeholders"),
        ('<a href=\\"%(url)s\\">die Regeln</a>', '<a href=\\"/rules\\">die Regeln</a>', "tags"),
        ('<a href=\\"%(url)s\\">die Regeln</a>', '<b href=\\"%(url)s\\">die Regeln</b>', "tags"),
        ('msgstr "Jetzt fahren"', 'msgstr ""', "not translated"),
        ('msgstr[1] "%(num)s Runden"', 'msgstr[1] ""', "form 1: not translated"),
        ('msgstr[1] "%(num)s Runden"', 'msgstr[1] "%(n)s Runden"', "form 1: placeholders"),
        ('msgstr[1] "%(num)s Runden"', 'msgstr[1] "Runden"', "no form has ['%(num)s']"),
        ('msgid "Race now"', '#, fuzzy\nmsgid "Race now"', "fuzzy"),
        ('msgid "Race now"\nmsgstr "Jetzt fahren"', "", "missing"),
        ("nplurals=2; plural=(n != 1)", "nplurals=1; plural=0", "plural forms"),
    ],
)
def test_a_catalog_that_cannot_ship_is_caught(good: str, bad: str, says: str) -> None:
    assert good in _GERMAN
    problems = catalog_problems(_po(_TEMPLATE, "en"), _po(_GERMAN.replace(good, bad)))
    assert any(says in problem for problem in problems), problems
