"""Commands that need an optional extra say which, in one line, when its modules are missing."""

from __future__ import annotations

import tomllib
from pathlib import Path

from hokm.cli.extras import LOADTEST, missing

ROOT = Path(__file__).resolve().parents[1]


def test_a_missing_module_names_the_extra_to_install() -> None:
    assert missing(("loadtest", ("json", "hokm_no_such_module"))) == (
        "needs the loadtest extra (pip install -e '.[loadtest]'): hokm_no_such_module not installed")
    assert missing(("loadtest", ("json",))) is None


def test_the_loadtest_extra_holds_the_client_libraries_and_the_core_does_not() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extra = {d.split(">")[0] for d in project["optional-dependencies"][LOADTEST[0]]}
    core = {d.split(">")[0].split("[")[0] for d in project["dependencies"]}
    assert extra == set(LOADTEST[1])
    assert not {"httpx", "psutil"} & core  # the server never imports them


def test_the_server_runs_without_the_loadtest_extra() -> None:
    import subprocess
    import sys

    code = ("import sys, hokm.server.app, hokm.cli.serve, uvicorn; "
            "loaded = [m for m in ('httpx', 'psutil') if m in sys.modules]; "
            "print(*loaded); sys.exit(1 if loaded else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
