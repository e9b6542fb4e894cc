"""``hokm bench engine``: random-playout speed of the engine's play phase, beside OpenSpiel's bridge.

What is timed, for both games, is the card play of one hand through the public Python API and
nothing else: ``legal_actions()``, a uniformly random choice (the same expression for both games:
``actions[int(random() * len(actions))]``), then ``apply``, until the hand ends. For Hokm that is
until the hand is decided (seven tricks for 4 and 2 players, the 3-player end rules), so a hand
is 28 to 52 plays with four players; for bridge it is all 52 plays of
``bridge(use_double_dummy_result=false)``. Everything before the first card (the ace draw, the deal,
trump, the 2-player discards and draws; bridge's deal and a random auction) runs outside the timer.
Passed-out bridge deals have no play and are skipped.

The two games are measured in alternating rounds so that load from other processes on a shared
machine falls on both alike; the figures are total card plays over total timed seconds. The clock is
this process's CPU time by default (``--clock cpu``), which a busy machine disturbs far less than
wall time (``--clock wall``); both games always use the same clock.

For scale, the report also gives the *loop floor*: the same loop driven through a stub whose
``legal_actions`` returns a fixed five-move list and whose ``apply`` only counts. No engine written
in Python can go faster than that loop, whatever its rules code does.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any

from ..engine import Game, Phase, Rules

HELP = "random-playout speed of the engine's card play, side by side with OpenSpiel's bridge"

#: Bridge actions below this number are cards; the auction's calls come after them.
BRIDGE_CARD_ACTIONS = 52


@dataclass
class Tally:
    """Hands and card plays over timed seconds (the untimed set-up is kept apart)."""

    hands: int = 0
    plays: int = 0
    seconds: float = 0.0
    setup_seconds: float = 0.0

    @property
    def plays_per_s(self) -> float:
        return self.plays / self.seconds if self.seconds else 0.0

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
clock = time.process_time


def hokm_round(rules: Rules, rng: random.Random, seconds: float, tally: Tally) -> None:
    """Play random Hokm hands for about ``seconds`` of timed play, adding to ``tally``."""
    rnd = rng.random
    play = Phase.PLAY
    spent = 0.0
    while spent < seconds:
        t0 = clock()
        game = Game(rules, first_hakem=rng.randrange(rules.players))
        game.deal(rng=rng)
        while game.phase is not play:  # trump, and with two players the discards and draws
            actions = game.legal_actions()
            game.apply(actions[int(rnd() * len(actions))])
        t1 = clock()
        plays = 0
        while game.phase is play:
            actions = game.legal_actions()
            game.apply(actions[int(rnd() * len(actions))])
            plays += 1
        t2 = clock()
        tally.setup_seconds += t1 - t0
        tally.seconds += t2 - t1
        spent += t2 - t1
        tally.hands += 1
        tally.plays += plays


def load_bridge() -> Any | None:
    """OpenSpiel's bridge without the double-dummy solver, or ``None`` when pyspiel is missing."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game("bridge(use_double_dummy_result=false)")


def bridge_round(game: Any, rng: random.Random, seconds: float, tally: Tally) -> None:
    """Play random bridge deals for about ``seconds`` of timed card play, adding to ``tally``."""
    rnd = rng.random
    spent = 0.0
    while spent < seconds:
        t0 = clock()
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rnd() * len(outcomes))][0])
        while not state.is_terminal():  # the auction, up to the opening lead
            actions = state.legal_actions()
            if actions[0] < BRIDGE_CARD_ACTIONS:
                break
            state.apply_action(actions[int(rnd() * len(actions))])
        t1 = clock()
        tally.setup_seconds += t1 - t0
        if state.is_terminal():  # passed out: no card play to time
            continue
        plays = 0
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[int(rnd() * len(actions))])
            plays += 1
        t2 = clock()
        tally.seconds += t2 - t1
        spent += t2 - t1
        tally.hands += 1
        tally.plays += plays


class _Stub:
    """The cheapest object the benchmark loop can drive: 44 plays a hand (a typical 4-player hand)."""

    def __init__(self) -> None:
        self.phase = Phase.PLAY
        self.left = 44
        self.moves = [0, 1, 2, 3, 4]

    def legal_actions(self) -> list[int]:
        return [*self.moves]

    def apply(self, action: int) -> None:
        self.left -= 1
        if not self.left:
            self.phase = Phase.OVER


def floor_round(rng: random.Random, seconds: float, tally: Tally) -> None:
    """The benchmark loop over :class:`_Stub`: what the loop itself costs in this interpreter."""
    rnd = rng.random
    play = Phase.PLAY
    spent = 0.0
    while spent < seconds:
        game = _Stub()
        t1 = clock()
        plays = 0
        while game.phase is play:
            actions = game.legal_actions()
            game.apply(actions[int(rnd() * len(actions))])
            plays += 1
        t2 = clock()
        tally.seconds += t2 - t1
        spent += t2 - t1
        tally.hands += 1
        tally.plays += plays


def measure(players: int = 4, seconds: float = 3.0, seed: int = 1, rounds: int = 6,
            openspiel: bool = True, clock_name: str = "cpu") -> dict[str, Any]:
    """Run the comparison and return the figures as a JSON-ready dict."""
    global clock
    if clock_name not in CLOCKS:
        raise ValueError(f"clock must be one of {', '.join(CLOCKS)}, not {clock_name!r}")
    clock = CLOCKS[clock_name]
    if players not in (2, 3, 4):
        raise ValueError(f"players must be 2, 3 or 4, not {players!r}")
    if not seconds > 0:
        raise ValueError(f"seconds must be positive, not {seconds!r}")
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, not {rounds!r}")
    rules = Rules(players=players)
    bridge = load_bridge() if openspiel else None
    hokm, spiel, floor = Tally(), Tally(), Tally()
    hokm_rng, spiel_rng = random.Random(seed), random.Random(seed)
    # A short warm-up so that first-use costs (imports, caches) are not timed.
    hokm_round(rules, random.Random(seed + 1), 0.05, Tally())
    if bridge is not None:
        bridge_round(bridge, random.Random(seed + 1), 0.05, Tally())
    for _ in range(rounds):
        hokm_round(rules, hokm_rng, seconds / rounds, hokm)
        if bridge is not None:
            bridge_round(bridge, spiel_rng, seconds / rounds, spiel)
        floor_round(spiel_rng, seconds / rounds / 5, floor)
    result: dict[str, Any] = {
        "players": players,
        "seconds": seconds,
        "seed": seed,
        "rounds": rounds,
        "clock": clock_name,
        "hokm_plays_per_s": round(hokm.plays_per_s, 1),
        "hokm_hands_per_s": round(hokm.hands_per_s, 1),
        # whole hands, the deal and trump (and 2-player discards and draws) included
        "hokm_hands_per_s_with_deal": round(hokm.hands / (hokm.seconds + hokm.setup_seconds), 1),
        "hokm": asdict(hokm),
        "openspiel_plays_per_s": None,
        "openspiel_hands_per_s": None,
        "openspiel": None,
        "ratio": None,
        "loop_floor_plays_per_s": round(floor.plays_per_s, 1),
        "python": platform.python_version(),
        "openspiel_game": None,
        "openspiel_missing": bridge is None and openspiel,
    }
    if bridge is not None:
        result.update({
            "openspiel_plays_per_s": round(spiel.plays_per_s, 1),
            "openspiel_hands_per_s": round(spiel.hands_per_s, 1),
            "openspiel": asdict(spiel),
            "ratio": round(hokm.plays_per_s / spiel.plays_per_s, 3) if spiel.plays else None,
            "openspiel_game": str(bridge),
        })
    return result


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="timed play per game, split over the rounds (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random deals and choices (default 1)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4, help="Hokm players (default 4)")
    parser.add_argument("--rounds", type=int, default=6,
                        help="alternating rounds per game, so load on a shared machine hits both (default 6)")
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="cpu",
                        help="cpu: this process's CPU time (steady on a busy machine, default); wall: elapsed time")
    parser.add_argument("--no-openspiel", action="store_true", help="measure Hokm alone")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:,.0f}"


def run(args: argparse.Namespace) -> int:
    try:
        r = measure(args.players, args.seconds, args.seed, args.rounds, openspiel=not args.no_openspiel,
                    clock_name=args.clock)
    except ValueError as e:
        print(f"hokm bench engine: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(r))
        return 0
    if r["openspiel_missing"]:
        print("pyspiel is not installed (pip install open-spiel): measuring Hokm alone", file=sys.stderr)
    h, o = r["hokm"], r["openspiel"]
    print(f"Random playouts, card play only (deal and trump/auction untimed), {r['rounds']} alternating rounds, "
          f"{r['clock']} time")
    print(f"{'':<28}{'plays/s':>12}{'hands/s':>10}{'plays':>10}{'hands':>8}{'timed s':>9}")
    print(f"{'hokm, ' + str(r['players']) + ' players':<28}{_fmt(r['hokm_plays_per_s']):>12}"
          f"{_fmt(r['hokm_hands_per_s']):>10}{h['plays']:>10}{h['hands']:>8}{h['seconds']:>9.2f}")
    if o is not None:
        print(f"{'openspiel bridge':<28}{_fmt(r['openspiel_plays_per_s']):>12}"
              f"{_fmt(r['openspiel_hands_per_s']):>10}{o['plays']:>10}{o['hands']:>8}{o['seconds']:>9.2f}")
        ratio = r["ratio"]
        print(f"ratio hokm/openspiel (card plays per second): {'-' if ratio is None else f'{ratio:.2f}'}")
    print(f"hokm whole hands with the deal and trump: {_fmt(r['hokm_hands_per_s_with_deal'])} hands/s")
    print(f"loop floor (the same loop over a do-nothing stub): {_fmt(r['loop_floor_plays_per_s'])} plays/s")
    return 0
