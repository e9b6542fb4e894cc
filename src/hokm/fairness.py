"""Commit-reveal shuffles: decks that every player can check after the hand.

Before a hand is dealt the server draws a fresh secret *server seed* (32 random bytes) and
publishes only its SHA-256, the *commit*. Each seat may then add a *seat seed* of its own. The
deck is a fixed, documented function of those seeds (:func:`derive_deck`), so once the hand is
over and the server seed is revealed anyone can recompute the deck and compare: the server could
not choose the deck after seeing the seat seeds (it was bound by the commit), and no seat could
steer it (it never knew the server seed). ``docs/fairness.md`` states the algorithm in words.

The byte stream is HMAC-SHA256 keyed by the server seed over a context message and a 4-byte
counter; each uniform draw takes 4 bytes as a big-endian integer and rejects values from the top,
incomplete range, so there is no modulo bias. Fisher-Yates then shuffles the rules' deck in card
index order. The first Hâkem's ace draw is derived the same way from hand 0's seeds.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, full_deck
from .engine import Game, HakemDraw, Rules, run_hakem_draw

VERSION = "hokm-fair/1"
_HEX = re.compile(r"^[0-9a-f]{2,128}$")


class FairnessError(ValueError):
    """Seeds or a commit that are not well-formed."""


def new_server_seed() -> str:
    """A fresh secret seed: 32 bytes from the operating system, as lowercase hex."""
    return secrets.token_hex(32)


def normalise_seed(seed: str) -> str:
    """Lowercase hex of an even length from 2 to 128 characters; raise ``FairnessError`` otherwise."""
    if not isinstance(seed, str):
        raise FairnessError(f"a seed must be a hex string, not {type(seed).__name__}")
    s = seed.strip().lower()
    if not _HEX.match(s) or len(s) % 2:
        raise FairnessError("a seed must be 2 to 128 hex digits, an even number of them")
    return s


def commit_of(server_seed: str) -> str:
    """The published commit: SHA-256 of the server seed's bytes, as lowercase hex."""
    return hashlib.sha256(bytes.fromhex(normalise_seed(server_seed))).hexdigest()


def context(purpose: str, hand: int, seat_seeds: Sequence[str | None]) -> bytes:
    """The HMAC message prefix: compact JSON ``["hokm-fair/1", purpose, hand, [seeds...]]``."""
    seeds = [None if s is None else normalise_seed(s) for s in seat_seeds]
    return json.dumps([VERSION, purpose, hand, seeds], separators=(",", ":")).encode()


class ByteStream:
    """Uniform integers from HMAC-SHA256(server seed, context || counter) blocks."""

    def __init__(self, server_seed: str, message: bytes) -> None:
        self._key = bytes.fromhex(normalise_seed(server_seed))
        self._message = message
        self._counter = 0
        self._buf = b""

    def _next_block(self) -> bytes:
        block = hmac.new(self._key, self._message + self._counter.to_bytes(4, "big"), hashlib.sha256).digest()
        self._counter += 1
        return block

    def take(self, n: int) -> bytes:
        while len(self._buf) < n:
            self._buf += self._next_block()
        out, self._buf = self._buf[:n], self._buf[n:]
        return out

    def below(self, k: int) -> int:
        """A uniform integer in ``[0, k)``: 32-bit draws, rejecting the biased top range."""
        if not 1 <= k <= 1 << 32:
            raise ValueError(f"cannot draw below {k}")
        limit = (1 << 32) - ((1 << 32) % k)
        while True:
            x = int.from_bytes(self.take(4), "big")
            if x < limit:
                return x % k


def shuffle(cards: Sequence[Card], stream: ByteStream) -> list[Card]:
    """Fisher-Yates: for i from the last index down to 1, swap i with a uniform j in [0, i]."""
    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):
        j = stream.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def derive_deck(rules: Rules, server_seed: str, hand: int, seat_seeds: Sequence[str | None]) -> list[Card]:
    """The deck of hand ``hand`` (top card first) for these seeds."""
    _check_seats(rules, seat_seeds)
    stream = ByteStream(server_seed, context("deck", hand, seat_seeds))
    return shuffle(full_deck(rules.removed_cards), stream)


def derive_hakem_draw(rules: Rules, server_seed: str, seat_seeds: Sequence[str | None]) -> HakemDraw:
    """The first Hâkem's ace draw from hand 0's seeds: a start seat, then cards turned to the ace.

    The start seat is the stream's first draw below the number of players; the turned cards are
    a Fisher-Yates shuffle of the rules' deck from the same stream, cut at the deciding ace.
    """
    _check_seats(rules, seat_seeds)
    stream = ByteStream(server_seed, context("hakem_draw", 0, seat_seeds))
    start = stream.below(rules.players)
    deck = shuffle(full_deck(rules.removed_cards), stream)
    aces_needed = 2 if rules.partner_draw else 1
    turned: list[Card] = []
    for c in deck:
        turned.append(c)
        if c.rank == 12:
            aces_needed -= 1
            if aces_needed == 0:
                break
    return run_hakem_draw(rules, start, turned)


def _check_seats(rules: Rules, seat_seeds: Sequence[str | None]) -> None:
    if len(seat_seeds) != rules.players:
        raise FairnessError(f"seat_seeds must have one entry per seat ({rules.players}), not {len(seat_seeds)}")


@dataclass
class HandSeeds:
    """The commit-reveal state of one hand, as the server keeps it (server seed secret until reveal)."""

    hand: int
    server_seed: str
    seat_seeds: list[str | None]
    revealed: bool = False

    @classmethod
    def fresh(cls, hand: int, players: int) -> HandSeeds:
        return cls(hand, new_server_seed(), [None] * players)

    @property
    def commit(self) -> str:
        return commit_of(self.server_seed)

    def public(self) -> dict[str, Any]:
        """What anyone may see: the commit, and the seeds only once revealed."""
        d: dict[str, Any] = {"hand": self.hand, "commit": self.commit, "server_seed": None, "seat_seeds": None}
        if self.revealed:
            d["server_seed"] = self.server_seed
            d["seat_seeds"] = list(self.seat_seeds)
        return d

    def record_entry(self) -> dict[str, Any]:
        """The ``fair`` object of a ``hokm/1`` record hand."""
        return {"commit": self.commit, "server_seed": self.server_seed, "seat_seeds": list(self.seat_seeds)}


# ----------------------------------------------------------------------------- verification
@dataclass(frozen=True)
class HandCheck:
    hand: int
    ok: bool
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "ok": self.ok, "message": self.message}


@dataclass(frozen=True)
class Verification:
    ok: bool
    message: str
    hakem_draw_ok: bool | None
    hands: tuple[HandCheck, ...]

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "message": self.message, "hakem_draw_ok": self.hakem_draw_ok,
                "hands": [h.to_json() for h in self.hands]}


def check_hand(rules: Rules, index: int, hand: dict[str, Any]) -> HandCheck:
    """Check one record hand's ``fair`` object against its commit and its deck."""
    fair = hand.get("fair")
    if not isinstance(fair, dict):
        return HandCheck(index, False, "no fairness data")
    try:
        server_seed = fair.get("server_seed")
        if server_seed is None:
            return HandCheck(index, False, "the server seed was never revealed")
        seeds = fair.get("seat_seeds")
        if not isinstance(seeds, list):
            return HandCheck(index, False, "seat_seeds is missing")
        if commit_of(server_seed) != str(fair.get("commit", "")).lower():
            return HandCheck(index, False, "SHA-256 of the server seed does not match the commit")
        deck = derive_deck(rules, server_seed, index, seeds)
    except FairnessError as e:
        return HandCheck(index, False, str(e))
    if [str(c) for c in deck] != [str(Card.parse(c)) if isinstance(c, str) else c for c in hand.get("deck", [])]:
        return HandCheck(index, False, "the deck is not the one the seeds derive")
    return HandCheck(index, True, "commit and deck match")


def verify_record(record: dict[str, Any]) -> Verification:
    """Check every hand of a ``hokm/1`` record (already known to be a valid record).

    A record is fair when every hand carries fairness data whose commit is the SHA-256 of its
    revealed server seed and whose deck is the derived one, and (when the record has a
    ``hakem_draw``) the ace draw is the one derived from hand 0's seeds.
    """
    rules = Rules.from_dict(record["players"], record.get("rules"))
    hands = record.get("hands") or []
    checks = tuple(check_hand(rules, i, h) for i, h in enumerate(hands))
    draw_ok: bool | None = None
    if "hakem_draw" in record and hands and isinstance(hands[0].get("fair"), dict) and checks[0].ok:
        f = hands[0]["fair"]
        derived = derive_hakem_draw(rules, f["server_seed"], f["seat_seeds"])
        draw_ok = derived.to_json() == {"start": record["hakem_draw"]["start"],
                                        "cards": [str(Card.parse(c)) for c in record["hakem_draw"]["cards"]]}
    bad = [c for c in checks if not c.ok]
    if not hands:
        return Verification(False, "the record has no hands", draw_ok, checks)
    if bad:
        return Verification(False, f"{len(bad)} of {len(checks)} hands fail: hand {bad[0].hand}: {bad[0].message}",
                            draw_ok, checks)
    if draw_ok is False:
        return Verification(False, "the first Hâkem's ace draw is not the one hand 0's seeds derive", draw_ok, checks)
    return Verification(True, f"all {len(checks)} hands verified", draw_ok, checks)


def new_game(rules: Rules, seeds: HandSeeds) -> Game:
    """A server game whose first Hâkem comes from the ace draw derived from hand 0's seeds."""
    return Game(rules, hakem_draw=derive_hakem_draw(rules, seeds.server_seed, seeds.seat_seeds))
