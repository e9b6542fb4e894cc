"""Check the two-side solver's winning ranks: does any answer hold beyond the positions it was made for?

    python scripts/check_solver_entries.py [--positions 100] [--tricks 6] [--seed 3] [--variants 40]

Runs the compiled kernel as plain Python (Numba's JIT off, its three bit intrinsics given Python
bodies), so each search's answers can be watched. For random four-player deals of ``--tricks`` cards
a hand, every answer the search returns at the start of a trick is checked twice against exhaustive
minimax over the rules kernel's own ``legal_mask`` and ``beats``:

- the answer itself;
- the answer on ``--variants`` positions that agree with it on what a table entry made from it would
  match: the suit lengths of every hand and the holders of its ranks (every live card at or above the
  lowest rank it records in each suit); the other cards of each suit are dealt again among their
  holders.

A wrong answer of the second kind is an entry that would answer a position it does not fit (what
``docs/performance.md``, "A trick won from a sequence", found). Prints each with the position and a
counterexample, then the count; exits 1 if there was any. Minutes: the kernel runs uncompiled.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import sys

os.environ["NUMBA_DISABLE_JIT"] = "1"  # before Numba is imported

import numpy as np

from hokm.cards import Card
from hokm.search import _rules_kernel as R

MASK64 = (1 << 64) - 1
# LLVM intrinsics have no Python body: the uncompiled kernel gets these.
R._leading_zeros = lambda x: np.int64(64 - (int(x) & MASK64).bit_length())  # type: ignore[assignment]
R._trailing_zeros = lambda x: np.int64(((int(x) & MASK64) & -(int(x) & MASK64)).bit_length() - 1  # type: ignore[assignment]
                                       if int(x) & MASK64 else 64)
R._population = lambda x: np.int64(bin(int(x) & MASK64).count("1"))  # type: ignore[assignment]

from hokm.search import _dds_kernel as K  # noqa: E402

np.seterr(over="ignore")  # the table's hash multiplies with wraparound, as the compiled code does

N = 4


def cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def shown(hands: tuple[int, ...]) -> str:
    return " | ".join(" ".join(str(Card(c)) for c in cards(h)) for h in hands)


class Checker:
    def __init__(self, trump: int, variants: int, rng: random.Random) -> None:
        self.trump, self.variants, self.rng = trump, variants, rng
        self.wrong: list[str] = []

    @functools.cache  # noqa: B019 - one checker per deal
    def reaches(self, hands: tuple[int, ...], leader: int, side: int, need: int, horizon: int) -> bool:
        """Can ``side`` take ``need`` of the next ``horizon`` tricks, from the start of one?"""
        if need <= 0:
            return True
        if need > horizon or not hands[leader]:
            return False

        def play(hs: tuple[int, ...], trick: tuple[int, ...]) -> bool:
            if len(trick) == N:
                best = 0
                for i in range(1, N):
                    if R.beats(np.int64(trick[i]), np.int64(trick[best]), np.int64(self.trump)):
                        best = i
                winner = (leader + best) % N
                return self.reaches(hs, winner, side, need - (R.side_of(winner, N) == side), horizon - 1)
            seat = (leader + len(trick)) % N
            ours = R.side_of(seat, N) == side
            legal = int(R.legal_mask(np.int64(hs[seat]), np.int64(trick[0] // 13 if trick else -1)))
            for c in cards(legal):
                after = list(hs)
                after[seat] ^= 1 << c
                if play(tuple(after), trick + (c,)) == ours:
                    return ours
            return not ours

        return play(hands, ())

    def dealt_again(self, hands: tuple[int, ...], kept: int) -> tuple[int, ...]:
        """``hands`` with each suit's cards outside ``kept`` dealt again among their holders."""
        out = list(hands)
        for s in range(4):
            free = [(c, k) for k in range(N) for c in cards((out[k] >> (13 * s) & 0x1FFF) << (13 * s))
                    if not kept >> c & 1]
            owners = [k for _, k in free]
            self.rng.shuffle(owners)
            for c, k in free:
                out[k] &= ~(1 << c)
            for (c, _), k in zip(free, owners):
                out[k] |= 1 << c
        return tuple(out)

    def check(self, hands: tuple[int, ...], leader: int, side: int, need: int, horizon: int, value: int) -> None:
        horizon = min(horizon, bin(hands[leader]).count("1"))
        if need <= 0 or need > horizon:
            return
        answer = bool(value & int(K.TRUE))
        if self.reaches(hands, leader, side, need, horizon) != answer:
            self.wrong.append(f"wrong answer {answer}: {shown(hands)}, seat {leader} leads, side {side} "
                              f"needs {need} of {horizon}")
            return
        alive = np.int64(hands[0] | hands[1] | hands[2] | hands[3])
        kept = int(K.ranks_of(K.significance(np.int64(value & int(K.CARDS52)), alive), alive))
        for _ in range(self.variants):
            other = self.dealt_again(hands, kept)
            if self.reaches(other, leader, side, need, horizon) != answer:
                self.wrong.append(f"answer {answer} does not hold beyond its ranks: {shown(hands)}, seat {leader} "
                                  f"leads, side {side} needs {need} of {horizon}; it fails for {shown(other)}")
                return


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--tricks", type=int, default=6, help="cards in each hand")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--variants", type=int, default=40, help="positions each answer is tried on")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    search = K.search2
    wrong = 0
    answers = 0
    for _ in range(args.positions):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[args.tricks * k:args.tricks * (k + 1)]) for k in range(N)]
        trump, leader, side = rng.randrange(4), rng.randrange(N), rng.randrange(2)
        need = rng.randrange(1, args.tricks + 1)
        checker = Checker(trump, args.variants, rng)

        def watched(hs, trick, ntrick, lead, tr, n, sd, team, nd, horizon, tt, buf, ply, checker=checker):  # type: ignore[no-untyped-def]
            before = tuple(int(h) for h in hs)
            value = search(hs, trick, ntrick, lead, tr, n, sd, team, nd, horizon, tt, buf, ply)
            if ntrick == 0 and not tt[K.ABORTED, 0]:
                nonlocal answers
                answers += 1
                checker.check(before, int(lead), int(sd), int(nd), int(horizon), int(value))
            return value

        K.search2 = watched  # the kernel's recursive calls find it by name
        try:
            K.ge2(np.array(hands, dtype=np.int64), np.zeros(4, dtype=np.int64), 0, leader, trump, N, side, need,
                  args.tricks, K.new_table(14))
        finally:
            K.search2 = search
        for line in checker.wrong:
            print(line)
        wrong += len(checker.wrong)
    print(f"deals {args.positions}, answers checked {answers}, wrong {wrong}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
