"""The search bot: legal in every phase, scores every card on the same deals, plays for the match."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from hokm.bots.random_bot import RandomBot
from hokm.cards import Card, mask_of
from hokm.engine import Game, Phase, Rules
from hokm.engine.view import SeatView
from hokm.search.config import SearchConfig
from hokm.search.pimc import PimcBot, game_value
from hokm.search.rollout import Position, RolloutEvaluator, playout

FAST = SearchConfig(max_deals=4, min_deals=1, budget_s=10.0, enumerate_limit=4, root_deals=3,
                    evaluator="rollout")


def advance(game: Game, bot, until) -> None:
    """Apply ``bot``'s actions (and deals) until ``until(game)`` holds."""
    rng = random.Random(0)
    while not until(game):
        if game.phase is Phase.DEAL:
            game.deal(rng=rng)
        else:
            game.apply(bot.act(game.view(game.to_move)))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_search_bot_plays_a_whole_hand_legally(players: int) -> None:
    game = Game.new(Rules(players=players), seed=players)
    bots = [PimcBot(FAST, seed=s) for s in range(players)]
    phases = set()
    while game.hand_index == 0:
        view = game.view(game.to_move)
        action = bots[game.to_move].act(view)
        assert action in view.legal
        phases.add(game.phase)
        game.apply(action)
    expected = {Phase.TRUMP, Phase.PLAY} | ({Phase.DISCARD, Phase.DRAW} if players == 2 else set())
    assert phases == expected


class Recorder:
    """An evaluator that records the positions it is asked about and prefers one card."""

    name = "recorder"

    def __init__(self, favourite: Card | None = None) -> None:
        self.favourite = favourite
        self.calls: list[tuple[Position, dict]] = []

    def prepare(self, view: SeatView) -> None:
        pass

    def move_values(self, pos: Position) -> dict:
        values = {c: (1.0 if c == self.favourite else -1.0) for c in pos.legal()}
        self.calls.append((pos, values))
        return values

    def hand_value(self, pos: Position) -> float:
        return 0.0


def mid_hand(players: int = 4, seed: int = 1, plays: int = 5) -> Game:
    game = Game.new(Rules(players=players), seed=seed)
    bot = RandomBot(seed)
    count = [0]

    def done(g: Game) -> bool:
        if g.phase is Phase.PLAY and count[0] >= plays and len(g.legal_cards()) > 1:
            return True
        if g.phase is Phase.PLAY:
            count[0] += 1
        return False

    advance(game, bot, done)
    return game


def test_every_card_is_scored_on_the_same_deals() -> None:
    game = mid_hand()
    view = game.view(game.to_move)
    legal = [a.card for a in view.legal]
    rec = Recorder(favourite=max(legal))
    bot = PimcBot(replace(FAST, max_deals=7, min_deals=7), seed=3, evaluator=rec)
    action = bot.act(view)
    assert action.card == max(legal)
    assert len(rec.calls) == bot.last_deals == 7
    for pos, values in rec.calls:
        assert set(values) == set(legal)
        assert pos.hands[view.seat] == mask_of(view.hand)
        assert pos.trick == [c for _, c in view.trick]


def test_ties_go_to_the_cheaper_card() -> None:
    game = mid_hand(seed=4)
    view = game.view(game.to_move)
    bot = PimcBot(FAST, seed=1, evaluator=Recorder(favourite=None))
    card = bot.act(view).card
    legal = [a.card for a in view.legal]
    side = [c for c in legal if c // 13 != view.trump]
    pool = side or legal
    assert card == min(pool, key=lambda c: c % 13)


class MarginRecorder(Recorder):
    """Every card has the same value; one card has the best trick margin."""

    def __init__(self, best: Card) -> None:
        super().__init__(None)
        self.best = best

    def move_margins(self, pos: Position) -> tuple[dict, dict]:
        values = self.move_values(pos)
        return values, {c: (2.0 if c == self.best else -1.0) for c in values}


@pytest.mark.parametrize("players, margins, used", [
    (4, True, True), (4, False, False), (4, (4,), True), (4, (2,), False), (4, 4, True), (4, 2, False),
    (3, True, True), (3, (3,), True), (3, (2, 4), False)])
def test_trick_margins_break_ties_between_equal_values(players: int, margins, used: bool) -> None:
    game = mid_hand(players, seed=4)
    view = game.view(game.to_move)
    legal = [a.card for a in view.legal]
    plain = PimcBot(FAST, seed=1, evaluator=Recorder(favourite=None)).act(view).card
    best = next(c for c in legal if c != plain)
    bot = PimcBot(replace(FAST, margins=margins), seed=1, evaluator=MarginRecorder(best))
    assert bot.act(view).card == (best if used else plain)


def test_budget_stops_sampling_but_not_below_the_minimum() -> None:
    game = mid_hand(seed=2)
    view = game.view(game.to_move)
    ticks = iter(range(10**6))
    clock = lambda: float(next(ticks))  # noqa: E731 - every reading is one second later
    cfg = replace(FAST, max_deals=50, min_deals=3, budget_s=0.5, enumerate_limit=0)
    bot = PimcBot(cfg, seed=0, evaluator=Recorder(), clock=clock)
    bot.act(view)
    assert bot.last_deals == 3


def test_few_unknown_cards_are_enumerated() -> None:
    game = next(g for g in (mid_hand(4, seed, plays=44) for seed in range(300))
                if g.hand_index == 0 and len(g.completed) >= 11)
    view = game.view(game.to_move)
    rec = Recorder()
    bot = PimcBot(replace(FAST, enumerate_limit=1000, max_deals=1), seed=0, evaluator=rec)
    bot.act(view)
    hands = {tuple(p.hands) for p, _ in rec.calls}
    assert len(hands) == len(rec.calls) > 1  # every deal once, more than max_deals
    assert tuple(game.hands) in hands


def test_game_value_plays_for_the_match() -> None:
    game = mid_hand()
    view = game.view(game.to_move)
    assert game_value(view, 1) == 1 and game_value(view, -1) == -1
    near = replace(view, scores=(6, 0) if view.side == 0 else (0, 6))
    # One point from the target: any win ends the match, so a kot adds nothing.
    assert game_value(near, 1) == game_value(near, 2) == game_value(near, 3) > 2
    danger = replace(view, scores=(0, 6) if view.side == 0 else (6, 0))
    assert game_value(danger, -1) == game_value(danger, -3) < -2


def test_rollouts_follow_the_rules() -> None:
    """A rollout from the real deal ends with the same kind of result the engine would give."""
    for seed in range(20):
        game = mid_hand(seed=seed, plays=seed % 9)
        pos = Position(game.rules, int(game.trump), list(game.hands), game.leader, list(game.trick),
                       list(game.seat_tricks), game.hakem)
        side, points = playout(pos)
        assert side in (0, 1) and points in (1, 2, 3)
        values = RolloutEvaluator().move_values(pos)
        assert set(values) == set(game.legal_cards())


@pytest.mark.slow
def test_search_beats_random() -> None:
    """Even the rollout search wins most 4-player games against random play."""
    wins = 0
    for g in range(6):
        game = Game.new(Rules(players=4), seed=100 + g)
        bots = [PimcBot(FAST, seed=s) if s % 2 == 0 else RandomBot(s) for s in range(4)]
        rng = random.Random(g)
        while not game.is_over:
            if game.phase is Phase.DEAL:
                game.deal(rng=rng)
            else:
                game.apply(bots[game.to_move].act(game.view(game.to_move)))
        wins += game.winner == 0
    assert wins >= 5


def trump_view(players: int = 4, seed: int = 5):
    game = Game.new(Rules(players=players), seed=seed)
    if game.phase is Phase.DEAL:
        game.deal(rng=random.Random(seed))
    assert game.phase is Phase.TRUMP
    return game.view(game.to_move)


class SuitLover(Recorder):
    """Scores a hand +1 when ``suit`` is trump, -1 otherwise; counts the hands it scores."""

    def __init__(self, suit: int) -> None:
        super().__init__()
        self.suit = suit
        self.hands = 0

    def hand_value(self, pos: Position) -> float:
        self.hands += 1
        return 1.0 if pos.trump == self.suit else -1.0


def test_trump_is_searched_every_suit_on_the_same_deals() -> None:
    view = trump_view()
    lover = SuitLover(suit=3)
    cfg = replace(FAST, root="heuristic", trump="search", root_deals=5, min_deals=5)
    bot = PimcBot(cfg, seed=0, evaluator=lover)
    assert bot.act(view).suit == 3
    assert bot.last_deals == 5 and lover.hands == 4 * 5


def test_trump_setting_overrides_root_either_way() -> None:
    from hokm.bots.heuristic import choose_trump

    view = trump_view()
    rule = choose_trump(view.hand)
    other = (rule + 1) % 4
    searched = PimcBot(replace(FAST, root="heuristic", trump="search"), seed=0, evaluator=SuitLover(other))
    assert searched.act(view).suit == other
    lover = SuitLover(other)
    ruled = PimcBot(replace(FAST, root="search", trump="heuristic"), seed=0, evaluator=lover)
    assert ruled.act(view).suit == rule and lover.hands == 0


def test_trump_budget_covers_the_scoring() -> None:
    """Scoring, not sampling, is what takes time: the budget must stop it."""
    view = trump_view(seed=6)
    now = [0.0]

    class SlowLover(SuitLover):
        def hand_value(self, pos: Position) -> float:
            now[0] += 1.0  # each scored hand takes a second; drawing deals takes no time
            return super().hand_value(pos)

    lover = SlowLover(0)
    cfg = replace(FAST, trump="search", root_deals=50, min_deals=2, budget_s=0.5)
    bot = PimcBot(cfg, seed=0, evaluator=lover, clock=lambda: now[0])
    bot.act(view)
    assert bot.last_deals == 2 and lover.hands == 8


@pytest.mark.parametrize("players, used", [(3, "playout"), (4, "rollout")])
def test_a_three_player_evaluator_scores_only_three_player_hands(players: int, used: str) -> None:
    """``evaluator3`` replaces the evaluator with three players and nowhere else."""
    cfg = replace(FAST, evaluator="rollout", evaluator3="playout")
    bot = PimcBot(cfg, seed=1)
    game = mid_hand(players, seed=6)
    view = game.view(game.to_move)
    assert bot.act(view) in view.legal
    assert bot.evaluator.name == used
    assert bot.last_deals >= 1


def test_the_expert_level_plays_three_player_hands_by_playouts() -> None:
    from hokm.search.levels import LEVELS

    assert LEVELS["expert"].evaluator3 == "playout"
    assert LEVELS["hard"].evaluator3 == ""
