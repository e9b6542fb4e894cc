"""What a node spends making one action's messages, by who can receive them, and sending them.

    python scripts/measure_publish.py [--games 4] [--repeat 5] [--tables 200]

Plays random four-player games with the engine and, after every action, builds the batch's
messages as a table does before it publishes them (:func:`hokm.server.wire.view_texts` and
:func:`hokm.server.wire.event_frames`) for two sets of recipients: every seat and the spectators
(what a table made before copies were limited to those a connection can take), and one seat alone
(a person playing three computers with nobody watching). Then, for the four seats, what their
connections send: one ``event`` message per event or one ``events`` message per batch (the seats
only when they changed), each encoded to UTF-8 and compressed as a connection's permessage-deflate
does (:mod:`measure_deflate`'s settings). A batch is the action, and the trick when the action
ends one. The batch goes as one ``events`` message with the whole view, or with the view as a patch
of the seat's previous view (:func:`hokm.server.wire.view_patches`, made against the views of the
action before). Prints the microseconds per action of each, the fastest of ``--repeat`` passes
over the same actions, and the bytes sent before and after compression.

Then compression alone as a node does it with many connections: the batches of ``--tables``
tables, each replaying the same actions from its own starting point, compressed table after table,
each seat with its own deflate context (four per table), so that a context is cold in the cache
when its next message comes; with uvicorn's settings (a 4 KiB window, ``memLevel`` 5) and with a
2 KiB window and ``memLevel`` 4; and patched, with messages under 1 KiB sent as they are, as the
server does (:mod:`hokm.server.wsdeflate`). Prints microseconds per action and bytes per action.

And a table's own publishing as a node does it (``--table-only``: this alone), four seats whose
clients take view patches: the table's game played on (so the views can reuse what the views before
made), its views, patches and copies, and the text each connection reads. Runs on an older tree
too (``PYTHONPATH=/path/to/its/src``), to compare.
"""

from __future__ import annotations

import argparse
import time
import zlib

from measure_deflate import random_actions

from hokm.engine import Game
from hokm.server.storage import EventRow
from hokm.server.wire import Views, event_frames, make_views, seats_text, view_patches, view_texts, with_seats
from hokm.server.wsdeflate import MIN_BYTES

SEATS = seats_text([{"seat": s, "kind": "human", "player_id": f"{s:016x}", "name": f"بازیکن {s + 1}", "bot": None,
                     "connected": True, "auto": False, "reclaim_until": None} for s in range(4)])
DEADLINE = {"seat": 1, "kind": "play", "at": 1764288020.5, "seconds": 20.0}


def positions(games: int) -> list[tuple[Game, list[EventRow]]]:
    """Each action of ``games`` random games: the game after it (a copy) and its event rows."""
    out: list[tuple[Game, list[EventRow]]] = []
    seq = 0
    for game, seat, action in random_actions(games):
        seq += 1
        rows = [EventRow("t", seq, "action", {"seat": seat, "action": action.to_json(), "by": "player"}, 1.0)]
        if game.completed and not game.trick and action.to_json()["type"] == "play":
            t = game.completed[-1]
            seq += 1
            rows.append(EventRow("t", seq, "trick", {"hand": game.hand_index, "leader": t.leader,
                                                     "cards": [str(c) for c in t.cards], "winner": t.winner}, 1.0))
        out.append((game.copy(), rows))
    return out


def per_action(actions: list[tuple[Game, list[EventRow]]], recipients: list[int | None], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for game, rows in actions:
            event_frames(rows, recipients, view_texts(game, recipients), SEATS, "playing", DEADLINE)
        best = min(best, time.perf_counter() - t0)
    return best / len(actions) * 1e6


MODES = {"each": "one per event", "batched": "one per batch", "patched": "one per batch, view patched"}


def sent(actions: list[tuple[Game, list[EventRow]]], mode: str, repeat: int,
         min_bytes: int = 0) -> tuple[float, int, int, int]:
    """Microseconds per action to make the four seats' messages and compress them (``mode``: one of
    :data:`MODES`; messages under ``min_bytes`` go uncompressed, as the server sends them); and the
    messages, bytes and bytes on the wire of a pass."""
    best, seats = float("inf"), [0, 1, 2, 3]
    batched = mode != "each"
    for _ in range(repeat):
        encoders = [zlib.compressobj(6, zlib.DEFLATED, -12, 5) for _ in seats]
        last: list[str | None] = [None for _ in seats]
        before: Views | None = None
        count = raw = packed = 0
        t0 = time.perf_counter()
        for game, rows in actions:
            now = make_views(game, seats)
            patches = view_patches(before, now) if mode == "patched" else None
            before = now
            for i, copy in enumerate(event_frames(rows, seats, now.texts, SEATS, "playing", DEADLINE, patches)):
                whole = copy["patch"] or copy["batch"]
                if batched and whole is not None:
                    texts = [whole if last[i] == SEATS else with_seats(whole, SEATS)]
                    last[i] = SEATS
                else:
                    texts = [head + copy["tail"] for _, _, head, _ in copy["frames"]]
                for text in texts:
                    data = text.encode()
                    if len(data) < min_bytes:
                        count, raw, packed = count + 1, raw + len(data), packed + len(data)
                        continue
                    out = encoders[i].compress(data) + encoders[i].flush(zlib.Z_SYNC_FLUSH)
                    count, raw, packed = count + 1, raw + len(data), packed + len(out) - 4
        best = min(best, time.perf_counter() - t0)
    return best / len(actions) * 1e6, count, raw, packed


def as_a_table(games: int, repeat: int) -> float:
    """Microseconds per action of a table's own publishing work for four seats whose clients take
    patches: the views (the table's game itself, played on, with its ``HistoryMemo`` where the tree
    has one), the patches, the copies, and the text each connection reads from its copy. Works on
    older trees too (``PYTHONPATH``), whose views took no memo and whose copies took the texts."""
    from hokm.engine import view as engine_view
    from hokm.server import wire

    memo_kind = getattr(engine_view, "HistoryMemo", None)
    seats = [0, 1, 2, 3]
    best = float("inf")
    for _ in range(repeat):
        total, n, seq, game_seen = 0.0, 0, 0, None
        for game, seat, action in random_actions(games):
            if game is not game_seen:
                game_seen, before = game, None
                memo = None if memo_kind is None else memo_kind()
            seq += 1
            rows = [EventRow("t", seq, "action", {"seat": seat, "action": action.to_json(), "by": "player"}, 1.0)]
            t0 = time.perf_counter()
            now = wire.make_views(game, seats) if memo is None else wire.make_views(game, seats, memo)
            patches = wire.view_patches(before, now)
            for copy in wire.event_frames(rows, seats, now.texts if memo is None else now, SEATS, "playing",
                                          DEADLINE, patches):
                if copy["patch"] is None:
                    copy["batch"]  # read by a connection without the view the patch is made against
            total += time.perf_counter() - t0
            n, before = n + 1, now
        best = min(best, total / n)
    return best * 1e6


def in_turn(actions: list[tuple[Game, list[EventRow]]], patched: bool, tables: int, wbits: int,
            mem_level: int, min_bytes: int = 0) -> tuple[float, float]:
    """Microseconds and bytes on the wire per action, the four seats' batches of ``tables`` tables
    compressed one table after another (each table ``37`` actions ahead of the one before); those
    under ``min_bytes`` sent as they are."""
    messages: list[list[bytes]] = []
    before: Views | None = None
    for game, rows in actions:
        now = make_views(game, [0, 1, 2, 3])
        patches = view_patches(before, now) if patched else None
        before = now
        copies = event_frames(rows, [0, 1, 2, 3], now.texts, SEATS, "playing", DEADLINE, patches)
        messages.append([((c["patch"] or c["batch"]) if patched else c["batch"] or "").encode() for c in copies])
    encoders = [[zlib.compressobj(6, zlib.DEFLATED, -wbits, mem_level) for _ in range(4)] for _ in range(tables)]
    n, packed, rounds = 0, 0, max(1, 20000 // tables)
    t0 = time.perf_counter()
    for r in range(rounds):
        for t, seats in enumerate(encoders):
            for enc, data in zip(seats, messages[(t * 37 + r) % len(messages)]):
                if len(data) < min_bytes:
                    packed += len(data)
                else:
                    packed += len(enc.compress(data) + enc.flush(zlib.Z_SYNC_FLUSH)) - 4
            n += 1
    return (time.perf_counter() - t0) / n * 1e6, packed / n


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--thresholds", default="", help="also: the batches in turn, patched, leaving messages under each "
                   "of these byte counts uncompressed (comma-separated, e.g. 0,256,512,1024)")
    p.add_argument("--table-only", action="store_true", help="only a table's own publishing, as a node does it")
    a = p.parse_args()
    if a.table_only:
        print(f"a table's own publishing, four seats taking patches, the game played on: "
              f"{as_a_table(a.games, a.repeat):.1f} us an action")
        return
    actions = positions(a.games)
    every = per_action(actions, [0, 1, 2, 3, None], a.repeat)
    one = per_action(actions, [0], a.repeat)
    print(f"{len(actions)} actions: every seat and the spectators {every:.1f} us an action, "
          f"one seat {one:.1f} us ({one / every:.0%})")
    for mode, words in MODES.items():
        us, count, raw, packed = sent(actions, mode, a.repeat)
        n = len(actions)
        print(f"four seats' messages made and compressed, {words}: "
              f"{us:.1f} us an action; {count / n:.2f} messages, {raw / n:.0f} bytes, {packed / n:.0f} compressed")
    us, count, raw, packed = sent(actions, "patched", a.repeat, MIN_BYTES)
    print(f"four seats' messages made and compressed, {MODES['patched']}, those under {MIN_BYTES} bytes as they are: "
          f"{us:.1f} us an action; {count / len(actions):.2f} messages, {raw / len(actions):.0f} bytes, "
          f"{packed / len(actions):.0f} on the wire")

    print(f"a table's own publishing, four seats taking patches, the game played on: "
          f"{as_a_table(a.games, a.repeat):.1f} us an action")

    for patched in (False, True):
        for wbits, mem_level in ((12, 5), (11, 4)):
            us, packed = in_turn(actions, patched, a.tables, wbits, mem_level)
            print(f"{a.tables} tables' batches compressed in turn, {'view patched' if patched else 'whole view'}, "
                  f"window {2 ** wbits // 1024} KiB, memLevel {mem_level}: {us:.1f} us an action, "
                  f"{packed:.0f} compressed bytes")
    for min_bytes in [MIN_BYTES, *[int(x) for x in a.thresholds.split(",") if x]]:
        us, packed = in_turn(actions, True, a.tables, 12, 5, min_bytes)
        print(f"{a.tables} tables' batches compressed in turn, view patched, those under {min_bytes} bytes as they are: "
              f"{us:.1f} us an action, {packed:.0f} bytes on the wire")


if __name__ == "__main__":
    main()
