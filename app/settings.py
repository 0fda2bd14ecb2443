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


class Settings(BaseSettings):
    """Server settings; each field can be set with the environment variable ``ZZV_<NAME>``."""

    model_config = SettingsConfigDict(
        env_prefix="ZZV_", extra="ignore", frozen=True, use_attribute_docstrings=True
    )

    host: str = "127.0.0.1"
    """Interface `zzv serve` binds to."""
    port: int = Field(8000, ge=1, le=65535)
    """TCP port `zzv serve` listens on."""

    max_games: int = Field(2000, ge=1)
    """Most games kept in memory at once."""
    idle_expiry_seconds: float = Field(3600.0, gt=0)
    """A game untouched for this long expires."""
    evict_min_idle_seconds: float = Field(120.0, ge=0)
    """A full store evicts its least recently used game only if idle this long; else 503."""
    sweep_interval_seconds: float = Field(30.0, gt=0)
    """How often the background sweep drops expired games."""
    expired_memory: int = Field(10000, ge=0)
    """How many expired game ids are remembered to answer 410."""
    max_games_per_client: int = Field(20, ge=1)
    """Most unfinished races one player (player cookie or `X-Player-Token`) may hold."""
    max_games_per_address: int = Field(200, ge=1)
    """Most unfinished races of all the players behind one address (see `address_cap`)."""
    daily_attempts_per_address: int = Field(30, ge=1)
    """Most counted attempts at one daily deal or cup deal from one address; then 429."""
    data_dir: Path | None = None
    """Folder of `races.sqlite3` and `results.sqlite3` (unset: the user's data folder)."""
    durable: bool = True
    """Without Redis, write every change through to the race file; false: memory only."""
    database_url: SecretStr | None = None
    """Players, ratings and finished races in this database; unset: `results.sqlite3`."""
    redis_url: SecretStr | None = None
    """Races, rate limits and live updates in this Redis, for several workers; unset: memory."""
    workers: int = Field(1, ge=1)
    """Worker processes `zzv serve` starts (more than 1 needs Redis)."""
    tombstone_seconds: float = Field(86400.0, gt=0)
    """How long Redis remembers a gone race to answer 410 instead of 404."""
    lock_timeout_seconds: float = Field(30.0, gt=0)
    """A Redis race lock's lease, renewed every third of it; a request's longest wait."""
    redis_timeout_seconds: float = Field(2.0, gt=0)
    """Connect/read timeout of each Redis command."""
    header_timeout_seconds: float = Field(10.0, gt=0)
    """A connection without a complete request line and headers by then is closed."""
    max_header_bytes: int = Field(64 * 1024, ge=1024)
    """Largest request line plus headers; a bigger one gets 431 and is closed."""
    body_timeout_seconds: float = Field(15.0, gt=0)
    """A body not fully arrived this long after its headers gets 408 and is closed."""

    rate_limit_enabled: bool = True
    """Turn per-client rate limiting on/off."""
    create_rate_per_minute: float = Field(20.0, gt=0)
    """Sustained game creations per client per minute."""
    create_burst: int = Field(10, ge=1)
    """Game creations a client may burst."""
    move_rate_per_second: float = Field(10.0, gt=0)
    """Sustained moves (any other POST) per client per second."""
    move_burst: int = Field(40, ge=1)
    """Moves a client may burst."""
    read_rate_per_second: float = Field(20.0, gt=0)
    """Sustained page and API reads per client per second."""
    read_burst: int = Field(80, ge=1)
    """Reads a client may burst."""

    max_body_bytes: int = Field(16 * 1024, ge=256)
    """Largest request body accepted."""

    default_bot_level: BotLevel = "normal"
    """Bot strength when none is given."""
    bot_time_budget_ms: int = Field(DEFAULT_BOT_BUDGET_MS, ge=1)
    """Thinking budget handed to bots that search, per decision."""
    hard_bot_workers: int = Field(2, ge=1, le=64)
    """Worker processes the hard bots' searches run in (one per core it may use)."""
    hard_searches_in_flight: int | None = Field(None, ge=1)
    """Most hard searches at once in this process (default: the hard bot workers)."""
    hard_budget_floor_ms: int = Field(30, ge=1)
    """Least thinking time a hard bot gets when a long queue shortens its budget."""

    review_worlds: int = Field(96, ge=1, le=10_000)
    """Sampled deals per decision in an after-race review (docs/review.md)."""
    review_workers: int = Field(1, ge=1, le=64)
    """Worker processes of after-race reviews and par races, at the lowest CPU priority."""
    reviews_per_client: int = Field(2, ge=1, le=1000)
    """After-race reviews one client may have in progress."""

    metrics: bool = False
    """Serve Prometheus metrics on `/metrics`."""

    turn_seconds: float = Field(60.0, gt=0)
    """A person's time to move in a race with friends; then the autopilot plays one move."""
    quick_wait_seconds: float = Field(20.0, gt=0, le=600)
    """How long a "Race strangers" race waits for more people before bots sit in."""
    rematch_wait_seconds: float = Field(30.0, gt=0, le=600)
    """How long a rematch waits for its people's answers before bots sit in."""
    watch_pace_seconds: float = Field(1.5, gt=0)
    """Time between two moves of a bots-only race shown to watchers."""
    max_streams_per_client: int = Field(16, ge=1)
    """Live event streams one client may hold open at once (over every worker)."""

    secure_cookies: bool = False
    """Always mark cookies Secure and send HSTS (behind an HTTPS proxy)."""
    allowed_hosts: Annotated[tuple[str, ...], NoDecode] = (
        "127.0.0.1",
        "localhost",
        "[::1]",
        "testserver",
    )
    """Host names (`*.example.com`, `*`) answered, comma-separated or JSON; else 400."""
    public_url: str | None = Field(None, pattern=r"^https?://[^/\s?#]+(/[^\s?#]*)?$")
    """The address people reach the server at; invite and watch links are built on it."""
    allowed_origins: tuple[str, ...] = ()
    """Extra origins (scheme://host[:port]) the CSRF check accepts."""
    # Unset, an app replaces this random default with the results database's key as it
    # starts (app.results.store.SEED_KEY); an app that never starts keeps it.
    seed_secret: SecretStr = Field(default_factory=lambda: SecretStr(secrets.token_hex(32)))
    """Key turning a public seed into the shuffle seed (unset: shared, in the results DB)."""

    log_level: LogLevel = "info"
    """Level of the app's structured logs."""
    access_log: bool = True
    """Emit one structured line per request."""

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
