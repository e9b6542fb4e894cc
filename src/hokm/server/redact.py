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
    "rematch": ("seat",),
    "next_table": ("table_id",),
    "chat": ("channel", "seat", "player", "name", "phrase", "emote", "text"),
}
#: Chat events stored before free text had only these; the rest read as absent.
_CHAT_DEFAULTS: dict[str, Any] = {"channel": "table", "player": None, "name": None, "text": None}


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


def visible_to(kind: str, payload: dict[str, Any], recipient: int | None) -> bool:
    """Whether ``recipient`` (a seat, ``None``: a spectator) receives the event at all.

    The spectators' chat never reaches a seat; everything else reaches everyone (redacted).
    """
    return not (kind == "chat" and recipient is not None and payload.get("channel") == "spectators")


def same_for_everyone(kind: str, payload: dict[str, Any]) -> bool:
    """Whether every recipient of the event gets the same copy of it (:func:`public_event`):
    all but a two-player discard or draw, whose actor alone sees the cards or the choice."""
    return not (kind == "action" and payload["action"]["type"] in ("discard", "draw"))


def public_event(kind: str, payload: dict[str, Any], recipient: int | None) -> dict[str, Any]:
    """The event ``{"kind": ..., ...}`` for ``recipient`` (a seat, or ``None`` for a spectator)."""
    if kind == "action":
        return {"kind": "action", "seat": payload["seat"], "by": payload["by"],
                "action": public_action(payload["action"], payload["seat"], recipient)}
    fields = _PUBLIC_FIELDS.get(kind)
    if fields is None:
        raise ValueError(f"unknown event kind {kind!r}")
    out = {"kind": kind}
    if kind == "chat":
        payload = _CHAT_DEFAULTS | payload
    out.update((f, payload[f]) for f in fields)
    return out
