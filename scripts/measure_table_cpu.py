"""Measure what the web table costs the browser's main thread while a game is played on it.

    python scripts/measure_table_cpu.py [--seconds 30] [--runs 3] [--speed off|normal] [--players 4]
        [--size 390x844] [--src OTHER/src] [--idle]

Starts ``hokm serve`` (computer players answering in 20 to 50 ms, as in the web tests) from this
checkout's ``src`` or the one --src names, opens the home page in Chromium at --size in Persian,
starts a game against the computer and plays it through the page for --seconds: whenever the
view asks this seat for a decision, the first playable card (or the first suit) is clicked. The
figures are CDP ``Performance.getMetrics`` differences over that window (the main thread's busy
time: ``TaskDuration``; of it script, style and layout) and the time spent in the table's own
``render()``, timed in the page. Each is also given per view drawn (``renders``), which compares
runs whose pace differs. Prints one JSON object: the median of each figure over the runs, and
every run. With ``--idle`` nothing is clicked once the view asks this seat for a card: the window
measures the table waiting for us, with nothing moving but the clock.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from measure_web import ARGS, ROOT, start_server
from playwright.sync_api import sync_playwright

METRICS = ("TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration")

TIME_RENDER = """() => {
  const t = window.hokmDebug.table;
  window.__render = { n: 0, ms: 0 };
  const draw = t.render.bind(t);
  t.render = (...a) => { const s = performance.now(); try { return draw(...a); } finally { window.__render.n++; window.__render.ms += performance.now() - s; } };
}"""


def act(page) -> None:  # type: ignore[no-untyped-def]
    """One decision through the page, if the view asks for one (a click the table moved on from is let go)."""
    legal = page.evaluate("() => { const v = window.hokmDebug.table.view; return v && v.legal.length ? v.legal[0].type : null; }")
    try:
        if legal == "trump":
            page.locator(".suit-btn").first.click(timeout=2000)
        elif legal == "play":
            page.locator(".hand .card.playable").first.click(timeout=2000, position={"x": 8, "y": 20})
    except Exception:  # noqa: BLE001 - re-rendered under the click: the next round tries again
        pass


def run_once(browser, url: str, args: argparse.Namespace) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    width, height = (int(x) for x in args.size.split("x"))
    context = browser.new_context(viewport={"width": width, "height": height}, locale="fa-IR")
    context.add_init_script("localStorage.setItem('hokm.settings.v1', %s);"
                            % json.dumps(json.dumps({"speed": args.speed, "muted": True})))
    page = context.new_page()
    page.goto(url)
    page.fill("#nickname", "سارا")
    page.locator(f".seg[data-value='{args.players}']").first.click()
    page.locator(".seg[data-value='easy']").click()
    page.locator(".seg[data-value='7']").first.click()
    page.click("#play-computer")
    page.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view", timeout=20000)
    page.evaluate(TIME_RENDER)
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")

    def metrics() -> dict[str, float]:
        return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}

    if args.idle:
        # Our turn to play, and the plays before it drawn: from here on only the clock moves.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and page.evaluate(
                "() => { const v = window.hokmDebug.table.view; return !(v && v.legal.length && v.legal[0].type === 'play'); }"):
            act(page)
            page.wait_for_timeout(60)
        page.wait_for_timeout(2500)
    page.evaluate("() => { window.__render.n = 0; window.__render.ms = 0; }")
    before = metrics()
    start = time.monotonic()
    while time.monotonic() - start < args.seconds:
        if not args.idle:
            act(page)
        page.wait_for_timeout(60)
    after = metrics()
    wall = time.monotonic() - start
    render = page.evaluate("() => window.__render")
    context.close()
    out: dict[str, Any] = {"seconds": round(wall, 2), "renders": render["n"], "render_ms": round(render["ms"], 1)}
    for m in METRICS:
        out[m + "_s"] = round(after[m] - before[m], 3)
    n = max(render["n"], 1)
    out["per_render_ms"] = {"task": round(1000 * out["TaskDuration_s"] / n, 2), "render": round(render["ms"] / n, 2),
                            "style": round(1000 * out["RecalcStyleDuration_s"] / n, 2),
                            "layout": round(1000 * out["LayoutDuration_s"] / n, 2)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--speed", choices=("off", "normal"), default="off")
    ap.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    ap.add_argument("--size", default="390x844")
    ap.add_argument("--src", type=Path, default=ROOT / "src")
    ap.add_argument("--idle", action="store_true", help="measure the table waiting for our card")
    args = ap.parse_args()
    data = tempfile.mkdtemp(prefix="hokm-measure-")
    proc, url = start_server(data, args.src.resolve(), ["--bot-delay", "0.02", "0.05", "--hand-pause", "0.4"])
    try:
        chromium = os.environ.get("HOKM_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=ARGS)
            runs = [run_once(browser, url, args) for _ in range(args.runs)]
            browser.close()
        keys = [k for k in runs[0] if k != "per_render_ms"]
        median: dict[str, Any] = {k: statistics.median(r[k] for r in runs) for k in keys}
        median["per_render_ms"] = {k: statistics.median(r["per_render_ms"][k] for r in runs) for k in runs[0]["per_render_ms"]}
        print(json.dumps({"size": args.size, "speed": args.speed, "players": args.players, "median": median, "runs": runs}, indent=1))
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
