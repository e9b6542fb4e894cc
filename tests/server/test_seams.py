"""The server's seams: both lobby and table implementations conform to the Protocols (checked by
mypy), and the layers import without a circle."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _mypy(*paths: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("mypy")
    return subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--follow-imports=silent",
                           "--config-file", str(ROOT / "pyproject.toml"), *paths],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_both_lobbies_and_table_handles_satisfy_the_protocols() -> None:
    """With the whole server package: every route and the WebSocket loop use the seams as typed."""
    done = _mypy("tests/server/typing/seams_conformance.py", "src/hokm/server")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_catches_a_lobby_that_breaks_the_protocol(tmp_path: Path) -> None:
    """The check above can fail: a lobby missing a method is refused."""
    broken = tmp_path / "broken.py"
    broken.write_text(
        "from hokm.server.seams import LobbyProtocol\n"
        "from hokm.server.lobby import Lobby\n"
        "class Half(Lobby):\n"
        "    def in_progress(self, game_id: int) -> bool:  # type: ignore[override]\n"
        "        return False\n"
        "def use(lobby: Half) -> LobbyProtocol:\n"
        "    return lobby\n")
    done = _mypy(str(broken))
    assert done.returncode != 0 and "LobbyProtocol" in done.stdout, done.stdout


def test_the_websocket_loop_does_not_import_the_app() -> None:
    code = ("import sys, hokm.server.ws; "
            "sys.exit(1 if 'hokm.server.app' in sys.modules or 'hokm.server.routes' in sys.modules else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
