"""Measure the web table's first and repeat visits in Chromium: bytes over the network and paint times.

    python scripts/measure_web.py [--runs 5] [--url http://127.0.0.1:8000 | --src OTHER/src]

Without --url it starts ``hokm serve`` on a free port with a temporary data folder (and stops it),
from this checkout's ``src`` or the one --src names (to compare with another version).
Each run opens the home page in a fresh browser context (first visit: empty caches), waits until
the service worker controls it, then opens it again in a new tab of the same context (repeat
visit). Bytes are CDP ``Network.loadingFinished.encodedDataLength`` (headers and body as they
crossed the network) of the page's requests, leaving out responses from the service worker or a
browser cache; paint times are the page's ``performance`` paint entries (first-paint,
first-contentful-paint), in milliseconds from navigation start. ``worker_install_extra_body_bytes``
is what the service worker downloads besides on the first visit (see worker_extra). Prints one JSON object: the
median of each figure, and every run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def start_server(data: str, src: Path = ROOT / "src", extra: list[str] | None = None) -> tuple[subprocess.Popen, str]:
    """``hokm serve`` from ``src`` on a free port (``extra``: more of its options); returns it and its URL."""
    env = {**os.environ, "PYTHONPATH": str(src) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-m", "hokm.cli.main", "serve", "--port", "0", "--data-dir", data,
                             "--log-level", "warning", *(extra or [])], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=env, cwd=ROOT)
    assert proc.stdout is not None
    for line in proc.stdout:
        m = re.search(r"ready: (http://\S+?)/?\s", line)
        if m:
            threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()  # type: ignore[union-attr]
            return proc, m.group(1)
    proc.kill()
    raise SystemExit("hokm serve did not start")


def visit(context, url: str) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cached: set[str] = set()
    sizes: dict[str, int] = {}
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})

    def response(e: dict) -> None:
        r = e["response"]
        if r.get("fromServiceWorker") or r.get("fromDiskCache") or r.get("fromPrefetchCache"):
            cached.add(e["requestId"])

    cdp.on("Network.responseReceived", response)
    cdp.on("Network.requestServedFromCache", lambda e: cached.add(e["requestId"]))
    cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
    urls: dict[str, str] = {}
    cdp.on("Network.requestWillBeSent", lambda e: urls.__setitem__(e["requestId"], e["request"]["url"]))
    page.goto(url + "/")
    page.wait_for_selector("#nickname")
    page.wait_for_load_state("networkidle")
    if page.evaluate("async () => !!(navigator.serviceWorker && await navigator.serviceWorker.getRegistration())"):
        page.wait_for_function("() => navigator.serviceWorker.controller", timeout=20000)
    paints = page.evaluate("() => Object.fromEntries(performance.getEntriesByType('paint')"
                           ".map((p) => [p.name, Math.round(p.startTime)]))")
    out = {"bytes": sum(n for rid, n in sizes.items() if rid not in cached),
           "requests": sum(1 for rid in sizes if rid not in cached),
           "first_paint_ms": paints.get("first-paint"), "first_contentful_paint_ms": paints.get("first-contentful-paint"),
           "urls": sorted(set(urls.values()))}
    page.close()
    return out


def worker_extra(url: str, loaded: set[str]) -> int:
    """Compressed body bytes of the files the service worker keeps that the page did not load
    itself (the offline page and its script): it fetches them once, on install. Its other files
    come from the HTTP cache the page has just filled."""
    sw = httpx.get(url + "/sw.js").text
    line = re.search(r"^const BUILD = (.*);$", sw, re.M)
    if not line:
        return 0
    total = 0
    for path in json.loads(line.group(1))["precache"]:
        if url + path not in loaded:
            r = httpx.get(url + path, headers={"accept-encoding": "gzip"})
            total += int(r.headers.get("content-length", len(r.content)))  # as sent, compressed
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--url")
    ap.add_argument("--src", type=Path, default=ROOT / "src")
    args = ap.parse_args()
    data = tempfile.mkdtemp(prefix="hokm-measure-")
    proc = None
    try:
        url = args.url
        if not url:
            proc, url = start_server(data, args.src.resolve())
        chromium = os.environ.get("HOKM_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
        runs = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=ARGS)
            visit(browser.new_context(), url)  # warm the server (first requests build nothing, but start up)
            for _ in range(args.runs):
                context = browser.new_context(viewport={"width": 360, "height": 740})
                runs.append({"first": visit(context, url), "repeat": visit(context, url)})
                runs[-1]["worker_install_extra_body_bytes"] = worker_extra(url, set(runs[-1]["first"].pop("urls")))
                runs[-1]["repeat"].pop("urls")
                context.close()
            browser.close()
        median = {f"{kind}_{key}": statistics.median(r[kind][key] for r in runs)
                  for kind in ("first", "repeat") for key in runs[0]["first"]}
        median["worker_install_extra_body_bytes"] = statistics.median(r["worker_install_extra_body_bytes"] for r in runs)
        print(json.dumps({"median": median, "runs": runs}, indent=1))
    finally:
        if proc:
            proc.terminate()
            proc.wait(timeout=10)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
