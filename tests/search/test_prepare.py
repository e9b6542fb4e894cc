"""Getting the search kernels ready: the cold-cache guess and silence when nothing is compiled."""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hokm.search import prepare as prep


def test_an_empty_cache_folder_is_cold(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert not prep.cache_is_warm()


def _sources(name: str) -> tuple[Path, list[Path]]:
    def origin(n: str) -> Path:
        return Path(importlib.util.find_spec(n).origin)  # type: ignore[union-attr, arg-type]

    return origin(name), [origin(d) for d in prep.DEPENDS_ON.get(name, ())]


def test_a_cache_compiled_from_other_sources_is_cold(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    records = {}
    for name in prep.KERNELS:
        source, depends = _sources(name)
        folder = prep._cache_dirs(source)[0]
        folder.mkdir(parents=True, exist_ok=True)
        stem = name.rsplit(".", 1)[1]
        entry = sorted(prep._entries(source))[0]  # a function the source has, where it has it
        (folder / f"{stem}.{entry}.py311.nbi").write_bytes(b"")
        records[name] = folder / f"{stem}.{prep.STAMP}"
        records[name].write_text(prep._stamp(depends[0] if depends else Path(prep.__file__), depends))
    assert not prep.cache_is_warm()  # compiled from another source than each kernel's
    for name in prep.KERNELS:
        source, depends = _sources(name)
        records[name].write_text(prep._stamp(source, depends))
    assert prep.cache_is_warm()
    # a kernel file written again unchanged (a checkout): still warm, as Numba finds it (it compares contents)
    source, _ = _sources("hokm.search._heuristic_kernel")
    os.utime(source)
    assert prep.cache_is_warm()
    # an edit of the rules kernel since the solver was compiled: what the solver inlined is stale
    source, depends = _sources("hokm.search._dds_kernel")
    records["hokm.search._dds_kernel"].write_text(prep._stamp(source, [Path(prep.__file__)]))
    assert not prep.cache_is_warm()
    records["hokm.search._dds_kernel"].write_text(prep._stamp(source, depends))
    assert prep.cache_is_warm()
    # only index files of functions the source no longer has where they were: cold
    for index in tmp_path.rglob("_rules_kernel.*.nbi"):
        index.rename(index.with_name("_rules_kernel.gone-1.py311.nbi"))
    assert not prep.cache_is_warm()


def test_loaded_kernels_need_no_words() -> None:
    import hokm.search._dds_kernel
    import hokm.search._heuristic_kernel  # noqa: F401

    assert prep.cache_is_warm()  # importing them wrote the cache
    said: list[str] = []
    prep.prepare(said.append)
    assert said == []


def test_hokm_prepare_fills_the_cache_ahead_and_says_when_ready() -> None:
    out = subprocess.run([sys.executable, "-m", "hokm.cli.main", "prepare"], capture_output=True, text=True,
                         timeout=900)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "the computer players are ready" in out.stdout
    assert prep.cache_is_warm()
    quiet = subprocess.run([sys.executable, "-m", "hokm.cli.main", "prepare", "--quiet"], capture_output=True,
                           text=True, timeout=900)
    assert quiet.returncode == 0 and quiet.stdout == "" and quiet.stderr == ""


RULE = """from numba import njit


@njit("i8(i8)", cache=True, inline="always")
def rule(x):
    return x + {step}
"""

USER = """from kernels._rules import rule
from hokm.search.prepare import check_cache
from numba import njit

check_cache(__file__, [rule.py_func.__code__.co_filename])


@njit("i8(i8)", cache=True)
def play(x):
    return rule(x)
"""


def _run_user(tmp: Path) -> tuple[int, int]:
    """(what the cached kernel answers, whether it came from the cache) in a new process."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp / "cache"),
               PYTHONPATH=os.pathsep.join([str(tmp), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", "from kernels import _user as u; "
                          "print(u.play(1), sum(u.play.stats.cache_hits.values()))"],
                         capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    answer, hits = out.stdout.split()
    return int(answer), int(hits)


def test_a_kernel_compiled_with_older_rules_is_compiled_again(tmp_path: Path) -> None:
    """Numba checks a cached function against its own file only: an edit of the rules it inlined
    must still reach it (the solver and the heuristic kernel inline the rules kernel)."""
    pkg = tmp_path / "kernels"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "_rules.py").write_text(RULE.format(step=1))
    (pkg / "_user.py").write_text(USER)
    assert _run_user(tmp_path) == (2, 0)  # compiled
    assert _run_user(tmp_path) == (2, 1)  # from the cache
    (pkg / "_rules.py").write_text(RULE.format(step=2))
    assert _run_user(tmp_path)[0] == 3  # the new rule, not the cached old one
    assert _run_user(tmp_path) == (3, 1)  # and from the cache again


def test_every_kernel_checks_its_cache_before_it_compiles() -> None:
    """Each kernel names the kernels it imports in DEPENDS_ON and calls check_kernel_cache before
    its first compiled function."""
    for name in prep.KERNELS:
        source, _ = _sources(name)
        tree = ast.parse(source.read_text("utf-8"))
        imported = {f"hokm.search.{n.module}" for n in tree.body
                    if isinstance(n, ast.ImportFrom) and n.level == 1 and n.module
                    and f"hokm.search.{n.module}" in prep.KERNELS}
        assert set(prep.DEPENDS_ON.get(name, ())) == imported, name
        calls = [n.lineno for n in tree.body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)
                 and getattr(n.value.func, "id", "") == "check_kernel_cache"]
        first = min(n.lineno for n in tree.body if isinstance(n, ast.FunctionDef) and n.decorator_list)
        assert calls and calls[0] < first, name
