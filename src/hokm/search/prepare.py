"""Getting the compiled search kernels ready before the first game, with progress while it takes.

The search levels run on Numba kernels (:mod:`._dds_kernel`, :mod:`._heuristic_kernel`) that are
compiled when first imported and then kept in Numba's on-disk cache. The first run after an
install compiles them, which takes minutes on a small machine; later runs load them from the
cache in seconds (``docs/performance.md``, *Start-up*). :func:`prepare` does that work in a background thread while
the calling thread reports progress, so ``hokm serve`` and ``hokm play`` never sit silent in front
of a person: a first line at once when the cache is cold, then a line every few seconds.

Whether the cache is cold is guessed before Numba itself is imported (that alone takes a second
or more), from Numba's cache files beside each kernel (:func:`cache_is_warm`); a compilation the
guess missed (a cache written for an older source) is noticed from Numba's compile events and
reported from then on.

Numba checks a cached function against the file that defines it (a hash of its source), and no
other: the solver and the heuristic kernel inline the rules of :mod:`._rules_kernel`, so after an
edit there its callers would go on loading machine code with the old rules from the cache. Each
kernel names the kernel files it inlines (:data:`DEPENDS_ON`) and calls :func:`check_kernel_cache`
before it defines a function: the cache keeps, beside the kernel's entries, hashes of its source
and of those files, and entries compiled with other inlined files are deleted, so Numba compiles
them again. :func:`cache_is_warm` reads the same record.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.util
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

KERNELS = ("hokm.search._rules_kernel", "hokm.search._dds_kernel", "hokm.search._heuristic_kernel")
#: The kernel modules each kernel inlines functions of (its cache is only as fresh as they are).
DEPENDS_ON: dict[str, tuple[str, ...]] = {
    "hokm.search._dds_kernel": ("hokm.search._rules_kernel",),
    "hokm.search._heuristic_kernel": ("hokm.search._rules_kernel",),
}
ANNOUNCE = "preparing the computer players (first run only)"
#: ``<module>.sources`` in a cache folder: the hashes of the kernel's source and of the kernels it
#: inlined, as they were when its entries there were compiled.
STAMP = "sources"


def _cache_dirs(source: Path) -> list[Path]:
    """Where Numba keeps the cache of functions defined in ``source``, in the order it looks."""
    folder = str(source.resolve().parent)
    hashed = f"{Path(folder).name}_{hashlib.sha1(folder.encode()).hexdigest()}"
    if os.environ.get("NUMBA_CACHE_DIR"):
        return [Path(os.environ["NUMBA_CACHE_DIR"]) / hashed]
    user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "numba" / hashed
    return [source.parent / "__pycache__", user]


def _entries(source: Path) -> set[str]:
    """``name-line`` of each module-level function of ``source``, as Numba names its cache files
    (the line is the function's first, its first decorator's)."""
    out = set()
    for node in ast.parse(source.read_text("utf-8")).body:
        if isinstance(node, ast.FunctionDef):
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            out.add(f"{node.name}-{first}")
    return out


def sources_digest(files: Iterable[str | Path]) -> str:
    """A hash of the contents of ``files``, in the order given."""
    h = hashlib.sha256()
    for f in files:
        data = Path(f).read_bytes()
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def _stamp(source: Path, depends_on: Iterable[str | Path]) -> str:
    """What ``<module>.sources`` holds for a cache compiled from these files as they are now."""
    return f"{sources_digest([source])}\n{sources_digest(depends_on)}\n"


def check_cache(source: str | Path, depends_on: Iterable[str | Path] = ()) -> None:
    """Before a kernel module defines its functions: record the sources its cache is compiled from,
    and delete its cached entries if the files it inlines (``depends_on``) changed since.

    The folder used is the one Numba will use, the first of :func:`_cache_dirs` it can write to.
    There ``<module>.sources`` holds the hash of ``source`` and of ``depends_on`` the entries were
    compiled with. When the second is another (or, for a kernel that inlines others, unknown), the
    index and data files of ``source`` are deleted, so Numba compiles them again; Numba itself
    notices a change of ``source``. The record is then brought up to date.
    """
    source = Path(source)
    depends_on = list(depends_on)
    stem = source.stem
    now = _stamp(source, depends_on)
    for folder in _cache_dirs(source):
        try:  # the test Numba makes of a cache folder before it uses it
            folder.mkdir(parents=True, exist_ok=True)
            tempfile.TemporaryFile(dir=folder).close()
        except OSError:
            continue
        record = folder / f"{stem}.{STAMP}"
        try:
            before = record.read_text("ascii") if record.is_file() else ""
            if before == now:
                return
            if depends_on and before.partition("\n")[2] != now.partition("\n")[2]:
                for f in [*folder.glob(f"{stem}.*.nbi"), *folder.glob(f"{stem}.*.nbc")]:
                    f.unlink()
            record.write_text(now, "ascii")
        except (OSError, UnicodeDecodeError):
            pass
        return


def check_kernel_cache(name: str) -> None:
    """:func:`check_cache` for the kernel module ``name`` and the kernels it inlines
    (:data:`DEPENDS_ON`): the first thing each kernel does once it has imported them."""
    source = _origin(name)
    depends = [_origin(d) for d in DEPENDS_ON.get(name, ())]
    if source is None or any(d is None for d in depends):
        raise ImportError(f"cannot find the source of {name} or of a kernel it inlines")
    check_cache(source, [d for d in depends if d is not None])


def _origin(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    return None if spec is None or spec.origin is None else Path(spec.origin)


def cache_is_warm() -> bool:
    """True when every kernel module has cache index files for its functions, compiled from its
    source and the kernels it inlines as they are now (:func:`check_cache`'s record).

    Contents are compared, not times: a checkout that rewrites a file unchanged leaves its cache
    warm, as Numba finds it. Index files of functions the source no longer has where they were (an
    edit moved or removed them) stay behind in the cache folder; they are left out.
    """
    for name in KERNELS:
        source = _origin(name)
        depends = [_origin(d) for d in DEPENDS_ON.get(name, ())]
        if source is None or any(d is None for d in depends):
            return False
        stem = name.rsplit(".", 1)[1]
        found = False
        for folder in _cache_dirs(source):
            index = list(folder.glob(f"{stem}.*.nbi")) if folder.is_dir() else []
            if index:
                current = _entries(source)
                index = [f for f in index if f.name[len(stem) + 1:].rsplit(".", 2)[0] in current]
            if index:
                record = folder / f"{stem}.{STAMP}"
                try:
                    found = record.read_text("ascii") == _stamp(source, [d for d in depends if d is not None])
                except (OSError, UnicodeDecodeError):
                    found = False
                break
        if not found:
            return False
    return True


class _Preparation:
    """Imports the kernel modules in a thread and counts what Numba compiles meanwhile."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.error: BaseException | None = None
        self.compiled = 0
        self.compiling = False
        self.module = 0

    def run(self) -> None:
        try:
            from numba.core import event

            prep = self

            class Counter(event.Listener):
                def on_start(self, ev: event.Event) -> None:
                    prep.compiling = True

                def on_end(self, ev: event.Event) -> None:
                    prep.compiled += 1

            counter = Counter()
            event.register("numba:compile", counter)
            try:
                for i, name in enumerate(KERNELS):
                    self.module = i
                    importlib.import_module(name)
            finally:
                event.unregister("numba:compile", counter)
        except BaseException as e:  # noqa: BLE001 - handed to the waiting thread, which raises it
            self.error = e
        finally:
            self.done.set()


def prepare(say: Callable[[str], None], *, every: float = 3.0) -> float:
    """Compile or load the search kernels, calling ``say(line)`` with progress; the seconds it took.

    Nothing is said when the cache is warm and the kernels load without compiling.
    """
    start = time.monotonic()
    announced = not cache_is_warm()
    if announced:
        say(f"{ANNOUNCE}: compiling the search kernels…")
    work = _Preparation()
    threading.Thread(target=work.run, name="hokm-prepare", daemon=True).start()
    next_at = start + every
    while not work.done.wait(0.2):
        now = time.monotonic()
        if not announced and work.compiling:
            announced = True
            say(f"{ANNOUNCE}: compiling the search kernels…")
            next_at = now + every
        elif announced and now >= next_at:
            say(f"  {work.compiled} functions compiled, kernel {work.module + 1} of {len(KERNELS)}, "
                f"{now - start:.0f} s")
            next_at += every
    if work.error is not None:
        raise work.error
    elapsed = time.monotonic() - start
    if announced:
        say(f"the computer players are ready ({elapsed:.0f} s)")
    return elapsed


__all__ = ["ANNOUNCE", "DEPENDS_ON", "KERNELS", "cache_is_warm", "check_cache", "check_kernel_cache", "prepare",
           "sources_digest"]
