"""Properties of record checking: round trips at any point, and no crash on any damaged record."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hokm.engine import Game, Rules
from hokm.records import RECORD_CODES, RecordError, dumps, game_summary, load_record, record_from_game, replay_summary

from .conftest import play_random

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["AS", "10H", "TD", "2C", "S", "keep", "pass", "hokm/1", "", "ZZ"]) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**32 - 1), st.integers(1, 900))
def test_round_trip_anywhere(players: int, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    game = play_random(Game.new(Rules(players=players), rng=rng), rng, max_steps=steps)
    text = dumps(record_from_game(game))
    again = load_record(text)
    assert again.history == game.history
    assert replay_summary(text) == game_summary(game) == game_summary(again)


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON tree, as a tuple of keys and indices."""
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, prefix + (i,))
    return out


def damage(rec: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    rec = copy.deepcopy(rec)
    where = data.draw(st.sampled_from(paths(rec)[1:]))
    parent = rec
    for key in where[:-1]:
        parent = parent[key]
    last = where[-1]
    how = data.draw(st.sampled_from(["replace", "delete", "duplicate"]))
    if how == "replace":
        parent[last] = data.draw(json_values)
    elif how == "delete":
        del parent[last]
    elif isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
    else:
        parent[last] = [parent[last], parent[last]]
    return rec


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_damaged_records_give_a_clear_error_or_a_game(finished_records, data: st.DataObject) -> None:
    players = data.draw(st.sampled_from([2, 3, 4]))
    rec = finished_records[players]
    bad = damage(rec, data)
    summary = replay_summary(bad)          # never raises
    json.dumps(summary)                    # always JSON
    if summary["ok"]:
        assert load_record(bad).n == summary["players"]
    else:
        err = summary["error"]
        assert err["code"] in RECORD_CODES and err["message"]
        assert err["hand"] is None or 0 <= err["hand"] < max(1, len(bad.get("hands") or [None]))
        assert err["action"] is None or err["hand"] is not None
        try:
            load_record(bad)
        except RecordError as e:
            assert e.to_json() == err
        else:
            raise AssertionError("load_record accepted a record that replay_summary refused")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_damaged_text_never_crashes(finished_records, data: st.DataObject) -> None:
    text = dumps(finished_records[data.draw(st.sampled_from([2, 3, 4]))]).encode()
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + 20)))
    junk = data.draw(st.binary(max_size=6))
    summary = replay_summary(text[:start] + junk + text[end:])
    assert summary["ok"] or summary["error"]["code"] in RECORD_CODES
