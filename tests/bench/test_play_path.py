"""The engine's fast play path (what ``hokm bench engine`` times) agrees with the plain rules.

``legal_actions``/``legal_cards`` read ready-made move tuples and ``apply`` inlines the play
checks; here both are compared, state by state over random games, with a direct reading of the
rules and with the general path (``check`` then ``_do``) that every other action takes.
"""

from __future__ import annotations

import random

import pytest

from hokm.cards import CARDS, cards_in
from hokm.engine import PLAYS, Game, IllegalActionError, Phase, Play, Rules


def reference_legal(game: Game) -> list:
    hand = cards_in(game.hands[game.to_move])
    if game.trick:
        follow = [c for c in hand if c.suit == game.trick[0].suit]
        if follow:
            return follow
    return hand


def state(game: Game) -> tuple:
    return (game.phase, game.to_move, list(game.hands), list(game.trick), list(game.tricks),
            list(game.seat_tricks), list(game.completed), game.leader, game.played, list(game.scores),
            list(game.results), game.hakem, list(game.actions), game.history)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fast_path_matches_the_rules_and_the_general_path(players: int) -> None:
    rng = random.Random(players)
    for _ in range(6):
        game = Game.new(Rules(players=players), seed=rng.randrange(10**6))
        while not game.is_over:
            if game.phase is Phase.DEAL:
                game.deal(rng=rng)
                continue
            actions = game.legal_actions()
            if game.phase is Phase.PLAY:
                expected = reference_legal(game)
                assert game.legal_cards() == expected
                assert actions == [PLAYS[c] for c in expected]
                assert all(a is PLAYS[a.card] for a in actions)
                # an arbitrary card: the fast path accepts or refuses exactly as check() does
                probe = Play(CARDS[rng.randrange(52)])  # a fresh object, not the interned one
                fast, slow = game.copy(), game.copy()
                try:
                    slow.check(probe, slow.to_move)
                    legal = True
                except IllegalActionError:
                    legal = False
                if legal:
                    fast.apply(probe)
                    slow._history.append(("act", probe))
                    slow._do(probe)
                    assert state(fast) == state(slow)
                else:
                    with pytest.raises(IllegalActionError):
                        fast.apply(probe)
                    assert state(fast) == state(game)
            else:
                assert game.legal_cards() == []
            game.apply(actions[rng.randrange(len(actions))])



def accepts_as_check_does(game: Game) -> None:
    """Every card: ``apply`` on a copy accepts it exactly when ``check`` does."""
    for card in CARDS:
        probe = game.copy()
        try:
            probe.check(PLAYS[card])
            legal = True
        except IllegalActionError:
            legal = False
        if legal:
            probe.apply(PLAYS[card])
        else:
            with pytest.raises(IllegalActionError):
                probe.apply(PLAYS[card])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_kept_legal_mask_never_outlives_the_state(players: int) -> None:
    """``legal_actions`` keeps the mover's legal mask for ``apply``: after a play, an undo, a
    copy's own moves or another deal, ``apply`` still accepts exactly the cards ``check`` accepts."""
    rng = random.Random(10 + players)
    for _ in range(3):
        game = Game.new(Rules(players=players), seed=rng.randrange(10**6))
        while not game.is_over:
            if game.phase is Phase.DEAL:
                game.legal_actions()
                game.deal(rng=rng)
                continue
            actions = game.legal_actions()
            if game.phase is Phase.PLAY and game.trick and rng.random() < 0.3:
                # the follower's mask is kept; taking the lead back must drop it
                game.undo()
                if rng.random() < 0.5:
                    game.legal_cards()
                branch = game.copy()
                moves = branch.legal_actions()
                branch.apply(moves[rng.randrange(len(moves))])
                accepts_as_check_does(game)
                actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])
            if game.phase is Phase.PLAY and rng.random() < 0.3:
                accepts_as_check_does(game)  # no legal_actions() since the last play
