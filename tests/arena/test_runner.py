"""The game driver: bots see only their view, every action is checked, failures are forfeits."""

import random
import time

import pytest

from hokm.arena import DealSequence, play_game
from hokm.bots.base import Bot, BotFailure, OmniscientBot
from hokm.cards import CARDS
from hokm.engine import Game, Play, Rules, SeatView
from hokm.players import make_bot

R4, R3, R2 = Rules(players=4), Rules(players=3), Rules(players=2)


class CrashBot(Bot):
    name = "crash"

    def act(self, view: SeatView):
        raise RuntimeError("boom")


class FailingBot(Bot):
    name = "failing"

    def act(self, view: SeatView):
        raise BotFailure("the bot process exited")


class IllegalBot(Bot):
    """Plays a card it does not hold as soon as it must play a card."""

    name = "illegal"

    def __init__(self) -> None:
        self.fallback = make_bot("random", seed=0)

    def act(self, view: SeatView):
        if view.phase == "play":
            return Play(next(c for c in CARDS if c not in view.hand))
        return self.fallback.act(view)


class SlowBot(Bot):
    name = "slow"

    def __init__(self) -> None:
        self.fallback = make_bot("random", seed=0)

    def act(self, view: SeatView):
        time.sleep(0.02)
        return self.fallback.act(view)


class SpyBot(Bot):
    """Random play that checks it only ever gets its own seat's view, on its turn."""

    name = "spy"

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.rng = random.Random(seat)
        self.calls = 0

    def act(self, view: SeatView):
        assert view.seat == self.seat and view.to_move == self.seat and view.legal
        self.calls += 1
        return self.rng.choice(view.legal)


class Oracle(OmniscientBot):
    name = "oracle-test"

    def __init__(self) -> None:
        self.games: list[Game] = []

    def act_with_state(self, view: SeatView, game: Game):
        assert game.to_move == view.seat
        self.games.append(game)
        game.apply(view.legal[0])  # scribbling on the copy must not touch the real game
        return view.legal[0]


@pytest.mark.parametrize("bad, kind, words", [
    (CrashBot, "crash", "crashed: RuntimeError: boom"),
    (FailingBot, "failure", "failed: the bot process exited"),
    (IllegalBot, "illegal", "illegal move"),
])
@pytest.mark.parametrize("rules", [R4, R3, R2], ids=["4p", "3p", "2p"])
def test_a_misbehaving_bot_forfeits_and_the_driver_goes_on(bad, kind, words, rules):
    n = rules.players
    bad_seat = 1
    bots = [bad() if s == bad_seat else make_bot("random", seed=s) for s in range(n)]
    outcome = play_game(rules, bots, seed=7)
    f = outcome.forfeit
    assert f is not None and f.kind == kind and f.seat == bad_seat
    assert f.side == rules.side_of(bad_seat)
    assert words in f.message and f"seat {bad_seat}" in f.message
    assert outcome.winner != rules.side_of(bad_seat)
    if n != 3:
        assert outcome.winner == 1 - f.side


def test_a_decision_over_the_time_limit_is_a_forfeit():
    bots = [make_bot("random", seed=0), SlowBot(), make_bot("random", seed=2), make_bot("random", seed=3)]
    outcome = play_game(R4, bots, seed=1, time_limit=0.005)
    assert outcome.forfeit is not None and outcome.forfeit.kind == "timeout"
    assert outcome.winner == 0


def test_bots_get_only_their_own_view():
    bots = [SpyBot(s) for s in range(4)]
    outcome = play_game(R4, bots, seed=3)
    assert outcome.forfeit is None
    assert [b.calls for b in bots] == [len(t) for t in outcome.decision_seconds]


def test_an_omniscient_bot_gets_a_copy_of_the_game():
    oracle = Oracle()
    bots = [oracle] + [make_bot("random", seed=s) for s in range(1, 4)]
    outcome = play_game(R4, bots, seed=5, keep_game=True)
    assert outcome.forfeit is None and oracle.games
    assert all(g is not outcome.game for g in oracle.games)


def test_outcome_totals_agree_with_the_game():
    bots = [make_bot("heuristic"), make_bot("random", seed=1), make_bot("heuristic"), make_bot("random", seed=2)]
    outcome = play_game(R4, bots, seed=11, keep_game=True)
    game = outcome.game
    assert game is not None and game.is_over
    assert outcome.winner == game.winner and outcome.scores == game.scores
    assert sum(outcome.hands_won) == outcome.hands == len(game.results)
    assert sum(outcome.kots_won) == sum(r.kot for r in game.results)
    assert outcome.to_json()["forfeit"] is None


def test_wrong_number_of_bots_is_an_error():
    with pytest.raises(ValueError, match="needs 4 bots"):
        play_game(R4, [make_bot("random")] * 3, seed=1)


def test_deal_sequence_depends_only_on_seed_and_hand_index():
    a, b = DealSequence(R4, "x:1"), DealSequence(R4, "x:1")
    assert a.hakem_draw() == b.hakem_draw()
    assert a.deck(3) == b.deck(3) and a.deck(0) != a.deck(1)
    assert DealSequence(R4, "x:2").deck(0) != a.deck(0)
    assert len(DealSequence(R3, 9).deck(0)) == 51


def test_an_int_seed_repeats_the_game_and_an_rng_is_accepted():
    def run(seed):
        bots = [make_bot("random", seed=s) for s in range(4)]
        return play_game(R4, bots, seed).to_json()

    assert run(21) == run(21)
    bots = [make_bot("random", seed=s) for s in range(4)]
    assert play_game(R4, bots, random.Random(4)).forfeit is None
