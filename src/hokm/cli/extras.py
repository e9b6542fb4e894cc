"""Commands whose libraries come with an optional extra (``pip install 'hokm[loadtest]'``) say so in one line."""

from __future__ import annotations

import importlib.util

#: The extra of ``pyproject.toml`` and the modules it brings.
LOADTEST = ("loadtest", ("httpx", "psutil", "websockets"))


def missing(extra: tuple[str, tuple[str, ...]]) -> str | None:
    """Why a command cannot run without ``extra``, or ``None`` when its modules are installed."""
    name, modules = extra
    absent = [m for m in modules if importlib.util.find_spec(m) is None]
    if not absent:
        return None
    return f"needs the {name} extra (pip install -e '.[{name}]'): {', '.join(absent)} not installed"
