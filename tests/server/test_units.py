"""The server's small parts on their own: protocol document, redaction, config, rates, storage."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from hokm.server.config import ServerConfig
from hokm.server.protocol import CLIENT_MESSAGE, render
from hokm.server.redact import public_event
from hokm.server.storage import EventRow, StorageError, TableRow, open_storage
from hokm.server.timers import TokenBucket

ROOT = Path(__file__).resolve().parents[2]


def test_protocol_document_schemas_are_generated_from_the_code() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert render(text) == text, "run: python -m hokm.server.protocol --write docs/protocol.md"


def test_client_messages_are_strict() -> None:
    assert CLIENT_MESSAGE.validate_python({"type": "ping"}).type == "ping"
    for bad in ({"type": "action", "action": {"type": "play", "card": "AS"}, "extra": 1},
                {"type": "join", "table": "t", "last_seq": -1},
                {"type": "seed", "seed": "abc!"}):
        with pytest.raises(ValueError):
            CLIENT_MESSAGE.validate_python(bad)


def test_redaction_is_a_whitelist() -> None:
    deal = {"hand": 0, "hakem": 1, "commit": "c", "deck": ["AS"], "anything_new": "KH"}
    assert public_event("deal", deal, 0) == {"kind": "deal", "hand": 0, "hakem": 1, "commit": "c"}
    commit = {"hand": 1, "commit": "c", "server_seed": "s"}
    assert "server_seed" not in public_event("commit", commit, None)
    assert public_event("seed", {"seat": 1, "hand": 2, "seed": "ab"}, 1) == {"kind": "seed", "seat": 1, "hand": 2}
    discard = {"seat": 1, "by": "player", "action": {"type": "discard", "cards": ["2C", "3C"]}}
    assert public_event("action", discard, 0)["action"] == {"type": "discard", "count": 2}
    assert public_event("action", discard, None)["action"] == {"type": "discard", "count": 2}
    assert public_event("action", discard, 1)["action"]["cards"] == ["2C", "3C"]
    draw = {"seat": 0, "by": "player", "action": {"type": "draw", "choice": "keep"}}
    assert public_event("action", draw, 1)["action"] == {"type": "draw"}
    with pytest.raises(ValueError):
        public_event("mystery", {}, 0)


def test_config_from_environment_and_flags(tmp_path: Path) -> None:
    env = {"HOKM_DATA_DIR": str(tmp_path), "HOKM_BOT_DELAY": "0.1,0.2", "HOKM_PORT": "9000",
           "HOKM_ALLOWED_ORIGINS": "http://a.example, http://b.example"}
    cfg = ServerConfig.from_env(env, port=None, hand_pause=0.5)
    assert cfg.port == 9000 and cfg.bot_delay == (0.1, 0.2) and cfg.hand_pause == 0.5
    assert cfg.allowed_origins == ("http://a.example", "http://b.example")
    assert cfg.db_url == f"sqlite+aiosqlite:///{tmp_path.resolve() / 'hokm.db'}"
    assert ServerConfig.from_env({"HOKM_DATABASE_URL": "postgresql+asyncpg://h/db"}).db_url == "postgresql+asyncpg://h/db"
    with pytest.raises(ValueError, match="HOKM_PORT"):
        ServerConfig.from_env({"HOKM_PORT": "eighty"})


def test_token_bucket() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=2, burst=3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 1.0
    assert [bucket.take() for _ in range(3)] == [True, True, False]


def test_storage_refuses_a_taken_sequence_number(tmp_path: Path) -> None:
    async def main() -> None:
        store = open_storage(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
        await store.init()
        now = time.time()
        await store.create_table(TableRow(id="t", mode="computer", players=2, config={}, host=None,
                                          status="waiting", seats=[], created_at=now, updated_at=now))
        await store.append_events("t", [EventRow("t", 1, "presence", {"seat": 0, "connected": True}, now)])
        with pytest.raises(StorageError):
            await store.append_events("t", [EventRow("t", 1, "presence", {"seat": 1, "connected": True}, now)])
        assert [e.payload["seat"] for e in await store.events("t")] == [0]
        assert (await store.get_table("t")).seq == 1
        await store.close()
    asyncio.run(main())


def test_ratings_move_whole_teams_and_skip_bots() -> None:
    from hokm.server.ratings import DEFAULT_MU, DEFAULT_SIGMA, rate_game

    start = (DEFAULT_MU, DEFAULT_SIGMA)
    four = rate_game([start, start, start, None], [0, 1, 0, 1], winner=0)
    assert four[3] is None  # a bot is never rated
    assert four[0] == four[2] and four[0][0] > DEFAULT_MU > four[1][0]  # partners move together
    three = rate_game([start, start, start], [0, 1, 2], winner=2)
    assert three[2][0] > DEFAULT_MU and three[0] == three[1] and three[0][0] < DEFAULT_MU


def test_hokm_help_lists_the_server_commands(capsys: pytest.CaptureFixture[str]) -> None:
    from hokm.cli.main import main

    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "serve " in out and "verify " in out
