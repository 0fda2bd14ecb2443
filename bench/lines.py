"""Lines of Python in ``app/`` + ``engine/`` (issue 57's measure), by kind, and the share of
them that issues 56, 59, 60 and 61 added as new features.

``python -m bench.lines [--list]``. A line is a docstring line, a blank line, a comment or
code. A feature's lines are the whole modules that exist only for it, plus the top-level and
class-level definitions (functions, classes, constants) elsewhere whose names name it
(:data:`FEATURE_NAMES`); ``--list`` prints each one counted, to check by eye. Names the
patterns catch that are older than those issues are left out (:data:`OLDER`), and text the
features moved into templates is not Python, so the count is a floor, not an estimate.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FEATURE_MODULES = {
    "56 results you can trust": (
        "engine/fairness.py",
        "engine/verify.py",
        "app/http/web/fair.py",
        "app/results/recorder.py",
    ),
    "59 languages": ("app/http/i18n.py", "app/http/web/language.py"),
    "60 a race you feel": (),
    "61 reasons to come back": ("app/http/web/talk.py", "app/results/cup.py"),
}
"""Modules that exist only for one of the issues' features."""

FEATURE_NAMES = {
    "56 results you can trust": r"fair|verif|commit|salt|outbox|deliver|record_finish|pseudonym",
    "59 languages": r"lang|locale|translat|catalog|gettext|percent|plural|text_direction|negotiat",
    "60 a race you feel": r"moment|big_play|lap_won|graph|coaching|other_choice|mistake",
    "61 reasons to come back": (
        r"cup|week|streak|talk|said|say|rematch|again|mute|preset|deal_number"
        r"|^offered$|^accept$|^decline$"
    ),
}
"""What the definitions of each issue's features are called elsewhere."""

OLDER = {
    ("app/http/web/learn.py", "COACH_SAYS"),
    ("app/http/web/learn.py", "say"),
    ("app/http/web/narration.py", "say"),
    ("app/races/lesson.py", "Said"),
    ("app/races/lesson.py", "_lap_said"),
    ("app/http/web/review.py", "try_again"),
    ("app/http/api/review.py", "try_again"),
    ("app/http/players.py", "verify"),
    ("app/races/review.py", "_SEAT_SALT"),
    ("app/races/lobby.py", "delivered"),
    ("engine/cards.py", "SALTY"),
    ("engine/bots/heuristic.py", "early_commit"),
    ("app/results/store.py", "record_finish"),
    ("app/results/store.py", "pseudonym"),
}
"""(module, name) pairs a pattern catches that came before the issues: the guided race's
coach, the review's "try again", the cookie's signature check, the salty card, the ratings'
recording and the boards' pseudonyms, ..."""


def python_files() -> list[str]:
    """The tracked Python files of ``app/`` and ``engine/``."""
    listed = subprocess.run(
        ["git", "ls-files", "app/*.py", "engine/*.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return listed.stdout.split()


def line_kinds(source: str) -> Counter[str]:
    """How many of ``source``'s lines are docstring, blank, comment and code."""
    tree = ast.parse(source)
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
        if isinstance(node, kinds) and ast.get_docstring(node, clean=False) is not None:
            first = node.body[0]
            docstrings.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    kinds_of: Counter[str] = Counter()
    for number, line in enumerate(source.splitlines(), 1):
        stripped = line.strip()
        if number in docstrings:
            kinds_of["docstring"] += 1
        elif not stripped:
            kinds_of["blank"] += 1
        elif stripped.startswith("#"):
            kinds_of["comment"] += 1
        else:
            kinds_of["code"] += 1
    return kinds_of


def _definitions(body: list[ast.stmt]) -> Iterator[tuple[str, ast.stmt]]:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name, node
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            yield node.targets[0].id, node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            yield node.target.id, node


def feature_lines(files: list[str]) -> tuple[Counter[str], list[str]]:
    """Each issue's lines (see the module's docstring) and a line per definition counted."""
    counted: Counter[str] = Counter()
    listed: list[str] = []
    whole = {path: issue for issue, paths in FEATURE_MODULES.items() for path in paths}
    for path in files:
        source = (ROOT / path).read_text()
        if path in whole:
            counted[whole[path]] += len(source.splitlines())
            listed.append(f"{whole[path]}: {path} (whole module)")
            continue
        if "/migrations/" in path:
            continue
        pending = list(_definitions(ast.parse(source).body))
        while pending:
            name, node = pending.pop(0)
            issue = next(
                (i for i, pattern in FEATURE_NAMES.items() if re.search(pattern, name, re.I)),
                None,
            )
            if issue is not None and (path, name) not in OLDER:
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                counted[issue] += size
                listed.append(f"{issue}: {path} {name} ({size})")
            elif issue is None and isinstance(node, ast.ClassDef):
                pending[:0] = _definitions(node.body)
    return counted, listed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.lines", description=__doc__)
    parser.add_argument("--list", action="store_true", help="print each definition counted")
    args = parser.parse_args(argv)
    files = python_files()
    kinds: Counter[str] = Counter()
    for path in files:
        kinds += line_kinds((ROOT / path).read_text())
    total = sum(kinds.values())
    features, listed = feature_lines(files)
    if args.list:
        print("\n".join(listed), end="\n\n")
    print(f"Lines of Python in app/ + engine/ ({len(files)} files): {total:,}")
    print("  " + ", ".join(f"{kind} {kinds[kind]:,}" for kind in ("code", "docstring", "blank")))
    print(f"  comment {kinds['comment']:,}")
    print("New features of issues 56, 59, 60 and 61, at least:")
    for issue in FEATURE_NAMES:
        print(f"  {issue:28} {features[issue]:6,}")
    new = sum(features.values())
    print(f"  {'all':28} {new:6,}")
    print(f"The features before them, at most: {total - new:,} (aim <= 19,000; all <= 21,000)")


if __name__ == "__main__":
    main()
