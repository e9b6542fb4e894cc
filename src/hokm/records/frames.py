"""Replay frames of a finished game: every hand face up, trick by trick, as decided by the engine.

A record stores decks and choices, not who held what or who took each trick; those follow from
the rules. Viewers (the web table's replay, any other client) ask for these frames instead of
working the rules out themselves, so the engine stays the only place a rule is decided. Frames
show every seat's cards, so they are only for games that are over (or for a reader who owns the
record): the server hands them out under the same conditions as the record itself.
"""

from __future__ import annotations

from typing import Any

from ..cards import cards_in, sort_hand
from ..engine import Game, Phase
from .load import load_record


def _cards(game: Game, seat: int) -> list[str]:
    return [str(c) for c in sort_hand(game.hand_of(seat), game.trump)]


def _frame(game: Game, hand: int, hakem: int, trick_no: int) -> dict[str, Any]:
    last = game.completed[-1] if trick_no else None
    return {
        "hand": hand,
        "hakem": hakem,
        "trump": None if game.trump is None else str(game.trump),
        "trick_no": trick_no,
        "trick": None if last is None else {"leader": last.leader, "cards": [str(c) for c in last.cards],
                                            "winner": last.winner},
        "hands": [_cards(game, s) for s in range(game.n)],
        "tricks": list(game.tricks),
        "seat_tricks": list(game.seat_tricks),
    }


def replay_frames(data: dict[str, Any] | str | bytes) -> dict[str, Any]:
    """Frames for a record: one when each hand's play begins, then one after every trick.

    Returns ``{"players", "names", "hakem_draw", "hands": [{"hakem", "trump", "discards",
    "result", "frames": [...]}]}``. Raises :class:`hokm.records.RecordError` for a bad record.
    """
    final = load_record(data)
    game = Game(final.rules, first_hakem=final.first_hakem) if final.hakem_draw is None else \
        Game(final.rules, hakem_draw=final.hakem_draw)
    hands: list[dict[str, Any]] = []
    for kind, value in final.history:
        if kind == "deal":
            game.deal(value)
            hands.append({"hakem": game.hakem, "trump": None, "discards": None, "result": None, "frames": []})
            continue
        before_phase, before_tricks = game.phase, len(game.completed)
        game.apply(value)
        current = hands[-1]
        index = len(hands) - 1
        if game.phase is Phase.PLAY and before_phase is not Phase.PLAY:
            current["trump"] = str(game.trump)
            if game.n == 2:
                current["discards"] = [[str(c) for c in sort_hand(cards_in(game.discards[s]), game.trump)]
                                       for s in range(2)]
            current["frames"].append(_frame(game, index, current["hakem"], 0))
        if len(game.completed) > before_tricks:
            current["frames"].append(_frame(game, index, current["hakem"], len(game.completed)))
        if game.phase in (Phase.DEAL, Phase.OVER) and before_phase is Phase.PLAY:
            current["result"] = game.results[-1].to_json()
    return {
        "players": final.n,
        "hakem_draw": None if final.hakem_draw is None else final.hakem_draw.to_json(),
        "first_hakem": final.first_hakem,
        "scores": list(final.scores),
        "winner": final.winner,
        "hands": hands,
    }
