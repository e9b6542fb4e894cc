"""What one seat can infer from its own view: card memory for bots.

A good player remembers every card played, notices when someone fails to follow suit (that seat
is void in the suit led from then on), and so knows which of his cards are *masters* (no card
still out can beat them) and where the missing cards can be. :class:`Memory` rebuilds that
knowledge from a :class:`~hokm.engine.SeatView` alone, so a bot using it still sees nothing it
should not: everything here follows from the public play and the seat's own cards.

Two players: cards a seat discarded or saw and dropped in the draw are known to be out of play,
so they are not "unseen"; the opponent's discards are unknown and stay in the unseen pool (the
opponent holds 13 of those cards at the start of play, the rest lie face down).

Everything is held as 52-bit masks (bit ``card`` set) so that a decision costs microseconds.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import SUIT_MASKS, full_deck, mask_of
from ..engine.view import SeatView


def top_card(mask: int) -> int:
    """The highest card index in ``mask`` (-1 when empty); within one suit, the highest rank."""
    return mask.bit_length() - 1


def low_card(mask: int) -> int:
    """The lowest card index in ``mask`` (-1 when empty)."""
    return (mask & -mask).bit_length() - 1


def above(card: int) -> int:
    """Mask of the cards of ``card``'s suit that outrank it."""
    suit_mask = SUIT_MASKS[card // 13]
    return suit_mask & ~((2 << card) - 1)


@dataclass(slots=True)
class Memory:
    """Card knowledge of ``seat`` at the moment of its view.

    ``unseen`` holds the cards that may still be in another seat's hand: the deck minus this
    seat's hand, every card played this hand, and (two players) this seat's own discards.
    ``voids[s]`` is a 4-bit mask of the suits seat ``s`` has shown it does not hold.
    """

    players: int
    seat: int
    trump: int | None
    hand: int
    played: int
    unseen: int
    voids: list[int]

    @classmethod
    def from_view(cls, view: SeatView) -> Memory:
        """Rebuild the seat's knowledge from its view (public play and its own cards only)."""
        if view.seat is None:
            raise ValueError("card memory needs a seat's view, not a spectator's")
        n = view.players
        hand = mask_of(view.hand)
        played = 0
        voids = [0] * n
        for t in view.completed:
            cards = t.cards
            led = cards[0] // 13
            leader = t.leader
            for i, c in enumerate(cards):
                played |= 1 << c
                if c // 13 != led:
                    voids[(leader + i) % n] |= 1 << led
        if view.trick:
            led = view.trick[0][1] // 13
            for s, c in view.trick:
                played |= 1 << c
                if c // 13 != led:
                    voids[s] |= 1 << led
        deck = _DECKS.get(view.rules.removed_two if n == 3 else None)
        if deck is None:
            deck = mask_of(full_deck(view.rules.removed_cards))
            _DECKS[view.rules.removed_two if n == 3 else None] = deck
        unseen = deck & ~hand & ~played & ~mask_of(view.discards)
        trump = None if view.trump is None else int(view.trump)
        return cls(n, view.seat, trump, hand, played, unseen, voids)

    # ----- questions a player asks ------------------------------------------------------
    def is_void(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` is known to hold no card of ``suit`` (shown, or none left out)."""
        if seat == self.seat:
            return not self.hand & SUIT_MASKS[suit]
        return bool(self.voids[seat] >> suit & 1) or not self.unseen & SUIT_MASKS[suit]

    def outstanding(self, suit: int) -> int:
        """Mask of the cards of ``suit`` that other seats may still hold."""
        return self.unseen & SUIT_MASKS[suit]

    def is_master(self, card: int) -> bool:
        """Whether no card still out in ``card``'s suit outranks it."""
        return not self.unseen & above(card)

    def masters(self) -> int:
        """Mask of this seat's cards that are masters of their suit."""
        out = 0
        for s in range(4):
            mine = self.hand & SUIT_MASKS[s]
            if not mine:
                continue
            ahead = self.unseen & SUIT_MASKS[s]
            # Walk down from the top of the suit: my cards are masters until an unseen card intervenes.
            while mine:
                top = top_card(mine)
                if self.unseen & above(top) & ahead:
                    break
                out |= 1 << top
                mine &= ~(1 << top)
        return out

    def may_hold(self, seat: int, card: int) -> bool:
        """Whether ``seat`` (not this one) could hold ``card``."""
        return bool(self.unseen >> card & 1) and not self.voids[seat] >> (card // 13) & 1

    def lowest_equivalent(self, card: int) -> int:
        """The lowest card of this seat's hand worth as much as ``card`` in the play to come.

        Holding K and Q (or K and J with the Q gone), the lower card takes any trick the K would
        take, so a player who must play high plays the lower one and keeps the higher. Cards
        already out of play do not separate two of ours; an unseen card does.
        """
        base = card - card % 13
        best = card
        c = card - 1
        while c >= base:
            if self.hand >> c & 1:
                best = c
            elif self.unseen >> c & 1:
                break
            c -= 1
        return best

    def may_hold_any(self, seat: int, mask: int) -> bool:
        """Whether ``seat`` could hold any card of ``mask`` (cards of one suit)."""
        cards = self.unseen & mask
        return bool(cards) and not self.voids[seat] >> (low_card(cards) // 13) & 1

    def may_ruff(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` might trump a lead of ``suit``: void in it and possibly holding trump."""
        if self.trump is None or suit == self.trump:
            return False
        return self.is_void(seat, suit) and not self.is_void(seat, self.trump)

    def void_suits(self, seat: int) -> list[int]:
        """The suits ``seat`` has shown it is void in (from failures to follow)."""
        return [s for s in range(4) if self.voids[seat] >> s & 1]


_DECKS: dict[str | None, int] = {}
