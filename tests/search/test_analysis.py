"""Post-hand analysis: marks on endings whose best line is known, and the record-level rules."""

from __future__ import annotations

import copy
import random
import sys
from pathlib import Path

import pytest

from hokm.cards import Card, mask_of
from hokm.records import record_from_game
from hokm.rules import Rules
from hokm.search import dds
from hokm.search.analysis import (
    AnalysisError,
    Mark,
    Prospect,
    analyse_position_line,
    analyse_record,
    analyse_trump,
)
from hokm.search.brute import brute_move_values
from hokm.search.position import DDPosition

from ._endings import random_ending

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "records"))
from records.conftest import random_game

R4 = Rules(players=4)
SPADES = 0


def cards(text: str) -> int:
    return mask_of(Card.parse(t) for t in text.split())


def pos4(hands: list[str], leader: int, seat_tricks: tuple[int, ...], hakem: int, trick: str = "") -> DDPosition:
    return DDPosition(R4, SPADES, tuple(cards(h) for h in hands), leader,
                      tuple(int(Card.parse(t)) for t in trick.split()), seat_tricks, hakem)


def judge(pos: DDPosition, card: str):
    (play,) = analyse_position_line(pos, [Card.parse(card)])
    return play


# ------------------------------------------------------------------ constructed endings, 4 players
def kot_ending(hakem: int) -> DDPosition:
    """Team 0 has 6 tricks to none. Seat 0 leads with the ace of trump and six low hearts; seat 1
    holds every high heart. The ace takes the seventh trick at once: kot. A low heart lets seat 1
    in, who cashes hearts; team 0 still wins the hand (the ace of trump comes back) but not kot."""
    return pos4(["AS 2H 3H 4H 5H 6H 7H", "8H 9H TH JH QH KH AH", "2C 3C 4C 5C 6C 7C 8C",
                 "2D 3D 4D 5D 6D 7D 8D"], 0, (6, 0, 0, 0), hakem)


def test_cashing_the_kot_is_fine_and_a_low_lead_throws_the_kot_away():
    pos = kot_ending(hakem=0)
    good = judge(pos, "AS")
    assert good.mark is Mark.FINE and good.better == ()
    assert good.best.wins and good.best.kot and not good.best.hakem_koti and good.best.value == R4.kot_points
    bad = judge(pos, "4H")
    assert bad.mark is Mark.MISTAKE
    assert bad.played.wins and not bad.played.kot and bad.played.value == 1
    assert bad.better == (Card.parse("AS"),)


def test_a_kot_against_the_hakem_is_hakem_koti_and_throwing_it_away_is_a_mistake():
    pos = kot_ending(hakem=1)  # team 1 holds the Hâkem: team 0's kot is Hâkem-koti
    good = judge(pos, "AS")
    assert good.best.hakem_koti and good.best.value == R4.hakem_koti_points
    assert judge(pos, "2H").mark is Mark.MISTAKE


def test_not_trumping_the_last_ace_loses_the_hand_a_blunder():
    """6-5 to team 1, two tricks left. Seat 1 led the ace of hearts; seat 0, void in hearts, holds
    the two of trump and the ace of clubs. Trumping takes this trick and the club the last one."""
    pos = pos4(["2S AC", "KH", "3C", "3D"], 1, (5, 6, 0, 0), hakem=1, trick="AH 2C 2D")
    trump = judge(pos, "2S")
    assert trump.mark is Mark.FINE and trump.best.wins
    discard = judge(pos, "AC")
    assert discard.mark is Mark.BLUNDER and not discard.played.wins
    assert discard.better == (Card.parse("2S"),)


def test_giving_away_tricks_that_do_not_change_the_outcome_is_an_inaccuracy():
    """6-4 to team 0, three left. The ace of trump wins 7-4 at once; a low heart lets seat 1 take
    two hearts first and the hand ends 7-6."""
    pos = pos4(["AS 2H 3H", "AH KH QH", "2C 3C 4C", "2D 3D 4D"], 0, (6, 4, 0, 0), hakem=0)
    good = judge(pos, "AS")
    assert good.mark is Mark.FINE and good.best.margin == 3  # the others make at most 4
    slack = judge(pos, "2H")
    assert slack.mark is Mark.INACCURACY
    assert slack.played.wins and slack.played.value == good.best.value and slack.played.margin == 1
    assert "others at most 6" in slack.played.describe(4)


def test_a_forced_card_is_fine():
    pos = pos4(["2S AC", "KH", "3C", "3D"], 1, (5, 6, 0, 0), hakem=1, trick="AH 2C 2D").play(int(Card.parse("2S")))
    (only,) = analyse_position_line(pos, [Card.parse("AC")])
    assert only.forced and only.mark is Mark.FINE


def test_a_whole_line_is_judged_card_by_card():
    pos = kot_ending(hakem=0)
    line = [Card.parse(c) for c in ["4H", "8H", "2C", "2D"]]
    plays = analyse_position_line(pos, line)
    assert [p.seat for p in plays] == [0, 1, 2, 3]
    assert plays[0].mark is Mark.MISTAKE
    assert all(p.mark is Mark.FINE for p in plays[1:])  # the others only answer (no choice that matters)


def test_the_marks_follow_the_reference_minimax_on_random_endings():
    """On small random endings the mark of every legal card agrees with the engine-driven minimax:
    blunder exactly when the sign of the value changes, mistake when only the points change."""
    rng = random.Random(21)
    for players in (4, 2):
        rules = Rules(players=players)
        for _ in range(25):
            pos = random_ending(rules, rng, left=3)
            exact = brute_move_values(pos)
            best = max(exact.values())
            for card, value in exact.items():
                mark = analyse_position_line(pos, [card])[0].mark
                if (value > 0) != (best > 0):
                    assert mark is Mark.BLUNDER, pos.describe()
                elif value != best:
                    assert mark is Mark.MISTAKE, pos.describe()
                else:
                    assert mark in (Mark.FINE, Mark.INACCURACY), pos.describe()


def test_a_card_over_the_node_limit_is_unsolved_not_guessed():
    rules = Rules(players=4)
    pos = random_ending(rules, random.Random(3), left=9)
    legal = pos.legal_cards()
    (play,) = analyse_position_line(pos, [legal[0]], node_limit=1)
    assert play.mark is Mark.UNSOLVED and play.best is None


def test_an_illegal_line_is_refused():
    with pytest.raises(AnalysisError) as e:
        analyse_position_line(kot_ending(0), [Card.parse("8H")])
    assert e.value.code == "bad_line"


def test_trump_choice_compares_every_suit_double_dummy():
    pos = kot_ending(hakem=0)
    t = analyse_trump(pos)
    assert t is not None and set(t.by_suit) == {0, 1, 2, 3}
    # With spades trump team 0 takes the kot; with hearts trump seat 1 runs seven hearts.
    assert t.mark is Mark.FINE and t.by_suit[0].kot
    assert not t.by_suit[1].wins


# ------------------------------------------------------------------ whole records
@pytest.fixture(scope="module")
def record4():
    return record_from_game(random_game(4, seed=104))


def test_every_card_of_every_finished_hand_is_judged(record4):
    a = analyse_record(record4, hands=[0, 1])
    assert a.players == 4 and not a.paranoid and a.in_progress is None
    for h in a.hands:
        # the hand is played out to its end: every card of it has a mark
        assert len(h.plays) == sum(h.tricks) * 4
        for p in h.plays:
            assert p.mark is not Mark.UNSOLVED
            assert (p.mark is Mark.FINE) == (p.played == p.best)
            if p.mark is not Mark.FINE:
                assert p.better and p.card not in p.better
    js = a.to_json()
    assert js["hands"][0]["plays"][0]["mark"] in {"fine", "inaccuracy", "mistake", "blunder"}


def test_marks_agree_with_the_solver_move_by_move(record4):
    a = analyse_record(record4, hands=[0])
    h = a.hands[0]
    mistakes = [p for p in h.plays if p.mark in (Mark.MISTAKE, Mark.BLUNDER)]
    for p in mistakes:
        assert p.best.value != p.played.value


def test_a_hand_in_progress_is_refused_and_skipped():
    game = random_game(4, seed=7, max_steps=30)  # stops inside the first hand's play
    rec = record_from_game(game)
    with pytest.raises(AnalysisError) as e:
        analyse_record(rec, hands=[0])
    assert e.value.code == "in_progress"
    a = analyse_record(rec)
    assert a.hands == () and a.in_progress == 0


def test_a_hand_that_does_not_exist_is_refused(record4):
    with pytest.raises(AnalysisError) as e:
        analyse_record(record4, hands=[99])
    assert e.value.code == "no_such_hand"


def test_three_players_are_marked_paranoid_and_two_players_note_the_draws():
    rec3 = record_from_game(random_game(3, seed=103))
    a3 = analyse_record(rec3, hands=[0], node_limit=200_000)
    assert a3.paranoid and any("paranoid" in n for n in a3.notes)
    assert a3.to_json()["paranoid"] is True
    rec2 = record_from_game(random_game(2, seed=102))
    a2 = analyse_record(rec2, hands=[0], node_limit=2_000_000)
    assert any("draw" in n for n in a2.notes)
    h2 = a2.hands[0]
    assert len(h2.plays) == sum(h2.tricks) * 2
    # the last draw is judged, and the choice made leads to what the first card's side could force
    d = h2.last_draw
    assert d is not None and set(d.by_choice) == {"keep", "pass"} and d.chosen in d.by_choice
    assert (d.mark is Mark.FINE) == (d.by_choice[d.chosen].key() == max(p.key() for p in d.by_choice.values()))
    first = h2.plays[0]
    got = d.by_choice[d.chosen]
    if first.seat != d.seat:
        got = Prospect(-got.value, -got.margin, got.kot, got.hakem_koti)
    assert first.best == got
    assert a2.to_json()["hands"][0]["last_draw"]["chosen"] == d.chosen


def test_a_bad_record_is_a_record_error(record4):
    from hokm.records import RecordError

    bad = copy.deepcopy(record4)
    bad["hands"][0]["plays"][0] = "ZZ"
    with pytest.raises(RecordError):
        analyse_record(bad)


def test_forced_cards_taken_from_the_card_before_match_the_solver():
    """A forced card is not solved again: its result comes from the card before, seen from its
    side. It must be what the solver says at that position."""
    rng = random.Random(8)
    checked = 0
    for players in (4, 2):
        rules = Rules(players=players)
        for _ in range(30):
            pos = random_ending(rules, rng, left=4)
            line, p = [], pos
            while p.outcome() is None:
                legal = p.legal_cards()
                line.append(legal[rng.randrange(len(legal))])
                p = p.play(int(line[-1]))
            p = pos
            for play, card in zip(analyse_position_line(pos, line), line):
                if play.forced and play.index > 0:
                    values, margins = dds.move_margins(p)
                    assert (play.played.value, play.played.margin) == (values[card], margins[card]), p.describe()
                    checked += 1
                p = p.play(int(card))
    assert checked > 20
