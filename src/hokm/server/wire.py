"""Messages as they go out: JSON text, each made once.

Every action a player makes reaches every seat and the spectators, each with its own view of the
table. :func:`view_texts` encodes their views: the fields anyone may know once for all of them,
then each recipient's own fields (its hand, its legal actions) joined to that text.
:func:`event_frames` encodes a batch of events for all of them at once: each recipient's view
once (however many events the batch holds), the seats' list once for everyone, each event's
public copy once where every recipient sees the same. A connection then sends the text it is
given, untouched, so an event costs one encoding per recipient, not one per connection.

Each recipient's copy holds the batch twice: as one ``event`` message per event (what every client
understands), and as one ``events`` message for the whole batch (for clients that ask for it in
``hello``: one frame per batch, the view once, the seats only when they changed). The ``events``
text leaves the seats out; a connection adds them (:func:`with_seats`) when they differ from the
last seats it sent.

What each recipient may see is decided by :mod:`.redact` (its per-event whitelist) and the engine's
views, as before; this module only encodes what they built.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

import orjson

from ..engine.view import ViewSource, own_json, public_json
from .protocol import PROTOCOL_VERSION
from .redact import public_event, same_for_everyone, visible_to
from .storage import EventRow

_OPTIONS = orjson.OPT_NON_STR_KEYS

#: One message of a batch for one recipient: ``[seq, sender, text, friends_only]``. ``sender`` is the
#: player id behind a chat message, words or an emote (a connection holds back a blocked player's),
#: else ``None``; ``friends_only``: words for the sender's friends (a connection passes them on only
#: to a friend).
Frame = list[Any]


class Copy(TypedDict):
    """One recipient's copy of a batch: its ``event`` messages, and the batch as one ``events``
    message without its seats (``None``: a chat event in the batch names its sender, which each
    connection checks, so the messages go one by one; or nothing of the batch is the recipient's)."""

    frames: list[Frame]
    batch: str | None


def dumps(message: Any) -> str:
    """A message as compact JSON text (UTF-8 kept as is)."""
    return orjson.dumps(message, option=_OPTIONS).decode()


def encoded(value: Any) -> orjson.Fragment:
    """``value`` encoded now, to be embedded as it is in messages encoded later."""
    return orjson.Fragment(orjson.dumps(value, option=_OPTIONS))


def view_texts(game: ViewSource, recipients: Sequence[int | None]) -> list[orjson.Fragment]:
    """The views of ``recipients`` (seats; ``None``: spectators) as JSON text, the public part encoded once.

    Each text is the object :func:`hokm.engine.view.views_json` gives for that recipient: the public
    object's members, then the recipient's own, in one JSON object.
    """
    own = own_json(game, recipients)  # first: it refuses a seat that is not at the table
    public = orjson.dumps(public_json(game), option=_OPTIONS)[:-1]  # '{...' without its closing brace
    return [orjson.Fragment(public + b"," + orjson.dumps(mine, option=_OPTIONS)[1:]) for mine in own]


_NULL = orjson.Fragment(b"null")


def _sender(event: dict[str, Any]) -> str | None:
    return event.get("player") if event["kind"] == "chat" else None


def with_seats(batch: str, seats: str) -> str:
    """An ``events`` text of :func:`event_frames` with the seats' list (encoded) added."""
    return batch[:-1] + ',"seats":' + seats + "}"


def event_frames(rows: Sequence[EventRow], recipients: Sequence[int | None],
                 views: Sequence[orjson.Fragment] | None, seats: str, status: str,
                 deadline: dict[str, Any] | None) -> list[Copy]:
    """Every recipient's messages for ``rows``, as text (:class:`Copy`).

    ``views[i]`` is the view of ``recipients[i]`` after the whole batch, as :func:`view_texts` gives
    it (``None``: no game yet); every message of the batch carries it. ``seats``: the seats' list
    as :func:`seats_text` encodes it.
    """
    seats_f = orjson.Fragment(seats)
    deadline_f = encoded(deadline)
    shared: dict[int, tuple[dict[str, Any], str | None]] = {}  # an event every recipient sees alike
    out: list[Copy] = []
    for i, r in enumerate(recipients):
        view_f = _NULL if views is None else views[i]
        frames: list[Frame] = []
        listed: list[dict[str, Any]] = []
        one_by_one = False
        for e in rows:
            if not visible_to(e.kind, e.payload, r):
                continue
            if not same_for_everyone(e.kind, e.payload):
                event = public_event(e.kind, e.payload, r)
                sender = None
            else:
                if e.seq not in shared:
                    ev = public_event(e.kind, e.payload, r)
                    shared[e.seq] = (ev, _sender(ev))
                event, sender = shared[e.seq]
            text = orjson.dumps({"v": PROTOCOL_VERSION, "type": "event", "seq": e.seq, "at": e.at, "event": event,
                                 "view": view_f, "seats": seats_f, "status": status, "deadline": deadline_f},
                                option=_OPTIONS).decode()
            frames.append([e.seq, sender, text, e.kind == "chat" and e.payload.get("channel") == "friends"])
            listed.append({"seq": e.seq, "at": e.at, "event": event})
            one_by_one = one_by_one or sender is not None
        batch = None if one_by_one or not listed else orjson.dumps(
            {"v": PROTOCOL_VERSION, "type": "events", "seq": listed[-1]["seq"], "events": listed, "view": view_f,
             "status": status, "deadline": deadline_f}, option=_OPTIONS).decode()
        out.append({"frames": frames, "batch": batch})
    return out


def seats_text(seats: list[dict[str, Any]]) -> str:
    """The seats' list as the text :func:`event_frames` and :func:`with_seats` take."""
    return orjson.dumps(seats, option=_OPTIONS).decode()
