"""``hokm loadtest`` end to end on one spawned node (SQLite, no Redis): a report with real figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hokm.loadtest import scrape
from hokm.loadtest.profile import summarise
from hokm.loadtest.run import format_report

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


def test_a_short_run_reports_rate_latency_cpu_per_action_a_profile_and_the_echo_floor(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "hokm.cli.main", "loadtest", "--spawn", "1", "--tables", "3",
                          "--think", "30", "--duration", "3", "--warmup", "1", "--json", "--churn", "4",
                          "--profile", str(tmp_path / "profile")],
                         capture_output=True, text=True, timeout=150)
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout)
    game = report["game"]
    assert game["tables"] == 3 and game["connections"] == 12
    assert game["actions_acked"] > 0 and game["errors"] == {}
    # Each table starts once its players are there: no seat joins a game under way, and no stand-in
    # bot plays for a player who has not connected yet.
    assert game["seats_joined_after_start"] == 0 and game["stand_in_actions"] == 0
    # Players lost their connection and came back (--churn), and no other connection dropped.
    assert game["dropped"] >= 8 and game["reconnects"] == 0
    # The players took each batch of events as one message: at a four-player table, one per seat for
    # an action, and more for the drops (a seat's connection lost and back: two more batches each);
    # each message an event or two and a view patch (a few hundred bytes, not the 1.5 KB of a view).
    assert game["events"] == "patched" and 3.5 < game["messages_per_action"] < 8
    assert 250 * game["messages_per_action"] < game["message_bytes_per_action"] < 1000 * game["messages_per_action"]
    lat = game["latency_ms"]
    assert lat["count"] == game["actions_acked"] and 0 < lat["p50"] <= lat["p95"] <= lat["p99"] <= lat["max"]
    assert game["server"]["processes"] == 1 and game["server"]["rss_mb_max"] > 10
    cpa = game["server"]["cpu_per_action"]
    assert cpa["actions"] == game["actions_acked"] and list(cpa["nodes"]) == ["node0"]
    assert cpa["cpu_s"] > 0 and cpa["ms_per_action"] == pytest.approx(1000 * cpa["cpu_s"] / cpa["actions"], rel=1e-3)
    assert cpa["nodes"]["node0"]["cpu_s"] == cpa["cpu_s"]
    assert 0 < game["server"]["generator_cpu_percent"] <= 100 * 1.05  # one process: at most one core
    prof = game["profiles"]["node0"]
    assert "error" not in prof, prof
    assert prof["samples"] > 0 and Path(prof["file"]).is_file()
    assert all(0 < e["samples"] <= prof["samples"] for e in prof["self"] + prof["total"])
    assert "node0:" in out.stderr and "self time" in out.stderr
    # What the node measured of itself over the window: each acknowledged action handled and stored.
    own = game["server"]["own_metrics"]
    assert list(own) == report["urls"]
    (mine,) = own.values()
    assert "error" not in mine, mine
    assert mine["action"]["count"] >= game["actions_acked"] // 2 and mine["append"]["count"] > 0
    assert mine["action"]["p50_bucket_ms"] is not None and mine["action"]["mean_ms"] > 0
    assert "measured of itself: actions handled" in format_report(report)
    echo = report["echo"]
    assert echo["connections"] == 12 and echo["latency_ms"]["count"] > 0
    assert report["ratio"]["p50"] is not None


def test_bad_arguments_are_refused_with_a_message() -> None:
    out = subprocess.run([sys.executable, "-m", "hokm.cli.main", "loadtest", "--tables", "0", "--url", "http://x"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "--tables" in out.stderr
    out = subprocess.run([sys.executable, "-m", "hokm.cli.main", "loadtest", "--churn", "-1", "--url", "http://x"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "--churn" in out.stderr
    out = subprocess.run([sys.executable, "-m", "hokm.cli.main", "loadtest", "--spawn", "2"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "--redis-url" in out.stderr


def test_the_profile_summary_counts_self_and_total_samples() -> None:
    collapsed = "\n".join([
        "main (hokm/cli/main.py:1);run (asyncio/runners.py:5);TableActor.act (hokm/server/table/actor.py:10);"
        "dumps (json/__init__.py:2) 6",
        "main (hokm/cli/main.py:1);run (asyncio/runners.py:5);TableActor.act (hokm/server/table/actor.py:11) 3",
        "main (hokm/cli/main.py:1);run (asyncio/runners.py:5) 1",
        "a line that is not a stack",
    ])
    s = summarise(collapsed)
    assert s["samples"] == 10
    assert s["self"][0] == {"function": "dumps (__init__.py)", "samples": 6, "percent": 60.0}
    assert {e["function"]: e["samples"] for e in s["self"]} == {"dumps (__init__.py)": 6, "TableActor.act (actor.py)": 3,
                                                               "run (runners.py)": 1}
    # total time: the project's own functions only, two lines of one function counted once per stack
    assert s["total"] == [{"function": "TableActor.act (actor.py)", "samples": 9, "percent": 90.0}]


def test_a_nodes_own_histograms_are_read_over_the_window() -> None:
    """The report's ``own_metrics``: what a node's histograms gained between two readings of its
    ``/metrics``, the bucket each quantile fell in, and the labels kept apart."""
    from prometheus_client import CollectorRegistry, Histogram, generate_latest

    registry = CollectorRegistry()
    action = Histogram("hokm_action_latency_seconds", "", buckets=(0.001, 0.01, 0.1), registry=registry)
    gc_pause = Histogram("hokm_gc_pause_seconds", "", ["kind"], buckets=(0.001, 0.01, 0.1), registry=registry)
    action.observe(0.5)  # before the window: not counted
    start = scrape.parse(generate_latest(registry).decode())
    for seconds in [0.0005] * 98 + [0.05, 0.2]:
        action.observe(seconds)
    gc_pause.labels("young").observe(0.004)
    gc_pause.labels("full").observe(0.3)
    got = scrape.window(start, scrape.parse(generate_latest(registry).decode()))
    assert got["action"] == {"count": 100, "mean_ms": pytest.approx(2.99, abs=0.01), "p50_bucket_ms": 1.0,
                             "p99_bucket_ms": 100.0, "max_bucket_ms": "over 100"}
    assert got["gc_young"]["count"] == 1 and got["gc_young"]["max_bucket_ms"] == 10.0
    assert got["gc_full"]["count"] == 1 and got["gc_full"]["p50_bucket_ms"] == "over 100"
    assert "append" not in got  # a histogram the node does not have is left out
    assert scrape.window("/metrics answered 403", {}) == {"error": "/metrics answered 403"}
