"""``hokm bench TARGET``: speed measurements. Each target is a module ``hokm.bench.<target>``
defining ``add_arguments(parser)`` and ``run(args) -> int``."""

from __future__ import annotations

import argparse
import importlib

HELP = "measure engine, solver or search speed side by side with reference implementations"
TARGETS = {"engine": "hokm.bench.engine", "solver": "hokm.bench.solver", "search": "hokm.bench.search",
           "verify": "hokm.bench.verify", "startup": "hokm.bench.startup", "analyse": "hokm.bench.analyse"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="target", metavar="TARGET", required=True)
    for name, module_name in TARGETS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            if e.name != module_name:
                raise
            continue
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_bench=module)


def run(args: argparse.Namespace) -> int:
    return int(args._bench.run(args) or 0)
