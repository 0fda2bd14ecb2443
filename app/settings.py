"""Runtime configuration: every tunable of the server, read from ``ZZV_*`` environment variables.

Owned by the platform layer. Routes never read the environment themselves: they receive a
:class:`Settings` through :data:`app.http.deps.SettingsDep`, and tests build one directly and pass
it to :func:`app.main.create_app`.
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
    """When the store is full, the least recently used game is evicted only if it has been
    idle at least this long; otherwise new games are refused (503)."""
    sweep_interval_seconds: float = Field(30.0, gt=0)
    """How often the background sweep drops expired games."""
    expired_memory: int = Field(10000, ge=0)
    """How many expired game ids are remembered to answer 410."""
    max_games_per_client: int = Field(20, ge=1)
    """Most unfinished races one player (a browser's player cookie, an API client's
    `X-Player-Token`) may hold at once; a finished race no longer counts."""
    max_games_per_address: int = Field(200, ge=1)
    """Most unfinished races the players behind one client address (a school, an office, a
    phone network) may hold together; never less than `ZZV_MAX_GAMES_PER_CLIENT` and never
    more than half of `ZZV_MAX_GAMES`, so one address cannot fill a small store."""
    daily_attempts_per_address: int = Field(30, ge=1)
    """Most counted attempts at one day's daily deal, or at one deal of a week's cup,
    started from one client address (docs/daily.md); the next is refused (429)."""
    data_dir: Path | None = None
    """Folder of the race file `races.sqlite3` and the results' `results.sqlite3` (unset:
    zoom-zoom-vroom in the user's data folder, by platformdirs). With ZZV_DURABLE=false,
    where the memory store saves every live race on a graceful stop and loads them at start."""
    durable: bool = True
    """Without Redis, write every change of every race through to the race file, so a killed
    server loses no answered move; false: races live in memory only."""
    database_url: SecretStr | None = None
    """Keep players, ratings and finished races in this database (e.g.
    postgresql://zzv:secret@postgres:5432/zzv); unset: the SQLite file `results.sqlite3` in
    the data folder (in memory with ZZV_DURABLE=false and no ZZV_DATA_DIR)."""
    redis_url: SecretStr | None = None
    """Keep races and rate limits in this Redis (e.g. redis://redis:6379/0), and relay live
    updates through it, so several workers and machines serve every race; unset: in memory,
    one worker."""
    workers: int = Field(1, ge=1)
    """Worker processes `zzv serve` starts (more than 1 needs Redis)."""
    tombstone_seconds: float = Field(86400.0, gt=0)
    """How long Redis remembers a gone race to answer 410 instead of 404."""
    lock_timeout_seconds: float = Field(30.0, gt=0)
    """The lease of a race's lock in Redis: a holder renews it every third of its length
    while the bots think, a crashed worker's lock is freed after it, and a request waits for
    a busy race at most this long."""
    redis_timeout_seconds: float = Field(2.0, gt=0)
    """Connect/read timeout of each Redis command."""
    header_timeout_seconds: float = Field(10.0, gt=0)
    """A connection that has not sent a complete request line and headers within this long
    is closed (`zzv serve` and the Docker image)."""
    max_header_bytes: int = Field(64 * 1024, ge=1024)
    """Largest request line plus headers accepted; a bigger one gets 431 and the connection
    is closed (`zzv serve` and the Docker image)."""
    body_timeout_seconds: float = Field(15.0, gt=0)
    """A request whose body has not fully arrived this long after its headers gets 408 and
    the connection is closed (`zzv serve` and the Docker image)."""

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
    """Most hard-bot searches running at once in this process (default: one per hard bot
    worker); further decisions wait in a queue on the event loop."""
    hard_budget_floor_ms: int = Field(30, ge=1)
    """Least thinking time a hard bot gets when a long queue shortens its budget."""

    review_worlds: int = Field(96, ge=1, le=10_000)
    """Sampled deals per decision in an after-race review (docs/review.md): more is
    steadier, and slower."""
    review_workers: int = Field(1, ge=1, le=64)
    """Worker processes after-race reviews and par races run in, at the lowest CPU priority
    (one leaves the other cores to live play)."""
    reviews_per_client: int = Field(2, ge=1, le=1000)
    """After-race reviews one client may have in progress."""

    metrics: bool = False
    """Serve Prometheus metrics on `/metrics`."""

    turn_seconds: float = Field(60.0, gt=0)
    """A person's time to move in a race with friends; when it runs out the autopilot (the
    normal bot, from that seat's view only) plays that one move for them."""
    quick_wait_seconds: float = Field(20.0, gt=0, le=600)
    """How long a "Race strangers" race waits for more people: requests for the same number
    of players within this time share a race; then bots take the empty seats."""
    rematch_wait_seconds: float = Field(30.0, gt=0, le=600)
    """How long a rematch waits for its people's answers; then bots take the seats of those
    who did not accept."""
    watch_pace_seconds: float = Field(1.5, gt=0)
    """Time between two moves of a bots-only race shown to watchers."""
    max_streams_per_client: int = Field(16, ge=1)
    """Live event streams one client may hold open at once (over every worker when the store
    is Redis)."""

    secure_cookies: bool = False
    """Always mark cookies Secure and send HSTS (set behind an HTTPS proxy). Cookies are
    also Secure whenever the request itself arrived over https."""
    allowed_hosts: Annotated[tuple[str, ...], NoDecode] = (
        "127.0.0.1",
        "localhost",
        "[::1]",
        "testserver",
    )
    """Host names (and `*.example.com` patterns; `*` for any) the server answers to,
    comma-separated or as a JSON list; a request for another Host gets 400, so no page or
    invite link is ever built on a foreign name. The host of `ZZV_PUBLIC_URL` is always
    allowed. The probes `/healthz`, `/readyz` and `/metrics` answer whatever the Host."""
    public_url: str | None = Field(None, pattern=r"^https?://[^/\s?#]+(/[^\s?#]*)?$")
    """The address people reach the server at (e.g. https://vroom.example); invite and watch
    links are built on it instead of the request's Host."""
    allowed_origins: tuple[str, ...] = ()
    """Extra origins (scheme://host[:port]) accepted by the CSRF check, e.g. the public
    address when a proxy rewrites the Host header."""
    # Unset, an app replaces this random default with the results database's key as it
    # starts (app.results.server_keys); an app that never starts keeps it.
    seed_secret: SecretStr = Field(default_factory=lambda: SecretStr(secrets.token_hex(32)))
    """Key that turns a game's public seed into the engine's shuffle seed, so a seed shown
    in a record cannot be replayed offline to reveal hidden cards. Unset, the server makes
    one in the results database, shared by every worker and replica on it and kept across
    restarts."""

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
        """Accept ``a.example,b.example`` as well as a JSON list.

        >>> Settings(allowed_hosts="localhost, vroom.example").allowed_hosts
        ('localhost', 'vroom.example')
        >>> Settings(allowed_hosts='["[::1]"]').allowed_hosts
        ('[::1]',)
        """
        if not isinstance(value, str):
            return value
        with contextlib.suppress(ValueError):
            listed = json.loads(value)
            if isinstance(listed, list):
                return tuple(listed)
        return tuple(part.strip() for part in value.split(",") if part.strip())

    @property
    def trusted_hosts(self) -> tuple[str, ...]:
        """``allowed_hosts`` plus the host of ``public_url`` (IPv6 in brackets, like a
        Host header), lower-cased.

        >>> Settings(allowed_hosts=("a.example",), public_url="https://B.example:8443/x").trusted_hosts
        ('a.example', 'b.example')
        """
        hosts = [host.lower() for host in self.allowed_hosts]
        if self.public_url is not None:
            name = urlsplit(self.public_url).hostname or ""
            name = f"[{name}]" if ":" in name else name
            if name and name not in hosts:
                hosts.append(name)
        return tuple(hosts)

    @property
    def address_cap(self) -> int:
        """The live races one client address may hold: ``max_games_per_address`` (never
        less than one player's), but never more than half of the store (at least one), so
        one address cannot squat every slot.

        >>> Settings(max_games=20).address_cap, Settings(max_games=2000).address_cap
        (10, 200)
        >>> Settings(max_games=1).address_cap, Settings(max_games_per_client=500).address_cap
        (1, 500)
        """
        wanted = max(self.max_games_per_address, self.max_games_per_client)
        return max(1, min(wanted, self.max_games // 2))

    @property
    def player_cap(self) -> int:
        """The live races one player may hold: ``max_games_per_client``, never more than
        :attr:`address_cap`.

        >>> Settings(max_games=20).player_cap, Settings(max_games=2000).player_cap
        (10, 20)
        """
        return min(self.max_games_per_client, self.address_cap)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Return the process-wide settings read once from the environment."""
    return Settings()
