"""Every record error code, with the hand and play it points at."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from hokm.cards import SUIT_MASKS, cards_in
from hokm.engine import Phase
from hokm.records import RecordError, dumps, load_record, replay_summary


def error_of(rec: Any) -> dict[str, Any]:
    summary = replay_summary(rec)
    assert summary["ok"] is False, summary
    assert set(summary) == {"ok", "error"}
    return summary["error"]


def check(rec: Any, code: str, hand: int | None = None, action: int | None = None, match: str = "") -> None:
    err = error_of(rec)
    assert (err["code"], err["hand"], err["action"]) == (code, hand, action), err
    assert match.lower() in err["message"].lower(), err
    with pytest.raises(RecordError) as info:
        load_record(rec)
    assert info.value.code == code


def upto(rec: dict[str, Any], hand: int, plays: int) -> dict[str, Any]:
    """The record cut after ``plays`` cards of hand ``hand``."""
    out = copy.deepcopy(rec)
    out["hands"] = out["hands"][: hand + 1]
    out["hands"][hand]["plays"] = out["hands"][hand]["plays"][:plays]
    return out


# ------------------------------------------------------------------ bad_format
@pytest.mark.parametrize(
    "text, match",
    [
        ("", "not valid JSON"),
        ('{"format": "hokm/1", "players": 4, "first_hakem": 0, "hands": [', "not valid JSON"),
        ("{'format': 'hokm/1'}", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ("null", "JSON object"),
        ("[" * 100000, "JSON"),
    ],
)
def test_truncated_or_garbled_json(text: str, match: str) -> None:
    check(text, "bad_format", match=match)


def test_truncated_record_text(finished_records) -> None:
    text = dumps(finished_records[4])
    for cut in (1, len(text) // 3, len(text) - 1):
        check(text[:cut], "bad_format", match="not valid JSON")


def test_bytes_that_are_not_utf8() -> None:
    check(b'{"format": "hokm/1", "names": ["\xff"]}', "bad_format", match="UTF-8")


HEADER_CASES = [
    ({"extra": 1}, "unknown key"),
    ({"format": "hokm/2"}, "format"),
    ({"players": 5}, "players"),
    ({"players": "4"}, "players"),
    ({"players": True}, "players"),
    ({"players": 4.0}, "players"),
    ({"rules": {"target": 5}}, "unknown rules key"),
    ({"rules": {"target_points": 0}}, "target_points"),
    ({"rules": {"partner_draw": "yes"}}, "partner_draw"),
    ({"rules": [1]}, "rules must be an object"),
    ({"names": ["a", "b"]}, "names"),
    ({"names": ["a", "b", "c", 4]}, "names"),
    ({"first_hakem": 4}, "first_hakem"),
    ({"first_hakem": None}, "first_hakem"),
    ({"first_hakem": True}, "first_hakem"),
    ({"hakem_draw": {"start": 0, "cards": ["AS"]}}, "exactly one"),
    ({"hands": {}}, "hands must be a list"),
]


@pytest.mark.parametrize("change, match", HEADER_CASES)
def test_bad_header(change: dict[str, Any], match: str) -> None:
    rec = {"format": "hokm/1", "players": 4, "first_hakem": 0, "hands": []}
    rec.update(change)
    check(rec, "bad_format", match=match)


@pytest.mark.parametrize("missing", ["format", "players", "first_hakem", "hands"])
def test_missing_header_key(missing: str) -> None:
    rec = {"format": "hokm/1", "players": 4, "first_hakem": 0, "hands": []}
    del rec[missing]
    check(rec, "bad_format")


@pytest.mark.parametrize(
    "draw, match",
    [
        ({"start": 0, "cards": ["5H", "AS", "KD"]}, "after the deciding ace"),
        ({"start": 0, "cards": ["5H", "KD"]}, "before the deciding ace"),
        ({"start": 4, "cards": ["AS"]}, "start"),
        ({"start": 0, "cards": ["AS", "AS"]}, "twice"),
        ({"start": 0}, "exactly 'start' and 'cards'"),
        ({"start": 0, "cards": "AS"}, "list of cards"),
    ],
)
def test_bad_hakem_draw(draw: dict[str, Any], match: str) -> None:
    check({"format": "hokm/1", "players": 4, "hakem_draw": draw, "hands": []}, "bad_format", match=match)


def test_partner_draw_needs_the_second_ace() -> None:
    rec = {"format": "hokm/1", "players": 4, "rules": {"partner_draw": True},
           "hakem_draw": {"start": 0, "cards": ["5H", "AS"]}, "hands": []}
    check(rec, "bad_format", match="before the deciding ace")
    rec["hakem_draw"]["cards"] += ["2C", "AD"]
    assert replay_summary(rec)["to_move"] == 1


def test_three_player_draw_cannot_turn_the_removed_two() -> None:
    rec = {"format": "hokm/1", "players": 3, "hakem_draw": {"start": 0, "cards": ["2C", "AS"]}, "hands": []}
    check(rec, "bad_format", match="not in the 3-player deck")


def test_bad_hand_shapes(records) -> None:
    rec = records[4]
    bad = copy.deepcopy(rec)
    bad["hands"][1] = ["AS"]
    check(bad, "bad_format", hand=1, match="must be an object")
    bad = copy.deepcopy(rec)
    bad["hands"][2]["score"] = 3
    check(bad, "bad_format", hand=2, match="unknown key")
    bad = copy.deepcopy(rec)
    bad["hands"][0]["discards"] = [[], []]
    check(bad, "bad_format", hand=0, match="2-player")
    bad = copy.deepcopy(rec)
    bad["hands"][0]["deck"] = " ".join(bad["hands"][0]["deck"])
    check(bad, "bad_format", hand=0, match="deck must be a list")
    bad = copy.deepcopy(rec)
    bad["hands"][0]["plays"] = "AS"
    check(bad, "bad_format", hand=0, match="plays must be a list")


@pytest.mark.parametrize(
    "fair, ok",
    [
        ({}, True),
        ({"commit": "00ff", "server_seed": "12", "seat_seeds": ["a", None, "b", None]}, True),
        ({"commit": 5}, False),
        ({"seat_seeds": "ab"}, False),
        ({"seat_seeds": [1]}, False),
        ("abc", False),
    ],
)
def test_fair_object_is_checked_loosely(records, fair: Any, ok: bool) -> None:
    rec = records[4]
    rec["hands"][1]["fair"] = fair
    if ok:
        assert replay_summary(rec)["ok"]
    else:
        check(rec, "bad_format", hand=1, match="fair")


def test_meta_is_free_form(records) -> None:
    rec = records[3]
    rec["meta"] = {"id": 7, "when": ["2026", {"tz": "UTC"}]}
    assert replay_summary(rec)["ok"]


def test_unfinished_hand_that_is_not_last(records) -> None:
    rec = records[4]
    rec["hands"][0]["plays"] = rec["hands"][0]["plays"][:10]
    check(rec, "bad_format", hand=0, match="only the last hand")


# ------------------------------------------------------------------ bad_card
@pytest.mark.parametrize("card", ["ZZ", "1S", "11H", "as", "A", "", 12, None, "A S"])
def test_bad_card_in_deck(records, card: Any) -> None:
    rec = records[4]
    rec["hands"][1]["deck"][7] = card
    check(rec, "bad_card", hand=1, match="deck[7]")


def test_bad_card_in_plays(records) -> None:
    rec = records[3]
    rec["hands"][2]["plays"][4] = "QX"
    check(rec, "bad_card", hand=2, action=4, match="plays[4]")


def test_bad_card_in_discards_and_draw(records) -> None:
    rec = records[2]
    rec["hands"][0]["discards"][1][0] = "XS"
    check(rec, "bad_card", hand=0, match="discards[1]")
    check({"format": "hokm/1", "players": 4, "hakem_draw": {"start": 0, "cards": ["5X", "AS"]}, "hands": []},
          "bad_card", match="hakem_draw")


# ------------------------------------------------------------------ bad_deck
def test_bad_decks(records) -> None:
    rec = records[4]
    deck = rec["hands"][1]["deck"]
    short = copy.deepcopy(rec)
    short["hands"][1]["deck"] = deck[:-1]
    check(short, "bad_deck", hand=1, match="missing")
    twice = copy.deepcopy(rec)
    twice["hands"][1]["deck"] = deck[:-1] + [deck[0]]
    check(twice, "bad_deck", hand=1, match="repeated")
    none = copy.deepcopy(rec)
    del none["hands"][1]["deck"]
    check(none, "bad_deck", hand=1, match="no deck")


def test_three_player_deck_lacks_the_removed_two(records) -> None:
    rec = records[3]
    deck = rec["hands"][0]["deck"]
    assert "2C" not in deck and len(deck) == 51
    rec["hands"][0]["deck"] = deck + ["2C"]
    check(rec, "bad_deck", hand=0, match="not in this deck 2C")
    rec["hands"][0]["deck"] = deck[:-1] + ["2C"]
    check(rec, "bad_deck", hand=0, match="not in this deck 2C")


def test_removed_two_option(records) -> None:
    rec = records[3]
    rec["first_hakem"] = replay_summary(rec)["hands"][0]["hakem"]
    del rec["hakem_draw"]  # its cards might include the 2S
    assert replay_summary(rec)["ok"]
    rec["rules"]["removed_two"] = "2S"
    check(rec, "bad_deck", hand=0, match="not in this deck 2S")


# ------------------------------------------------------------------ bad_trump
@pytest.mark.parametrize("trump", ["X", "spades", "s", "SH", "", 0, ["S"]])
def test_bad_trump_value(records, trump: Any) -> None:
    rec = records[4]
    rec["hands"][3]["trump"] = trump
    check(rec, "bad_trump", hand=3, match="trump must be")


def test_plays_without_trump(records) -> None:
    rec = records[3]
    del rec["hands"][-1]["trump"]
    check(rec, "bad_trump", hand=len(rec["hands"]) - 1, match="no trump")


def test_non_last_hand_without_trump(records) -> None:
    rec = records[4]
    rec["hands"][2] = {"deck": rec["hands"][2]["deck"]}
    check(rec, "bad_trump", hand=2, match="hand 3 follows")


def test_discards_without_trump(records) -> None:
    rec = records[2]
    last = rec["hands"][-1]
    rec["hands"][-1] = {"deck": last["deck"], "discards": last["discards"]}
    check(rec, "bad_trump", hand=len(rec["hands"]) - 1, match="no trump")


# ------------------------------------------------------------------ bad_discard and bad_draw (2 players)
def test_bad_discards(records) -> None:
    rec = records[2]
    hakem = replay_summary(rec)["hands"][0]["hakem"]
    other = 1 - hakem
    good = rec["hands"][0]["discards"]
    assert len(good[hakem]) == 3 and len(good[other]) == 2
    cases = []
    wrong_count = copy.deepcopy(rec)
    wrong_count["hands"][0]["discards"][hakem] = good[hakem][:2]
    cases.append((wrong_count, "exactly 3"))
    not_held = copy.deepcopy(rec)
    not_held["hands"][0]["discards"][other] = good[hakem][:2]
    cases.append((not_held, "own hand"))
    twice = copy.deepcopy(rec)
    twice["hands"][0]["discards"][other] = [good[other][0]] * 2
    cases.append((twice, "twice"))
    order = copy.deepcopy(rec)
    order["hands"][0]["discards"][hakem] = []
    cases.append((order, "before the Hâkem"))
    missing = copy.deepcopy(rec)
    missing["hands"][0]["discards"][other] = None
    cases.append((missing, "has not discarded"))
    for bad, match in cases:
        check(bad, "bad_discard", hand=0, match=match)
    shape = copy.deepcopy(rec)
    shape["hands"][0]["discards"] = [good[0]]
    check(shape, "bad_format", hand=0, match="two lists")


def test_plays_before_discards(records) -> None:
    rec = records[2]
    del rec["hands"][-1]["discards"]
    check(rec, "bad_discard", hand=len(rec["hands"]) - 1, match="has not discarded")


def test_bad_draws(records) -> None:
    rec = records[2]
    draws = rec["hands"][0]["draws"]
    assert len(draws) == 21
    bad = copy.deepcopy(rec)
    bad["hands"][0]["draws"][5] = "take"
    check(bad, "bad_draw", hand=0, match="draws[5]")
    bad["hands"][0]["draws"][5] = True
    check(bad, "bad_draw", hand=0, match="draws[5]")
    extra = copy.deepcopy(rec)
    extra["hands"][0]["draws"].append("keep")
    check(extra, "bad_draw", hand=0, match="after 21")
    short = copy.deepcopy(rec)
    short["hands"][0]["draws"] = draws[:20]
    check(short, "bad_draw", hand=0, match="20 of 21")
    shape = copy.deepcopy(rec)
    shape["hands"][0]["draws"] = "keep"
    check(shape, "bad_format", hand=0, match="draws must be a list")


def test_draws_before_discards(records) -> None:
    rec = records[2]
    rec["hands"][0]["discards"] = [[], []]
    check(rec, "bad_discard", hand=0, match="a draw follows")


# ------------------------------------------------------------------ not_in_hand, must_follow_suit
def _first_play_state(rec: dict[str, Any], hand: int, j: int):
    return load_record(upto(rec, hand, j))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_not_in_hand(records, players: int) -> None:
    rec = records[players]
    game = _first_play_state(rec, 1, 0)
    assert game.phase is Phase.PLAY
    elsewhere = next(c for c in cards_in(((1 << 52) - 1) & ~game.hands[game.to_move]))
    rec["hands"][1]["plays"][0] = str(elsewhere)
    check(rec, "not_in_hand", hand=1, action=0, match=f"seat {game.to_move} does not hold {elsewhere}")


def test_card_played_twice(records) -> None:
    rec = records[4]
    plays = rec["hands"][0]["plays"]
    plays[4] = plays[0]
    check(rec, "not_in_hand", hand=0, action=4)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_must_follow_suit(records, players: int) -> None:
    rec = records[players]
    plays = rec["hands"][0]["plays"]
    for j in range(len(plays)):
        game = _first_play_state(rec, 0, j)
        if not game.trick:
            continue
        led = game.trick[0] // 13
        hand = game.hands[game.to_move]
        off = hand & ~SUIT_MASKS[led]
        if hand & SUIT_MASKS[led] and off:
            bad = cards_in(off)[0]
            rec["hands"][0]["plays"][j] = str(bad)
            suit = ("spades", "hearts", "diamonds", "clubs")[led]
            check(rec, "must_follow_suit", hand=0, action=j, match=f"seat {game.to_move} must follow {suit}")
            return
    pytest.fail("no position where a seat could revoke")


# ------------------------------------------------------------------ hand_over, game_over
@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_after_the_hand_ended(records, players: int) -> None:
    rec = records[players]
    game = load_record(upto(rec, 0, len(rec["hands"][0]["plays"])))
    assert game.phase is Phase.DEAL
    spare = cards_in(game.hands[game.leader] or game.hands[0] or game.hands[1])
    n_plays = len(rec["hands"][0]["plays"])
    rec["hands"][0]["plays"].append(str(spare[0]) if spare else "AS")
    check(rec, "hand_over", hand=0, action=n_plays, match="after hand 0 was decided")


def test_play_after_the_last_hand_ended(records) -> None:
    rec = records[4]
    rec["hands"][-1]["plays"].append("AS")
    last = len(rec["hands"]) - 1
    check(rec, "hand_over", hand=last, action=len(rec["hands"][-1]["plays"]) - 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hand_after_the_game_ended(records, players: int) -> None:
    rec = records[players]
    rec["hands"].append(copy.deepcopy(rec["hands"][0]))
    check(rec, "game_over", hand=len(rec["hands"]) - 1, match="after the game ended")
    rec["hands"][-1] = "anything"
    check(rec, "game_over", hand=len(rec["hands"]) - 1)


def test_first_fault_wins(records) -> None:
    rec = records[4]
    rec["hands"][1]["plays"][3] = "ZZ"
    rec["hands"][0]["deck"] = rec["hands"][0]["deck"][:-1]
    check(rec, "bad_deck", hand=0)


def test_record_error_rejects_unknown_codes() -> None:
    with pytest.raises(ValueError):
        RecordError("oops", "x")
    err = RecordError("bad_card", "not a card", hand=2, action=3)
    assert str(err) == "bad_card (hand 2, play 3): not a card"
    assert json.loads(json.dumps(err.to_json()))["action"] == 3
