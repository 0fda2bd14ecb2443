"""Every tunable of the server, from ``ZZV_*`` variables (README's table); routes get them
through :data:`app.http.deps.SettingsDep`, never the environment.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from app.vocabulary import BotLevel
from engine.bots import DEFAULT_BOT_BUDGET_MS

LogLevel = Literal["debug", "info", "warning", "error"]
Positive = Annotated[float, Field(gt=0)]
Count = Annotated[int, Field(ge=1)]


class Settings(BaseSettings):
    """Server settings; field ``name`` is read from ``ZZV_<NAME>``. Each one's meaning and
    default: README's configuration table (a test checks it lists every field)."""

    model_config = SettingsConfigDict(env_prefix="ZZV_", extra="ignore", frozen=True)

    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1, le=65535)

    max_games: Count = 2000
    idle_expiry_seconds: Positive = 3600.0
    evict_min_idle_seconds: float = Field(120.0, ge=0)
    sweep_interval_seconds: Positive = 30.0
    expired_memory: int = Field(10000, ge=0)
    max_games_per_client: Count = 20
    max_games_per_address: Count = 200
    daily_attempts_per_address: Count = 30
    data_dir: Path | None = None
    durable: bool = True
    database_url: SecretStr | None = None
    redis_url: SecretStr | None = None
    workers: Count = 1
    tombstone_seconds: Positive = 86400.0
    lock_timeout_seconds: Positive = 30.0
    redis_timeout_seconds: Positive = 2.0
    header_timeout_seconds: Positive = 10.0
    max_header_bytes: int = Field(64 * 1024, ge=1024)
    max_body_bytes: int = Field(16 * 1024, ge=256)
    body_timeout_seconds: Positive = 15.0

    rate_limit_enabled: bool = True
    create_rate_per_minute: Positive = 20.0
    create_burst: Count = 10
    move_rate_per_second: Positive = 10.0
    move_burst: Count = 40
    read_rate_per_second: Positive = 20.0
    read_burst: Count = 80

    default_bot_level: BotLevel = "normal"
    bot_time_budget_ms: Count = DEFAULT_BOT_BUDGET_MS
    hard_bot_workers: int = Field(2, ge=1, le=64)
    hard_searches_in_flight: Count | None = None
    hard_budget_floor_ms: Count = 30

    review_worlds: int = Field(96, ge=1, le=10_000)
    review_workers: int = Field(1, ge=1, le=64)
    reviews_per_client: int = Field(2, ge=1, le=1000)

    metrics: bool = False

    turn_seconds: Positive = 60.0
    quick_wait_seconds: float = Field(20.0, gt=0, le=600)
    rematch_wait_seconds: float = Field(30.0, gt=0, le=600)
    watch_pace_seconds: Positive = 1.5
    max_streams_per_client: Count = 16

    secure_cookies: bool = False
    allowed_hosts: Annotated[tuple[str, ...], NoDecode] = (
        "127.0.0.1",
        "localhost",
        "[::1]",
        "testserver",
    )
    public_url: str | None = Field(None, pattern=r"^https?://[^/\s?#]+(/[^\s?#]*)?$")
    allowed_origins: tuple[str, ...] = ()
    # Unset, an app replaces this random default with the results database's key as it
    # starts (app.results.store.SEED_KEY); an app that never starts keeps it.
    seed_secret: SecretStr = Field(default_factory=lambda: SecretStr(secrets.token_hex(32)))

    log_level: LogLevel = "info"
    access_log: bool = True

    @model_validator(mode="after")
    def _lease_outlasts_a_failed_renewal(self) -> Settings:
        # The worst case a lease must cover is no longer a move's whole think time (the
        # holder renews it every third of its length) but a renewal that times out: one
        # renewal may take a whole Redis timeout and the next must still land in time.
        if self.lock_timeout_seconds < 3 * self.redis_timeout_seconds:
            raise ValueError(
                f"ZZV_LOCK_TIMEOUT_SECONDS ({self.lock_timeout_seconds:g}) must be at least "
                f"three times ZZV_REDIS_TIMEOUT_SECONDS ({self.redis_timeout_seconds:g}): "
                "the lock's lease is renewed every third of its length, and a renewal that "
                "waits out one Redis timeout must still land before the lease runs out."
            )
        return self

    @field_validator("allowed_hosts", mode="before")
    @classmethod
    def _split_hosts(cls, value: Any) -> Any:
        """Accept ``a.example,b.example`` as well as a JSON list."""
        if not isinstance(value, str):
            return value
        with contextlib.suppress(ValueError):
            listed = json.loads(value)
            if isinstance(listed, list):
                return tuple(listed)
        return tuple(part.strip() for part in value.split(",") if part.strip())

    @property
    def trusted_hosts(self) -> tuple[str, ...]:
        """``allowed_hosts`` plus ``public_url``'s host (IPv6 in brackets), lower-cased."""
        hosts = [host.lower() for host in self.allowed_hosts]
        if self.public_url is not None:
            name = urlsplit(self.public_url).hostname or ""
            name = f"[{name}]" if ":" in name else name
            if name and name not in hosts:
                hosts.append(name)
        return tuple(hosts)

    @property
    def address_cap(self) -> int:
        """The live races one address may hold: ``max_games_per_address``, at least one
        player's, at most half the store (at least one), so no address squats every slot."""
        wanted = max(self.max_games_per_address, self.max_games_per_client)
        return max(1, min(wanted, self.max_games // 2))

    @property
    def player_cap(self) -> int:
        """The live races one player may hold: ``max_games_per_client``, at most
        :attr:`address_cap`."""
        return min(self.max_games_per_client, self.address_cap)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once from the environment."""
    return Settings()
