"""Messages as they go out: JSON text, each part encoded once.

Every action a player makes reaches every seat and the spectators, each with its own view of the
table. :func:`make_views` encodes their views: the fields anyone may know once for all of them,
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

A recipient's copy may also hold the batch as an ``events`` message whose view is a *patch*: only
the members of the view that differ from the recipient's view after the table's previous batch
(:func:`view_patches`). Consecutive views of one seat differ in a few members (the trick, the hand,
whose turn), so the patch is a fifth of the view's length. A connection whose client asked for
patches, and whose last message carried that previous view, sends it instead of the whole view.

What each recipient may see is decided by :mod:`.redact` (its per-event whitelist) and the engine's
views, as before; this module only encodes what they built.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypedDict

import orjson

from ..engine.view import HistoryMemo, ViewSource, own_json, public_json
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
    is the recipient's); ``patch``: the same ``events`` message with a ``view_patch`` in place of
    its ``view`` (``None`` where ``batch`` is, or where there is no view of the recipient to patch).

    A copy :func:`event_frames` makes holds ``batch`` and ``tail`` only once one of them is read by
    key (``copy["batch"]``): read them so, never with ``get``, ``in`` or by iterating, and pass a copy
    through :func:`made_whole` before encoding it."""

    frames: list[Frame]
    tail: str
    batch: str | None
    patch: str | None


#: An empty copy: the recipient sees nothing of the batch (or no connection can take its copy).
NO_COPY: Copy = {"frames": [], "tail": "", "batch": None, "patch": None}


class _Copy(dict):  # type: ignore[type-arg]
    """A :class:`Copy` whose two texts with the whole view (``batch`` and ``tail``) are made when one
    of them is first read: a connection whose client takes view patches, and holds the view the
    patch is made against, reads neither. :func:`made_whole` makes them at once."""

    __slots__ = ("_make",)
    _make: Callable[[], tuple[str | None, str]]

    def __missing__(self, key: str) -> Any:
        if key != "batch" and key != "tail":
            raise KeyError(key)
        self["batch"], self["tail"] = self._make()
        return self[key]


def made_whole(copy: Copy) -> Copy:
    """``copy`` with every text in it (for a copy that leaves the node, encoded as it stands)."""
    copy["tail"]  # read, so made
    return copy


class Views:
    """The views of ``recipients`` at one moment: the public part once, each recipient's own part,
    and each whole view as JSON text (``texts[i]`` is ``recipients[i]``'s, encoded when first asked
    for: patches are made from the parts)."""

    __slots__ = ("recipients", "public", "own", "_texts")

    def __init__(self, recipients: tuple[int | None, ...], public: dict[str, Any], own: list[dict[str, Any]],
                 texts: list[str] | None = None) -> None:
        self.recipients, self.public, self.own, self._texts = recipients, public, own, texts

    @property
    def texts(self) -> list[str]:
        if self._texts is None:
            head = dumps(self.public)[:-1]  # '{...' without its closing brace
            self._texts = [head + "," + dumps(mine)[1:] for mine in self.own]
        return self._texts


def dumps(message: Any) -> str:
    """A message as compact JSON text (UTF-8 kept as is)."""
    return orjson.dumps(message, option=_OPTIONS).decode()


def make_views(game: ViewSource, recipients: Sequence[int | None], memo: HistoryMemo | None = None) -> Views:
    """The views of ``recipients`` (seats; ``None``: spectators), the public part built and encoded once.

    Each text is the object :func:`hokm.engine.view.views_json` gives for that recipient: the public
    object's members, then the recipient's own, in one JSON object. ``memo``: the game's finished
    tricks and hands kept from its views before (:class:`hokm.engine.view.HistoryMemo`).
    """
    own = own_json(game, recipients)  # first: it refuses a seat that is not at the table
    return Views(tuple(recipients), public_json(game, memo), own)


def view_texts(game: ViewSource, recipients: Sequence[int | None]) -> list[str]:
    """The views of ``recipients`` as JSON text (:func:`make_views`)."""
    return make_views(game, recipients).texts


_GONE = object()


def _changed(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """The members of ``after`` that ``before`` lacks or holds with another value; ``None`` when a
    member of ``before`` is gone from ``after`` (a patch only adds and replaces)."""
    if before.keys() - after.keys():
        return None
    return {k: v for k, v in after.items() if before.get(k, _GONE) != v}


def view_patches(before: Views | None, after: Views) -> list[str | None]:
    """Each recipient's view patch from ``before`` to ``after``, as JSON text: the members of its view
    in ``after`` that differ from its view in ``before``, so that the old view's members replaced
    by the patch's are the new view. ``None`` for a recipient that ``before`` holds no view of (or
    whose view lost a member)."""
    if before is None:
        return [None for _ in after.recipients]
    public = _changed(before.public, after.public)
    if public is None:
        return [None for _ in after.recipients]
    head = dumps(public)[:-1]  # '{...'
    index = {r: i for i, r in enumerate(before.recipients)}
    out: list[str | None] = []
    for r, mine in zip(after.recipients, after.own):
        i = index.get(r)
        own = None if i is None else _changed(before.own[i], mine)
        if own is None:
            out.append(None)
        elif not own:
            out.append(head + "}")
        else:
            out.append((head + "," if public else head) + dumps(own)[1:])
    return out


def _sender(event: dict[str, Any]) -> str | None:
    return event.get("player") if event["kind"] == "chat" else None


def with_seats(batch: str, seats: str) -> str:
    """An ``events`` text of :func:`event_frames` with the seats' list (encoded) added."""
    return batch[:-1] + ',"seats":' + seats + "}"


def seats_text(seats: list[dict[str, Any]]) -> str:
    """The seats' list as the text :func:`event_frames` and :func:`with_seats` take."""
    return dumps(seats)


def event_frames(rows: Sequence[EventRow], recipients: Sequence[int | None], views: Views | Sequence[str] | None,
                 seats: str, status: str, deadline: dict[str, Any] | None,
                 patches: Sequence[str | None] | None = None) -> list[Copy]:
    """Every recipient's messages for ``rows``, as text (:class:`Copy`).

    ``views`` holds the view of each recipient after the whole batch (:func:`make_views`, or their
    texts as :func:`view_texts` gives them; ``None``: no game yet); every message of the batch
    carries it. ``patches[i]``, where given, is that view as a patch of the recipient's previous one
    (:func:`view_patches`). ``seats``: the seats' list as :func:`seats_text` encodes it. The texts
    with the whole view are made when first read (:func:`made_whole`).
    """
    ending = ',"status":' + dumps(status) + ',"deadline":' + dumps(deadline) + "}"
    # An event every recipient sees alike: ``{"seq":..,"at":..,"event":..`` (open), its sender.
    shared: dict[int, tuple[str, str | None]] = {}
    out: list[Copy] = []
    for i, r in enumerate(recipients):
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
        opening = patch = None
        if not one_by_one and listed:
            opening = '{"v":' + _VERSION + ',"type":"events","seq":' + str(frames[-1][0]) + ',"events":[' + ",".join(listed)
            changed = None if patches is None else patches[i]
            if changed is not None:
                patch = opening + '],"view_patch":' + changed + ending
        copy = _Copy(frames=frames, patch=patch)
        copy._make = _whole_view(views, i, opening, seats, ending)
        out.append(copy)  # type: ignore[arg-type]
    return out


def _whole_view(views: Views | Sequence[str] | None, i: int, opening: str | None, seats: str,
                ending: str) -> Callable[[], tuple[str | None, str]]:
    """The maker of a :class:`Copy`'s ``batch`` and ``tail``: its ``events`` message (``None`` without
    an ``opening``) and its ``event`` messages' tail, each with recipient ``i``'s whole view."""

    def make() -> tuple[str | None, str]:
        view = "null" if views is None else (views.texts if isinstance(views, Views) else views)[i]
        tail = ',"view":' + view + ',"seats":' + seats + ending
        return (None if opening is None else opening + '],"view":' + view + ending), tail

    return make
