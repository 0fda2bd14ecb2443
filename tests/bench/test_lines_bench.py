"""``python -m bench.lines``: its kinds of line add up to ``wc -l`` of the same files, a
docstring, a comment and a blank line are told apart, and a feature's definitions are counted
by name (older namesakes left out)."""

from __future__ import annotations

import re

import pytest

from bench import lines


def test_line_kinds_tell_docstrings_comments_blanks_and_code_apart() -> None:
    source = (
        '"""A module.\n\nOf two lines."""\n\n# why\nx = 1\n\n\ndef f() -> None:\n    """Doc."""\n'
    )
    assert lines.line_kinds(source) == {"docstring": 4, "blank": 3, "comment": 1, "code": 2}


def test_the_total_is_every_line_of_app_and_engine(capsys: pytest.CaptureFixture[str]) -> None:
    files = lines.python_files()
    assert files and all(f.startswith(("app/", "engine/")) and f.endswith(".py") for f in files)
    every_line = sum(len((lines.ROOT / f).read_text().splitlines()) for f in files)
    lines.main([])
    out = capsys.readouterr().out
    total = re.search(r"app/ \+ engine/ \((\d+) files\): ([\d,]+)", out)
    assert total is not None, out
    assert (int(total[1]), int(total[2].replace(",", ""))) == (len(files), every_line)
    kinds = re.findall(r"(?:code|docstring|blank|comment) ([\d,]+)", out)
    assert sum(int(k.replace(",", "")) for k in kinds) == every_line
    new = re.search(r"all\s+([\d,]+)", out)
    before = re.search(r"before them, at most: ([\d,]+)", out)
    assert new is not None and before is not None, out
    assert int(new[1].replace(",", "")) + int(before[1].replace(",", "")) == every_line


def test_features_are_counted_by_whole_module_and_by_name() -> None:
    counted, listed = lines.feature_lines(lines.python_files())
    verify = len((lines.ROOT / "engine/verify.py").read_text().splitlines())
    assert counted["56 results you can trust"] >= verify
    assert "56 results you can trust: engine/verify.py (whole module)" in listed
    assert any(
        row.startswith("61 reasons to come back: app/races/daily.py cup_week") for row in listed
    )
    # The guided race's coach is older than the quick messages that share its verb.
    assert not any("app/http/web/learn.py COACH_SAYS" in row for row in listed)
