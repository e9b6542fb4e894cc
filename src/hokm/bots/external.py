"""``cmd:PROGRAM``: any program that speaks the line-based JSON bot protocol plays as a bot.

In the spirit of UCI for chess, the driver starts the program (``--a cmd:"python my_bot.py"``)
and talks to it over its standard input and output, one JSON object per line:

- driver → bot, once: ``{"type": "hello", "protocol": 1}`` (no answer expected);
- driver → bot, per decision: ``{"type": "act", "seat": s, "view": {...}, "legal": [...]}``;
- bot → driver, per decision: ``{"action": {...}}`` with one of the ``legal`` actions;
- driver → bot, at the end: ``{"type": "quit"}``, then its stdin is closed.

A program that exits, answers with something that is not such a line, answers late, or answers
with an action that is not legal raises :class:`~hokm.bots.base.BotFailure`, which the arena turns
into a lost game with the message. The full protocol and the view's JSON schema are in
``docs/bot-protocol.md``; :data:`VIEW_SCHEMA` is that schema, and a test checks that it matches
both real views and the document.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import subprocess
import threading
from collections import deque
from typing import Any

from ..engine.actions import Action, action_from_json
from ..engine.phase import Phase
from ..engine.view import SeatView
from .base import Bot, BotFailure

PROTOCOL_VERSION = 1
#: Seconds a program may take per decision unless told otherwise (``timeout=`` or ``HOKM_BOT_TIMEOUT``).
DEFAULT_TIMEOUT = 10.0
#: Seconds a program may take to start and answer its first decision.
STARTUP_GRACE = 10.0


def default_timeout() -> float:
    """Seconds a program may take per decision: ``HOKM_BOT_TIMEOUT`` when set, else :data:`DEFAULT_TIMEOUT`.

    Read when a bot is made, not when this module is imported; a value that is not a number of
    seconds above 0 raises ``ValueError`` naming the variable.
    """
    raw = os.environ.get("HOKM_BOT_TIMEOUT")
    if raw is None or not raw.strip():
        return DEFAULT_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if not 0 < value < float("inf"):
        raise ValueError(f"HOKM_BOT_TIMEOUT={raw!r}: must be a number of seconds more than 0")
    return value


class ExternalBot(Bot):
    """A bot played by a child process speaking the JSON-lines protocol."""

    def __init__(self, command: str, *, timeout: float | None = None, seed: int | None = None) -> None:
        argv = shlex.split(command)
        if not argv:
            raise ValueError("cmd: needs a command line, e.g. cmd:\"python examples/bots/simple_bot.py\"")
        self.command = command
        self.name = f"cmd:{command}"
        self.timeout = default_timeout() if timeout is None else float(timeout)
        if not self.timeout > 0:
            raise ValueError(f"timeout must be more than 0 seconds, not {timeout!r}")
        env = dict(os.environ)
        if seed is not None:
            env["HOKM_BOT_SEED"] = str(seed)
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, bufsize=1, env=env)
        except OSError as e:
            raise BotFailure(f"cannot start {command!r}: {e}", bot=self.name) from None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=20)
        threading.Thread(target=self._pump_stdout, daemon=True).start()
        threading.Thread(target=self._pump_stderr, daemon=True).start()
        self._first = True
        # A program that dies at once fails the hello write or not, depending on timing; either
        # way it is reported at its first decision, where drivers forfeit for the right seat.
        self._dead: str | None = None
        try:
            self._send({"type": "hello", "protocol": PROTOCOL_VERSION})
        except BotFailure:
            self._dead = f"the program exited (code {self.proc.poll()}) before its first decision"

    # ------------------------------------------------------------------ plumbing
    def _pump_stdout(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _pump_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self._stderr.append(line.rstrip("\n"))

    def _fail(self, message: str, seat: int | None) -> BotFailure:
        tail = "\n".join(self._stderr)
        if tail:
            message += f"\n--- last lines of its stderr ---\n{tail}"
        return BotFailure(f"{self.name}: {message}", bot=self.name, seat=seat)

    def _send(self, obj: dict[str, Any], seat: int | None = None) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(obj, separators=(",", ":")) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._fail(f"the program exited (code {self.proc.poll()})", seat) from None

    # ------------------------------------------------------------------ the protocol
    def act(self, view: SeatView) -> Action:
        seat = view.seat
        if self._dead is not None:
            raise self._fail(self._dead, seat)
        self._send({"type": "act", "seat": seat, "view": view.to_json(),
                    "legal": [a.to_json() for a in view.legal]}, seat)
        wait = self.timeout + (STARTUP_GRACE if self._first else 0.0)
        self._first = False
        try:
            line = self._lines.get(timeout=wait)
        except queue.Empty:
            raise self._fail(f"no answer within {wait:g} s", seat) from None
        if line is None:
            self.proc.wait()
            raise self._fail(f"the program exited (code {self.proc.returncode}) instead of answering", seat)
        try:
            reply = json.loads(line)
        except json.JSONDecodeError:
            raise self._fail(f"answer is not JSON: {line.strip()[:200]!r}", seat) from None
        if not isinstance(reply, dict) or "action" not in reply:
            raise self._fail(f"answer must be an object with an 'action': {line.strip()[:200]!r}", seat)
        try:
            action = action_from_json(reply["action"])
        except ValueError as e:
            raise self._fail(f"bad action {reply['action']!r}: {e}", seat) from None
        if action not in view.legal:
            raise self._fail(f"illegal action {action} for seat {seat} in the {view.phase} phase", seat)
        return action

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self._send({"type": "quit"})
                assert self.proc.stdin is not None
                self.proc.stdin.close()
            except (BotFailure, OSError):
                pass
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass


def external_bot(argument: str, seed: int | None = None, timeout: float | None = None, **_: object) -> ExternalBot:
    """The ``cmd:COMMAND`` spec: a bot program run as a child process."""
    return ExternalBot(argument, timeout=timeout, seed=seed)


# ---------------------------------------------------------------------- the view's JSON schema
def _arr(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


def _obj(props: dict[str, Any], optional: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "object", "properties": props,
            "required": [k for k in props if k not in optional], "additionalProperties": False}


_CARD = {"type": "string", "pattern": "^[2-9TJQKA][SHDC]$"}
_SUIT = {"enum": ["S", "H", "D", "C"]}
_SEAT = {"type": "integer", "minimum": 0, "maximum": 3}
_INT = {"type": "integer", "minimum": 0}
_ACTION = {"oneOf": [
    _obj({"type": {"const": "play"}, "card": _CARD}),
    _obj({"type": {"const": "trump"}, "suit": _SUIT}),
    _obj({"type": {"const": "discard"}, "cards": _arr(_CARD)}),
    _obj({"type": {"const": "draw"}, "choice": {"enum": ["keep", "pass"]}}),
]}

#: JSON Schema (draft 2020-12) of ``SeatView.to_json()`` as sent in ``act`` messages.
VIEW_SCHEMA: dict[str, Any] = _obj({
    "players": {"enum": [2, 3, 4]},
    "seat": _SEAT,
    "rules": _obj({"target_points": _INT, "kot_points": _INT, "hakem_koti_points": _INT,
                   "partner_draw": {"type": "boolean"}, "removed_two": _CARD}),
    "phase": {"enum": [p.value for p in Phase]},
    "to_move": {"oneOf": [_SEAT, {"type": "null"}]},
    "hand_index": _INT,
    "hakem": _SEAT,
    "dealer": _SEAT,
    "first_hakem": _SEAT,
    "trump": {"oneOf": [_SUIT, {"type": "null"}]},
    "scores": _arr(_INT),
    "hand": _arr(_CARD),
    "hand_size": _INT,
    "hand_counts": _arr(_INT),
    "sides": _arr({"type": "integer", "minimum": 0, "maximum": 2}),
    "leader": _SEAT,
    "trick": _arr(_obj({"seat": _SEAT, "card": _CARD})),
    "tricks": _arr(_INT),
    "seat_tricks": _arr(_INT),
    "completed": _arr(_obj({"leader": _SEAT, "cards": _arr(_CARD), "winner": _SEAT})),
    "results": _arr(_obj({"hakem": _SEAT, "trump": {"oneOf": [_SUIT, {"type": "null"}]},
                          "tricks": _arr(_INT), "winner": {"oneOf": [_INT, {"type": "null"}]},
                          "points": _INT, "kot": {"type": "boolean"}, "hakem_koti": {"type": "boolean"},
                          "tie": {"type": "boolean"}})),
    "legal": _arr(_ACTION),
    "stock_size": _INT,
    "draw_card": {"oneOf": [_CARD, {"type": "null"}]},
    "discards": _arr(_CARD),
    "discarded": _arr({"type": "boolean"}),
    "draw_log": _arr(_obj({"first": _CARD, "second": _CARD, "choice": {"enum": ["keep", "pass"]}})),
    "hakem_draw": _obj({"start": _SEAT, "cards": _arr(_CARD)}),
}, optional=("stock_size", "draw_card", "discards", "discarded", "draw_log", "hakem_draw"))

#: JSON Schema of one ``act`` message, the view included.
ACT_SCHEMA: dict[str, Any] = _obj({"type": {"const": "act"}, "seat": _SEAT, "view": VIEW_SCHEMA,
                                   "legal": _arr(_ACTION)})
