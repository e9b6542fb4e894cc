"""The cmd: external bot protocol: a real program plays; broken programs fail clearly."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from hokm.bots.base import BotFailure
from hokm.bots.external import ACT_SCHEMA, VIEW_SCHEMA, ExternalBot
from hokm.bots.random_bot import RandomBot
from hokm.engine import Game, Phase, Rules
from hokm.players import make_bot

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bots" / "simple_bot.py"
PY = sys.executable


def script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "bot.py"
    path.write_text("import json, sys, time\n" + body)
    return f"{PY} {path}"


def first_decision() -> Game:
    return Game.new(Rules(players=4), seed=1)


def test_example_bot_plays_whole_games() -> None:
    for players in (2, 3, 4):
        game = Game.new(Rules(players=players), seed=players)
        bot = make_bot(f"cmd:{PY} {EXAMPLE}", seed=1)
        other = RandomBot(2)
        rng = random.Random(0)
        try:
            while not game.is_over:
                if game.phase is Phase.DEAL:
                    game.deal(rng=rng)
                    continue
                seat = game.to_move
                view = game.view(seat)
                action = (bot if seat == 0 else other).act(view)
                game.apply(action, seat)
        finally:
            bot.close()
        assert bot.proc.returncode == 0  # it left on "quit"


@pytest.mark.parametrize("body, message", [
    ("sys.exit(3)\n", "exited"),
    ("for line in sys.stdin:\n    print('hello', flush=True)\n", "not JSON"),
    ("for line in sys.stdin:\n    print(json.dumps({'move': 1}), flush=True)\n", "'action'"),
    ("for line in sys.stdin:\n    print(json.dumps({'action': {'type': 'fly'}}), flush=True)\n", "bad action"),
    ("for line in sys.stdin:\n    m = json.loads(line)\n    if m['type'] == 'act':\n"
     "        print(json.dumps({'action': {'type': 'draw', 'choice': 'keep'}}), flush=True)\n", "illegal action"),
    ("for line in sys.stdin:\n    m = json.loads(line)\n    if m['type'] == 'act':\n"
     "        sys.stderr.write('thinking hard\\n'); sys.stderr.flush(); time.sleep(5)\n", "no answer within"),
])
def test_broken_programs_raise_bot_failure(tmp_path: Path, body: str, message: str) -> None:
    game = first_decision()
    bot = ExternalBot(script(tmp_path, body), timeout=0.3)
    bot._first = False  # no start-up grace: keep the test quick
    try:
        with pytest.raises(BotFailure, match=message) as info:
            bot.act(game.view(game.to_move))
        assert info.value.seat == game.to_move
        if "no answer" in message:
            assert "thinking hard" in str(info.value)  # its stderr is quoted
    finally:
        bot.close()


def test_a_missing_program_is_a_bot_failure() -> None:
    with pytest.raises(BotFailure, match="cannot start"):
        ExternalBot("/nonexistent/bot-program")
    with pytest.raises(ValueError, match="needs a command"):
        ExternalBot("   ")


def test_messages_are_one_json_object_per_line(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    body = (f"log = open({str(log)!r}, 'w')\n"
            "for line in sys.stdin:\n    log.write(line); log.flush()\n    m = json.loads(line)\n"
            "    if m['type'] == 'act':\n        print(json.dumps({'action': m['legal'][0]}), flush=True)\n")
    game = first_decision()
    bot = ExternalBot(script(tmp_path, body))
    view = game.view(game.to_move)
    assert bot.act(view) == view.legal[0]
    bot.close()
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert lines[0] == {"type": "hello", "protocol": 1}
    assert lines[1]["type"] == "act" and lines[1]["seat"] == game.to_move
    assert lines[1]["view"] == view.to_json()
    assert lines[-1] == {"type": "quit"}


# ------------------------------------------------------------------ the schema cannot drift
def validate(value: Any, schema: dict[str, Any], path: str = "$") -> None:
    """The subset of JSON Schema that VIEW_SCHEMA uses, strictly."""
    if "oneOf" in schema:
        ok = 0
        for option in schema["oneOf"]:
            try:
                validate(value, option, path)
                ok += 1
            except AssertionError:
                pass
        assert ok == 1, f"{path}: {value!r} matches {ok} of the oneOf options"
        return
    if "const" in schema:
        assert value == schema["const"], f"{path}: {value!r} != {schema['const']!r}"
    if "enum" in schema:
        assert value in schema["enum"], f"{path}: {value!r} not in {schema['enum']}"
    kind = schema.get("type")
    if kind == "object":
        assert isinstance(value, dict), f"{path}: not an object"
        for key in schema["required"]:
            assert key in value, f"{path}: missing {key!r}"
        for key, item in value.items():
            assert key in schema["properties"], f"{path}: unexpected key {key!r}"
            validate(item, schema["properties"][key], f"{path}.{key}")
    elif kind == "array":
        assert isinstance(value, list), f"{path}: not an array"
        for i, item in enumerate(value):
            validate(item, schema["items"], f"{path}[{i}]")
    elif kind == "string":
        assert isinstance(value, str), f"{path}: not a string"
        if "pattern" in schema:
            assert re.match(schema["pattern"], value), f"{path}: {value!r} does not match"
    elif kind == "integer":
        assert isinstance(value, int) and not isinstance(value, bool), f"{path}: not an integer"
        assert value >= schema.get("minimum", value) and value <= schema.get("maximum", value), path
    elif kind == "boolean":
        assert isinstance(value, bool), f"{path}: not a boolean"
    elif kind == "null":
        assert value is None, f"{path}: not null"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_view_sent_matches_the_schema(players: int) -> None:
    game = Game.new(Rules(players=players), seed=10 + players)
    bot = RandomBot(0)
    rng = random.Random(1)
    seen = set()
    while not game.is_over and game.hand_index < 3:
        if game.phase is Phase.DEAL:
            game.deal(rng=rng)
            continue
        view = game.view(game.to_move)
        message = json.loads(json.dumps({"type": "act", "seat": view.seat, "view": view.to_json(),
                                         "legal": [a.to_json() for a in view.legal]}))
        validate(message, ACT_SCHEMA)
        seen.add(view.phase)
        game.apply(bot.act(view))
    assert "play" in seen and "trump" in seen


def test_schema_catches_drift() -> None:
    view = first_decision().view(0).to_json()
    with pytest.raises(AssertionError, match="unexpected key"):
        validate(view | {"secret": 1}, VIEW_SCHEMA)
    with pytest.raises(AssertionError, match="missing"):
        validate({k: v for k, v in view.items() if k != "hand"}, VIEW_SCHEMA)


def test_the_document_shows_the_schema_of_the_code() -> None:
    doc = (ROOT / "docs" / "bot-protocol.md").read_text()
    blocks = re.findall(r"```json schema\n(.*?)```", doc, re.S)
    assert blocks, "docs/bot-protocol.md must hold the view schema in a ```json schema block"
    assert json.loads(blocks[0]) == VIEW_SCHEMA


def test_a_program_dead_before_hello_fails_at_its_first_decision(tmp_path: Path, monkeypatch) -> None:
    """Whether the hello write fails depends on timing; the failure must still come from ``act``."""
    real_send = ExternalBot._send

    def refuse_hello(self, obj, seat=None):
        if obj.get("type") == "hello":
            raise self._fail("the program exited (code 3)", seat)
        return real_send(self, obj, seat)

    monkeypatch.setattr(ExternalBot, "_send", refuse_hello)
    game = first_decision()
    bot = ExternalBot(script(tmp_path, "sys.exit(3)\n"), timeout=0.3)  # construction does not raise
    try:
        with pytest.raises(BotFailure, match="before its first decision") as info:
            bot.act(game.view(game.to_move))
        assert info.value.seat == game.to_move
    finally:
        bot.close()
