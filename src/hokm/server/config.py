"""Server settings, from command-line flags and ``HOKM_*`` environment variables.

Everything a deployment or a test needs to change lives here, so the rest of the server takes a
:class:`ServerConfig` and never reads the environment itself. Defaults run the whole server from
one folder: SQLite at ``<data-dir>/hokm.db`` and the in-process bus.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Mapping


def _default_data_dir() -> str:
    return os.path.join(os.path.expanduser("~"), ".local", "share", "hokm")


@dataclass(frozen=True)
class ServerConfig:
    """All server settings. Times are seconds."""

    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: str = field(default_factory=_default_data_dir)
    database_url: str | None = None  # default: sqlite+aiosqlite:///<data_dir>/hokm.db
    bus_url: str = "memory://"
    redis_url: str | None = None  # set: several nodes share tables through Redis (see hokm.server.cluster)
    redis_prefix: str = "hokm"  # key and channel prefix in Redis, so deployments (or test runs) can share one
    node_id: str | None = None  # default: host name, process id and a random suffix
    lease_ttl: float = 5.0  # a table's owner must renew its Redis lease within this time or lose the table
    log_json: bool = False  # one JSON object per log line (set by HOKM_LOG_JSON or --log-json)
    allowed_origins: tuple[str, ...] = ()
    default_bot: str | None = None  # default: the strongest of medium, heuristic, random that exists
    hint_bot: str | None = None
    bot_delay: tuple[float, float] = (0.6, 1.4)  # a human-like pause before a bot's decision shows
    hand_pause: float = 2.5  # between the end of a hand and the next deal, to show the result
    queue_wait: float = 20.0  # public matchmaking: bots fill the remaining seats after this wait
    absent_grace: float = 30.0  # disconnected this long: a bot takes the seat
    timeouts_to_takeover: int = 2
    reclaim_window: float = 600.0
    hello_timeout: float = 10.0
    rate_per_second: float = 20.0
    rate_burst: float = 40.0
    flood_limit: int = 200  # refused messages in a row before the connection is closed
    max_tables: int = 10_000
    bot_threads: int = 4
    bot_processes: int = 2  # worker processes for search-level bots (0: threads for every bot)

    def __post_init__(self) -> None:
        if not 0 <= self.port <= 65535:
            raise ValueError(f"port must be 0..65535, not {self.port}")
        lo, hi = self.bot_delay
        if lo < 0 or hi < lo:
            raise ValueError(f"bot_delay must be 0 <= min <= max, not {self.bot_delay}")

    @property
    def db_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{Path(self.data_dir).resolve() / 'hokm.db'}"

    def with_(self, **changes: Any) -> "ServerConfig":
        return replace(self, **changes)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> "ServerConfig":
        """Settings from ``HOKM_<FIELD>`` variables (e.g. ``HOKM_DATABASE_URL``), then ``overrides``.

        ``overrides`` with the value ``None`` are ignored, so parsed flags can be passed as they are.
        """
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get("HOKM_" + f.name.upper())
            if raw is None or raw == "":
                continue
            values[f.name] = _parse(f.name, raw)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)


def _parse(name: str, raw: str) -> Any:
    default = getattr(ServerConfig(), name) if name != "data_dir" else ""
    try:
        if isinstance(default, bool):
            return raw.lower() in ("1", "true", "yes", "on")
        if isinstance(default, int):
            return int(raw)
        if isinstance(default, float):
            return float(raw)
        if isinstance(default, tuple):
            parts = [p.strip() for p in raw.split(",") if p.strip()]
            return tuple(float(p) for p in parts) if name == "bot_delay" else tuple(parts)
    except ValueError:
        raise ValueError(f"HOKM_{name.upper()}={raw!r} is not a valid value") from None
    return raw
