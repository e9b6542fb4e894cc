"""Entry point of the ``hokm`` command: dispatches to one module per subcommand.

Each subcommand module defines ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int``. Modules are imported only when their command runs, so ``hokm replay``
never pays for the server's imports.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS: dict[str, str] = {
    "play": "hokm.cli.play",
    "replay": "hokm.cli.replay",
    "arena": "hokm.cli.arena",
    "bench": "hokm.cli.bench",
    "serve": "hokm.cli.serve",
    "verify": "hokm.cli.verify",
    "loadtest": "hokm.cli.loadtest",
    "analyse": "hokm.cli.analyse",
    "prepare": "hokm.cli.prepare",
}


def _load(name: str):
    try:
        return importlib.import_module(COMMANDS[name])
    except ModuleNotFoundError as e:
        if e.name == COMMANDS[name]:
            return None
        raise


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hokm", description="Hokm (حکم): play, replay, analyse and serve games.")
    parser.add_argument("--version", action="version", version=f"hokm {__import__('hokm').__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = _load(name)
        if module is None:
            continue
        # argparse %-formats help strings (not descriptions): "95%" must reach it as "95%%"
        p = sub.add_parser(name, help=module.HELP.replace("%", "%%"), description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_module=module)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_module", None):
        parser.print_help()
        return 2
    try:
        return int(args._module.run(args) or 0)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
