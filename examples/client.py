"""A minimal client of the hokm game server: sign up, start a game against the computer, play it.

    hokm serve --data-dir /tmp/hokm &          # prints the URL
    python examples/client.py http://127.0.0.1:8000 --players 4 --bot random

It follows docs/protocol.md: a guest token over HTTP, then one WebSocket that says ``hello``,
``join``s the table and answers every view whose ``legal`` list is not empty (here with the
first legal action, or the server's hint with ``--hints``). At the end it downloads the record.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

import httpx
import websockets


async def play(base: str, players: int, bot: str | None, use_hints: bool, nickname: str) -> int:
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        guest = (await http.post("/api/guest", json={"nickname": nickname})).raise_for_status().json()
        auth = {"Authorization": f"Bearer {guest['token']}"}
        body = {"mode": "computer", "players": players} | ({"bot": bot} if bot else {})
        table = (await http.post("/api/tables", json=body, headers=auth)).raise_for_status().json()
        print(f"table {table['table_id']}: you are {nickname} at seat 0, bots: {table['bot']}")

        ws_url = base.replace("http", "ws", 1).rstrip("/") + "/ws"
        async with websockets.connect(ws_url) as ws:
            await ws.send(json.dumps({"type": "hello", "token": guest["token"]}))
            await ws.send(json.dumps({"type": "join", "table": table["table_id"]}))
            seq, game_id, answered, view = 0, None, None, None
            while game_id is None:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 120))
                if msg["type"] == "error":
                    print("server:", msg["code"], msg["message"])
                    if msg["code"] == "rate_limited" and view and view["legal"]:
                        await asyncio.sleep(1.0)  # too fast: wait, then answer the same decision again
                        await ws.send(json.dumps({"type": "action", "action": view["legal"][0], "seq": seq}))
                    continue
                if msg["type"] == "hint":
                    await ws.send(json.dumps({"type": "action", "action": msg["action"], "seq": seq}))
                    continue
                if msg["type"] not in ("state", "event"):
                    continue
                seq = msg["seq"]
                event = msg.get("event") or {}
                if event.get("kind") == "hand_over":
                    r = event["result"]
                    print(f"hand {event['hand']}: side {r['winner']} +{r['points']}{' kot' if r['kot'] else ''}; "
                          f"scores {event['scores']}")
                if event.get("kind") == "game_over":
                    game_id = event["game_id"]
                    break
                view = msg.get("view")
                # Several events can arrive together, each with the same (latest) view: answer a
                # decision once, not once per message.
                if view and view["legal"] and json.dumps(view, sort_keys=True) != answered:
                    answered = json.dumps(view, sort_keys=True)
                    if use_hints:
                        await ws.send(json.dumps({"type": "hint"}))
                    else:
                        await ws.send(json.dumps({"type": "action", "action": view["legal"][0], "seq": seq}))
        record = (await http.get(f"/api/games/{game_id}/record", headers=auth)).raise_for_status().json()
        check = (await http.post("/api/verify", json=record, headers=auth)).raise_for_status().json()
        print(f"game {game_id} over after {len(record['hands'])} hands; fairness check: {check['message']}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("url", nargs="?", default="http://127.0.0.1:8000")
    parser.add_argument("--players", type=int, choices=[2, 3, 4], default=4)
    parser.add_argument("--bot", default=None, help="bot level (see GET /api/info)")
    parser.add_argument("--hints", action="store_true", help="play the server's hints instead of the first legal move")
    parser.add_argument("--nickname", default="example")
    args = parser.parse_args()
    return asyncio.run(play(args.url, args.players, args.bot, args.hints, args.nickname))


if __name__ == "__main__":
    sys.exit(main())
