"""The web table under its Content-Security-Policy: it loads and plays with no violation, and the
policy is really enforced (an injected inline script does not run)."""

from __future__ import annotations

from .conftest import DESKTOP


def test_the_table_runs_under_its_content_security_policy(server, open_page, browser):
    # open_page fails the test on any console error, which is where Chromium reports a violation
    page = open_page(server + "/", viewport=DESKTOP)
    page.fill("#nickname", "Sara")
    page.click("#create-room")
    page.wait_for_selector(".room-code")

    probe = browser.new_page()
    try:
        violations: list[str] = []
        probe.on("console", lambda m: violations.append(m.text) if m.type == "error" else None)
        response = probe.goto(server + "/")
        assert response is not None and "frame-ancestors 'none'" in response.headers["content-security-policy"]
        ran = probe.evaluate("""() => {
            const s = document.createElement("script");
            s.textContent = "window.__injected = true";
            document.body.append(s);
            return window.__injected === true;
        }""")
        assert ran is False
        probe.wait_for_timeout(200)
        assert any("Content Security Policy" in v for v in violations), violations
    finally:
        probe.close()
