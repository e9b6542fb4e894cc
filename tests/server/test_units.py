"""The server's small parts on their own: protocol document, redaction, config, rates, storage."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from hokm.server.config import ServerConfig
from hokm.server.lobby import fill_in, human_seats
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


def test_config_from_environment_and_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def env(**values: str) -> None:
        for k in [k for k in os.environ if k.startswith("HOKM_")]:
            monkeypatch.delenv(k)
        for k, v in values.items():
            monkeypatch.setenv(k, v)

    env(HOKM_DATA_DIR=str(tmp_path), HOKM_BOT_DELAY="0.1,0.2", HOKM_PORT="9000",
        HOKM_ALLOWED_ORIGINS="http://a.example, http://b.example", HOKM_LOG_JSON="yes", HOKM_NODE_ID="")
    cfg = ServerConfig.from_env(port=None, hand_pause=0.5)
    assert cfg.port == 9000 and cfg.bot_delay == (0.1, 0.2) and cfg.hand_pause == 0.5 and cfg.log_json
    assert cfg.allowed_origins == ("http://a.example", "http://b.example") and cfg.node_id is None
    assert cfg.db_url == f"sqlite+aiosqlite:///{tmp_path.resolve() / 'hokm.db'}"
    assert ServerConfig.from_env(port=8123).port == 8123  # a flag wins over the environment
    env(HOKM_DATABASE_URL="postgresql+asyncpg://h/db")
    assert ServerConfig.from_env().db_url == "postgresql+asyncpg://h/db"
    env(HOKM_PORT="eighty")
    with pytest.raises(ValueError, match="^HOKM_PORT='eighty': .*integer"):
        ServerConfig.from_env()
    env(HOKM_METRICS_ALLOW="10.0.0.0/8, ::1", HOKM_GUEST_BURST="5", HOKM_METRICS_TOKEN="t")
    limits = ServerConfig.from_env()
    assert limits.metrics_allow == ("10.0.0.0/8", "::1") and limits.guest_burst == 5.0 and limits.metrics_token == "t"
    env(HOKM_METRICS_ALLOW="localhost")
    with pytest.raises(ValueError, match="^HOKM_METRICS_ALLOW='localhost': 'localhost' is not an address"):
        ServerConfig.from_env()
    env(HOKM_WAITING_ROOM_TTL="0")
    with pytest.raises(ValueError, match="^HOKM_WAITING_ROOM_TTL='0': must be positive"):
        ServerConfig.from_env()
    env()
    with pytest.raises(ValueError, match=r"^--hand-pause \(-1\): must be 0 or more seconds") as e:
        ServerConfig.from_env(hand_pause=-1)
    assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match="^--bot-delay"):
        ServerConfig.from_env(bot_delay=(2.0, 1.0))
    with pytest.raises(ValueError, match="^--flood-limit"):
        ServerConfig.from_env(flood_limit=0)


def test_two_people_at_a_public_four_player_table_are_partners() -> None:
    for _ in range(50):  # the order is random: every draw must keep the two people on one side
        assert sorted(human_seats(4, 2)) == [0, 2]
    assert sorted(human_seats(4, 4)) == [0, 1, 2, 3] and len(set(human_seats(3, 2))) == 2


def test_seconds_until_bots_fill_a_public_group() -> None:
    assert fill_in([100.0], 4, 20.0, now=105.0) == 15.0  # alone since 100: bots come at 120
    assert fill_in([100.0, 110.0], 4, 20.0, now=105.0) == 15.0  # the group's first player sets the time
    assert fill_in([100.0], 4, 20.0, now=130.0) == 0.0  # overdue: being seated
    assert fill_in([100.0, 101.0], 2, 20.0, now=100.5) == 0.0  # a full group needs no bots


def test_token_bucket() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=2, burst=3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 1.0
    assert [bucket.take() for _ in range(3)] == [True, True, False]


def test_keyed_limits_are_per_key_bounded_and_refund() -> None:
    from hokm.server.limits import KeyedLimit, Limited, check_all

    now = [0.0]
    per_ip = KeyedLimit("things", rate=0.5, burst=2, max_keys=3, clock=lambda: now[0])
    per_account = KeyedLimit("things", rate=0.5, burst=1, clock=lambda: now[0])
    per_ip.check("a")
    per_ip.check("a")
    with pytest.raises(Limited) as info:
        per_ip.check("a")
    assert info.value.retry_after == 2  # one token back at 0.5 a second
    per_ip.check("b")  # another key has its own bucket
    check_all((per_ip, "c"), (per_account, "p"))
    with pytest.raises(Limited):  # the account refuses: the address's token is given back
        check_all((per_ip, "c"), (per_account, "p"))
    per_ip.check("c")
    with pytest.raises(Limited):
        per_ip.check("c")
    for k in ("d", "e", "f"):  # at most three keys: the least recently used go first
        per_ip.check(k)
    assert len(per_ip._buckets) == 3 and "a" not in per_ip._buckets
    now[0] = 2.0
    per_ip.check("c")


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


def test_a_newcomer_moves_no_established_opponents_rating() -> None:
    """Accounts made to lose on purpose carry nobody up: an established player who beats a newcomer keeps the
    rating they had, while the newcomer's own rating moves (and among established players, as before)."""
    from hokm.server.ratings import DEFAULT_MU, DEFAULT_SIGMA, rate_game

    start, farmer = (DEFAULT_MU, DEFAULT_SIGMA), (30.0, 4.0)
    two = rate_game([farmer, start], [0, 1], winner=0, newcomers=[False, True])
    assert two[0] == farmer and two[1] is not None and two[1][0] < DEFAULT_MU
    both = rate_game([farmer, farmer], [0, 1], winner=0, newcomers=[False, False])
    assert both[0] is not None and both[0][0] > farmer[0]
    # four players: a newcomer opposite freezes the established side; one beside moves nobody's differently
    four = rate_game([farmer, start, farmer, farmer], [0, 1, 0, 1], winner=0, newcomers=[False, True, False, False])
    assert four[0] == four[2] == farmer and four[1] is not None and four[1][0] < DEFAULT_MU
    assert four[3] is not None and four[3][0] < farmer[0]  # the newcomer's established partner: its opponents are not new
    partner = rate_game([farmer, farmer, start, farmer], [0, 1, 0, 1], winner=0, newcomers=[False, False, True, False])
    assert partner[0] is not None and partner[0][0] > farmer[0]


def test_hokm_help_lists_the_server_commands(capsys: pytest.CaptureFixture[str]) -> None:
    from hokm.cli.main import main

    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "serve " in out and "verify " in out


@pytest.mark.parametrize("seed", ["abc", "a", "0" * 129, "zz"])
def test_a_seed_the_fairness_module_would_refuse_is_refused_by_every_model_first(seed: str) -> None:
    """Every seed a client can send (the ``seed`` message, sitting, queueing, creating a table) is whole bytes of hex:
    an odd-length one passed the models and then raised in the table, after the seat was taken."""
    from pydantic import ValidationError

    from hokm.fairness import normalise_seed
    from hokm.server.protocol import CSeed, QueueRequest, SitRequest

    with pytest.raises(ValueError):
        normalise_seed(seed)
    with pytest.raises(ValidationError):
        CSeed.model_validate({"type": "seed", "seed": seed})
    with pytest.raises(ValidationError):
        SitRequest.model_validate({"seat": 1, "seed": seed})
    with pytest.raises(ValidationError):
        QueueRequest.model_validate({"players": 4, "seed": seed})
    good = "AB" * 64  # the same messages with a seed of whole bytes pass
    assert normalise_seed(good) and CSeed.model_validate({"type": "seed", "seed": good}).seed == good
    assert SitRequest.model_validate({"seat": 1, "seed": good}).seed == good
    assert QueueRequest.model_validate({"players": 4, "seed": good}).seed == good
