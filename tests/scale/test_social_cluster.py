"""Accounts, friends, presence and invitations across two nodes (PostgreSQL and Redis).

Players are connected to different nodes: a friend request, its acceptance, a friend's presence
(online, at a table, gone) and an invitation each reach the other node live through the Redis bus
and Redis presence entries; an invitation to an offline player waits in PostgreSQL; an account
claimed on one node signs in on the other.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

import pytest

from hokm.loadtest.nodes import start_cluster
from server.harness import Player, run  # tests/ is on the path (rootdir without __init__.py)

pytestmark = [pytest.mark.scale, pytest.mark.timeout(180)]


@dataclass
class Node:
    """What :class:`Player` needs of a server: its address."""

    url: str

    @property
    def ws_url(self) -> str:
        return self.url.replace("http", "ws", 1) + "/ws"


def test_presence_and_invitations_across_two_nodes(tmp_path: Path, pg_url: str, redis_url: str,
                                                   redis_prefix: str) -> None:
    env = {"HOKM_DATABASE_URL": pg_url, "HOKM_REDIS_URL": redis_url, "HOKM_REDIS_PREFIX": redis_prefix,
           "HOKM_DEFAULT_BOT": "random", "HOKM_HINT_BOT": "random"}
    cluster = start_cluster(2, tmp_path, env)
    n0, n1 = (Node(u.rstrip("/")) for u in cluster.urls)

    async def main() -> None:
        a = await Player(n0, "Azadeh").signup()  # type: ignore[arg-type]
        b = await Player(n1, "Babak").signup()  # type: ignore[arg-type]
        c = await Player(n1, "Cyrus").signup()  # type: ignore[arg-type]
        await a.api("POST", "/api/account", {"username": "azadeh", "password": "a long password"})
        await a.connect()
        await b.connect()
        # b (node 1) asks a (node 0) by username: a hears it live, accepts, b hears that
        r = await b.api("POST", "/api/friends", {"username": "Azadeh"}, status=201)
        assert r["player"]["player_id"] == a.id
        assert (await a.expect(lambda m: m["type"] == "friend_request"))["sender"]["player_id"] == b.id
        await a.api("POST", f"/api/friends/{b.id}/accept", {})
        assert (await b.expect(lambda m: m["type"] == "friend_accepted"))["friend"]["player_id"] == a.id
        # node 0 sees b (connected to node 1) online
        assert (await a.api("GET", "/api/friends"))["friends"][0]["online"] is True
        # b opens a game on node 1: a hears it on node 0
        room = await b.api("POST", "/api/tables", {"mode": "computer", "players": 2}, status=201)
        await b.join(room["table_id"])
        at = await a.expect(lambda m: m["type"] == "friend_presence" and m["table"] is not None)
        assert at["player_id"] == b.id and at["table"] == room["table_id"]
        # a invites b to a room made on node 0: it reaches b on node 1 live
        mine = await a.api("POST", "/api/tables", {"mode": "private", "players": 2}, status=201)
        sent = await a.api("POST", "/api/invitations", {"friend": b.id, "table": mine["table_id"]}, status=201)
        got = await b.expect(lambda m: m["type"] == "invitation")
        assert got["invitation"]["id"] == sent["invitation"]["id"] and got["invitation"]["code"] is None
        # c is offline: the invitation waits, and is listed on node 1
        await c.api("POST", "/api/friends", {"code": (await a.api("GET", "/api/account"))["friend_code"]},
                    status=201)
        await a.api("POST", f"/api/friends/{c.id}/accept", {})
        await a.api("POST", "/api/invitations", {"friend": c.id, "table": mine["table_id"]}, status=201)
        pending = (await c.api("GET", "/api/invitations"))["invitations"]
        assert [i["table_id"] for i in pending] == [mine["table_id"]]
        # b leaves: a hears b went offline
        await b.ws.close()
        b.ws = None
        gone = await a.expect(lambda m: m["type"] == "friend_presence" and m["online"] is False)
        assert gone["player_id"] == b.id
        assert (await a.api("GET", "/api/friends"))["friends"][0]["online"] is False
        # the account claimed on node 0 signs in on node 1
        other = Player(n1, "laptop")  # type: ignore[arg-type]
        r2 = await other.http.post("/api/signin", json={"username": "AZADEH", "password": "a long password"})
        assert r2.status_code == 201 and r2.json()["player_id"] == a.id
        for p in (a, b, c, other):
            await p.close()

    try:
        run(main(), timeout=120)
    finally:
        cluster.stop()


def test_free_text_chat_across_two_nodes(tmp_path: Path, pg_url: str, redis_url: str, redis_prefix: str) -> None:
    """Players on different nodes at one private table exchange free text; a spectator's text stays
    with the spectators; a block made on one node holds back the text sent through the other."""
    env = {"HOKM_DATABASE_URL": pg_url, "HOKM_REDIS_URL": redis_url, "HOKM_REDIS_PREFIX": redis_prefix,
           "HOKM_DEFAULT_BOT": "random", "HOKM_HINT_BOT": "random"}
    cluster = start_cluster(2, tmp_path, env)
    n0, n1 = (Node(u.rstrip("/")) for u in cluster.urls)

    def said(text: str):  # type: ignore[no-untyped-def]
        return lambda m: m["type"] == "event" and m["event"]["kind"] == "chat" and m["event"]["text"] == text

    async def main() -> None:
        a = await Player(n0, "Azadeh").signup()  # type: ignore[arg-type]
        b = await Player(n1, "Babak").signup()  # type: ignore[arg-type]
        s = await Player(n1, "Sima").signup()  # type: ignore[arg-type]
        room = await a.api("POST", "/api/tables", {"mode": "private", "players": 2, "seat": 0}, status=201)
        tid = room["table_id"]
        await b.api("POST", f"/api/tables/{tid}/sit", {"seat": 1, "code": room["code"]})
        for p in (a, b, s):
            await p.connect()
            await p.join(tid, code=room["code"])
        await a.send({"type": "chat", "text": "سلام بابک، می\u200cآیی؟"})
        got = await b.expect(said("سلام بابک، می\u200cآیی؟"))
        assert got["event"]["seat"] == 0 and got["event"]["player"] == a.id and got["event"]["channel"] == "table"
        await s.expect(said("سلام بابک، می\u200cآیی؟"))
        await b.send({"type": "chat", "text": "Coming!"})
        assert (await a.expect(said("Coming!")))["event"]["seat"] == 1
        await s.send({"type": "chat", "text": "only for watchers"})
        assert (await s.expect(said("only for watchers")))["event"]["channel"] == "spectators"
        await a.api("POST", f"/api/blocks/{b.id}", {})  # on node 0; b writes through node 1
        await b.send({"type": "chat", "text": "hidden from Azadeh"})
        await s.expect(said("hidden from Azadeh"))
        await b.send({"type": "chat", "phrase": "thanks"})  # quick phrases are held back too
        await s.expect(lambda m: m["type"] == "event" and m["event"]["kind"] == "chat" and m["event"]["phrase"] == "thanks")
        await a.send({"type": "chat", "text": "after"})  # logged after b's: once a hears it, b's went by
        await a.expect(said("after"))
        chats = [m["event"] for m in a.log if m["type"] == "event" and m["event"]["kind"] == "chat"]
        assert not [c for c in chats if c["player"] == b.id and c["text"] != "Coming!"], chats
        assert "only for watchers" not in [c["text"] for c in chats], chats
        for p in (a, b, s):
            await p.close()

    try:
        run(main(), timeout=120)
    finally:
        cluster.stop()


def test_rematch_across_two_nodes(tmp_path: Path, pg_url: str, redis_url: str, redis_prefix: str) -> None:
    """Two players on different nodes finish a game and both ask to play again: each ask is answered,
    the rematch keeps the seats with a new game, and the tables link both ways."""
    from server.harness import game_over

    env = {"HOKM_DATABASE_URL": pg_url, "HOKM_REDIS_URL": redis_url, "HOKM_REDIS_PREFIX": redis_prefix,
           "HOKM_DEFAULT_BOT": "random", "HOKM_HINT_BOT": "random", "HOKM_LEASE_TTL": "2"}
    cluster = start_cluster(2, tmp_path, env)
    n0, n1 = (Node(u.rstrip("/")) for u in cluster.urls)

    async def main() -> None:
        a = await Player(n0, "Azadeh", seed=1).signup()  # type: ignore[arg-type]
        b = await Player(n1, "Babak", seed=2).signup()  # type: ignore[arg-type]
        room = await a.api("POST", "/api/tables", {"mode": "private", "players": 2, "seat": 0,
                                                   "rules": {"target_points": 1}}, status=201)
        tid = room["table_id"]
        await b.api("POST", f"/api/tables/{tid}/sit", {"seat": 1, "code": room["code"]})
        started = await a.api("POST", f"/api/tables/{tid}/start", {})
        for p in (a, b):
            await p.connect()
            await p.join(tid)
        await asyncio.gather(a.play(until=game_over), b.play(until=game_over))
        first = await asyncio.wait_for(b.api("POST", f"/api/tables/{tid}/rematch", {}), 20)  # through node 1
        assert first["rematch"] == [1] and first["next"] is None
        done = await asyncio.wait_for(a.api("POST", f"/api/tables/{tid}/rematch", {}), 20)  # through node 0
        nxt = done["next"]
        assert nxt and nxt != tid and done["rematch"] == [0, 1]
        for p in (a, b):
            linked = await p.expect(lambda m: m["type"] == "event" and m["event"]["kind"] == "next_table")
            assert linked["event"]["table_id"] == nxt
        new = await b.api("GET", f"/api/tables/{nxt}")
        assert new["previous"] == tid and new["status"] == "playing" and new["game_id"] != started["game_id"]
        assert [s["player_id"] for s in new["seats"]] == [a.id, b.id]
        old = await a.api("GET", f"/api/tables/{tid}")
        assert old["next"] == nxt
        assert new["node"] in ("node0", "node1")  # the node that runs the table, for a balancer to route by
        state = await b.join(nxt)
        assert state["seat"] == 1
        for p in (a, b):
            await p.close()

    try:
        run(main(), timeout=120)
    finally:
        cluster.stop()
    logs = "".join(n.log.read_text(errors="replace") for n in cluster.nodes)
    assert logs.count("lost the lease") < 5, logs[-3000:]
    assert "Traceback" not in logs, logs[-3000:]


def test_public_queue_pairs_players_queued_through_either_node(tmp_path: Path, pg_url: str, redis_url: str,
                                                               redis_prefix: str) -> None:
    """The shared queue in Redis: one node forms the tables. Two players queue through one node and
    are paired, then two through the other: one of the pairs queued through the node that does not
    form tables, while the one that does was idle (it looks at the queues once a second then)."""
    env = {"HOKM_DATABASE_URL": pg_url, "HOKM_REDIS_URL": redis_url, "HOKM_REDIS_PREFIX": redis_prefix,
           "HOKM_DEFAULT_BOT": "random", "HOKM_HINT_BOT": "random", "HOKM_QUEUE_WAIT": "60"}
    cluster = start_cluster(2, tmp_path, env)
    nodes = [Node(u.rstrip("/")) for u in cluster.urls]
    try:
        async def main() -> None:
            for k, node in enumerate(nodes):
                pair = [await Player(node, name).signup() for name in (f"Azadeh{k}", f"Babak{k}")]  # type: ignore[arg-type]
                await asyncio.sleep(2)  # nobody queued: the matchmakers are idle
                for p in pair:
                    await p.connect()
                    await p.api("POST", "/api/queue", {"players": 2})
                # no computers: the wait is 60 s, so only the two of them can make this table
                matched = [await asyncio.wait_for(p.expect(lambda m: m["type"] == "matched"), 10) for p in pair]
                assert matched[0]["table"] == matched[1]["table"]
                info = await pair[0].api("GET", f"/api/tables/{matched[0]['table']}")
                assert info["mode"] == "public" and {s["player_id"] for s in info["seats"]} == {p.id for p in pair}
                for p in pair:
                    await p.close()
        run(main(), timeout=60)
    finally:
        cluster.stop()
