from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import ServerProcess


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A fresh server process with its own data folder, stopped after the test."""
    proc = ServerProcess(tmp_path).start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator:
    """Start servers with extra ``HOKM_*`` settings: ``make_server(HOKM_ABSENT_GRACE="1")``."""
    started: list[ServerProcess] = []

    def make(**env: str) -> ServerProcess:
        proc = ServerProcess(tmp_path, **env).start()
        started.append(proc)
        return proc

    yield make
    for p in started:
        p.stop()
