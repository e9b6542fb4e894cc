"""Reading a ``hokm/1`` record: check its shape, then let the engine decide every rule.

This module never re-implements a rule. It checks only what the engine cannot see (JSON types,
unknown keys, card notation, which parts of a hand are present) and feeds deck, trump, discards,
draws and plays to :class:`hokm.engine.Game`, translating the engine's error codes into record
codes with the hand and play they belong to. So a record is valid exactly when the engine
accepts it, and ``hokm replay`` agrees with live play by construction.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..cards import Card, Suit
from ..engine import (
    KEEP,
    PASS,
    PLAYS,
    TRUMPS,
    DealError,
    Discard,
    Game,
    IllegalActionError,
    Phase,
    SetupError,
    run_hakem_draw,
)
from ..rules import Rules, RulesError
from .errors import RecordError

FORMAT = "hokm/1"
TOP_KEYS = frozenset({"format", "players", "rules", "names", "first_hakem", "hakem_draw", "hands", "meta"})
HAND_KEYS = frozenset({"deck", "trump", "discards", "draws", "plays", "fair"})
TWO_PLAYER_KEYS = frozenset({"discards", "draws"})
FAIR_KEYS = ("commit", "server_seed")
_CARD_RE = re.compile(r"(10|[2-9TJQKA])([SHDC])")
_SUIT_CHARS = "SHDC"


# ---------------------------------------------------------------------------------- small parsers
def _parse_json(data: dict[str, Any] | str | bytes) -> dict[str, Any]:
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise RecordError("bad_format", f"a record is UTF-8 JSON text: {e}") from None
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as e:
            raise RecordError("bad_format", f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
        except RecursionError:
            raise RecordError("bad_format", "not valid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise RecordError("bad_format", f"a record is a JSON object, not {_kind(data)}")
    return data


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null",
             int: "a number", float: "a number"}
    return names.get(type(value), type(value).__name__)


def _is_seat(value: Any, n: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n


def parse_card(text: Any, what: str, hand: int | None = None, action: int | None = None) -> Card:
    """A card in record notation (``AS``, ``TD``, ``10D``), else ``bad_card``.

    Stricter than :meth:`Card.parse` on purpose: a record is an interchange format, so only the
    documented spelling (capital rank then capital suit) is accepted.
    """
    m = _CARD_RE.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise RecordError("bad_card", f"{what}: {json.dumps(text)} is not a card "
                          "(rank 23456789TJQKA, or 10, then suit SHDC, e.g. \"AS\")", hand, action)
    return Card.parse(text)


def _card_list(value: Any, what: str, hand: int | None) -> list[Card]:
    if not isinstance(value, list):
        raise RecordError("bad_format", f"{what} must be a list of cards, not {_kind(value)}", hand)
    return [parse_card(t, f"{what}[{k}]", hand) for k, t in enumerate(value)]


# ---------------------------------------------------------------------------------- header
def _header(rec: dict[str, Any]) -> Game:
    unknown = sorted(set(rec) - TOP_KEYS)
    if unknown:
        raise RecordError("bad_format", f"unknown key(s) in record: {', '.join(unknown)}")
    if rec.get("format") != FORMAT:
        raise RecordError("bad_format", f"format must be {FORMAT!r}, not {json.dumps(rec.get('format'))}")
    n = rec.get("players")
    if type(n) is not int or n not in (2, 3, 4):  # 4.0 and true are not player counts
        raise RecordError("bad_format", f"players must be 2, 3 or 4, not {json.dumps(n)}")
    if "rules" in rec and not isinstance(rec["rules"], dict):
        raise RecordError("bad_format", f"rules must be an object, not {_kind(rec['rules'])}")
    try:
        rules = Rules.from_dict(n, rec.get("rules"))
    except (RulesError, TypeError) as e:
        raise RecordError("bad_format", f"rules: {e}") from None
    if "names" in rec:
        names = rec["names"]
        if not isinstance(names, list) or len(names) != n or not all(isinstance(x, str) for x in names):
            raise RecordError("bad_format", f"names must be a list of {n} strings, one per seat")
    has_first, has_draw = "first_hakem" in rec, "hakem_draw" in rec
    if has_first == has_draw:
        raise RecordError("bad_format", "a record gives exactly one of first_hakem or hakem_draw")
    if has_first:
        seat = rec["first_hakem"]
        if not _is_seat(seat, n):
            raise RecordError("bad_format", f"first_hakem must be a seat from 0 to {n - 1}, not {json.dumps(seat)}")
        return Game(rules, first_hakem=seat)
    draw = rec["hakem_draw"]
    if not isinstance(draw, dict) or set(draw) != {"start", "cards"}:
        raise RecordError("bad_format", "hakem_draw must be an object with exactly 'start' and 'cards'")
    cards = _card_list(draw["cards"], "hakem_draw.cards", None)
    try:
        return Game(rules, hakem_draw=run_hakem_draw(rules, draw["start"], cards))
    except SetupError as e:
        code = "bad_card" if e.code == "bad_card" else "bad_format"
        raise RecordError(code, f"hakem_draw: {e.message}") from None


# ---------------------------------------------------------------------------------- one hand
def _fair(value: Any, i: int) -> None:
    if not isinstance(value, dict):
        raise RecordError("bad_format", f"fair must be an object, not {_kind(value)}", i)
    for key in FAIR_KEYS:
        if key in value and not isinstance(value[key], str):
            raise RecordError("bad_format", f"fair.{key} must be a string", i)
    seeds = value.get("seat_seeds")
    if seeds is not None and (not isinstance(seeds, list)
                              or not all(s is None or isinstance(s, str) for s in seeds)):
        raise RecordError("bad_format", "fair.seat_seeds must be a list of strings or nulls", i)


def _missing(game: Game, i: int, later: str) -> RecordError:
    """The error for a hand that stops short although ``later`` follows it."""
    phase = game.phase
    if phase is Phase.TRUMP:
        return RecordError("bad_trump", f"hand {i} has no trump, but {later} follows", i)
    if phase is Phase.DISCARD:
        return RecordError("bad_discard", f"seat {game.to_move} has not discarded in hand {i}, "
                           f"but {later} follows", i)
    if phase is Phase.DRAW:
        return RecordError("bad_draw", f"hand {i} has {game.draw_turn} of 21 draws, but {later} follows", i)
    return RecordError("bad_format", f"hand {i} stops after {game.played.bit_count()} plays without a "
                       f"winner, but {later} follows; only the last hand of a record may be unfinished", i)


def _discards(game: Game, hand: dict[str, Any], i: int) -> None:
    value = hand["discards"]
    if not isinstance(value, list) or len(value) != 2:
        raise RecordError("bad_format", "discards must be a list of two lists: seat 0's cards, seat 1's cards", i)
    per_seat: list[list[Card] | None] = []
    for seat, entry in enumerate(value):
        if entry is None or entry == []:
            per_seat.append(None)
        else:
            per_seat.append(_card_list(entry, f"discards[{seat}]", i))
    if all(x is None for x in per_seat):
        return
    if game.phase is Phase.TRUMP:
        raise RecordError("bad_trump", f"hand {i} has discards but no trump", i)
    hakem = game.hakem
    for seat in (hakem, 1 - hakem):
        cards = per_seat[seat]
        if cards is None:
            other = per_seat[1 - seat]
            if seat == hakem and other is not None:
                raise RecordError("bad_discard", f"seat {1 - seat} discards in hand {i} before the Hâkem "
                                  f"(seat {hakem}) has", i)
            return
        if len(set(cards)) != len(cards):
            raise RecordError("bad_discard", f"discards[{seat}] lists a card twice", i)
        try:
            game.apply(Discard(frozenset(cards)), seat)
        except IllegalActionError as e:
            raise RecordError("bad_discard", e.message, i) from None


def _draws(game: Game, hand: dict[str, Any], i: int) -> None:
    value = hand["draws"]
    if not isinstance(value, list):
        raise RecordError("bad_format", f"draws must be a list of \"keep\"/\"pass\", not {_kind(value)}", i)
    if value and game.phase in (Phase.TRUMP, Phase.DISCARD):
        raise _missing(game, i, "a draw")
    for k, choice in enumerate(value):
        if choice not in ("keep", "pass"):
            raise RecordError("bad_draw", f"draws[{k}] is {json.dumps(choice)}, not \"keep\" or \"pass\"", i)
        if game.phase is not Phase.DRAW:
            raise RecordError("bad_draw", f"hand {i} has {len(value)} draws; the stock is empty after 21", i)
        game.apply(KEEP if choice == "keep" else PASS)


def _plays(game: Game, hand: dict[str, Any], i: int) -> None:
    value = hand["plays"]
    if not isinstance(value, list):
        raise RecordError("bad_format", f"plays must be a list of cards, not {_kind(value)}", i)
    if value and game.phase is not Phase.PLAY:
        raise _missing(game, i, "a play")
    for j, text in enumerate(value):
        card = parse_card(text, f"plays[{j}]", i, j)
        if game.phase is not Phase.PLAY:
            raise RecordError("hand_over", f"play {j} ({card}) comes after hand {i} was decided", i, j)
        try:
            game.apply(PLAYS[card])
        except IllegalActionError as e:
            raise RecordError(e.code if e.code in ("not_in_hand", "must_follow_suit") else "bad_format",
                              e.message, i, j) from None


def _hand(game: Game, hand: Any, i: int, last: bool) -> None:
    if game.phase is Phase.OVER:
        raise RecordError("game_over", f"hand {i} comes after the game ended "
                          f"(scores {'-'.join(map(str, game.scores))})", i)
    if not isinstance(hand, dict):
        raise RecordError("bad_format", f"hand {i} must be an object, not {_kind(hand)}", i)
    unknown = sorted(set(hand) - HAND_KEYS)
    if unknown:
        raise RecordError("bad_format", f"unknown key(s) in hand {i}: {', '.join(unknown)}", i)
    if game.n != 2:
        extra = sorted(TWO_PLAYER_KEYS & set(hand))
        if extra:
            raise RecordError("bad_format", f"{' and '.join(extra)} belong to 2-player records only", i)
    if "fair" in hand:
        _fair(hand["fair"], i)
    if "deck" not in hand:
        raise RecordError("bad_deck", f"hand {i} has no deck", i)
    if not isinstance(hand["deck"], list):
        raise RecordError("bad_format", f"deck must be a list of cards, not {_kind(hand['deck'])}", i)
    deck = _card_list(hand["deck"], "deck", i)
    try:
        game.deal(deck)
    except DealError as e:
        raise RecordError("bad_deck", e.message, i) from None
    trump = hand.get("trump")
    if trump is not None:
        if not isinstance(trump, str) or trump not in _SUIT_CHARS or len(trump) != 1:
            raise RecordError("bad_trump", f"trump must be one of \"S\", \"H\", \"D\", \"C\", not {json.dumps(trump)}", i)
        game.apply(TRUMPS[Suit(_SUIT_CHARS.index(trump))])
    if game.n == 2:
        if "discards" in hand:
            _discards(game, hand, i)
        if "draws" in hand:
            _draws(game, hand, i)
    if "plays" in hand:
        _plays(game, hand, i)
    if not last and game.phase not in (Phase.DEAL, Phase.OVER):
        raise _missing(game, i, f"hand {i + 1}")


# ---------------------------------------------------------------------------------- public API
def load_record(data: dict[str, Any] | str | bytes) -> Game:
    """Replay a record (a parsed object, or its JSON text) and return the game it reaches.

    Raises :class:`RecordError` with the first fault. The returned game has its full history,
    so it can be played on (a game in progress), undone, or written back with
    :func:`hokm.records.record_from_game`.
    """
    rec = _parse_json(data)
    game = _header(rec)
    hands = rec.get("hands")
    if not isinstance(hands, list):
        raise RecordError("bad_format", f"hands must be a list of hand objects, not {_kind(hands)}")
    for i, hand in enumerate(hands):
        _hand(game, hand, i, last=i == len(hands) - 1)
    return game


def game_summary(game: Game) -> dict[str, Any]:
    """The ``hokm replay --json`` object of a game that was replayed successfully.

    While the engine waits for the next deal, the next decision is the new Hâkem's trump, so the
    summary reports phase ``trump`` with that Hâkem to move.
    """
    phase = game.phase
    hands = [r.to_json() for r in game.results]
    if phase is Phase.OVER:
        to_move, phase_name = None, "over"
    elif phase is Phase.DEAL:
        to_move, phase_name = game.hakem, "trump"
    else:
        to_move, phase_name = game.to_move, phase.value
        hands.append(game.current_result().to_json())
    return {
        "ok": True,
        "players": game.n,
        "scores": list(game.scores),
        "game_over": phase is Phase.OVER,
        "winner": game.winner,
        "to_move": to_move,
        "phase": phase_name,
        "hands": hands,
    }


def replay_summary(data: dict[str, Any] | str | bytes) -> dict[str, Any]:
    """Check a record and summarise it: the ``hokm replay --json`` object, valid or not."""
    try:
        game = load_record(data)
    except RecordError as e:
        return {"ok": False, "error": e.to_json()}
    return game_summary(game)
