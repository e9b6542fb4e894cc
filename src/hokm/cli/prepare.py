"""``hokm prepare``: compile the search kernels into Numba's cache now, ahead of the first game.

``hokm serve`` and ``hokm play`` do the same on their first run, with progress; this lets an
install, an image build or a deploy script pay that cost once, before any player is waiting.
"""

from __future__ import annotations

import argparse
import sys

HELP = "compile the computer players' search kernels into Numba's cache (done once after an install)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quiet", action="store_true", help="say nothing but errors")


def run(args: argparse.Namespace) -> int:
    from ..search.prepare import cache_is_warm, prepare

    warm = cache_is_warm()
    quiet = args.quiet
    seconds = prepare(lambda line: None if quiet else print(f"hokm prepare: {line}", file=sys.stderr, flush=True))
    if not quiet:
        state = "loaded from the cache" if warm else "compiled and cached"
        print(f"hokm prepare: the computer players are ready ({state}, {seconds:.1f} s)", flush=True)
    return 0
