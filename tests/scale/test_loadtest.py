"""``hokm loadtest`` end to end on one spawned node (SQLite, no Redis): a report with real figures."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


def test_a_short_run_reports_rate_latency_and_the_echo_floor() -> None:
    out = subprocess.run([sys.executable, "-m", "hokm.cli.main", "loadtest", "--spawn", "1", "--tables", "3",
                          "--think", "30", "--duration", "3", "--warmup", "1", "--json"],
                         capture_output=True, text=True, timeout=150)
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout)
    game = report["game"]
    assert game["tables"] == 3 and game["connections"] == 12
    assert game["actions_acked"] > 0 and game["errors"] == {}
    lat = game["latency_ms"]
    assert lat["count"] == game["actions_acked"] and 0 < lat["p50"] <= lat["p95"] <= lat["p99"] <= lat["max"]
    assert game["server"]["processes"] == 1 and game["server"]["rss_mb_max"] > 10
    echo = report["echo"]
    assert echo["connections"] == 12 and echo["latency_ms"]["count"] > 0
    assert report["ratio"]["p50"] is not None


def test_bad_arguments_are_refused_with_a_message() -> None:
    out = subprocess.run([sys.executable, "-m", "hokm.cli.main", "loadtest", "--tables", "0", "--url", "http://x"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "--tables" in out.stderr
    out = subprocess.run([sys.executable, "-m", "hokm.cli.main", "loadtest", "--spawn", "2"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "--redis-url" in out.stderr
