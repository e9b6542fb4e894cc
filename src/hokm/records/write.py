"""Writing a ``hokm/1`` record from a game, and the canonical JSON text of a record.

A record is rebuilt from :attr:`Game.history` (every deal and action in order), so it holds
exactly the facts the rules cannot derive: the deck of each hand, trump, the two-player discards
and draws, and the cards in play order. Hâkem, dealer and hands follow from the rules on replay.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..engine import ChooseTrump, Discard, Draw, Game, Phase, Play
from .load import FORMAT

_TOP_ORDER = ("format", "players", "rules", "names", "first_hakem", "hakem_draw", "hands", "meta")
_HAND_ORDER = ("deck", "trump", "discards", "draws", "plays", "fair")


def _hakem_of_hand(game: Game, index: int) -> int:
    return game.results[index].hakem if index < len(game.results) else game.hakem


def record_from_game(
    game: Game,
    names: Sequence[str] | None = None,
    meta: dict[str, Any] | None = None,
    fair: Sequence[dict[str, Any] | None] | None = None,
) -> dict[str, Any]:
    """The record of ``game`` so far (finished, or in progress at any decision).

    ``names`` gives one name per seat; ``meta`` is copied as is; ``fair`` holds one commit-reveal
    object (or ``None``) per hand, in hand order, as the game server writes them. Raises
    ``ValueError`` when the game's history was dropped (``copy(history=False)``), since the
    decks of earlier hands are then gone.
    """
    n = game.n
    if names is not None:
        names = list(names)
        if len(names) != n or not all(isinstance(x, str) for x in names):
            raise ValueError(f"names must be {n} strings, one per seat")
    hands: list[dict[str, Any]] = []
    hand: dict[str, Any] | None = None
    for kind, value in game.history:
        if kind == "deal":
            hand = {"deck": [str(c) for c in value]}
            if n == 2:
                hand["discards"] = [[], []]
                hand["draws"] = []
            hand["plays"] = []
            hands.append(hand)
            continue
        if hand is None:
            raise ValueError("the game's history does not start at a deal; it was copied without history")
        if isinstance(value, ChooseTrump):
            hand["trump"] = str(value.suit)
        elif isinstance(value, Discard):
            hakem = _hakem_of_hand(game, len(hands) - 1)
            seat = hakem if not hand["discards"][hakem] else 1 - hakem
            hand["discards"][seat] = [str(c) for c in sorted(value.cards)]
        elif isinstance(value, Draw):
            hand["draws"].append(value.choice)
        elif isinstance(value, Play):
            hand["plays"].append(str(value.card))
    dealt = len(game.results) + (0 if game.phase in (Phase.DEAL, Phase.OVER) else 1)
    if len(hands) != dealt:
        raise ValueError(f"the game has dealt {dealt} hands but its history holds {len(hands)}; "
                         "it was copied without history")
    if fair is not None:
        fair = list(fair)
        if len(fair) > len(hands):
            raise ValueError(f"fair has {len(fair)} entries for {len(hands)} hands")
        for h, f in zip(hands, fair):
            if f is not None:
                h["fair"] = dict(f)
    rec: dict[str, Any] = {"format": FORMAT, "players": n, "rules": game.rules.to_dict()}
    if names is not None:
        rec["names"] = names
    if game.hakem_draw is not None:
        rec["hakem_draw"] = game.hakem_draw.to_json()
    else:
        rec["first_hakem"] = game.first_hakem
    rec["hands"] = hands
    if meta is not None:
        rec["meta"] = meta
    return rec


def _ordered(d: dict[str, Any], order: Sequence[str]) -> dict[str, Any]:
    out = {k: d[k] for k in order if k in d}
    out.update((k, d[k]) for k in sorted(set(d) - set(order)))
    return out


def dumps(record: dict[str, Any]) -> str:
    """Compact, canonical JSON text of a record: fixed key order, one line, UTF-8 names kept.

    The same record always gives the same text, so records can be compared, hashed and diffed.
    """
    rec = _ordered(record, _TOP_ORDER)
    if isinstance(rec.get("hands"), list):
        rec["hands"] = [_ordered(h, _HAND_ORDER) if isinstance(h, dict) else h for h in rec["hands"]]
    return json.dumps(rec, separators=(",", ":"), ensure_ascii=False, sort_keys=False)
