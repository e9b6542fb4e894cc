"""Suite-wide selection: tests marked ``alone`` run by themselves.

A test marked ``alone`` holds a timing bound (the soak's latency) that only means something
when nothing else shares the machine. ``scripts/test.sh`` runs the suite in two passes:
``HOKM_ALONE=exclude`` for the parallel pass, then ``HOKM_ALONE=only`` for the tests marked
``alone``, one process, nothing beside them. Unset, every selected test runs.
"""

from __future__ import annotations

import os

import pytest

_MODES = ("exclude", "only")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    mode = os.environ.get("HOKM_ALONE", "")
    if not mode:
        return
    if mode not in _MODES:
        raise pytest.UsageError(f"HOKM_ALONE must be one of {', '.join(_MODES)}, not {mode!r}")
    keep_alone = mode == "only"
    kept = [item for item in items if (item.get_closest_marker("alone") is not None) == keep_alone]
    dropped = [item for item in items if (item.get_closest_marker("alone") is not None) != keep_alone]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
