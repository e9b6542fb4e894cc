"""How the terminal names a side: the seats of a side come from the rules."""

from __future__ import annotations

import pytest

from hokm.cli.replay import _side_name
from hokm.engine import Game, Rules
from hokm.terminal import seat_names
from hokm.terminal.render import side_name


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_side_is_named_by_its_seats(players: int) -> None:
    rules = Rules(players=players)
    game = Game.new(rules, seed=1)
    names = seat_names(players)
    for seat in range(players):
        view = game.view(seat)
        for side in range(rules.sides):
            if players == 4:
                mine = "Your team" if side == rules.side_of(seat) else "Their team"
                partners = " & ".join(names[s] for s in rules.seats_of(side))
                assert side_name(view, side, names) == f"{mine} ({partners})"
            else:
                assert side_name(view, side, names) == names[side]
    if players == 4:  # the person sits at seat 0, the partner opposite
        assert side_name(game.view(0), 0, names) == "Your team (You & Partner)"
        assert side_name(game.view(0), 1, names) == "Their team (Right & Left)"


def test_the_replay_names_a_team_by_its_seats() -> None:
    assert [_side_name(4, side) for side in (0, 1)] == ["team 0 (seats 0 and 2)", "team 1 (seats 1 and 3)"]
    assert [_side_name(3, seat) for seat in range(3)] == ["seat 0", "seat 1", "seat 2"]


def test_a_hand_won_on_a_tie_says_why() -> None:
    from hokm.engine.results import HandResult
    from hokm.terminal.render import result_text

    game = Game.new(Rules(players=3), seed=1)
    names = seat_names(3)
    tied = HandResult(0, None, (3, 7, 7), 0, 1, False, False, True, tie=True)
    plain = HandResult(0, None, (9, 5, 3), 0, 1, False, False, True)
    assert "the other two tied for the most tricks" in result_text(tied, game.view(1), names).plain
    assert "tied" not in result_text(plain, game.view(1), names).plain
