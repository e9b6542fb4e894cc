"""``view(seat)``: a seat's own cards and public facts only; spectators see no hand."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hokm.cards import Suit
from hokm.engine import Game, Phase, Rules, SeatView

from .helpers import random_step


def test_four_players_before_trump() -> None:
    game = Game.new(Rules(players=4), seed=2)
    hakem = game.hakem
    for seat in range(4):
        view = game.view(seat)
        assert len(view.hand) == (5 if seat == hakem else 0)
        assert view.hand_counts == tuple(5 if s == hakem else 0 for s in range(4))
        assert view.legal == (tuple(game.legal_actions()) if seat == hakem else ())
        assert view.my_turn == (seat == hakem)


def test_three_players_before_trump_each_sees_five() -> None:
    game = Game.new(Rules(players=3), seed=2)
    for seat in range(3):
        assert set(game.view(seat).hand) == set(game.hand_of(seat)) and len(game.view(seat).hand) == 5


def test_own_hand_only_during_play() -> None:
    game = Game.new(Rules(players=4), seed=4)
    game.apply(Suit.SPADES)
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    for seat in range(4):
        view = game.view(seat)
        assert list(view.hand) == game.hand_of(seat)
        others = set().union(*(game.hand_of(s) for s in range(4) if s != seat))
        assert not others & set(view.hand)
        assert view.partner == (seat + 2) % 4 and view.side == seat % 2
    assert [c for _, c in game.view(0).trick] == game.trick
    assert game.view(1).played_cards() == [c for t in game.completed for c in t.cards] + game.trick


def test_spectator_sees_no_hand() -> None:
    for players in (2, 3, 4):
        rng = random.Random(players)
        game = Game.new(Rules(players=players), rng=rng)
        for _ in range(12):
            random_step(game, rng)
            spec = game.spectator_view()
            assert spec.seat is None and spec.hand == () and spec.legal == ()
            assert spec.discards == () and spec.draw_card is None and spec.draw_log == ()
            assert spec.hand_counts == tuple(h.bit_count() for h in game.hands)


def test_seat_out_of_range() -> None:
    game = Game.new(Rules(players=3), seed=1)
    for bad in (3, -1, "0"):
        with pytest.raises(ValueError, match="seat must be"):
            game.view(bad)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_view_json_round_trip(players: int) -> None:
    rng = random.Random(10 + players)
    game = Game.new(Rules(players=players), rng=rng)
    for step in range(150):
        if game.is_over:
            break
        random_step(game, rng)
        if step % 7 == 0:
            for seat in [None, *range(players)]:
                view = game.view(seat) if seat is not None else game.spectator_view()
                again = SeatView.from_json(view.to_json())
                assert again == view


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hand_counts_follow_the_hands_through_whole_hands(players: int) -> None:
    """Every seat's view (and a spectator's) counts each seat's cards exactly, at every step of two hands.

    Two players: the draw phase, where hands grow from the stock, and the discards; three players:
    17-card hands. The counts are the only thing a view says of another seat's hand.
    """
    rng = random.Random(40 + players)
    game = Game.new(Rules(players=players), rng=rng)
    phases: set[Phase] = set()
    largest = 0
    while len(game.results) < 2 and not game.is_over:
        held = tuple(len(game.hand_of(s)) for s in range(players))
        largest = max(largest, *held)
        phases.add(game.phase)
        for seat in [None, *range(players)]:
            view = game.view(seat) if seat is not None else game.spectator_view()
            assert view.phase is game.phase
            assert view.hand_counts == held
            assert view.to_json()["hand_counts"] == list(held)
            assert view.to_json()["hand_size"] == game.rules.hand_size
            assert view.to_json()["sides"] == [game.rules.side_of(s) for s in range(players)]
            if seat is not None:
                assert len(view.hand) == held[seat]
        random_step(game, rng)
    assert largest == game.rules.hand_size == (17 if players == 3 else 13)
    assert {Phase.TRUMP, Phase.PLAY} <= phases
    if players == 2:
        assert {Phase.DRAW, Phase.DISCARD} <= phases


def test_view_phase_is_the_enum_and_json_keeps_the_string() -> None:
    game = Game.new(Rules(players=4), seed=3)
    view = game.view(game.hakem)
    assert view.phase is Phase.TRUMP
    data = view.to_json()
    assert data["phase"] == "trump" and type(data["phase"]) is str
    assert SeatView.from_json(data).phase is Phase.TRUMP


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_json_is_each_seats_view_as_json(players: int) -> None:
    """The server's one-pass views equal ``make_view(...).to_json()`` for every seat and a spectator,
    at every step of whole games (deals, trump, two-player discards and draws, tricks, hand ends)."""
    from hokm.engine.view import make_view, views_json

    rng = random.Random(players)
    for game_no in range(3):
        g = Game.new(Rules(players=players, target_points=2), seed=100 * players + game_no)
        recipients: list[int | None] = [*range(players), None]
        steps = 0
        while True:
            assert views_json(g, recipients) == [make_view(g, s).to_json() for s in recipients]
            if g.is_over:
                break
            if g.phase is Phase.DEAL:
                g.deal()
            else:
                g.apply(rng.choice(g.legal_actions()))
            steps += 1
        assert steps > 20
    with pytest.raises(ValueError):
        views_json(g, [players])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_with_a_history_memo_are_the_views_without(players: int) -> None:
    """A :class:`HistoryMemo` kept over whole games (new hands, undone actions and deals, a new game
    read through the same memo) changes no view, and hands out the same lists while no trick or
    hand finishes."""
    from hokm.engine.view import HistoryMemo, make_view, views_json

    rng = random.Random(10 + players)
    memo = HistoryMemo()
    recipients: list[int | None] = [*range(players), None]
    undone = reused = 0
    for game_no in range(3):
        g = Game.new(Rules(players=players, target_points=3), seed=300 * players + game_no)
        before: list[dict[str, Any]] = []
        applied = False
        while True:
            now = views_json(g, recipients, memo)
            assert now == [make_view(g, s).to_json() for s in recipients]
            if applied and len(before[0]["completed"]) == len(g.completed) > 0:
                assert now[0]["completed"] is before[0]["completed"]  # no trick finished: the same list
                reused += 1
            before, applied = now, False
            if g.is_over:
                break
            if rng.random() < 0.08 and g.actions:
                g.undo()  # the game's lists are replaced: the memo makes new ones
                undone += 1
            else:
                applied = g.phase is not Phase.DEAL
                random_step(g, rng)
    assert undone > 5 and reused > 20
    # Two games read in turn through one memo: each view is its own game's, whatever the lengths.
    a, b = (Game.new(Rules(players=players, target_points=3), seed=s) for s in (1, 2))
    for step in range(400):
        for g in (a, b) if step % 3 else (b, a):
            if g.is_over:
                continue
            random_step(g, rng)
            assert views_json(g, recipients, memo) == [make_view(g, s).to_json() for s in recipients]
