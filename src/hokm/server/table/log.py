"""A table's event log: numbered events, **stored before they are published**, kept for resyncs.

Each batch is one transaction in storage, then one message on the bus channel ``table:<id>``
holding a copy per seat and one for spectators, each made only when a connection can take it
(:func:`~hokm.server.redact.public_event` builds each recipient's copy of an event,
:func:`~hokm.server.wire.event_frames` encodes them once); each connection forwards the copy of the
seat its player holds at that moment.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..bus import Bus
from ..redact import public_event, visible_to
from ..storage import EventRow, Storage, TableUpdate
from ..wire import NO_COPY, Copy, Views, event_frames, made_whole, seats_text, view_patches

#: Events that move the game (an action sent before the latest of them is stale).
GAME_KINDS = frozenset({"start", "deal", "action", "trick", "hand_over", "game_over"})

#: The most events a join catches up on; further behind, it gets the view alone (``missed`` null).
MAX_MISSED = 300


class EventLog:
    def __init__(self, table_id: str, storage: Storage, bus: Bus) -> None:
        self.table_id = table_id
        self.storage, self.bus = storage, bus
        self.seq = 0
        self.backlog: list[EventRow] = []
        self.last_game_seq = 0  # the first event of the latest batch that moved the game
        # The views the latest batch was published with, and its last seq: what the next batch's
        # view patches are made against (none after a restore or a takeover: whole views first).
        self._views: Views | None = None
        self._views_seq = 0

    @property
    def channel(self) -> str:
        return f"table:{self.table_id}"

    def loaded(self, rows: list[EventRow]) -> None:
        """The stored events, read back at a restore."""
        self.backlog = rows
        self.seq = rows[-1].seq if rows else 0

    def replayed(self, ev: EventRow) -> None:
        if ev.kind in GAME_KINDS:
            self.last_game_seq = ev.seq

    def last_at(self) -> float | None:
        """When the latest event happened (``None``: none yet)."""
        return self.backlog[-1].at if self.backlog else None

    def rows(self, items: list[tuple[str, dict[str, Any]]], now: float) -> list[EventRow]:
        """The next events, numbered after the last one."""
        return [EventRow(self.table_id, self.seq + i + 1, kind, payload, now) for i, (kind, payload) in enumerate(items)]

    async def append(self, rows: list[EventRow], update: TableUpdate | None) -> None:
        """Store ``rows`` (and the table row's ``update``) in one transaction, then count them as sent."""
        await self.storage.append_events(self.table_id, rows, update)
        self.seq = rows[-1].seq
        if any(r.kind in GAME_KINDS for r in rows):
            # Every message of a batch carries the view after the whole batch, so an action sent
            # after any of them was decided on the current position.
            self.last_game_seq = rows[0].seq
        self.backlog.extend(rows)

    def missed(self, last_seq: int | None, seat: int | None) -> list[dict[str, Any]] | None:
        """The events after ``last_seq`` as ``seat`` may see them; ``None`` when they are not all here, or
        more than :data:`MAX_MISSED` (the view says where the game is; a join asking for a whole long
        history again and again would keep the node redacting it)."""
        if (last_seq is None or last_seq > self.seq or self.seq - last_seq > MAX_MISSED
                or (self.backlog and self.backlog[0].seq > last_seq + 1)):
            return None
        return [{"seq": e.seq, "at": e.at, "event": public_event(e.kind, e.payload, seat)}
                for e in self.backlog if e.seq > last_seq and visible_to(e.kind, e.payload, seat)]

    async def publish(self, rows: list[EventRow], *, players: int, holders: list[str | None],
                      views: Callable[[list[int | None]], Views | None], seats: list[dict[str, Any]],
                      status: str, deadline: dict[str, Any] | None, remote: bool = True,
                      spectators: bool = True) -> None:
        """One bus message for the batch: a copy per seat and one for spectators, as text.

        ``views`` gives the recipients' views (``None`` before the game starts); each copy holds them
        whole, and as patches of the views the previous batch was published with (``base`` in the
        message: that batch's last seq), for a connection whose last message carried it. ``holders`` are
        the player ids of the seats *now*, so a seat that changed hands can never send its view to
        the former occupant. ``remote`` False: no other node has a connection at the table, so the
        message stays on this node.

        Only the copies someone can take are made: none for a seat no person holds (a computer's or
        an empty one: no connection forwards it), and none for spectators when ``spectators`` is
        false (no connection watches: the caller knows, as with ``remote`` False). Such a copy is
        empty. The seats' list is in the message once, as text, for the connections that add it to
        an ``events`` message.
        """
        recipients: list[int | None] = [seat for seat in range(players) if holders[seat] is not None]
        if spectators:
            recipients.append(None)
        seats_json = seats_text(seats)
        made: list[Copy] = []
        now = views(recipients) if recipients else None
        if recipients:
            patches = None if now is None else view_patches(self._views, now)
            made = event_frames(rows, recipients, now, seats_json, status, deadline, patches)
            if remote:  # encoded for the other nodes as they stand
                made = [made_whole(copy) for copy in made]
        base, self._views, self._views_seq = self._views_seq, now, rows[-1].seq
        copies: dict[int | None, Copy] = dict(zip(recipients, made))
        await self.bus.publish(self.channel, {"seq": rows[-1].seq, "base": base,
                                              "per_seat": [copies.get(seat, NO_COPY) for seat in range(players)],
                                              "spectator": copies.get(None, NO_COPY), "holders": holders,
                                              "seats": seats_json}, remote=remote)
