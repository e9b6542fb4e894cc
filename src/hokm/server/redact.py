"""What each recipient may see of a stored table event: a whitelist per event kind.

Stored events hold the full truth (decks, the secret seed of the next hand, both two-player
discards); :func:`public_event` builds a *new* object for one recipient from the fields that
recipient may know, so a field added to a stored event stays private until it is listed here.
"""

from __future__ import annotations

from typing import Any

#: Fields every recipient sees, per event kind.
_PUBLIC_FIELDS: dict[str, tuple[str, ...]] = {
    "seat": ("seat", "reason", "info"),
    "presence": ("seat", "connected"),
    "start": ("hakem", "hakem_draw"),
    "commit": ("hand", "commit"),  # never server_seed
    "seed": ("seat", "hand"),  # never the seed before the reveal
    "deal": ("hand", "hakem", "commit"),  # never the deck
    "trick": ("hand", "leader", "cards", "winner"),
    "hand_over": ("hand", "result", "scores", "fair"),
    "game_over": ("scores", "winner", "game_id"),
}


def public_action(action: dict[str, Any], actor: int, recipient: int | None) -> dict[str, Any]:
    """An action as ``recipient`` sees it: discarded cards and draw choices only for the actor."""
    kind = action["type"]
    if kind == "play":
        return {"type": "play", "card": action["card"]}
    if kind == "trump":
        return {"type": "trump", "suit": action["suit"]}
    own = recipient is not None and recipient == actor
    if kind == "discard":
        out: dict[str, Any] = {"type": "discard", "count": len(action["cards"])}
        if own:
            out["cards"] = list(action["cards"])
        return out
    if kind == "draw":
        return {"type": "draw", "choice": action["choice"]} if own else {"type": "draw"}
    raise ValueError(f"unknown action type {kind!r}")


def public_event(kind: str, payload: dict[str, Any], recipient: int | None) -> dict[str, Any]:
    """The event ``{"kind": ..., ...}`` for ``recipient`` (a seat, or ``None`` for a spectator)."""
    if kind == "action":
        return {"kind": "action", "seat": payload["seat"], "by": payload["by"],
                "action": public_action(payload["action"], payload["seat"], recipient)}
    fields = _PUBLIC_FIELDS.get(kind)
    if fields is None:
        raise ValueError(f"unknown event kind {kind!r}")
    out = {"kind": kind}
    out.update((f, payload[f]) for f in fields)
    return out
