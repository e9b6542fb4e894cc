"""The table actor in process: an all-bot game over real storage, and restores at awkward moments."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import orjson
from sqlalchemy import delete, update

from hokm.server.botpool import BotPool
from hokm.server.bus import MemoryBus
from hokm.server.config import ServerConfig
from hokm.server.storage import TableRow, open_storage
from hokm.server.storage.metadata import game_players, games, table_events, tables
from hokm.server.table import TableActor
from hokm.signing import check_signature

CONFIG = ServerConfig(bot_delay=(0.0, 0.0), hand_pause=0.0, signing_key="07" * 32)


def _row(table_id: str, players: int) -> TableRow:
    now = time.time()
    seats = [{"seat": i, "kind": "bot", "player_id": None, "name": f"bot {i}", "bot": "random", "connected": False,
              "auto": False, "reclaim_until": None} for i in range(players)]
    return TableRow(id=table_id, mode="computer", players=players,
                    config={"rules": {"target_points": 3}, "timers": {"trump": 5, "play": 5, "discard": 5, "draw": 5},
                            "bot": "random", "hints": True},
                    host=None, status="waiting", seats=seats, created_at=now, updated_at=now)


async def _wait_over(actor: TableActor) -> None:
    for _ in range(2000):
        if actor.status == "over":
            return
        await asyncio.sleep(0.01)
    raise TimeoutError("the bots did not finish")


def test_all_bot_game_then_restore_finishes_an_interrupted_end(tmp_path: Path) -> None:
    async def main() -> None:
        store = open_storage(f"sqlite+aiosqlite:///{tmp_path / 't.db'}")
        await store.init()
        bus, bots = MemoryBus(), BotPool(2)
        row = _row("t1", 3)
        await store.create_table(row)
        actor = TableActor(row, storage=store, bus=bus, bots=bots, config=CONFIG)
        sub = await bus.subscribe(actor.channel)
        await actor.create()
        await actor.start(None)
        await _wait_over(actor)
        game = await store.get_game(actor.game_id)
        assert game is not None and game.hands == len(actor.game.results) and max(game.scores) >= 3
        events = await store.events("t1")
        assert [e.seq for e in events] == list(range(1, len(events) + 1)) and events[-1].kind == "game_over"
        # Every broadcast batch came after its events were stored, in order.
        seqs = []
        await sub.close()
        async for batch in sub:
            seqs.extend(seq for seq, _sender, _text, _friends in batch["spectator"]["frames"])
        assert seqs == [e.seq for e in events]

        # Pretend the process died after the last action was stored but before game_over.
        async with store.engine.begin() as conn:  # type: ignore[union-attr]
            await conn.execute(delete(table_events).where(table_events.c.seq == events[-1].seq))
            await conn.execute(delete(games))
            await conn.execute(delete(game_players))
            await conn.execute(update(tables).values(status="playing", seq=events[-1].seq - 1))
        again = TableActor((await store.get_table("t1")), storage=store, bus=bus, bots=bots, config=CONFIG)
        await again.restore()
        assert again.status == "over"
        restored = await store.get_game(again.game_id)
        assert restored is not None
        old, new = json.loads(game.record), json.loads(restored.record)
        assert check_signature(old).ok and check_signature(new).ok  # each signed over its own end time
        assert old["meta"].pop("signature")["public_key"] == new["meta"].pop("signature")["public_key"]
        assert old["meta"].pop("ended_at") <= new["meta"].pop("ended_at")
        assert new == old
        assert (await store.events("t1"))[-1].kind == "game_over"
        bots.close()
        await store.close()
    asyncio.run(asyncio.wait_for(main(), 120))


def test_restore_mid_game_continues_to_the_same_kind_of_end(tmp_path: Path) -> None:
    async def main() -> None:
        store = open_storage(f"sqlite+aiosqlite:///{tmp_path / 't.db'}")
        await store.init()
        bus, bots = MemoryBus(), BotPool(2)
        row = _row("t2", 2)
        await store.create_table(row)
        actor = TableActor(row, storage=store, bus=bus, bots=bots, config=CONFIG)
        await actor.create()
        await actor.start(None)
        while actor.game is None or actor.game.hand_index < 1:
            await asyncio.sleep(0.005)
        actor.close()  # the process "stops": timers gone, events stay
        async with actor._lock:
            live = actor.game.history
        again = TableActor((await store.get_table("t2")), storage=store, bus=bus, bots=bots, config=CONFIG)
        await again.restore()
        assert again.game is not None
        restored = again.game.history  # read before the restored table's bots get a turn
        # Everything played is on disk, except at most the move being written when it stopped.
        assert len(restored) >= len(live) - 1 and restored[:len(live) - 1] == live[:len(live) - 1]
        await _wait_over(again)
        assert (await store.get_game(again.game_id)) is not None
        bots.close()
        await store.close()
    asyncio.run(asyncio.wait_for(main(), 120))


class _RecordingBus(MemoryBus):
    """The in-process bus, noting for each table event batch whether it was to reach other nodes."""

    def __init__(self) -> None:
        super().__init__()
        self.remote: list[bool] = []
        self.carried: list[dict] = []  # type: ignore[type-arg]  # what another node would read of each remote one

    async def publish(self, channel: str, message: dict, *, remote: bool = True) -> None:  # type: ignore[type-arg]
        self.remote.append(remote)
        if remote:  # encoded as the Redis bus encodes it, before any local reader has read a copy
            self.carried.append(orjson.loads(orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)))
        await super().publish(channel, message, remote=remote)


def test_events_go_to_other_nodes_only_while_one_has_a_connection_there(tmp_path: Path) -> None:
    """A table made on this node knows every other node's connection (each joins through it): its
    events stay on the node until one joins, and again once it left. A table restored here (taken
    over, restarted) cannot know, so its events always go out."""
    async def main() -> None:
        store = open_storage(f"sqlite+aiosqlite:///{tmp_path / 'w.db'}")
        await store.init()
        bus, bots = _RecordingBus(), BotPool(2)
        row = _row("t1", 2)
        row.config["rules"]["target_points"] = 7
        await store.create_table(row)
        actor = TableActor(row, storage=store, bus=bus, bots=bots, config=CONFIG)
        actor.watchers_known = True
        await actor.create()
        await actor.start(None)
        assert bus.remote and not any(bus.remote)  # nobody elsewhere: nothing through Redis
        actor.watched_from("node-b", +1)
        actor.watched_from("node-b", +1)
        n = len(bus.remote)
        await _wait_for(lambda: len(bus.remote) > n + 2)
        assert all(bus.remote[n:])
        # Each copy another node reads is whole: its texts with the whole view made before encoding.
        copies = [c for m in bus.carried for c in [*m["per_seat"], m["spectator"]] if c["frames"]]
        assert copies and all(set(c) == {"frames", "tail", "batch", "patch"} and c["tail"].startswith(',"view":')
                              for c in copies)
        actor.watched_from("node-b", -1)
        assert actor.watchers == {"node-b": 1}
        actor.watched_from("node-b", -1)
        n = len(bus.remote)
        await _wait_for(lambda: len(bus.remote) > n + 2)
        assert not any(bus.remote[n + 1:])  # the batch in flight aside, back on this node alone
        actor.close()
        await actor.aclose()
        again = TableActor((await store.get_table("t1")), storage=store, bus=bus, bots=bots, config=CONFIG)
        await again.restore()
        n = len(bus.remote)
        await _wait_for(lambda: len(bus.remote) > n + 2)
        assert all(bus.remote[n:])
        again.close()
        await again.aclose()
        await store.close()

    asyncio.run(main())


async def _wait_for(cond) -> None:  # type: ignore[no-untyped-def]
    for _ in range(2000):
        if cond():
            return
        await asyncio.sleep(0.005)
    raise TimeoutError("never happened")


class _CopyBus(MemoryBus):
    """The in-process bus, keeping each table batch's copies: which seats got one, and the spectators."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: list[tuple[list[bool], bool]] = []

    async def publish(self, channel: str, message: dict, *, remote: bool = True) -> None:  # type: ignore[type-arg]
        if "per_seat" in message:
            self.batches.append(([bool(c["frames"]) for c in message["per_seat"]], bool(message["spectator"]["frames"])))
        await super().publish(channel, message, remote=remote)


def test_copies_are_made_only_for_whom_a_connection_can_take_them(tmp_path: Path) -> None:
    """A person's seat always gets its copy of a batch; a computer's never (no connection forwards
    it); the spectators' copy is made while somebody watches on this node, or when another node
    may hold a watcher."""
    async def main() -> None:
        from hokm.engine import Phase

        store = open_storage(f"sqlite+aiosqlite:///{tmp_path / 'c.db'}")
        await store.init()
        bus, bots = _CopyBus(), BotPool(2)
        row = _row("t1", 4)
        row.seats[0] = row.seats[0] | {"kind": "human", "player_id": "p1", "name": "Sara", "bot": None}
        row.config["timers"] = {"trump": 60, "play": 60, "discard": 60, "draw": 60}
        await store.create_table(row)
        actor = TableActor(row, storage=store, bus=bus, bots=bots, config=CONFIG)
        actor.watchers_known = True
        await actor.create()
        await actor.start(None)

        async def play_once() -> None:
            await _wait_for(lambda: actor.game is not None and actor.game.phase is not Phase.DEAL
                            and actor.game.to_move == 0)
            n = len(bus.batches)
            await actor.act("p1", actor.game.legal_actions()[0].to_json(), None)
            await _wait_for(lambda: len(bus.batches) > n)

        await play_once()
        assert bus.batches and all(seats == [True, False, False, False] and not watched
                                   for seats, watched in bus.batches)
        await actor.join("p9", None)  # somebody watches
        n = len(bus.batches)
        await play_once()
        assert all(seats == [True, False, False, False] and watched for seats, watched in bus.batches[n:])
        await actor.disconnect("p9")
        n = len(bus.batches)
        await play_once()
        assert all(not watched for _, watched in bus.batches[n:])
        actor.watchers_known = False  # restored here: another node may hold a watcher
        n = len(bus.batches)
        await play_once()
        assert all(watched for _, watched in bus.batches[n:])
        actor.close()
        await actor.aclose()
        await store.close()

    asyncio.run(main())


def _row_with_person(table_id: str) -> TableRow:
    row = _row(table_id, 4)
    row.seats[0] = {"seat": 0, "kind": "human", "player_id": "p0", "name": "Nima", "bot": None, "connected": False,
                    "auto": False, "reclaim_until": None}
    return row


async def _until(check, what: str) -> None:  # type: ignore[no-untyped-def]
    for _ in range(2000):
        if check():
            return
        await asyncio.sleep(0.005)
    raise TimeoutError(what)


def test_a_table_its_person_left_waits_and_goes_on_when_they_act(tmp_path: Path) -> None:
    """Paused with nobody at it: no bot moves, no grace period takes the seat; acting sets it going. A table a
    cluster node took over (who is connected elsewhere unknown) is never paused."""
    async def main() -> None:
        store = open_storage(f"sqlite+aiosqlite:///{tmp_path / 't.db'}")
        await store.init()
        bus, bots = MemoryBus(), BotPool(2)
        for tid, known in (("t3", True), ("t4", False)):
            row = _row_with_person(tid)
            await store.create_table(row)
            actor = TableActor(row, storage=store, bus=bus, bots=bots, config=CONFIG)
            actor.watchers_known = known
            await actor.create()
            await actor.join("p0", None)
            await actor.start(None)
            await _until(lambda a=actor: a.game is not None and a.game.hand_index == 0 and a.game.to_move == 0
                         and a.game.phase.value == "play", "the person's turn to play")
            await actor.disconnect("p0")
            assert actor.turns.paused is known and (actor.deadline is None) is known
            if not known:
                assert actor.deadline is not None and actor.deadline["seat"] == 0
                actor.close()
                continue
            seq = actor.seq
            await actor._absent(0)  # a grace period that had already run out when the table paused
            await asyncio.sleep(0.2)
            assert actor.seq == seq and not actor.seats[0].auto
            view = actor.game.view(0)
            await actor.act("p0", view.legal[0].to_json(), None)
            assert not actor.turns.paused
            await _until(lambda a=actor, s=seq: a.seq > s + 3, "the bots playing on")
            actor.close()
        bots.close()
        await store.close()
    asyncio.run(asyncio.wait_for(main(), 120))
