"""``HOKM_BOT_TIMEOUT`` is read when a program bot is made, and a bad value is refused in words."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from hokm.bots.external import DEFAULT_TIMEOUT, default_timeout


@pytest.mark.parametrize("raw, seconds", [(None, DEFAULT_TIMEOUT), ("", DEFAULT_TIMEOUT), ("2.5", 2.5), (" 30 ", 30.0)])
def test_the_bot_timeout_from_the_environment(raw: str | None, seconds: float, monkeypatch: pytest.MonkeyPatch) -> None:
    if raw is None:
        monkeypatch.delenv("HOKM_BOT_TIMEOUT", raising=False)
    else:
        monkeypatch.setenv("HOKM_BOT_TIMEOUT", raw)
    assert default_timeout() == seconds


@pytest.mark.parametrize("raw", ["abc", "0", "-1", "nan", "inf"])
def test_a_bad_bot_timeout_is_refused_naming_the_variable(raw: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOKM_BOT_TIMEOUT", raw)
    with pytest.raises(ValueError, match=f"HOKM_BOT_TIMEOUT={raw!r}: must be a number of seconds more than 0"):
        default_timeout()


def test_a_bad_bot_timeout_does_not_stop_commands_that_make_no_program_bot() -> None:
    """It was read when the bot module was imported: every ``hokm`` command, ``--help`` too, ended in a traceback."""
    env = dict(os.environ, HOKM_BOT_TIMEOUT="abc")
    out = subprocess.run([sys.executable, "-m", "hokm.cli.main", "--help"], capture_output=True, text=True, env=env,
                         timeout=120)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    bad = subprocess.run([sys.executable, "-m", "hokm.cli.main", "play", "--bots", "cmd:true", "--seed", "1"],
                         capture_output=True, text=True, env=env, timeout=120, stdin=subprocess.DEVNULL)
    assert bad.returncode != 0 and "Traceback" not in bad.stderr + bad.stdout
    assert "HOKM_BOT_TIMEOUT='abc'" in bad.stderr + bad.stdout
