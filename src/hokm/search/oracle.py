"""``oracle``: the omniscient reference bot. It sees every hand and plays double-dummy.

It is the ceiling the honest bots are measured against (how much of the oracle's edge over
``heuristic`` a level captures), so :mod:`hokm.players` lists it as not for players and drivers hand it
the full game through :meth:`OmniscientBot.act_with_state`. What it does, decision by decision:

- **Play**: :func:`hokm.search.dds.move_values` on the full position; the best value wins
  (hand won, kot for, kot against, all as scored). Among cards of equal value it plays the
  cheapest: lowest rank, a plain card before a trump. A search that would exceed its node
  budget (rare, early in a hand) is replaced by the cheaper "does my side still win the hand"
  question per card, and if that also runs long, by playing to win the trick cheaply.
- **Trump** (Hâkem, 4 and 3 players): the full deal is known, so the suits are solved as trump
  in count-then-rank order of the first five cards (most cards, then highest ranks) and the
  first one with which the Hâkem's side wins the hand is named; if none wins, or a solve runs
  past the budget, the count-then-rank suit is named.
  With two players the hands are not fixed until the draws, so count-then-rank is used.
- **Two-player discards and draws**: simple full-information rules. Discard the lowest plain
  cards; at the stock keep the top card when it is worth at least as much as the card under it
  (a trump counts above every plain card).
"""

from __future__ import annotations

from ..bots.base import OmniscientBot
from ..cards import Card, Suit, cards_in
from ..engine.actions import KEEP, PASS, PLAYS, Action, ChooseTrump, Discard
from ..engine.game import Game, deal_layout
from ..engine.phase import Phase
from ..engine.tricks import winning_index
from ..engine.view import SeatView
from ..rules import TWO_PLAYER_DISCARDS
from . import dds
from .position import DDPosition

#: Node budget of one solver call (a few hundred milliseconds at worst on a laptop core).
NODE_LIMIT = 400_000


def _card_cost(card: Card, trump: int) -> tuple[int, int, int]:
    """Sort key of "cheapness": low rank first, plain cards before trumps."""
    return (card % 13, 1 if card // 13 == trump else 0, card // 13)


def _count_then_rank(cards: list[Card]) -> Suit:
    """The suit with most of ``cards``; ties go to the higher ranks."""
    def key(s: int) -> tuple[int, list[int]]:
        ranks = sorted((c % 13 for c in cards if c // 13 == s), reverse=True)
        return (len(ranks), ranks)

    return Suit(max(range(4), key=key))


def _mover(game: Game) -> int:
    if game.to_move is None:
        raise ValueError(f"no seat is to move in the {game.phase.value} phase")
    return game.to_move


def _trump_of(game: Game) -> int:
    if game.trump is None:
        raise ValueError(f"no trump is named in the {game.phase.value} phase")
    return int(game.trump)


class OracleBot(OmniscientBot):
    """Double-dummy play with every hand visible (see the module docstring)."""

    name = "oracle"

    def __init__(self, node_limit: int = NODE_LIMIT) -> None:
        self.node_limit = node_limit
        self.fallbacks = 0  # decisions where a search ran past its budget

    def act_with_state(self, view: SeatView, game: Game) -> Action:
        if game.phase is Phase.PLAY:
            return PLAYS[self._play(game)]
        if game.phase is Phase.TRUMP:
            return ChooseTrump(self._trump(game))
        if game.phase is Phase.DISCARD:
            return self._discard(game)
        if game.phase is Phase.DRAW:
            return self._draw(game)
        raise ValueError(f"oracle has nothing to do in the {game.phase.value} phase")

    # ----- play --------------------------------------------------------------------------
    def _play(self, game: Game) -> Card:
        pos = DDPosition.from_game(game)
        legal = game.legal_cards()
        if len(legal) == 1:
            return legal[0]
        trump = pos.trump
        values: dict[Card, int] | None
        try:
            values = dds.move_values(pos, node_limit=self.node_limit)
        except dds.SearchLimitExceeded:
            self.fallbacks += 1
            values = self._win_or_lose(pos, legal)
        if values is None:
            return self._cheap_trick_winner(game, legal)
        best = max(values.values())
        return min((c for c in legal if values[c] == best), key=lambda c: _card_cost(c, trump))

    def _win_or_lose(self, pos: DDPosition, legal: list[Card]) -> dict[Card, int] | None:
        """+1/-1 per card from the cheaper "does my side win the hand" question, or None."""
        side = pos.side_of(pos.to_move)
        out = {}
        try:
            for card in legal:
                child = pos.play(card)
                done = child.outcome()
                if done is not None:
                    out[card] = 1 if done.winner == side else -1
                elif pos.players == 3:
                    out[card] = 1 if dds.solve(child, node_limit=self.node_limit).winner == side else -1
                else:
                    out[card] = 1 if dds.reaches(child, side, 7, node_limit=self.node_limit) else -1
        except dds.SearchLimitExceeded:
            return None
        return out

    @staticmethod
    def _cheap_trick_winner(game: Game, legal: list[Card]) -> Card:
        """Last resort: win the trick with the cheapest card that does, else play the cheapest."""
        trump = _trump_of(game)
        trick = list(game.trick)

        def wins(card: Card) -> bool:
            return winning_index(trick + [card], trump) == len(trick)

        winners = [c for c in legal if wins(c)] if trick else []
        pool = winners or legal
        return min(pool, key=lambda c: _card_cost(c, trump))

    # ----- trump -------------------------------------------------------------------------
    def _trump(self, game: Game) -> Suit:
        seat = _mover(game)
        first_five = cards_in(game.hands[seat])
        fallback = _count_then_rank(first_five)
        if game.n == 2 or game.deck is None:
            return fallback
        _, full = deal_layout(game.rules, game.hakem, game.deck)
        hands = tuple(sum(1 << c for c in h) for h in full)
        side = game.rules.side_of(game.hakem)
        order = [fallback] + [Suit(s) for s in range(4) if s != fallback]
        try:
            for suit in order:
                pos = DDPosition(game.rules, int(suit), hands, game.hakem, (), (0,) * game.n, game.hakem)
                if game.n == 3:
                    if dds.solve(pos, node_limit=self.node_limit).value > 0:
                        return suit
                elif dds.reaches(pos, side, 7, node_limit=self.node_limit):
                    return suit
        except dds.SearchLimitExceeded:
            self.fallbacks += 1
        return fallback

    # ----- two players -------------------------------------------------------------------
    @staticmethod
    def _discard(game: Game) -> Action:
        seat = _mover(game)
        count = TWO_PLAYER_DISCARDS[0 if seat == game.hakem else 1]
        trump = _trump_of(game)
        cards = sorted(cards_in(game.hands[seat]), key=lambda c: (c // 13 == trump, c % 13))
        return Discard(frozenset(cards[:count]))

    @staticmethod
    def _draw(game: Game) -> Action:
        trump = _trump_of(game)
        top = game.stock[2 * game.draw_turn]
        under = game.stock[2 * game.draw_turn + 1]

        def worth(c: Card) -> int:
            return c % 13 + (13 if c // 13 == trump else 0)

        return KEEP if worth(top) >= worth(under) else PASS


__all__ = ["OracleBot", "NODE_LIMIT"]
