"""Server settings, from command-line flags and ``HOKM_*`` environment variables (pydantic-settings).

Everything a deployment or a test needs to change lives here, so the rest of the server takes a
:class:`ServerConfig` and never reads the environment itself. Each field ``name`` is read from
``HOKM_<NAME>`` (``HOKM_DATABASE_URL``, ``HOKM_QUEUE_WAIT``, ...); values given to the constructor
(the flags of ``hokm serve``) win over the environment. Lists (``HOKM_ALLOWED_ORIGINS``,
``HOKM_METRICS_ALLOW``, ``HOKM_BOT_DELAY``) are comma-separated. Defaults run the whole server from
one folder: SQLite at ``<data-dir>/hokm.db`` and the in-process bus.
"""

from __future__ import annotations

import ipaddress
import math
import os
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


def _default_data_dir() -> str:
    return os.path.join(os.path.expanduser("~"), ".local", "share", "hokm")


#: Settings in seconds that have a flag of the same name; none may be negative.
SECONDS = ("hand_pause", "queue_wait", "absent_grace", "reclaim_window", "lease_ttl")
#: Settings that must be above zero.
POSITIVE = ("guest_rate", "guest_burst", "table_rate", "table_burst", "address_table_rate", "address_table_burst",
            "code_rate", "code_burst", "address_code_rate", "address_code_burst", "waiting_room_ttl",
            "token_lifetime", "signin_rate", "signin_burst", "account_signin_rate", "account_signin_burst",
            "address_signin_rate", "address_signin_burst",
            "link_lifetime", "friend_rate", "friend_burst", "invite_rate", "invite_burst", "hash_threads")

Names = Annotated[tuple[str, ...], NoDecode]  # from the environment: comma-separated


class ServerConfig(BaseSettings):
    """All server settings. Times are seconds."""

    model_config = SettingsConfigDict(env_prefix="HOKM_", frozen=True, extra="forbid", env_ignore_empty=True)

    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: str = Field(default_factory=_default_data_dir)
    database_url: str | None = None  # default: sqlite+aiosqlite:///<data_dir>/hokm.db
    bus_url: str = "memory://"
    redis_url: str | None = None  # set: several nodes share tables through Redis (see hokm.server.cluster)
    redis_prefix: str = "hokm"  # key and channel prefix in Redis, so deployments (or test runs) can share one
    node_id: str | None = None  # default: host name, process id and a random suffix
    lease_ttl: float = 5.0  # a table's owner must renew its Redis lease within this time or lose the table
    log_json: bool = False  # one JSON object per log line (set by HOKM_LOG_JSON or --log-json)
    allowed_origins: Names = ()
    web_dir: str | None = None  # the web table's files (default: the ones in the package)
    default_bot: str | None = None  # default: the first of medium, easy, random that exists
    hint_bot: str | None = None
    bot_delay: Annotated[tuple[float, float], NoDecode] = (0.6, 1.4)  # a human-like pause before a bot's decision shows
    hand_pause: float = 2.5  # between the end of a hand and the next deal, to show the result
    queue_wait: float = 20.0  # public matchmaking: bots fill the remaining seats after this wait
    absent_grace: float = 30.0  # disconnected this long: a bot takes the seat
    timeouts_to_takeover: int = 2
    reclaim_window: float = 600.0
    hello_timeout: float = 10.0
    http_head_timeout: float = Field(20.0, gt=0)  # a request's line and headers must be in within this (httpprotocol.py)
    # On SIGTERM, how long the connections have to end before what is left of their work is cancelled.
    shutdown_grace: int = Field(10, ge=0)
    rate_per_second: float = 20.0
    rate_burst: float = 40.0
    flood_limit: int = Field(200, ge=1)  # refused messages within flood_window seconds that close the connection (4008)
    flood_window: float = Field(60.0, gt=0)  # the refusal budget refills at flood_limit per flood_window seconds
    ws_compression: bool = True  # permessage-deflate on the WebSocket (HOKM_WS_COMPRESSION=false: off)
    # With it, messages shorter than this many bytes go uncompressed (0: compress every message).
    ws_compress_min: int = Field(1024, ge=0)
    # Open WebSocket connections at once, per node: one player (phones, laptops, tabs) and one
    # address (many players share one behind a carrier's or a café's NAT). Over it: close 4013.
    max_connections_per_player: int = Field(12, ge=1)
    max_connections_per_address: int = Field(2000, ge=1)
    # Open connections at once, HTTP and WebSocket, per node; past it a new one is answered 503 at
    # once (httpprotocol.py). None: the process's open-file limit less the handles the node keeps
    # for itself (hokm.cli.serve.connections_for).
    max_connections: int | None = Field(None, ge=1)
    bus_queue: int = Field(1000, ge=1)  # event batches a connection may fall behind before it is resynced
    max_tables: int = 10_000  # unfinished tables (waiting or playing) this node holds at most
    # Limits a real player never meets; they keep one address or account from filling the server.
    # Rates are per second with bursts up to the count (token buckets, per node).
    guest_rate: float = 0.1  # new guests per address: 1 every 10 s ...
    guest_burst: float = 60.0  # ... after a burst of 60
    table_rate: float = 0.1  # tables created per account: 1 every 10 s ...
    table_burst: float = 10.0  # ... after a burst of 10
    address_table_rate: float = 1.0  # tables created per address (all its accounts together)
    address_table_burst: float = 100.0
    max_hosted: int = 5  # unfinished tables one account hosts at once
    max_waiting_per_address: int = 50  # private rooms waiting for players, created from one address
    waiting_room_ttl: float = 1800.0  # a waiting room with no seat change for this long is closed
    code_rate: float = 0.2  # invite code lookups per account: 1 every 5 s ...
    code_burst: float = 20.0  # ... after a burst of 20
    address_code_rate: float = 2.0  # invite code lookups per address (all its accounts together)
    address_code_burst: float = 200.0
    token_lifetime: float = 30 * 86400.0  # a token unused this long expires (each use renews it)
    # Accounts and friends (hokm.server.accounts, hokm.server.friends).
    signin_rate: float = 1 / 60  # sign-in attempts per account from one address: 1 a minute ...
    signin_burst: float = 5.0  # ... after 5 in a row (successful ones are given back)
    account_signin_rate: float = 0.1  # ... and per account from every address together: 1 each 10 s ...
    account_signin_burst: float = 50.0  # ... after 50 (one address alone cannot lock an account out)
    address_signin_rate: float = 0.5  # sign-in, claim and device-code attempts per address ...
    address_signin_burst: float = 30.0
    link_lifetime: float = 600.0  # a device link code is valid this long
    friend_rate: float = 0.5  # friend look-ups and requests per account ...
    friend_burst: float = 30.0
    invite_rate: float = 0.2  # invitations sent per account ...
    invite_burst: float = 20.0
    hash_threads: int = 2  # passwords hashed or checked at once (Argon2id, 64 MiB each)
    metrics_allow: Names = ("127.0.0.1", "::1")  # addresses or networks that may read /metrics
    metrics_token: str | None = None  # set: /metrics also answers "Authorization: Bearer <token>" from anywhere
    bot_threads: int = 4
    bot_processes: int = 2  # worker processes for search-level bots (0: threads for every bot)
    cpu_processes: int = 1  # worker processes for record verification (hokm.server.cpu)
    verify_rate: float = 0.5  # POST /api/verify: requests per second per address and per player ...
    verify_burst: float = 6.0  # ... with bursts up to this many
    server_name: str = "hokm"  # meta.server of the records this server signs
    # Ed25519 private key, 64 hex digits (all nodes of a cluster: the same)
    signing_key: str | None = Field(default=None, repr=False)
    signing_key_file: str | None = None  # or a PEM file holding it; default <data_dir>/signing-key.pem, made once

    @field_validator("allowed_origins", "metrics_allow", "bot_delay", mode="before")
    @classmethod
    def _comma_separated(cls, value: Any) -> Any:
        if isinstance(value, str):
            return tuple(p.strip() for p in value.split(",") if p.strip())
        return value

    @field_validator("port")
    @classmethod
    def _port(cls, value: int) -> int:
        if not 0 <= value <= 65535:
            raise ValueError(f"port must be 0..65535, not {value}")
        return value

    @field_validator("bot_delay")
    @classmethod
    def _bot_delay(cls, value: tuple[float, float]) -> tuple[float, float]:
        lo, hi = value
        if not 0 <= lo <= hi:
            raise ValueError(f"bot_delay must be 0 <= min <= max, not {lo:g}, {hi:g}")
        return value

    @field_validator(*SECONDS)
    @classmethod
    def _seconds(cls, value: float) -> float:
        if not value >= 0:  # also refuses NaN
            raise ValueError(f"must be 0 or more seconds, not {value:g}")
        return value

    @field_validator(*POSITIVE)
    @classmethod
    def _positive(cls, value: float) -> float:
        if not value > 0 or math.isnan(value):
            raise ValueError(f"must be positive, not {value:g}")
        return value

    @field_validator("metrics_allow")
    @classmethod
    def _networks(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for item in value:
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ValueError(f"{item!r} is not an address or a network (a.b.c.d/n)") from None
        return value

    @property
    def db_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{Path(self.data_dir).resolve() / 'hokm.db'}"

    @classmethod
    def from_env(cls, **flags: Any) -> ServerConfig:
        """Settings from ``HOKM_<FIELD>`` variables, overridden by ``flags`` (those not ``None``).

        A bad value is a :class:`SettingsError` of one line naming the flag or the variable.
        """
        given = {k: v for k, v in flags.items() if v is not None}
        try:
            return cls(**given)
        except ValidationError as e:
            raise SettingsError(one_line(e, given)) from None


class SettingsError(ValueError):
    """A setting that cannot be used, said in one line."""


def one_line(e: ValidationError, flags: dict[str, Any]) -> str:
    """The first problem of ``e``, naming the flag (``--hand-pause``) or variable (``HOKM_PORT``) it came from."""
    first = e.errors()[0]
    loc = first.get("loc", ())
    msg = str(first.get("msg", "invalid")).removeprefix("Value error, ")
    name = str(loc[0]) if loc else ""
    if not name:
        return msg
    if name in flags:
        return f"--{name.replace('_', '-')} ({flags[name]!r}): {msg}"
    var = "HOKM_" + name.upper()
    raw = os.environ.get(var)
    return f"{var}={raw!r}: {msg}" if raw is not None else f"{name}: {msg}"
