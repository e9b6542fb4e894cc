"""The lookahead evaluator: heuristic play to the solver's reach, then the solver.

Its two halves are each checked against the reference they stand for: with the solver reaching
the whole hand it must give the solver's own values, and with no solver at all its fast rollout
must play exactly the cards the engine-driven heuristic bot plays.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")

from hokm.bots.heuristic import HeuristicBot
from hokm.bots.random_bot import RandomBot
from hokm.engine import Game, Phase, Rules
from hokm.search.config import SearchConfig
from hokm.search.evaluators import DDEvaluator
from hokm.search.lookahead import LookaheadEvaluator
from hokm.search.pimc import PimcBot
from hokm.search.rollout import PolicyRolloutEvaluator, Position
from hokm.search.tuning import Tuning


def positions(players: int, count: int, seed: int, max_cards: int = 17):
    """(view, position) pairs from random games, at decisions with more than one legal card and
    at most ``max_cards`` cards in the mover's hand."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = Game.new(Rules(players=players), seed=rng.randrange(10**6))
        bot = RandomBot(rng.randrange(10**6))
        stop = rng.randrange(0, 4 * players)
        plays = 0
        while game.hand_index == 0:
            if game.phase is Phase.DEAL:
                game.deal(rng=rng)
                continue
            if game.phase is Phase.PLAY:
                if plays >= stop and len(game.legal_cards()) > 1 and \
                        game.hands[game.to_move].bit_count() <= max_cards:
                    break
                plays += 1
            game.apply(bot.act(game.view(game.to_move)))
        if game.hand_index != 0 or game.phase is not Phase.PLAY:
            continue
        view = game.view(game.to_move)
        pos = Position(game.rules, int(game.trump), list(game.hands), game.leader,
                       [int(c) for c in game.trick], list(game.seat_tricks), game.hakem)
        out.append((view, pos))
    return out


@pytest.mark.parametrize("players", [2, 4])
def test_with_the_solver_reaching_the_whole_hand_it_gives_the_solver_values(players: int) -> None:
    dd = DDEvaluator()
    look = LookaheadEvaluator(dd.result, dd.limit_error, (13, 17, 13))
    for view, pos in positions(players, 12, seed=players, max_cards=8):  # quick exact solves
        look.prepare(view)
        assert look.move_values(pos) == {c: float(v) for c, v in dd.move_values(pos).items()}


@pytest.mark.parametrize("players", [3, 4])
def test_without_the_solver_the_rollout_plays_like_the_heuristic_bot(players: int) -> None:
    # (Two players differ on purpose: the rollout keeps the searching seat's own discards out of
    # its unseen cards, which the engine-driven rollout's rebuilt game does not hold.)
    look = LookaheadEvaluator.playout()  # what ``evaluator="playout"`` scores with
    engine = PolicyRolloutEvaluator(seed=0)
    for view, pos in positions(players, 10, seed=10 + players):
        look.prepare(view)
        engine.prepare(view)
        assert look.move_values(pos) == engine.move_values(pos)
        assert look.hand_value(pos) == engine.hand_value(pos)


def test_the_search_bot_scores_the_first_tricks_with_lookahead() -> None:
    cfg = SearchConfig(max_deals=3, min_deals=1, budget_s=10.0, enumerate_limit=0, evaluator="dd",
                       dd_cards=(13, 8, 7), early="search", root="heuristic")
    bot = PimcBot(cfg, seed=1, tuning=Tuning(fallback="lookahead", early_deals=2))
    game = Game.new(Rules(players=4), seed=5)
    heuristic = HeuristicBot()
    while game.phase is not Phase.PLAY or len(game.legal_cards()) < 2:
        if game.phase is Phase.DEAL:
            game.deal()
        else:
            game.apply(heuristic.act(game.view(game.to_move)))
    view = game.view(game.to_move)
    assert len(view.hand) > 7
    action = bot.act(view)
    assert action in view.legal
    assert bot.last_deals == 2  # early_deals caps the deals before the solver's reach
    assert isinstance(bot.evaluator.fallback, LookaheadEvaluator)


@pytest.mark.parametrize("players, target", [(3, 1), (3, 7), (4, 1), (2, 7)])
def test_a_card_that_ends_the_hand_is_scored_by_that_hand(players: int, target: int) -> None:
    """The engine-driven rollout scores a card that ends the hand (and maybe the game) by the
    hand it ends, instead of playing on into the next hand or a finished game."""
    rng = random.Random(40 + players + target)
    engine = PolicyRolloutEvaluator(seed=0)
    found = 0
    for _ in range(400):
        game = Game.new(Rules(players=players, target_points=target), seed=rng.randrange(10**6))
        bot = RandomBot(rng.randrange(10**6))
        while game.hand_index == 0 and found < 6:
            if game.phase is Phase.DEAL:
                game.deal(rng=rng)
                continue
            if game.phase is Phase.PLAY and len(game.legal_cards()) > 1:
                ending = {}
                for card in game.legal_cards():
                    after = game.copy(history=False)
                    after.apply(card)
                    if after.results:
                        r = after.results[-1]
                        ending[card] = r.points if r.winner == game.rules.side_of(game.to_move) else -r.points
                if ending:
                    view = game.view(game.to_move)
                    pos = Position(game.rules, int(game.trump), list(game.hands), game.leader,
                                   [int(c) for c in game.trick], list(game.seat_tricks), game.hakem)
                    engine.prepare(view)
                    values = engine.move_values(pos)
                    assert set(values) == set(game.legal_cards())
                    for card, points in ending.items():
                        assert values[card] == points
                    found += 1
            game.apply(bot.act(game.view(game.to_move)))
        if found >= 6:
            break
    assert found >= 6
