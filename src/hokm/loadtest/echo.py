"""A bare WebSocket echo server on the library uvicorn uses for the game server (``websockets``).

It does nothing but send each text frame back, so clients timing it measure the floor that the
transport (event loop, framing, the kernel's loopback) puts under any server written on it. The
load run starts it as a separate process, like the game server, and times it with the same pace
and the same frame sizes.
"""

from __future__ import annotations

import asyncio
import sys

from websockets.asyncio.server import ServerConnection, serve


async def _echo(ws: ServerConnection) -> None:
    async for message in ws:
        await ws.send(message)


async def main(port: int = 0) -> None:
    async with serve(_echo, "127.0.0.1", port, max_size=2**20, ping_interval=None) as server:
        bound = next(iter(server.sockets)).getsockname()[1]
        print(f"echo ready: ws://127.0.0.1:{bound}/", flush=True)
        await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 0))
