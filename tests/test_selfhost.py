"""Self-hosting works as documented: the wheel, the Dockerfile's steps and ``zzv``.

There is no Docker daemon in CI, so the container is checked by replaying what the
Dockerfile says: the project wheel built from the builder's files, installed with the
same ``pip install`` options into a fresh virtual environment, started with the same
command, environment and empty working directory, the same health check, and a SIGTERM
like ``docker stop`` sends. The same installed wheel also serves ``zzv serve`` from an
empty folder, which is what ``pip install .`` or ``pipx install`` gives a person.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import shlex
import shutil
import signal
import subprocess
import sys
import urllib.request
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

import app.cli
from app.http import i18n
from app.settings import get_settings
from bench.server import find_free_port

REPO_ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = REPO_ROOT / "Dockerfile"
BIN_DIR = Path(sys.executable).parent

# pip options that only make sense with the image's pre-built wheel directory; the replay
# resolves from the package index instead, so it keeps every other option.
WHEELHOUSE_OPTIONS = ("--no-index", "--find-links", "--no-deps", "-r", "--requirement")

README = REPO_ROOT / "README.md"


@dataclass
class Stage:
    """One ``FROM`` stage of the Dockerfile, reduced to what the replay needs."""

    name: str
    env: dict[str, str] = field(default_factory=dict)
    workdir: str = "/"
    copies: list[tuple[list[str], str]] = field(default_factory=list)
    """``COPY`` lines from the build context: (sources, absolute destination)."""
    runs: list[str] = field(default_factory=list)
    cmd: list[str] = field(default_factory=list)
    healthcheck: list[str] = field(default_factory=list)
    user: str = "root"
    exposed: list[str] = field(default_factory=list)


def parse_dockerfile(text: str) -> list[Stage]:
    """Split the Dockerfile into stages, joining continuation lines and dropping comments."""
    logical: list[str] = []
    pending = ""
    for raw in text.splitlines():
        stripped = raw.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        logical.append(pending + stripped)
        pending = ""
    stages: list[Stage] = []
    for line in logical:
        keyword, _, rest = line.partition(" ")
        keyword = keyword.upper()
        if keyword == "ARG" and not stages:
            continue
        if keyword == "FROM":
            words = rest.split()
            stages.append(Stage(name=words[2] if len(words) > 2 else f"stage{len(stages)}"))
            continue
        stage = stages[-1]
        if keyword == "ENV":
            for pair in shlex.split(rest):
                key, _, value = pair.partition("=")
                stage.env[key] = value
        elif keyword == "WORKDIR":
            stage.workdir = rest.strip()
        elif keyword == "COPY":
            words = rest.split()
            if not any(word.startswith("--from") for word in words):
                target = posixpath.join(stage.workdir, words[-1])
                if words[-1].endswith("/"):
                    target += "/"
                stage.copies.append((words[:-1], target))
        elif keyword == "RUN":
            stage.runs.append(re.sub(r"^(--mount=\S+\s+)+", "", rest))
        elif keyword == "CMD":
            stage.cmd = json.loads(rest)
        elif keyword == "HEALTHCHECK":
            stage.healthcheck = json.loads(rest.split(" CMD ", 1)[1])
        elif keyword == "USER":
            stage.user = rest.strip()
        elif keyword == "EXPOSE":
            stage.exposed.extend(rest.split())
    return stages


def pip_install_options(stages: list[Stage]) -> list[str]:
    """The options the Dockerfile passes to ``pip install``, minus wheelhouse-only ones."""
    options: list[str] = []
    for stage in stages:
        for run in stage.runs:
            for step in run.split("&&"):
                words = shlex.split(step)
                if "pip" not in words or "install" not in words:
                    continue
                for word in words[words.index("install") + 1 :]:
                    name = word.split("=", 1)[0]
                    is_kept = word.startswith("-") and name not in WHEELHOUSE_OPTIONS
                    if is_kept and word not in options:
                        options.append(word)
    return options


def copy_context(copies: list[tuple[list[str], str]], root: Path) -> None:
    """Lay out build-context files under ``root`` (the container's ``/``) as ``COPY`` does.

    A directory source has its contents copied into the destination; a file goes into the
    destination when that ends in ``/``, and becomes it otherwise.
    """
    for sources, target in copies:
        destination = root / target.lstrip("/")
        for name in sources:
            source = REPO_ROOT / name
            if source.is_dir():
                shutil.copytree(
                    source,
                    destination,
                    dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
                )
            elif target.endswith("/"):
                destination.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, destination / source.name)
            else:
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, destination)


@pytest.fixture(scope="module")
def stages() -> list[Stage]:
    """The parsed Dockerfile."""
    return parse_dockerfile(DOCKERFILE.read_text(encoding="utf-8"))


def test_dockerfile_installs_dependencies_before_copying_source(stages: list[Stage]) -> None:
    """Dependency layers are built from pyproject.toml alone, so code edits keep them cached."""
    builder = stages[0]
    assert builder.copies[0][0] == ["pyproject.toml"], builder.copies
    assert "pip wheel" in builder.runs[0] and "-r requirements.txt" in builder.runs[0]


def test_dockerfile_runtime_is_production_ready(stages: list[Stage]) -> None:
    """Runtime stage: non-root, port 8000, listens on all interfaces, saves its races to a
    volume, and starts through ``zzv serve`` (workers, header timeout, graceful stop)."""
    runtime = stages[-1]
    assert runtime.user not in ("root", "0", "0:0"), runtime.user
    assert runtime.exposed == ["8000"]
    assert runtime.env["ZZV_HOST"] == "0.0.0.0"
    assert runtime.env["ZZV_PORT"] == "8000"
    assert all("apt-get" not in run and "gcc" not in run for run in runtime.runs)
    assert runtime.cmd == ["zzv", "serve"]
    assert runtime.env["ZZV_DATA_DIR"] == "/var/lib/zzv"
    assert 'VOLUME ["/var/lib/zzv"]' in DOCKERFILE.read_text(encoding="utf-8")
    assert runtime.healthcheck[:2] == ["python", "-c"] and "/healthz" in runtime.healthcheck[2]


def project_wheel_step(stages: list[Stage]) -> list[str]:
    """The builder's ``pip wheel --no-deps ... .`` step that builds the project's own wheel."""
    for run in stages[0].runs:
        for step in run.split("&&"):
            words = shlex.split(step)
            if words[:2] == ["pip", "wheel"] and "--no-deps" in words:
                return words
    raise AssertionError("the Dockerfile's builder stage has no `pip wheel --no-deps` step")


def build_and_install_wheel(stages: list[Stage], tmp_path: Path) -> Path:
    """Replay the image build: lay out the builder's context, build the project wheel from
    it as the builder does, install that wheel into a fresh venv; return the venv.

    Dependencies resolve from the package index (the image uses its own wheelhouse), and
    pip's cache is used: ``--no-cache-dir`` only keeps the image small.
    """
    builder = stages[0]
    step = project_wheel_step(stages)
    assert step[-1] == ".", f"the builder must build the copied tree: {step}"
    copy_context(builder.copies, tmp_path / "builder")
    source = tmp_path / "builder" / builder.workdir.lstrip("/")
    wheels = tmp_path / "wheels"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", str(wheels), "."],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    wheel = next(wheels.glob("*.whl"))
    assert_wheel_ships_templates_and_static(wheel)

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", venv], check=True, timeout=300)
    options = [option for option in pip_install_options(stages) if option != "--no-cache-dir"]
    install = subprocess.run(
        [venv / "bin" / "python", "-m", "pip", "install", *options, str(wheel)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    return venv


def assert_wheel_ships_templates_and_static(wheel: Path) -> None:
    """Every file under templates/ and static/ is in the wheel, inside the app package."""
    with zipfile.ZipFile(wheel) as archive:
        shipped = set(archive.namelist())
    for folder in ("templates", "static"):
        files = [path for path in (REPO_ROOT / folder).rglob("*") if path.is_file()]
        assert files, folder
        for path in files:
            name = f"app/{path.relative_to(REPO_ROOT).as_posix()}"
            assert name in shipped, f"{wheel.name} lacks {name}"


def clean_env(venv: Path, **overrides: str) -> dict[str, str]:
    """This environment without ZZV_* settings or PYTHONPATH, the venv first on PATH."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("ZZV_")}
    env.pop("PYTHONPATH", None)
    env.update(PATH=f"{venv / 'bin'}{os.pathsep}{env['PATH']}", VIRTUAL_ENV=str(venv))
    env.update(overrides)
    return env


def assert_serves_every_page(base_url: str) -> None:
    """200 on the start page, the rules, a new race's table and a fingerprinted asset; the
    start page in every shipped language from its catalog."""
    with httpx.Client(base_url=base_url, timeout=30, follow_redirects=True) as client:
        home = client.get("/")
        assert home.status_code == 200, home.text
        for code in i18n.LANGUAGES:
            spoken = client.get("/", headers={"Accept-Language": code}).text
            assert f'lang="{code}"' in spoken, code
            assert i18n.translations(code).gettext("New race") in spoken, code
        assert client.get("/rules").status_code == 200
        assets = re.findall(r'"(/static/[^"?]+\?v=[0-9a-f]+)"', home.text)
        assert assets, "the start page links no fingerprinted static file"
        for asset in assets:
            assert client.get(asset).status_code == 200, asset
        table = client.post("/games", data={"players": "3", "bots": "random"})
        assert table.status_code == 200, table.text
        assert re.fullmatch(r"/games/[A-Za-z0-9_-]+", table.url.path), table.url
        assert table.history and table.history[0].status_code == 303


@pytest.mark.slow
def test_wheel_serves_every_page_from_an_empty_folder(
    stages: list[Stage], tmp_path: Path, launch_server: Callable[..., Any]
) -> None:
    """The wheel, built and installed as the image does, is all a server needs.

    First ``zzv serve --port N`` from an empty folder, as after ``pip install .`` or
    ``pipx install``: pages, a game table and static files answer 200. Then the image's
    own start command from its (empty) working directory, with the image's environment:
    healthy, the HEALTHCHECK passes, and SIGTERM stops it gracefully.
    """
    runtime = stages[-1]
    assert runtime.copies == [], "the runtime stage must install the wheel, not copy source"
    venv = build_and_install_wheel(stages, tmp_path)

    empty = tmp_path / "empty"
    empty.mkdir()
    port = find_free_port()
    serve = [str(venv / "bin" / "zzv"), "serve", "--port", str(port)]
    server = launch_server(serve, port=port, env=clean_env(venv), cwd=empty, inherit_env=False)
    assert_serves_every_page(server.url)
    assert_clean_shutdown(server, games=1)

    workdir = tmp_path / "image" / runtime.workdir.lstrip("/")
    workdir.mkdir(parents=True)
    # The one deliberate difference from the image: loopback instead of 0.0.0.0.
    port = find_free_port()
    env = clean_env(venv, **runtime.env)
    data = tmp_path / "volume"
    env.update(ZZV_HOST="127.0.0.1", ZZV_PORT=str(port), ZZV_DATA_DIR=str(data))
    server = launch_server(runtime.cmd, port=port, env=env, cwd=workdir, inherit_env=False)
    assert_serves_every_page(server.url)
    health = subprocess.run(
        runtime.healthcheck, env=env, cwd=workdir, capture_output=True, text=True, timeout=30
    )
    assert health.returncode == 0, health.stdout + health.stderr
    assert sorted(path.name for path in empty.iterdir()) == []
    assert sorted(path.name for path in workdir.iterdir()) == []
    assert_clean_shutdown(server, games=1)
    assert (data / "races.sqlite3").is_file()  # the volume holds the race for the next start


def start_races(base_url: str, count: int) -> None:
    """Create ``count`` races through the JSON API so the server has games in memory."""
    for _ in range(count):
        request = urllib.request.Request(
            f"{base_url}/api/games",
            data=json.dumps({"players": 3}).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.status == 201


def games_in_memory_at_shutdown(log: str) -> list[int]:
    """Counts reported by the app's structured "shutting down" log lines."""
    counts = []
    for line in log.splitlines():
        if not line.startswith("{"):
            continue
        record = json.loads(line)
        if record.get("msg") == "shutting down":
            counts.append(record["games"])
    return counts


def assert_clean_shutdown(server: Any, games: int) -> None:
    """SIGTERM ends the server gracefully, logging how many games it held.

    Uvicorn re-raises the signal once its shutdown is complete, so a graceful stop ends
    with -SIGTERM as well as 0; an abrupt death would lack the shutdown lines checked here.
    """
    status = server.stop()
    log = server.log()
    assert status in (0, -signal.SIGTERM), f"exit status {status}; log:\n{log}"
    assert "Application shutdown complete." in log, log
    assert games_in_memory_at_shutdown(log) == [games], log


def test_zzv_serve_help() -> None:
    """``zzv serve --help`` documents the options and exits 0."""
    result = subprocess.run(
        [BIN_DIR / "zzv", "serve", "--help"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    for option in ("--host", "--port", "--reload"):
        assert option in result.stdout


@pytest.mark.slow
def test_zzv_serve_prints_url_and_serves(free_port: int, launch_server: Callable[..., Any]) -> None:
    """``zzv serve --port N`` announces the address to open and answers on it."""
    server = launch_server(
        [BIN_DIR / "zzv", "serve", "--port", str(free_port)],
        port=free_port,
        env={"ZZV_HOST": "127.0.0.1", "ZZV_PORT": "1"},
    )
    expected = f"Zoom Zoom Vroom is running at http://127.0.0.1:{free_port}"
    assert expected in server.log()
    start_races(server.url, 1)
    assert_clean_shutdown(server, games=1)


@pytest.mark.slow
def test_zzv_serve_takes_port_from_environment(
    free_port: int, launch_server: Callable[..., Any]
) -> None:
    """Without options, ``zzv serve`` listens where ZZV_HOST and ZZV_PORT say."""
    server = launch_server(
        [BIN_DIR / "zzv", "serve"],
        port=free_port,
        env={"ZZV_HOST": "127.0.0.1", "ZZV_PORT": str(free_port)},
    )
    assert f"http://127.0.0.1:{free_port} " in server.log()


def test_readme_api_example_plays_a_move(live_server: str) -> None:
    """The README's five-line JSON API example runs as written against a real server."""
    text = README.read_text(encoding="utf-8")
    match = re.search(r"<!-- readme:api-example -->\s*```python\n(.*?)```", text, re.DOTALL)
    assert match, "README.md lost its API example"
    code = match.group(1)
    assert len(code.strip().splitlines()) == 5, code
    namespace: dict[str, Any] = {}
    exec(code.replace("http://127.0.0.1:8000", live_server), namespace)
    namespace["api"].close()  # a script's client closes as it exits; this process goes on
    race, state = namespace["race"], namespace["state"]
    assert state["game_id"] == race["game_id"]
    assert state["turn"] == race["state"]["turn"] + 1, state


def test_cli_parser_defaults_follow_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``--host``/``--port`` defaults are the ZZV_* settings, not hard-coded values."""
    monkeypatch.setenv("ZZV_HOST", "0.0.0.0")
    monkeypatch.setenv("ZZV_PORT", "8123")
    get_settings.cache_clear()
    try:
        args = app.cli.build_parser().parse_args(["serve"])
    finally:
        get_settings.cache_clear()
    assert (args.host, args.port, args.reload) == ("0.0.0.0", 8123, False)
