"""Duplicate matches: pairing, forfeits in the totals, process pool, and the CLI."""

import json

import pytest

from hokm.arena import DealSequence, play_game, run_match, seatings, sequence_seed
from hokm.bots.base import Bot
from hokm.cli.main import main
from hokm.engine import Rules, SeatView
from hokm.players import make_bot, register_bot


class _Crash(Bot):
    name = "crash"

    def act(self, view: SeatView):
        raise RuntimeError("boom")


register_bot("test-crash", lambda seed=None, **_: _Crash(), "crashes on its first decision (tests)", public=False)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seatings_put_a_in_every_seat_once(players):
    rows = seatings(players)
    assert len(rows) == (3 if players == 3 else 2)
    for seat in range(players):
        assert sum(row[seat] for row in rows) == 1
    if players == 3:
        assert all(sum(row) == 1 for row in rows)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_of_a_sequence_see_the_same_deals_from_the_other_side(players):
    rules = Rules(players=players)
    seed = sequence_seed(5, 0)
    games = []
    for seating in seatings(players):
        bots = [make_bot("heuristic" if is_a else "random", seed=s) for s, is_a in enumerate(seating)]
        games.append(play_game(rules, bots, seed, keep_game=True).game)
    draws = {g.hakem_draw for g in games}
    assert len(draws) == 1
    first_decks = {g.history[0][1] for g in games}
    assert first_decks == {tuple(DealSequence(rules, seed).deck(0))}
    # Where both games reached hand k, hand k had the same deck.
    for k in range(min(len(g.results) for g in games)):
        decks = {[d for kind, d in g.history if kind == "deal"][k] for g in games}
        assert len(decks) == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_bot_against_itself_splits_every_pair(players):
    """Same deterministic bot on both sides: mirrored games, so a wins exactly one game of each group."""
    report = run_match("heuristic", "heuristic", players=players, games=6, seed=2, jobs=1).to_json()
    group = report["games_per_sequence"]
    expected = [0] * (group + 1)
    expected[1] = report["deal_sequences"]
    assert report["sequences_by_a_wins"] == expected
    if players != 3:
        assert report["hands_a"] == report["hands_b"] and report["kots_a"] == report["kots_b"]


def test_games_round_up_to_whole_groups():
    assert run_match("random", "random", players=4, games=3, seed=1, jobs=1).to_json()["games"] == 4
    assert run_match("random", "random", players=3, games=4, seed=1, jobs=1).to_json()["games"] == 6


def test_forfeits_count_against_the_failing_side():
    report = run_match("random", "test-crash", players=4, games=4, seed=1, jobs=1).to_json()
    assert report["a_wins"] == 4 and report["forfeits"] == {"a": 0, "b": 4}
    assert all("crashed: RuntimeError: boom" in m for m in report["forfeit_messages"])
    report = run_match("test-crash", "random", players=3, games=3, seed=1, jobs=1).to_json()
    assert report["a_wins"] == 0 and report["forfeits"] == {"a": 3, "b": 0}


def test_a_process_pool_gives_the_same_games():
    one = run_match("heuristic", "random", players=4, games=8, seed=9, jobs=1).to_json()
    two = run_match("heuristic", "random", players=4, games=8, seed=9, jobs=2).to_json()
    for key in ("a_wins", "hands_a", "hands_b", "kots_a", "kots_b", "points_a", "decisions"):
        assert one[key] == two[key], key


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        run_match("nobody", "random", games=2)
    with pytest.raises(ValueError, match="games must be"):
        run_match("random", "random", games=0)


REQUIRED = {"games", "a_wins", "a_win_rate", "a_win_ci95", "hands_a", "hands_b", "kots_a", "kots_b",
            "seconds_per_decision", "p95_seconds_per_decision", "elo_diff", "elo_ci95", "forfeits"}


def test_cli_json(capsys):
    code = main(["arena", "--players", "4", "--a", "heuristic", "--b", "random", "--games", "4",
                 "--seed", "3", "--json", "--jobs", "1"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert REQUIRED <= set(data)
    assert data["games"] == 4 and data["seed"] == 3
    assert 0 <= data["a_win_ci95"][0] <= data["a_win_rate"] <= data["a_win_ci95"][1] <= 1
    assert set(data["seconds_per_decision"]) == {"a", "b"}


def test_cli_table_and_errors(capsys):
    assert main(["arena", "--players", "3", "--a", "heuristic", "--b", "random", "--games", "3",
                 "--seed", "3", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "games won" in out and "triples" in out
    assert main(["arena", "--a", "nobody", "--b", "random", "--games", "2", "--jobs", "1"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err
    assert main(["arena", "--a", "random", "--b", "random", "--rules", '{"bogus": 1}']) == 2
    assert "bogus" in capsys.readouterr().err
