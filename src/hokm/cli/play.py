"""``hokm play``: a whole game against bots in the terminal; you sit at seat 0.

Bots are built by name (:func:`hokm.players.make_bot`) and see only their own seat's view. With
``--seed`` the ace draw, every deal and the bots' choices are reproducible; without it the deals
come from ``secrets``. The game can be saved as a ``hokm/1`` record (``--save FILE``, written at
the end or when you leave; or, at an interactive terminal, by answering the question at the end).
Ctrl-C leaves at once (exit status 130); end of input leaves quietly (0).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from rich.console import Console
from rich.text import Text

from ..bots.base import Bot, OmniscientBot
from ..engine import Game, Rules
from ..names import NameError_, clean_name
from ..players import available_bots, make_bot
from ..terminal import PlaySession, QuitGame, SessionError, seat_names

HELP = "play a game against bots in the terminal"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4, help="number of players (default 4)")
    parser.add_argument("--bots", default="heuristic", metavar="LEVEL",
                        help="the bots: random, heuristic (the default), or a level: easy, medium, hard, expert")
    parser.add_argument("--seed", type=int, default=None, help="reproducible deals and bot choices")
    parser.add_argument("--name", default="You", help="your name in the game and the saved record")
    parser.add_argument("--save", metavar="FILE", default=None, help="save the game as a hokm/1 record to FILE")
    parser.add_argument("--delay", type=float, default=None,
                        help="seconds to pause after each bot card (default 0.6 at a terminal, else 0)")
    parser.add_argument("--workers", type=int, default=None, metavar="N",
                        help="processes the search levels score deals on (default: 2 on a machine with 2+ cores)")


def _make_bots(level: str, players: int, seed: int | None, workers: int = 1) -> dict[int, Bot]:
    """One bot per seat but the person's; raise ``ValueError`` for an unknown or unfair spec.

    Search bots score their deals on ``workers`` processes: at a terminal nothing else runs,
    so both cores of a laptop answer the person twice as fast.
    """
    from ..search.pimc import PimcBot

    if workers < 1:
        raise ValueError(f"--workers must be at least 1, not {workers}")
    bots = {s: make_bot(level, seed=None if seed is None else seed * 10 + s) for s in range(1, players)}
    if any(isinstance(b, OmniscientBot) for b in bots.values()):
        raise ValueError(f"{level!r} sees every card: it is a reference for tests, not an opponent")
    for b in bots.values():
        if isinstance(b, PimcBot) and b.config.workers == 1 and workers > 1:
            b.adjust(workers=workers)
    return bots


def default_workers() -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return min(2, max(1, cores))


def save_problem(path: str) -> str | None:
    """Why a record could not be written to ``path``, or ``None``; checked before the game starts.

    The check writes: it opens an existing file for appending (changing nothing) or creates and
    removes a scratch file beside the record, since permission bits alone do not tell.
    """
    import tempfile

    target = Path(path)
    if target.is_dir():
        return "it is a folder"
    if not target.parent.is_dir():
        return f"the folder {target.parent} does not exist"
    try:
        if target.exists():
            with open(target, "a", encoding="utf-8"):
                pass
        else:
            with tempfile.NamedTemporaryFile(dir=target.parent, prefix=".hokm-save-check-"):
                pass
    except OSError as e:
        return e.strerror or str(e)
    return None


def save_record(game: Game, names: list[str], path: str, console: Console) -> bool:
    """Write the game (finished or not) as a record; say where, or why it failed."""
    from ..records import dumps, record_from_game

    try:
        Path(path).write_text(dumps(record_from_game(game, names=names)) + "\n", encoding="utf-8")
    except (OSError, ValueError) as e:
        console.print(f"Could not save the game to {path}: {e}", highlight=False, markup=False)
        return False
    console.print(f"Game saved to {path} (check it with: hokm replay {path})", highlight=False, markup=False)
    return True


def _offer_save(game: Game, names: list[str], console: Console) -> None:
    """At an interactive terminal, ask for a file name once the game is over."""
    try:
        answer = console.input(Text("Save this game as a hokm/1 record? File name (Enter to skip) > ")).strip()
    except (EOFError, KeyboardInterrupt):
        console.print()
        return
    if answer:
        save_record(game, names, answer, console)


def run(args: argparse.Namespace) -> int:
    console = Console(highlight=False)
    try:
        name = clean_name(args.name)
    except NameError_ as e:
        print(f"hokm play: --name: {e.message}", file=sys.stderr)
        return 2
    if args.workers is not None and args.workers < 1:
        print(f"hokm play: --workers must be at least 1, not {args.workers}", file=sys.stderr)
        return 2
    if args.save:
        problem = save_problem(args.save)
        if problem:
            print(f"hokm play: cannot save to {args.save}: {problem}", file=sys.stderr)
            return 2
    from ..search.prepare import prepare

    # The bots are built on the search kernels: compiling them on a first run is shown, not silent.
    prepare(lambda line: print(f"hokm play: {line}", file=sys.stderr, flush=True))
    try:
        bots = _make_bots(args.bots, args.players, args.seed,
                          default_workers() if args.workers is None else args.workers)
    except ValueError as e:
        public = ", ".join(s.name for s in available_bots(public_only=True))
        print(f"hokm play: {e}\nBots you can play against: {public}", file=sys.stderr)
        return 2
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    delay = args.delay if args.delay is not None else (0.6 if interactive else 0.0)
    display = seat_names(args.players, name)
    record_names = [display[0], *(f"{display[s]} ({args.bots})" for s in range(1, args.players))]
    game = Game.new(Rules(players=args.players), seed=args.seed, deal=False)
    session = PlaySession(game, bots, display, console, lambda prompt: console.input(Text(prompt, style="bold")),
                          delay=delay, pause_between_hands=interactive, show_thinking=interactive)
    status = 0
    try:
        session.run()
    except QuitGame:
        console.print("You left the game.")
    except EOFError:
        console.print("\nEnd of input: leaving the game.")
    except KeyboardInterrupt:
        console.print("\nInterrupted: leaving the game.")
        status = 130
    except SessionError as e:
        print(f"hokm play: {e}", file=sys.stderr)
        status = 1
    finally:
        for bot in bots.values():
            bot.close()
    if args.save:
        if not save_record(game, record_names, args.save, console):
            status = status or 1
    elif interactive and game.is_over:
        _offer_save(game, record_names, console)
    return status
