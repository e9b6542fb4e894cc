"""The compiled hot loop of the double-dummy solver (Numba, ``cache=True``).

Everything here works on plain ``int64`` values: a hand is a 52-bit mask (bit ``suit*13+rank``),
the trick in progress is up to three card indices. Two searches share one transposition table
(``ge2`` and ``ge3`` run ``search2`` and ``search3``):

``ge2``
    Two sides (4 and 2 players): can side ``S`` take at least ``need`` of the next ``horizon``
    tricks? The table stores, per position at the start of a trick, lower and upper bounds on the
    tricks side 0 takes within the horizon, so a bound proved for one target answers others, as in
    bridge double-dummy solvers. "Reaches 7 first" is the full-hand question (Hokm stops at 7, but
    whoever takes 7 of 13 in a full play-out is the side that gets there first); kot is "takes all of
    the next ``7 - t`` tricks", a short horizon.
``ge3``
    Three players, paranoid: seats in ``maxmask`` try to make a question about the hand's end
    true, the others try to make it false. The hand ends by the three-step rule after every
    trick, so the table key includes the seats' trick counts.

Speed comes from: equivalent cards searched once (cards adjacent in rank once the cards gone
from play are removed), quick tricks and "later tricks" bounds (a seat's run of top trumps, a
seat's trumps above every trump of the other side) at the start of each trick, each resting on
only as many top cards as the answer needs, the second hand's sure trick when one trick decides,
lead and follow move ordering (leads by who holds each suit's top cards and, among equals, by how
few cards the opponents may answer with; following with the cheapest card that no opponent still
to play can beat) with the table's best lead tried first
(that of an entry with the same suit lengths when no matching entry has one) and the last lead
that cut off at the same depth next, DDS's lowest winning rank (after a card fails, the lower cards
of its suit that no result depended on are skipped; two sides only), and the table itself.
Its entries are keyed as in Bo Haglund's DDS: every search (``search2``, ``search3``) returns with its
answer the cards whose ranks decided it ("winning ranks"), and the entry stored at the start of a
trick holds for every position with the same suit lengths in every hand and the same holders of
those ranks, and of every live card above them, in relative ranks (the dead cards squeezed out).
Entries carry their full key, so the table never needs clearing between positions and survives
across calls.

The rules of play (following suit, which card takes a trick, a seat's side, when a hand is
decided) are the shared compiled ones of :mod:`._rules_kernel`, inlined here; this module writes
none of its own.

The search functions are compiled without Numba's reference counting (``_nrt=False``): they
allocate nothing, and counting the arrays handed down every recursive call cost an eighth of the
search's time.

Every function has one explicit signature: Numba then compiles each once, at import, and its
on-disk cache holds exactly that version (lazily typed recursive functions picked up literal-typed
variants that the cache could not load back).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ._rules_kernel import (
    THREE_PLAYER_TRICKS,
    TRICKS_TO_WIN,
    beats,
    current_best,
    decided2,
    decided3,
    hand_points,
    high_bit,
    legal_mask,
    low_bit,
    partner_of,
    popcount,
    side_of,
    side_seats,
    trick_winner,
)
from .prepare import check_kernel_cache

# Before any function is compiled or loaded from the cache: entries compiled with other rules go.
check_kernel_cache(__name__)

# Options of the search functions: no reference counting (module docstring).
NO_NRT: dict[str, Any] = {"_nrt": False}
SUIT = np.int64(0x1FFF)
REPLIES = 4  # a lead's score falls by this for each card its opponents may answer it with
ZERO = np.int64(0)  # an int64, not a literal: recursive calls must match the one compiled signature
# Table layout: TT_COLS rows of int64, one column per entry (so a bucket's keys lie side by side in
# memory), in buckets of BUCKET columns. An entry holds the kind of search and its fixed parameters
# (C_META, never 0 in a used entry), the rest of its key (C_KEY, C_H..C_H+3, C_SIG) and the packed
# value (C_VAL: lower bound, upper bound, best move and depth, a byte each).
TT_COLS = 8
BUCKET = 64
C_META, C_KEY, C_H, C_SIG, C_VAL = 0, 1, 2, 6, 7
# Column 0 of the table is not an entry: [0, 0] counts nodes, [1, 0] is the node limit (0: none),
# [2, 0] is set once a search ran past it (its answers are then meaningless and not stored) and
# [3, 0] counts the two-side search's nodes at the start of a trick (what DDS counts as its nodes).
NODES, LIMIT, ABORTED, TRICK_NODES = 0, 1, 2, 3
KIND_GE2 = 1
KIND_GE3 = 2


def new_table(log2_size: int = 18) -> np.ndarray:
    """A zeroed transposition table of ``2**log2_size`` entries (64 bytes each)."""
    return np.zeros((TT_COLS, 1 << log2_size), dtype=np.int64)


def _pext_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Lookup tables for squeezing out dead ranks of a 13-bit suit (low 7 bits, high 6 bits)."""
    lo = np.zeros((128, 128), dtype=np.int64)
    hi = np.zeros((64, 64), dtype=np.int64)
    for table, width in ((lo, 7), (hi, 6)):
        for m in range(1 << width):
            for x in range(1 << width):
                out, k = 0, 0
                for b in range(width):
                    if (m >> b) & 1:
                        out |= ((x >> b) & 1) << k
                        k += 1
                table[m, x] = out
    pop7 = np.array([bin(m).count("1") for m in range(128)], dtype=np.int64)
    return lo, hi, pop7


PEXT_LO, PEXT_HI, POP7 = _pext_tables()


# ----------------------------------------------------------------------------- bit helpers
@njit(cache=True, inline="always")
def squeeze(x, alive):
    """Relative ranks: the bits of ``x`` with the dead ranks of each suit removed (DDS keys).

    Positions that differ only in which low cards are gone squeeze to the same key, so the
    table's bounds carry over between them.
    """
    out = np.int64(0)
    for s in range(4):
        m = (alive >> (13 * s)) & 0x1FFF
        v = (x >> (13 * s)) & 0x1FFF
        ml = m & 127
        part = PEXT_LO[ml, v & 127] | (PEXT_HI[m >> 7, v >> 7] << POP7[ml])
        out |= part << (13 * s)
    return out


@njit(cache=True, inline="always")
def squeeze_card(c, alive):
    """Relative index (suit*13 + rank among the live cards of its suit) of a live card."""
    s = c // 13
    below = (alive >> (13 * s)) & ((np.int64(1) << (c % 13)) - 1)
    return 13 * s + popcount(below)


@njit(cache=True, inline="always")
def unsqueeze_card(rc, alive):
    """Inverse of :func:`squeeze_card`."""
    s = rc // 13
    m = (alive >> (13 * s)) & 0x1FFF
    for _ in range(rc % 13):
        m &= m - 1
    if m == 0:
        return np.int64(-1)
    return 13 * s + low_bit(m)


@njit("i8(i8[::1], i8[::1], i8, i8, i8, i8, i8, i8[::1])", cache=True, **NO_NRT, inline="always")
def gen_moves(hands, trick, ntrick, leader, trump, n, team, moves):
    """Fill ``moves`` with one card per group of equivalent legal cards, best guesses first.

    ``team`` is a bit per seat: seats playing together with the mover share its bit value.
    Returns the number of moves.
    """
    mover = (leader + ntrick) % n
    legal = legal_mask(hands[mover], trick[0] // 13 if ntrick > 0 else -1)
    alive = np.int64(0)
    for s in range(n):
        alive |= hands[s]
    for i in range(ntrick):
        alive |= np.int64(1) << trick[i]
    my_team = (team >> mover) & 1

    # who wins the trick so far
    win_card = np.int64(-1)
    win_is_partner = False
    led = np.int64(-1)
    if ntrick > 0:
        led = trick[0] // 13
        bi, win_card = current_best(trick, ntrick, trump)
        win_is_partner = ((team >> ((leader + bi) % n)) & 1) == my_team
    last = ntrick == n - 1
    # the strongest card of each opponent still to play (at most two): its top card of the suit
    # led, else its top trump (-1: neither). A card none of them beats wins the trick for sure.
    opp_a = np.int64(-1)
    opp_b = np.int64(-1)
    if ntrick > 0 and not last:
        for j in range(ntrick + 1, n):
            k = (leader + j) % n
            if ((team >> k) & 1) == my_team:
                continue
            follow = (hands[k] >> (13 * led)) & SUIT
            trumps = (hands[k] >> (13 * trump)) & SUIT
            strongest = np.int64(-1)
            if follow:
                strongest = 13 * led + high_bit(follow)
            elif trumps:
                strongest = 13 * trump + high_bit(trumps)
            if opp_a < 0:
                opp_a = strongest
            else:
                opp_b = strongest
    # can an opponent still to play beat the card now winning?
    threat = (opp_a >= 0 and beats(opp_a, win_card, trump)) or (opp_b >= 0 and beats(opp_b, win_card, trump))
    # four players on lead: do the opponents hold a trump?
    four_lead = n == 4 and ntrick == 0
    opp_trumps = False
    ours_all = np.int64(0)
    if four_lead:
        for k in range(4):
            if ((team >> k) & 1) != my_team and ((hands[k] >> (13 * trump)) & SUIT) != 0:
                opp_trumps = True
        ours_all = hands[mover] | hands[partner_of(mover, 4)]

    # moves[13:26] holds the ordering scores (one allocation per node, by the caller)
    count = 0
    for s in range(4):
        mine = (legal >> (13 * s)) & SUIT
        if mine == 0:
            continue
        al = (alive >> (13 * s)) & SUIT
        top_alive = high_bit(al)
        # on lead: can a seat void in this suit trump it, and does the partner hold its top card?
        opp_ruff = False
        pard_ruff = False
        pard_top = False
        if ntrick == 0:
            for k in range(n):
                if k == mover:
                    continue
                hk = hands[k]
                if ((team >> k) & 1) == my_team:
                    if (hk >> (13 * s + top_alive)) & 1:
                        pard_top = True
                if s != trump and ((hk >> (13 * s)) & SUIT) == 0 and ((hk >> (13 * trump)) & SUIT) != 0:
                    if ((team >> k) & 1) == my_team:
                        pard_ruff = True
                    else:
                        opp_ruff = True
        # four players on lead: the left-hand opponent holds the suit's top card and the partner,
        # who plays after it, the second: a low lead through it toward the partner (finesse); an
        # opponent holds the top card and our side the second and the third: a lead knocks the
        # top card out and sets up a winner for us (knock_out, on top of the other scores)
        finesse = False
        knock_out = False
        if four_lead:
            second = al ^ (np.int64(1) << top_alive)
            if second and not (ours_all >> (13 * s + top_alive)) & 1:
                r2 = high_bit(second)
                if (hands[partner_of(mover, 4)] >> (13 * s + r2)) & 1 \
                        and (hands[(mover + 1) % 4] >> (13 * s + top_alive)) & 1:
                    finesse = True
                third = second ^ (np.int64(1) << r2)
                if third and (ours_all >> (13 * s + r2)) & 1 and (ours_all >> (13 * s + high_bit(third))) & 1:
                    knock_out = True
        prev_mine = False
        x = al
        while x:
            r = high_bit(x)
            x ^= np.int64(1) << r
            if (mine >> r) & 1:
                if not prev_mine:
                    card = 13 * s + r
                    # --- ordering score
                    sc = 0
                    if ntrick == 0:
                        if r == top_alive:
                            if s == trump:
                                # four players: the top trump is a trick whenever it is led, so
                                # it waits behind the leads that need the timing
                                if four_lead:
                                    sc = 40 if opp_trumps else 30
                                else:
                                    sc = 62
                            else:
                                sc = 15 if opp_ruff else 70
                        elif pard_top and not opp_ruff:
                            sc = 55 - r
                        elif pard_ruff and not opp_ruff:
                            sc = 50 - r
                        elif finesse and not opp_ruff:
                            sc = 45 - r
                        else:
                            sc = 25 - r - (6 if s == trump else 0) - (6 if opp_ruff else 0)
                        if four_lead and s == trump and not opp_trumps:
                            sc -= 20  # nothing to draw
                        if four_lead:
                            # a smaller tree first: the fewer cards the opponents may answer
                            # with (all of a void hand's), the fewer replies to search (DDS)
                            la = popcount((hands[(mover + 1) % 4] >> (13 * s)) & SUIT)
                            lb = popcount((hands[(mover + 3) % 4] >> (13 * s)) & SUIT)
                            size = popcount(hands[mover])
                            sc -= REPLIES * ((la if la else size) + (lb if lb else size))
                        if knock_out and not opp_ruff:
                            sc += 15
                    else:
                        takes = beats(card, win_card, trump)
                        sure = not ((opp_a >= 0 and beats(opp_a, card, trump))
                                    or (opp_b >= 0 and beats(opp_b, card, trump)))
                        if win_is_partner and not threat:
                            sc = 40 - r - (20 if s == trump else 0)
                            if takes:
                                sc -= 5
                        elif win_is_partner:
                            # partner may be overtaken: our cheapest sure winner, else low
                            if takes and sure:
                                sc = 50 - r
                            else:
                                sc = 30 - r - (20 if s == trump else 0)
                        elif takes:
                            # the cheapest card that takes, sure winners first
                            sc = 60 - r - (8 if s == trump and led != trump else 0)
                            if not sure:
                                sc -= 10
                        else:
                            sc = 30 - r - (20 if s == trump else 0)
                    # insertion into the ordered list
                    j = count
                    while j > 0 and moves[12 + j] < sc:
                        moves[13 + j] = moves[12 + j]
                        moves[j] = moves[j - 1]
                        j -= 1
                    moves[13 + j] = sc
                    moves[j] = card
                    count += 1
                prev_mine = True
            else:
                prev_mine = False
    return count


@njit("void(i8[::1], i8, i8)", cache=True, **NO_NRT)
def promote(moves, count, card):
    """Move ``card`` (if present, or the representative of its group) to the front."""
    for i in range(count):
        if moves[i] == card:
            for j in range(i, 0, -1):
                moves[j] = moves[j - 1]
            moves[0] = card
            return


# ----------------------------------------------------------------------------- table
def _signed(v: int) -> np.int64:
    """A 64-bit odd multiplier as int64, so Numba keeps the hash in integer arithmetic."""
    return np.int64(v - (1 << 64) if v >= 1 << 63 else v)


_M0, _M1, _M2 = _signed(0x9E3779B97F4A7C15), _signed(0xC2B2AE3D27D4EB4F), _signed(0x165667B19E3779F9)
_M3, _M4, _M5 = _signed(0x27D4EB2F165667C5), _signed(0x94D049BB133111EB), _signed(0xBF58476D1CE4E5B9)


@njit(cache=True, inline="always")
def tt_bucket(tt, a, b):
    """First row of the bucket of ``BUCKET`` rows that the key words ``a``, ``b`` hash to."""
    x = a * _M0 ^ b * _M4
    x ^= x >> 31
    x *= _M5
    x ^= x >> 29
    i = (x & (tt.shape[1] - 1)) & ~np.int64(BUCKET - 1)
    return i if i > 0 else np.int64(BUCKET)  # row 0 holds the node counter and limit


@njit(cache=True, inline="always")
def tt_victim(tt, i):
    """The entry of bucket ``i`` a new one takes: an empty one, else one picked by the node count."""
    for k in range(i, i + BUCKET):
        if tt[C_META, k] == 0:
            return k
    return i + (tt[NODES, 0] * 7 & (BUCKET - 1))


@njit(cache=True, inline="always")
def suit_lengths(hands, n):
    """The lengths of every hand in every suit, a nibble each: the fixed part of a table key."""
    key = np.int64(0)
    for k in range(n):
        h = hands[k]
        for s in range(4):
            key |= popcount((h >> (13 * s)) & SUIT) << (4 * (4 * k + s))
    return key


@njit(cache=True, inline="always")
def significance(wr, alive):
    """Relative-rank mask of the ranks that decided a search (DDS's "winning ranks").

    ``wr`` holds the (absolute) cards whose ranks a result depended on; in each suit every live
    card ranked at or above the lowest of them counts, as the top of the squeezed suit.
    """
    sig = np.int64(0)
    for s in range(4):
        w = (wr >> (13 * s)) & SUIT
        if w:
            al = (alive >> (13 * s)) & SUIT
            m = popcount(al >> low_bit(w))
            length = popcount(al)
            sig |= (((np.int64(1) << m) - 1) << (length - m)) << (13 * s)
    return sig


@njit(cache=True, inline="always")
def ranks_of(sig, alive):
    """The live cards a significance mask stands for (its top ``m`` cards in each suit)."""
    out = np.int64(0)
    for s in range(4):
        m = popcount((sig >> (13 * s)) & SUIT)
        al = (alive >> (13 * s)) & SUIT
        for _ in range(m):
            top = high_bit(al)
            out |= np.int64(1) << (13 * s + top)
            al ^= np.int64(1) << top
    return out


@njit(cache=True, inline="always")
def trick_ranks(trick, n, best_card, hands, holder):
    """The cards whose ranks decided a full trick: none if its winning card beat no other card of
    its suit, else that card and the lowest card of its sequence.

    The winner chose ``best_card`` for every card of its hand in sequence with it (the same hand
    holding every live card between them, ``gen_moves`` searching one card per sequence), so the
    answer holds only where the winner holds that whole sequence: the lowest card of it is recorded,
    and a table entry matches every live card at or above it. ``hands`` are the hands after the
    trick, ``holder`` the winning seat.
    """
    s = best_card // 13
    by_rank = False
    for i in range(n):
        c = trick[i]
        if c != best_card and c // 13 == s:
            by_rank = True
    if not by_rank:
        return np.int64(0)
    alive = np.int64(0)
    for k in range(n):
        alive |= hands[k]
    for i in range(n):
        alive |= np.int64(1) << trick[i]
    al = (alive >> (13 * s)) & SUIT
    mine = (hands[holder] >> (13 * s)) & SUIT
    low = best_card % 13
    below = al & ((np.int64(1) << low) - 1)
    while below:
        r = high_bit(below)
        if not (mine >> r) & 1:
            break
        low = r
        below ^= np.int64(1) << r
    return (np.int64(1) << best_card) | (np.int64(1) << (13 * s + low))


@njit(cache=True, inline="always")
def top_cards(cards, k):
    """The ``k`` highest of ``cards`` (all of them if there are fewer)."""
    out = np.int64(0)
    for _ in range(k):
        if cards == 0:
            break
        top = high_bit(cards)
        out |= np.int64(1) << top
        cards ^= np.int64(1) << top
    return out


# ----------------------------------------------------------------------------- quick tricks
@njit("UniTuple(i8, 2)(i8[::1], i8, i8, i8, i8, i8)", cache=True, **NO_NRT)
def quick_tricks(hands, leader, trump, n, team, goal):
    """Tricks the leader's team can surely take in a row from the lead (a lower bound), and the
    cards whose ranks that depends on.

    The leader cashes its run of top trumps, then its runs of top cards in the other suits for as
    many rounds as every opponent who may still hold a trump must follow suit (an opponent the
    trump run has stripped, or who had none, cannot ruff). The partner never takes the lead in
    these lines because the leader's cards are the highest of their suit.
    """
    alive = np.int64(0)
    for s in range(n):
        alive |= hands[s]
    my_team = (team >> leader) & 1
    hand = hands[leader]
    opp_trumps_max = 0
    for k in range(n):
        if ((team >> k) & 1) != my_team:
            t = popcount((hands[k] >> (13 * trump)) & SUIT)
            if t > opp_trumps_max:
                opp_trumps_max = t
    runs = 0
    trump_run = 0
    used = np.int64(0)
    counted = 0
    # the trump suit first: its run decides which opponents can still ruff the others
    for i in range(4):
        s = (trump + i) & 3
        al = (alive >> (13 * s)) & SUIT
        mine = (hand >> (13 * s)) & SUIT
        run = 0
        while al:
            r = high_bit(al)
            if (mine >> r) & 1:
                run += 1
                al ^= np.int64(1) << r
            else:
                break
        if s == trump:
            trump_run = run
            safe = run
        else:
            # rounds of this suit that every opponent still holding trumps must follow
            safe = run
            for k in range(n):
                if ((team >> k) & 1) != my_team and trump_run < popcount((hands[k] >> (13 * trump)) & SUIT):
                    length = popcount((hands[k] >> (13 * s)) & SUIT)
                    if length < safe:
                        safe = length
            runs += safe
        # the ranks this count rests on: the top ``safe`` cards of the suit, or as many of them as
        # reach ``goal`` (a trump run counts whole once another suit's count depends on it)
        al = (alive >> (13 * s)) & SUIT
        take = safe
        if counted + safe >= goal:
            take = goal - counted
        counted += safe
        for _ in range(take):
            r = high_bit(al)
            used |= np.int64(1) << (13 * s + r)
            al ^= np.int64(1) << r
    q = trump_run + runs
    if n != 4 or q > 0:
        return q, used
    # Nothing to cash from the leader's hand: lead low to the partner's top card of a suit no
    # opponent can ruff; the partner is then on lead and cashes as above when it is safe.
    ph = hands[partner_of(leader, n)]
    entry = False
    entry_card = np.int64(0)
    p_runs = 0
    for s in range(4):
        al = (alive >> (13 * s)) & SUIT
        pm = (ph >> (13 * s)) & SUIT
        run = 0
        while al:
            r = high_bit(al)
            if (pm >> r) & 1:
                run += 1
                al ^= np.int64(1) << r
                used |= np.int64(1) << (13 * s + r)
            else:
                break
        p_runs += run
        if run > 0 and (hand >> (13 * s)) & SUIT:
            safe = True
            if s != trump:
                for k in ((leader + 1) & 3, (leader + 3) & 3):  # the two opponents, either side
                    if ((hands[k] >> (13 * s)) & SUIT) == 0 and ((hands[k] >> (13 * trump)) & SUIT) != 0:
                        safe = False
            if safe and not entry:
                entry = True
                entry_card = np.int64(1) << (13 * s + high_bit((alive >> (13 * s)) & SUIT))
    if not entry:
        return 0, used
    if opp_trumps_max == 0:
        return p_runs, used
    return 1, entry_card  # the partner's top card of the suit led to it


# ----------------------------------------------------------------------------- two sides
KILLER = 31  # the slot of a ply's 32 move-list values that holds its killer lead (-1: none)
TRUE = np.int64(1) << 62  # the answer bit of a two-side search result; the low 52 bits are ranks
CARDS52 = (np.int64(1) << 52) - 1


@njit("i8(i8[::1], i8[::1], i8, i8, i8, i8, i8, i8, i8, i8, i8[:, ::1], i8[::1], i8)", cache=True, **NO_NRT)
def search2(hands, trick, ntrick, leader, trump, n, side, team, need, horizon, tt, buf, ply):
    """Two sides: can ``side`` (its seats the bits of ``team``) take at least ``need`` of the next
    ``horizon`` tricks?

    Returns :data:`TRUE` or 0, or'ed with the cards whose ranks decided the answer (DDS's
    winning ranks): a table entry then holds for every position that agrees on the suit lengths
    and on who holds those ranks (and everything above them) in each suit. ``buf`` holds the move
    lists, 32 values per ply; the last of them (:data:`KILLER`) keeps, from one search of that ply
    to the next, the last lead that cut one off, tried next after the table's best lead.
    """
    tt[NODES, 0] += 1
    if tt[LIMIT, 0] and tt[NODES, 0] > tt[LIMIT, 0]:
        tt[ABORTED, 0] = 1
        return ZERO
    if need <= 0:
        return TRUE
    if need > horizon:
        return ZERO
    best_hint = -1
    meta = np.int64(0)
    key = np.int64(0)
    alive = np.int64(0)
    bucket = np.int64(0)
    sq0 = np.int64(0)
    sq1 = np.int64(0)
    sq2 = np.int64(0)
    sq3 = np.int64(0)
    if ntrick == 0:
        tt[TRICK_NODES, 0] += 1
        r = popcount(hands[leader])
        if horizon > r:
            horizon = r
            if need > horizon:
                return ZERO
        if r == 1:
            for k in range(n):
                trick[k] = high_bit(hands[(leader + k) % n])
            bi, bc = current_best(trick, n, trump)
            w = (leader + bi) % n
            return (TRUE if side_of(w, n) == side else ZERO) | trick_ranks(trick, n, bc, hands, w)
        goal = need if side_of(leader, n) == side else horizon - need + 1  # quick tricks that decide it
        q, qwr = quick_tricks(hands, leader, trump, n, team, goal)
        if q > horizon:
            q = horizon
        if side_of(leader, n) == side:
            if q >= need:
                return TRUE | qwr
        elif horizon - q < need:
            return qwr
        alive = hands[0] | hands[1]
        if n > 2:
            alive |= hands[2] | hands[3]
        full = horizon == r
        meta = leader | (trump << 2) | (n << 4) | ((15 if full else horizon) << 8) | (KIND_GE2 << 12)
        key = suit_lengths(hands, n)
        sq0 = squeeze(hands[0], alive)
        sq1 = squeeze(hands[1], alive)
        if n > 2:
            sq2 = squeeze(hands[2], alive)
            sq3 = squeeze(hands[3], alive)
        bucket = tt_bucket(tt, key, meta)
        # an entry of the same suit lengths and leader whose cards do not match: its best lead, in
        # relative ranks, is tried first when no matching entry has one
        near_hint = np.int64(-1)
        for j in range(bucket, bucket + BUCKET):
            if tt[C_KEY, j] != key or tt[C_META, j] != meta:
                continue
            sig = tt[C_SIG, j]
            if (sq0 & sig) != tt[C_H, j] or (sq1 & sig) != tt[C_H + 1, j] or (sq2 & sig) != tt[C_H + 2, j] \
                    or (sq3 & sig) != tt[C_H + 3, j]:
                rc = ((tt[C_VAL, j] >> 16) & 0xFF) - 1
                if rc >= 0:
                    near_hint = rc
                continue
            packed = tt[C_VAL, j]
            lb0 = packed & 0xFF
            ub0 = (packed >> 8) & 0xFF
            if side == 0:
                lb = lb0
                ub = ub0
            else:
                lb = horizon - ub0
                ub = horizon - lb0
            if lb >= need:
                return TRUE | ranks_of(sig, alive)
            if ub < need:
                return ranks_of(sig, alive)
            rc = ((packed >> 16) & 0xFF) - 1
            if rc >= 0:
                best_hint = unsqueeze_card(rc, alive)
        if best_hint < 0 and near_hint >= 0:
            best_hint = unsqueeze_card(near_hint, alive)
        if full:
            # later tricks. A seat's trumps above every trump of the other side each win a trick
            # (its partner's higher trump may take it instead): a side takes at least the most any
            # one of its seats holds. Against a side without trumps that is every trump of the
            # seat, an answer from suit lengths alone; otherwise it rests on the other side's top
            # trump (and every trump above it).
            top0 = -1
            top1 = -1
            for k in range(n):
                t = (hands[k] >> (13 * trump)) & SUIT
                if t:
                    h = high_bit(t)
                    if side_of(k, n) == side:
                        if h > top0:
                            top0 = h
                    elif h > top1:
                        top1 = h
            w0 = 0
            w1 = 0
            for k in range(n):
                t = (hands[k] >> (13 * trump)) & SUIT
                if side_of(k, n) == side:
                    c = popcount(t >> (top1 + 1))
                    if c > w0:
                        w0 = c
                else:
                    c = popcount(t >> (top0 + 1))
                    if c > w1:
                        w1 = c
            if top1 < 0 and w0 >= need:
                return TRUE
            if top0 < 0 and horizon - w1 < need:
                return ZERO
            # a seat holding the top k trumps wins k tricks: the answer rests on as many of them
            # as it needs
            tr = (alive >> (13 * trump)) & SUIT
            if tr:
                owner = -1
                run = 0
                tops = np.int64(0)
                while tr:
                    top = high_bit(tr)
                    o = -1
                    for k in range(n):
                        if (hands[k] >> (13 * trump + top)) & 1:
                            o = k
                    if owner < 0:
                        owner = o
                    elif o != owner:
                        break
                    run += 1
                    tr ^= np.int64(1) << top
                    tops |= np.int64(1) << (13 * trump + top)
                if side_of(owner, n) == side:
                    if run >= need:
                        return TRUE | top_cards(tops, need)
                elif horizon - run < need:
                    return top_cards(tops, horizon - need + 1)
            if w0 >= need:
                return TRUE | (np.int64(1) << (13 * trump + top1))
            if horizon - w1 < need:
                return np.int64(1) << (13 * trump + top0)

    mover = (leader + ntrick) % n
    maximizing = side_of(mover, n) == side
    if ntrick == 1 and n == 4 and (need == 1 if maximizing else need == horizon):
        # second hand: one trick decides, and its side takes this one for sure when it (or the
        # partner, last to play) can ruff and the third hand cannot, or holds the suit's top card
        # above the led one and the third hand cannot ruff (DDS's second-hand quick trick)
        led = trick[0] // 13
        third = hands[(leader + 2) % 4]
        last_hand = hands[partner_of(mover, n)]
        if led == trump or ((third >> (13 * led)) & SUIT) != 0 or ((third >> (13 * trump)) & SUIT) == 0:
            mine = (hands[mover] >> (13 * led)) & SUIT
            pard = (last_hand >> (13 * led)) & SUIT
            if led != trump and ((mine == 0 and ((hands[mover] >> (13 * trump)) & SUIT) != 0)
                                 or (pard == 0 and ((last_hand >> (13 * trump)) & SUIT) != 0)):
                return TRUE if maximizing else ZERO
            ours = mine | pard
            if ours:
                top = high_bit(ours)
                if top > trick[0] % 13 and ((third >> (13 * led)) & SUIT) >> top == 0:
                    return (TRUE if maximizing else ZERO) | (np.int64(1) << (13 * led + top))
    moves = buf[32 * ply:32 * ply + 32]
    count = gen_moves(hands, trick, ntrick, leader, trump, n, team, moves)
    if ntrick == 0 and moves[KILLER] >= 0:
        promote(moves, count, moves[KILLER])
    if best_hint >= 0:
        promote(moves, count, best_hint)
    result = not maximizing
    best = moves[0]
    ranks = ZERO
    cut = False
    bit_hand = hands[mover]
    # DDS's lowest winning rank: once a card failed, the cards of its suit below every rank the
    # results so far depended on (the card itself among them) would fail the same way
    skip = ZERO
    seen = 0
    for mi in range(count):
        c = moves[mi]
        if (skip >> c) & 1:
            continue
        hands[mover] = bit_hand ^ (np.int64(1) << c)
        trick[ntrick] = c
        if ntrick + 1 == n:
            bi, bc = current_best(trick, n, trump)
            w = (leader + bi) % n
            won_by = trick_ranks(trick, n, bc, hands, w)  # before the next trick overwrites this one
            got = 1 if side_of(w, n) == side else 0
            s0 = trick[0]
            s1 = trick[1]
            s2 = trick[2]
            v = search2(hands, trick, ZERO, w, trump, n, side, team, need - got, horizon - 1, tt, buf, ply + 1)
            trick[0] = s0
            trick[1] = s1
            trick[2] = s2
            v |= won_by
        else:
            v = search2(hands, trick, ntrick + 1, leader, trump, n, side, team, need, horizon, tt, buf, ply + 1)
        hands[mover] = bit_hand
        if ((v & TRUE) != 0) == maximizing:
            result = maximizing
            best = c
            ranks = v & CARDS52
            cut = True
            if ntrick == 0:
                moves[KILLER] = c
            break
        ranks |= v & CARDS52
        s = c // 13
        if not (seen >> s) & 1:
            sr = (ranks >> (13 * s)) & SUIT
            low = low_bit(sr) if sr else 13
            if c % 13 < low:
                seen |= 1 << s
                skip |= ((np.int64(1) << low) - 1) << (13 * s)

    if ntrick == 0 and not tt[ABORTED, 0]:
        # record the bound for side 0 within this horizon, under the ranks that decided it
        sig = significance(ranks, alive)
        lb0 = 0
        ub0 = horizon
        j = -1
        for k in range(bucket, bucket + BUCKET):
            if tt[C_KEY, k] == key and tt[C_META, k] == meta and tt[C_SIG, k] == sig \
                    and tt[C_H, k] == (sq0 & sig) and tt[C_H + 1, k] == (sq1 & sig) \
                    and tt[C_H + 2, k] == (sq2 & sig) and tt[C_H + 3, k] == (sq3 & sig):
                j = k
                lb0 = tt[C_VAL, k] & 0xFF
                ub0 = (tt[C_VAL, k] >> 8) & 0xFF
                break
        if j < 0:
            j = tt_victim(tt, bucket)
        if side == 0:
            if result:
                lb0 = max(lb0, need)
            else:
                ub0 = min(ub0, need - 1)
        else:
            if result:
                ub0 = min(ub0, horizon - need)
            else:
                lb0 = max(lb0, horizon - need + 1)
        hint = squeeze_card(best, alive) if cut else np.int64(-1)
        tt[C_META, j] = meta
        tt[C_KEY, j] = key
        tt[C_H, j] = sq0 & sig
        tt[C_H + 1, j] = sq1 & sig
        tt[C_H + 2, j] = sq2 & sig
        tt[C_H + 3, j] = sq3 & sig
        tt[C_SIG, j] = sig
        tt[C_VAL, j] = lb0 | (ub0 << 8) | ((hint + 1) << 16) | (popcount(hands[leader]) << 24)
    return (TRUE if result else ZERO) | ranks


@njit("b1(i8[::1], i8[::1], i8, i8, i8, i8, i8, i8, i8, i8[:, ::1])", cache=True)
def ge2(hands, trick, ntrick, leader, trump, n, side, need, horizon, tt):
    """Two sides: can side ``side`` take at least ``need`` of the next ``horizon`` tricks?"""
    buf = np.empty(32 * 64, dtype=np.int64)  # move lists: every ply writes its own before reading
    buf[KILLER::32] = -1  # no lead has cut off at any ply yet
    team = side_seats(side, n)
    return (search2(hands, trick, ntrick, leader, trump, n, side, team, need, horizon, tt, buf, ZERO) & TRUE) != 0



# ----------------------------------------------------------------------------- three players
Q_WIN = 0    # the hand's winner is seat ``m``
Q_REACH = 1  # seat ``m`` has at least ``param`` tricks when the hand ends
Q_KOT = 2    # the hand ends in a kot by a seat in mask ``param``


@njit("i8(i8[::1], i8, i8, i8, i8)", cache=True, **NO_NRT)
def question3(t, total, kind, m, param):
    """1 (true), 0 (false) or -1 (not yet known) for the question after a trick."""
    w, kot = decided3(t[0], t[1], t[2], total)
    if kind == Q_REACH and t[m] >= param:
        return 1
    if w >= 0:
        if kind == Q_WIN:
            return 1 if w == m else 0
        if kind == Q_REACH:
            return 0
        return 1 if kot and (param >> w) & 1 else 0
    if kind == Q_KOT:
        nonzero = 0
        who = -1
        for s in range(3):
            if t[s] > 0:
                nonzero += 1
                who = s
        if nonzero > 1 or (nonzero == 1 and not (param >> who) & 1):
            return 0
    return -1


@njit("i8(i8[::1], i8[::1], i8, i8, i8, i8[::1], i8, i8, i8, i8, i8, i8[:, ::1], i8[::1], i8)", cache=True, **NO_NRT)
def search3(hands, trick, ntrick, leader, trump, t, total, kind, m, param, maxmask, tt, buf, ply):
    """Three players: can the seats in ``maxmask`` make the question true against the other(s)?

    Returns :data:`TRUE` or 0, or'ed with cards whose ranks it depended on, as :func:`search2`
    does; its table entries are exact (every live card significant).
    """
    tt[NODES, 0] += 1
    if tt[LIMIT, 0] and tt[NODES, 0] > tt[LIMIT, 0]:
        tt[ABORTED, 0] = 1
        return ZERO
    n = 3
    meta = np.int64(0)
    key = np.int64(0)
    alive = np.int64(0)
    sq0 = np.int64(0)
    sq1 = np.int64(0)
    sq2 = np.int64(0)
    bucket = np.int64(0)
    if ntrick == 0:
        alive = hands[0] | hands[1] | hands[2]
        meta = (leader | (trump << 2) | (np.int64(3) << 4) | (np.int64(KIND_GE3) << 12) | (kind << 14)
                | (t[0] << 16) | (t[1] << 21) | (t[2] << 26) | (m << 31) | (maxmask << 33)
                | (np.int64(param) << 36))
        key = suit_lengths(hands, n)
        sq0 = squeeze(hands[0], alive)
        sq1 = squeeze(hands[1], alive)
        sq2 = squeeze(hands[2], alive)
        bucket = tt_bucket(tt, key, meta)
        for j in range(bucket, bucket + BUCKET):
            if tt[C_KEY, j] != key or tt[C_META, j] != meta:
                continue
            sig = tt[C_SIG, j]
            if (sq0 & sig) == tt[C_H, j] and (sq1 & sig) == tt[C_H + 1, j] and (sq2 & sig) == tt[C_H + 2, j]:
                return (TRUE if tt[C_VAL, j] & 0xFF else ZERO) | ranks_of(sig, alive)
    mover = (leader + ntrick) % n
    maximizing = ((maxmask >> mover) & 1) == 1
    moves = buf[32 * ply:32 * ply + 32]
    count = gen_moves(hands, trick, ntrick, leader, trump, n, maxmask, moves)
    result = not maximizing
    ranks = ZERO
    bit_hand = hands[mover]
    for mi in range(count):
        c = moves[mi]
        hands[mover] = bit_hand ^ (np.int64(1) << c)
        trick[ntrick] = c
        if ntrick + 1 == n:
            bi, bc = current_best(trick, n, trump)
            w = (leader + bi) % n
            won_by = trick_ranks(trick, n, bc, hands, w)  # before the next trick overwrites this one
            t[w] += 1
            q = question3(t, total, kind, m, param)
            if q >= 0:
                v = TRUE if q == 1 else ZERO
            else:
                s0 = trick[0]
                s1 = trick[1]
                v = search3(hands, trick, ZERO, w, trump, t, total, kind, m, param, maxmask, tt, buf, ply + 1)
                trick[0] = s0
                trick[1] = s1
            v |= won_by
            t[w] -= 1
        else:
            v = search3(hands, trick, ntrick + 1, leader, trump, t, total, kind, m, param, maxmask, tt, buf,
                        ply + 1)
        hands[mover] = bit_hand
        if ((v & TRUE) != 0) == maximizing:
            result = maximizing
            ranks = v & CARDS52
            break
        ranks |= v & CARDS52
    if ntrick == 0 and not tt[ABORTED, 0]:
        # Exact keys: keyed by winning ranks alone, entries answered some three-player
        # questions wrongly (a trick margin one too high), so every live card counts here.
        sig = significance(alive, alive)
        j = tt_victim(tt, bucket)
        tt[C_META, j] = meta
        tt[C_KEY, j] = key
        tt[C_H, j] = sq0 & sig
        tt[C_H + 1, j] = sq1 & sig
        tt[C_H + 2, j] = sq2 & sig
        tt[C_H + 3, j] = 0
        tt[C_SIG, j] = sig
        tt[C_VAL, j] = (1 if result else 0) | (popcount(hands[leader]) << 24)
    return (TRUE if result else ZERO) | ranks


@njit("b1(i8[::1], i8[::1], i8, i8, i8, i8[::1], i8, i8, i8, i8, i8, i8[:, ::1])", cache=True)
def ge3(hands, trick, ntrick, leader, trump, t, total, kind, m, param, maxmask, tt):
    """Three players: can the seats in ``maxmask`` make the question true against the other(s)?"""
    buf = np.empty(32 * 64, dtype=np.int64)  # move lists: every ply writes its own before reading
    return (search3(hands, trick, ntrick, leader, trump, t, total, kind, m, param, maxmask, tt, buf, ZERO)
            & TRUE) != 0


# ----------------------------------------------------------------------------- root calls
# These live in this module on purpose: Numba's on-disk cache is invalidated per source file, so a
# caller cached in another file would keep running a stale copy of the search after an edit here.
# :mod:`hokm.search.dds` unpacks a position into plain integers and calls these once per
# question, so a whole ``move_values`` (every legal card, the win and kot questions) costs a
# single crossing from Python into compiled code. Values are scored for the side to move:
# ``+points`` when it wins the hand, ``-points`` when another side does.

BIG = np.int64(99)  # a horizon longer than any hand: "until the end"


@njit("Tuple((i8, b1))(i8[::1], i8[::1], i8, i8, i8, i8, i8, i8, i8, i8, i8, i8[:, ::1])", cache=True)
def value2(hands, trick, ntrick, leader, trump, n, ta, tb, a, pts_a, pts_b, tt):
    """Two sides: (value for side ``a``, kot) under perfect play from this position.

    ``ta`` and ``tb`` are the tricks side ``a`` and the other side have won.
    """
    w, kot = decided2(ta, tb)  # "side 0" there is side ``a`` here
    if w == 0:
        return (pts_a, True) if kot else (1, False)
    if w == 1:
        return (-pts_b, True) if kot else (-1, False)
    b = 1 - a
    need_a = TRICKS_TO_WIN - ta
    need_b = TRICKS_TO_WIN - tb
    if ge2(hands, trick, ntrick, leader, trump, n, a, need_a, BIG, tt):
        if tb == 0 and ge2(hands, trick, ntrick, leader, trump, n, a, need_a, need_a, tt):
            return pts_a, True
        return 1, False
    if ta == 0 and ge2(hands, trick, ntrick, leader, trump, n, b, need_b, need_b, tt):
        return -pts_b, True
    return -1, False


@njit("Tuple((i8, b1, i8))(i8[::1], i8[::1], i8, i8, i8, i8[::1], i8, i8[::1], i8[:, ::1])", cache=True)
def value3(hands, trick, ntrick, leader, trump, t, m, pts, tt):
    """Three players, paranoid for seat ``m``: (value for ``m``, kot, winner or -1 if open).

    ``pts[s]`` is what seat ``s`` scores for a kot. A loss without kot has value -1 whichever
    opponent wins, so the winner is reported as -1 then.
    """
    total = np.int64(THREE_PLAYER_TRICKS)
    w, kot = decided3(t[0], t[1], t[2], total)
    if w >= 0:
        if kot:
            return (pts[w] if w == m else -pts[w]), True, w
        return (1 if w == m else -1), False, w
    me = np.int64(1) << m
    opp = np.int64(7) ^ me
    if ge3(hands, trick, ntrick, leader, trump, t, total, np.int64(Q_WIN), m, np.int64(0), me, tt):
        others_zero = True
        for s in range(3):
            if s != m and t[s] > 0:
                others_zero = False
        if others_zero and ge3(hands, trick, ntrick, leader, trump, t, total, np.int64(Q_KOT), m, me, me, tt):
            return pts[m], True, m
        return 1, False, m
    if t[m] == 0:
        # try the opponents' kots from the costliest for m down
        o1 = -1
        o2 = -1
        for s in range(3):
            if s != m:
                if o1 < 0:
                    o1 = s
                else:
                    o2 = s
        first = o1 if pts[o1] >= pts[o2] else o2
        second = o2 if first == o1 else o1
        if pts[first] > pts[second]:
            if ge3(hands, trick, ntrick, leader, trump, t, total, np.int64(Q_KOT), m, np.int64(1) << first, opp, tt):
                return -pts[first], True, first
        if ge3(hands, trick, ntrick, leader, trump, t, total, np.int64(Q_KOT), m, opp, opp, tt):
            # the coalition can force a kot, and (after the check above) only the cheaper kind
            if pts[first] > pts[second]:
                return -pts[second], True, second
            return -pts[first], True, -1
    return -1, False, -1


@njit("i8(i8[::1], i8[::1], i8, i8, i8, i8, i8, i8, i8, i8[:, ::1])", cache=True)
def most_tricks2(hands, trick, ntrick, leader, trump, n, side, have, played, tt):
    """Two sides: the most tricks ``side`` (holding ``have`` after ``played`` tricks) can make
    sure of before the hand ends at seven, found by halving the range of targets."""
    lo = have  # always reachable
    hi = np.int64(TRICKS_TO_WIN)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        # ``mid`` tricks are made by the time the other side could have its seven, after
        # ``mid + TRICKS_TO_WIN - 1`` tricks in all
        if ge2(hands, trick, ntrick, leader, trump, n, side, mid - have, mid + TRICKS_TO_WIN - 1 - played, tt):
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit("i8(i8[::1], i8[::1], i8, i8, i8, i8[::1], i8, i8[:, ::1])", cache=True)
def most_tricks3(hands, trick, ntrick, leader, trump, t, m, tt):
    """Three players, paranoid: the most tricks seat ``m`` can make sure of by the hand's end
    against the other two together, found by halving the range of targets."""
    total = np.int64(THREE_PLAYER_TRICKS)
    w, _kot = decided3(t[0], t[1], t[2], total)
    if w >= 0:
        return t[m]  # the hand is over
    lo = t[m]  # always reached
    hi = total - t[(m + 1) % 3] - t[(m + 2) % 3]
    me = np.int64(1) << m
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if ge3(hands, trick, ntrick, leader, trump, t, total, np.int64(Q_REACH), m, mid, me, tt):
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit("i8(i8[::1], i8[::1], i8, i8, i8, i8, i8[::1], i8, i8, i8, i8[:, ::1], i8[::1], b1, i8[::1])", cache=True)
def move_values_kernel(h, tr, ntrick, leader, trump, n, st, hakem, kot_points, hk_points, tt, out,
                       want_margins, margins):
    """Value (for the mover's side) of every legal card, written to ``out[card]``.

    With ``want_margins`` ``margins[card]`` gets the trick margin the card leads to under
    perfect play. Two and four players: 7 minus the most tricks the losing side can still make
    when the mover's side wins, that count minus 7 when it loses. Three players: the most tricks
    the mover can make sure of against the other two together. It separates cards of equal
    value (a safer win, a closer loss, more tricks kept from the others). Equivalent cards share one search. Returns the number of
    legal cards.
    """
    mover = (leader + ntrick) % n
    moves = np.empty(26, dtype=np.int64)
    a = side_of(mover, n)
    team = side_seats(a, n)
    count = gen_moves(h, tr, ntrick, leader, trump, n, team, moves)
    hands = h.copy()
    trick = tr.copy()
    t = st.copy()
    pts = np.empty(3, dtype=np.int64)
    hakem_side = side_of(hakem, n)
    for s in range(3):  # three players: each seat is its own side
        pts[s] = hand_points(s, True, hakem_side, kot_points, hk_points)
    for mi in range(count):
        c = moves[mi]
        for k in range(n):
            hands[k] = h[k]
            t[k] = st[k]
        for k in range(4):
            trick[k] = tr[k]
        hands[mover] ^= np.int64(1) << c
        trick[ntrick] = c
        nt = ntrick + 1
        ld = leader
        if nt == n:
            w = trick_winner(trick, leader, trump, n)
            t[w] += 1
            nt = 0
            ld = w
        if n == 3:
            v, _k, _w = value3(hands, trick, nt, ld, trump, t, mover, pts, tt)
            if want_margins:
                margins[c] = most_tricks3(hands, trick, nt, ld, trump, t, mover, tt)
        else:
            ta = np.int64(0)
            tb = np.int64(0)
            for k in range(n):
                if side_of(k, n) == a:
                    ta += t[k]
                else:
                    tb += t[k]
            pa = hand_points(a, True, hakem_side, kot_points, hk_points)
            pb = hand_points(1 - a, True, hakem_side, kot_points, hk_points)
            v, _k = value2(hands, trick, nt, ld, trump, n, ta, tb, a, pa, pb, tt)
            if want_margins:
                played = np.int64(0)
                for k in range(n):
                    played += t[k]
                ended, _kot = decided2(ta, tb)
                if ended >= 0:
                    margins[c] = ta - tb  # the card ends the hand
                elif v > 0:
                    margins[c] = TRICKS_TO_WIN - most_tricks2(hands, trick, nt, ld, trump, n, 1 - a, tb, played, tt)
                else:
                    margins[c] = most_tricks2(hands, trick, nt, ld, trump, n, a, ta, played, tt) - TRICKS_TO_WIN
        out[c] = v
    # equivalent cards: every legal card below a representative in its run takes its value
    legal = legal_mask(h[mover], tr[0] // 13 if ntrick > 0 else -1)
    alive = np.int64(0)
    for s in range(n):
        alive |= h[s]
    for i in range(ntrick):
        alive |= np.int64(1) << tr[i]
    total = 0
    for s in range(4):
        run_value = np.int64(0)
        run_margin = np.int64(0)
        in_run = False
        for r in range(12, -1, -1):
            c = 13 * s + r
            if (alive >> c) & 1:
                if (legal >> c) & 1:
                    if in_run:
                        out[c] = run_value
                        margins[c] = run_margin
                    else:
                        run_value = out[c]
                        run_margin = margins[c]
                        in_run = True
                    total += 1
                else:
                    in_run = False
    return total
