"""The compiled rules (hokm.search._rules_kernel) agree with their Python definitions on every input.

Exhaustive where the domain allows: every seat, every (card, winning card, trump), every trick of
two and three cards under every trump (and no trump), every trick count of a hand. A four-card
trick is checked over a 16-card deck (four ranks in each suit): the rule reads only suits and the
order of ranks within a suit, and four ranks per suit give every order four cards can have.
Following suit is checked for every holding of the suit led, beside each kind of rest of the hand.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from numba import njit

from hokm.cards import SUIT_MASKS
from hokm.engine.scoring import hand_outcome
from hokm.engine.tricks import beats, legal_mask, trick_winner, winning_index
from hokm.rules import TRICKS_TO_WIN, Rules, partner_of, side_of
from hokm.search import _rules_kernel as rk

TRUMPS = (-1, 0, 1, 2, 3)  # -1: no trump (the Python definitions take None)


def py_trump(t: int) -> int | None:
    return None if t < 0 else t


@njit(cache=False)
def _bests(tricks, ntrick, trump):
    out = np.empty(tricks.shape[0], dtype=np.int64)
    for i in range(tricks.shape[0]):
        best, _card = rk.current_best(tricks[i], ntrick, trump)
        out[i] = best
    return out


@njit(cache=False)
def _winners(tricks, leader, trump, n):
    out = np.empty(tricks.shape[0], dtype=np.int64)
    for i in range(tricks.shape[0]):
        out[i] = rk.trick_winner(tricks[i], leader, trump, n)
    return out


def test_constants_agree() -> None:
    assert rk.TRICKS_TO_WIN == TRICKS_TO_WIN
    assert rk.THREE_PLAYER_TRICKS == Rules(players=3).total_tricks


@pytest.mark.parametrize("n", [2, 3, 4])
def test_side_and_partner_of_every_seat(n: int) -> None:
    for seat in range(n):
        assert rk.side_of(seat, n) == side_of(seat, n) == Rules(players=n).side_of(seat)
        assert rk.partner_of(seat, n) == (-1 if partner_of(seat, n) is None else partner_of(seat, n))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_seats_of_every_side(n: int) -> None:
    rules = Rules(players=n)
    for side in range(rules.sides):
        assert rk.side_seats(side, n) == sum(1 << seat for seat in rules.seats_of(side)), side
        assert [seat for seat in range(n) if rk.side_seats(side, n) >> seat & 1] == list(rules.seats_of(side))


@pytest.mark.parametrize("led", [-1, 0, 1, 2, 3])
def test_legal_mask_every_holding_of_the_suit_led(led: int) -> None:
    suit = 0 if led < 0 else led
    others = [0, (1 << 52) - 1 & ~SUIT_MASKS[suit]]
    others += [SUIT_MASKS[s] & 0b1010101010101 << (13 * s) for s in range(4) if s != suit]
    for part in range(1 << 13):
        held = part << (13 * suit)
        for rest in others:
            hand = held | rest
            want = legal_mask(hand, py_trump(led))
            assert rk.legal_mask(hand, led) == want, (hand, led)
            assert want & hand == want and (want or not hand)


def test_beats_every_card_pair_and_trump() -> None:
    for trump in TRUMPS:
        for card in range(52):
            for best in range(52):
                if card != best:
                    assert rk.beats(card, best, trump) == beats(card, best, py_trump(trump))


def _check_tricks(tricks: list[tuple[int, ...]]) -> None:
    arr = np.array(tricks, dtype=np.int64)
    k = arr.shape[1]
    for trump in TRUMPS:
        got = _bests(arr, k, trump)
        want = [winning_index(t, py_trump(trump)) for t in tricks]
        assert got.tolist() == want, trump
        if k >= 2:
            for leader in range(k):
                won = _winners(arr, leader, trump, k)
                assert won.tolist() == [trick_winner(t, leader, py_trump(trump), k) for t in tricks]


def test_trick_winner_every_trick_of_two_cards() -> None:
    _check_tricks(list(itertools.permutations(range(52), 2)))


def test_trick_winner_every_trick_of_three_cards() -> None:
    _check_tricks(list(itertools.permutations(range(52), 3)))


def test_trick_winner_every_order_of_four_cards() -> None:
    deck = [13 * s + r for s in range(4) for r in (0, 5, 11, 12)]
    _check_tricks(list(itertools.permutations(deck, 4)))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_hand_end_every_trick_count(n: int) -> None:
    rules = Rules(players=n)
    total = rules.total_tricks
    for counts in itertools.product(range(total + 1), repeat=n):
        if sum(counts) > total:
            continue
        sides = [0] * rules.sides
        for seat, t in enumerate(counts):
            sides[side_of(seat, n)] += t
        for hakem_side in range(rules.sides):
            want = hand_outcome(rules, sides, hakem_side, sum(counts))
            side, kot = rk.hand_decided(np.array(counts, dtype=np.int64), n, total)
            if want is None:
                assert side == -1, counts
                continue
            assert (side, kot) == (want.winner, want.kot), counts
            points = rk.hand_points(side, kot, hakem_side, rules.kot_points, rules.hakem_koti_points)
            assert points == want.points, counts


def _own_rules(source: str) -> list[tuple[str, int]]:
    """Where a kernel's source writes one of the rules above itself, by the forms they took there:
    a seat's side as ``seat & 1``, the end of a hand as a comparison with (or subtraction from) 7,
    following suit as the hand masked with the suit of ``trick[0]``, a trick's winner as a card
    compared with the card winning it."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd) and isinstance(node.left, ast.Name) \
                and isinstance(node.right, ast.Constant) and node.right.value == 1:
            found.append(("side of a seat", line))
        if isinstance(node, ast.Compare) and any(isinstance(c, ast.Constant) and c.value == TRICKS_TO_WIN
                                                 for c in node.comparators):
            found.append(("end of a hand", line))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and isinstance(node.left, ast.Constant) \
                and node.left.value == TRICKS_TO_WIN:
            found.append(("end of a hand", line))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.LShift) and "13 * (" in ast.unparse(node.right) \
                and "[0] // 13" in ast.unparse(node.right):
            found.append(("following suit", line))
        if isinstance(node, ast.Compare) and any("win" in ast.unparse(c) for c in node.comparators) \
                and any(isinstance(op, ast.Gt | ast.Lt) for op in node.ops):
            found.append(("winner of a trick", line))
        if isinstance(node, ast.IfExp) and "kot_points" in ast.unparse(node.body) + ast.unparse(node.orelse):
            found.append(("points of a kot", line))
        if isinstance(node, ast.Constant) and node.value == 17:
            found.append(("tricks of a three-player hand", line))
    return found


@pytest.mark.parametrize("kernel", ["_dds_kernel", "_heuristic_kernel"])
def test_no_kernel_writes_a_rule_of_its_own(kernel: str) -> None:
    """The solver and the heuristic kernel call the rules above instead (and the check finds each
    rule written out as it was in the solver)."""
    from pathlib import Path

    source = (Path(rk.__file__).parent / f"{kernel}.py").read_text("utf-8")
    assert _own_rules(source) == []
    written_out = _own_rules("def f(hand, trick, w, side, t0, card, win_card):\n"
                             "    f = hand & (SUIT << (13 * (trick[0] // 13)))\n"
                             "    return (w & 1) == side or t0 >= 7 or card > win_card\n"
                             "def g(s, hakem, kot_points, hk_points):\n"
                             "    return (kot_points if s == hakem else hk_points), 17\n")
    assert sorted(written_out) == [("end of a hand", 3), ("following suit", 2), ("points of a kot", 5),
                                   ("side of a seat", 3), ("tricks of a three-player hand", 5),
                                   ("winner of a trick", 3)]


def test_bit_helpers_agree_with_python_on_every_bit_and_random_hands() -> None:
    """high_bit, low_bit and popcount (LLVM intrinsics) on single bits, runs and random 52-bit masks."""
    import random

    rng = random.Random(3)
    values = [1 << b for b in range(63)] + [(1 << b) - 1 for b in range(1, 63)]
    values += [rng.getrandbits(52) | 1 << rng.randrange(52) for _ in range(2000)]
    for x in values:
        assert rk.high_bit(x) == x.bit_length() - 1, x
        assert rk.low_bit(x) == (x & -x).bit_length() - 1, x
        assert rk.popcount(x) == bin(x).count("1"), x
