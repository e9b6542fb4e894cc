"""``hokm play`` as a subprocess: a scripted person answers the prompts it prints."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

_RUNNING: list[subprocess.Popen[bytes]] = []


@pytest.fixture(autouse=True)
def _no_leftover_processes():
    """A failed test must not leave a ``hokm play`` waiting for input."""
    yield
    while _RUNNING:
        proc = _RUNNING.pop()
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


PROMPT = re.compile(r"(Trump|Discard (\d) cards|Keep it or pass it\? \[k/p\]|Your card) > $")


class Player:
    """Runs ``hokm play`` with pipes; reads until a prompt, answers it."""

    def __init__(self, *args: str) -> None:
        env = dict(os.environ, COLUMNS="100", TERM="dumb", PYTHONUNBUFFERED="1")
        # Ctrl-C in the child as at a terminal, even when this process was started with SIGINT
        # ignored (a background job, some CI runners): an ignored signal is inherited.
        self.proc = subprocess.Popen([sys.executable, "-m", "hokm.cli.main", "play", *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=env, preexec_fn=_default_sigint)
        _RUNNING.append(self.proc)
        self.out = b""

    def until_prompt(self, timeout: float = 30.0) -> re.Match[str] | None:
        """The prompt now waiting for an answer, or ``None`` once the program has ended."""
        assert self.proc.stdout is not None
        end = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while time.monotonic() < end:
            m = PROMPT.search(self.out.decode("utf-8", "replace")[-200:])
            if m:
                return m
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    return None
                self.out += chunk
        raise AssertionError("no prompt in time; output so far:\n" + self.out.decode()[-2000:])

    def answer(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.out += b"\n"  # so the next prompt search starts after this one
        self.proc.stdin.write(text.encode() + b"\n")
        self.proc.stdin.flush()

    def close_input(self) -> None:
        """End of input, as when a person presses Ctrl-D."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.stdin = None

    def finish(self, timeout: float = 30.0) -> tuple[int, str, str]:
        out, err = self.proc.communicate(timeout=timeout)
        self.out += out
        return self.proc.returncode, self.out.decode(), err.decode()


def play_through(player: Player, bad_first: bool = False) -> tuple[int, str, str]:
    """Always the first choice shown; optionally one bad card first."""
    k = 0
    while (m := player.until_prompt()) is not None:
        k += 1
        if m.group(1) == "Your card" and bad_first:
            player.answer("XX")
            bad_first = False
        elif m.group(2):
            player.answer(" ".join(str(i) for i in range(1, int(m.group(2)) + 1)))
        elif m.group(1).startswith("Keep"):
            player.answer("kp"[k % 2])
        else:
            player.answer("1")
    return player.finish()


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 3, 2])
def test_whole_game_and_saved_record_replays(players: int, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    rc, out, err = play_through(Player("--players", str(players), "--bots", "random", "--seed", "7",
                                       "--save", str(save), "--name", "Sara"),
                                bad_first=True)
    assert rc == 0, err
    assert "Traceback" not in out + err
    assert "Game over:" in out and "is not a card" in out
    assert f"Game saved to {save}" in out
    record = json.loads(save.read_text())
    assert record["names"][0] == "Sara" and len(record["names"]) == players
    replay = subprocess.run([sys.executable, "-m", "hokm.cli.main", "replay", "--json", str(save)],
                            capture_output=True, text=True, timeout=60)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    summary = json.loads(replay.stdout)
    assert summary["ok"] and summary["game_over"] and summary["players"] == players


def test_ctrl_c_leaves_cleanly_with_130() -> None:
    player = Player("--bots", "random", "--seed", "1")
    assert player.until_prompt() is not None
    player.proc.send_signal(signal.SIGINT)
    rc, out, err = player.finish()
    assert rc == 130
    assert "Traceback" not in out + err and "Interrupted" in out


def test_ctrl_c_works_when_the_tests_run_with_sigint_ignored() -> None:
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        player = Player("--bots", "random", "--seed", "1")
    finally:
        signal.signal(signal.SIGINT, previous)
    assert player.until_prompt() is not None
    player.proc.send_signal(signal.SIGINT)
    rc, out, err = player.finish()
    assert rc == 130 and "Interrupted" in out


def test_end_of_input_leaves_with_0_and_saves_the_game_so_far(tmp_path: Path) -> None:
    save = tmp_path / "partial.json"
    player = Player("--players", "3", "--bots", "random", "--seed", "2", "--save", str(save))
    for _ in range(3):
        m = player.until_prompt()
        assert m is not None
        player.answer("1")
    player.close_input()
    rc, out, err = player.finish()
    assert rc == 0 and "Traceback" not in out + err and "End of input" in out
    replay = subprocess.run([sys.executable, "-m", "hokm.cli.main", "replay", "--json", str(save)],
                            capture_output=True, text=True, timeout=60)
    summary = json.loads(replay.stdout)
    assert replay.returncode == 0 and summary["ok"] and not summary["game_over"]


def test_unknown_bot_lists_the_known_ones() -> None:
    r = subprocess.run([sys.executable, "-m", "hokm.cli.main", "play", "--bots", "nosuchbot"],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 2
    assert "unknown bot 'nosuchbot'" in r.stderr and "random" in r.stderr and "heuristic" in r.stderr


def test_a_bot_that_sees_every_card_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from hokm.bots.base import OmniscientBot
    from hokm.cli.main import main
    from hokm.players import register_bot

    class Peeker(OmniscientBot):
        name = "peeker"

        def act_with_state(self, view, game):  # pragma: no cover - never asked
            raise AssertionError

    register_bot("test-peeker", lambda seed=None, **_: Peeker(), "test only", public=False)
    assert main(["play", "--bots", "test-peeker"]) == 2
    assert "sees every card" in capsys.readouterr().err


def test_bad_name_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from hokm.cli.main import main

    assert main(["play", "--name", "  "]) == 2
    assert "--name" in capsys.readouterr().err
    for blank in ("\u2800", "\u3164", "\u0301", "Ѕara"):  # blank-looking, or a Cyrillic lookalike
        assert main(["play", "--name", blank]) == 2
        assert "--name" in capsys.readouterr().err


def test_search_bots_get_the_workers_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    from hokm.cli.main import main
    from hokm.cli.play import _make_bots

    bots = _make_bots("expert", 4, 1, workers=2)
    assert {b.config.workers for b in bots.values()} == {2}  # type: ignore[attr-defined]
    for players in (2, 3, 4):  # every player count's settings, not only the first used
        assert {b._by_players.get(players, b._base).workers for b in bots.values()} == {2}  # type: ignore[attr-defined]
    assert {getattr(b, "config", None) for b in _make_bots("heuristic", 4, 1, workers=2).values()} == {None}
    assert main(["play", "--workers", "0"]) == 2
    assert "--workers" in capsys.readouterr().err


@pytest.mark.parametrize("where", ["missing-folder/game.json", "."])
def test_an_unwritable_save_path_is_refused_before_the_game(tmp_path: Path, where: str) -> None:
    target = tmp_path / where
    out = subprocess.run([sys.executable, "-m", "hokm.cli.main", "play", "--bots", "random", "--seed", "1",
                          "--save", str(target)], input="", capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "Traceback" not in out.stdout + out.stderr
    assert out.stderr.strip().splitlines()[-1].startswith(f"hokm play: cannot save to {target}")
    assert "Hâkem" not in out.stdout  # no game was dealt


def test_a_first_run_says_it_is_preparing_before_the_game(tmp_path: Path) -> None:
    """With an empty Numba cache the first thing on stderr is the preparation, before any deal."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), TERM="dumb", PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "hokm.cli.main", "play", "--bots", "random", "--seed", "1"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    _RUNNING.append(proc)
    assert proc.stderr is not None and proc.stdout is not None
    ready, _, _ = select.select([proc.stderr], [], [], 60)
    assert ready, "nothing said within 60 s"
    line = proc.stderr.readline().decode()
    assert line.startswith("hokm play: preparing the computer players (first run only)"), line
    ready, _, _ = select.select([proc.stdout], [], [], 0)
    assert not ready, "the game began before the computer players were ready"
