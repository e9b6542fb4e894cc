"""Messages as they go out: JSON text, each part encoded once.

Every action a player makes reaches every seat and the spectators, each with its own view of the
table. :func:`view_texts` encodes their views: the fields anyone may know once for all of them,
then each recipient's own fields (its hand, its legal actions) joined to that text.
:func:`event_frames` encodes a batch of events for all of them at once: each event once where
every recipient sees the same (else once per recipient), the seats' list, the status and the
deadline once, each recipient's view once however many events the batch holds; the messages are
those encoded parts joined. A connection then sends the text it is given, so an event costs one
encoding, not one per recipient or per connection.

Each recipient's copy holds the batch both ways: as one ``event`` message per event (what every
client understands), each a *head* (the message up to its view) to which the connection joins the
recipient's *tail* (the view, the seats, the status and the deadline), and as one ``events``
message for the whole batch (for clients that ask for it in ``hello``: one frame per batch, the
view once, the seats only when they changed). The ``events`` text leaves the seats out; a
connection adds them (:func:`with_seats`) when they differ from the last seats it sent.

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
_VERSION = str(PROTOCOL_VERSION)

#: One event of a batch for one recipient: ``[seq, sender, head, friends_only]``. ``head`` is the
#: ``event`` message up to its view (joined to the recipient's :class:`Copy` ``tail`` it is the
#: whole message). ``sender`` is the player id behind a chat message, words or an emote (a
#: connection holds back a blocked player's), else ``None``; ``friends_only``: words for the
#: sender's friends (a connection passes them on only to a friend).
Frame = list[Any]


class Copy(TypedDict):
    """One recipient's copy of a batch: its ``event`` messages (each ``head + tail``), and the batch
    as one ``events`` message without its seats (``None``: a chat event in the batch names its
    sender, which each connection checks, so the messages go one by one; or nothing of the batch
    is the recipient's)."""

    frames: list[Frame]
    tail: str
    batch: str | None


def dumps(message: Any) -> str:
    """A message as compact JSON text (UTF-8 kept as is)."""
    return orjson.dumps(message, option=_OPTIONS).decode()


def view_texts(game: ViewSource, recipients: Sequence[int | None]) -> list[str]:
    """The views of ``recipients`` (seats; ``None``: spectators) as JSON text, the public part encoded once.

    Each text is the object :func:`hokm.engine.view.views_json` gives for that recipient: the public
    object's members, then the recipient's own, in one JSON object.
    """
    own = own_json(game, recipients)  # first: it refuses a seat that is not at the table
    public = dumps(public_json(game))[:-1]  # '{...' without its closing brace
    return [public + "," + dumps(mine)[1:] for mine in own]


def _sender(event: dict[str, Any]) -> str | None:
    return event.get("player") if event["kind"] == "chat" else None


def with_seats(batch: str, seats: str) -> str:
    """An ``events`` text of :func:`event_frames` with the seats' list (encoded) added."""
    return batch[:-1] + ',"seats":' + seats + "}"


def seats_text(seats: list[dict[str, Any]]) -> str:
    """The seats' list as the text :func:`event_frames` and :func:`with_seats` take."""
    return dumps(seats)


def event_frames(rows: Sequence[EventRow], recipients: Sequence[int | None], views: Sequence[str] | None,
                 seats: str, status: str, deadline: dict[str, Any] | None) -> list[Copy]:
    """Every recipient's messages for ``rows``, as text (:class:`Copy`).

    ``views[i]`` is the view of ``recipients[i]`` after the whole batch, as :func:`view_texts` gives
    it (``None``: no game yet); every message of the batch carries it. ``seats``: the seats' list
    as :func:`seats_text` encodes it.
    """
    ending = ',"status":' + dumps(status) + ',"deadline":' + dumps(deadline) + "}"
    # An event every recipient sees alike: ``{"seq":..,"at":..,"event":..`` (open), its sender.
    shared: dict[int, tuple[str, str | None]] = {}
    out: list[Copy] = []
    for i, r in enumerate(recipients):
        view = "null" if views is None else views[i]
        frames: list[Frame] = []
        listed: list[str] = []
        one_by_one = False
        for e in rows:
            if not visible_to(e.kind, e.payload, r):
                continue
            if e.seq in shared:
                item, sender = shared[e.seq]
            else:
                event = public_event(e.kind, e.payload, r)
                item, sender = '{"seq":' + str(e.seq) + ',"at":' + dumps(e.at) + ',"event":' + dumps(event), _sender(event)
                if same_for_everyone(e.kind, e.payload):
                    shared[e.seq] = (item, sender)
            frames.append([e.seq, sender, '{"v":' + _VERSION + ',"type":"event",' + item[1:],
                           e.kind == "chat" and e.payload.get("channel") == "friends"])
            listed.append(item + "}")
            one_by_one = one_by_one or sender is not None
        batch = None if one_by_one or not listed else (
            '{"v":' + _VERSION + ',"type":"events","seq":' + str(frames[-1][0]) + ',"events":[' + ",".join(listed)
            + '],"view":' + view + ending)
        out.append({"frames": frames, "tail": ',"view":' + view + ',"seats":' + seats + ending, "batch": batch})
    return out
