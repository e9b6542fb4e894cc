"""What permessage-deflate costs a node per message, at each compression level, on real event messages.

    python scripts/measure_deflate.py [--games 6]

Plays random four-player games with the engine and builds, after every action, the ``event`` message
each of the four seats and the spectators would receive (``views_json``, encoded as the server encodes
it). Each recipient's stream is then compressed as one WebSocket connection compresses it: raw deflate
with a 4 KiB window (12 bits), the context kept from message to message, each message flushed; the
settings uvicorn's sans-I/O protocol uses, with ``memLevel`` 5 and the zlib level varied. Prints the
microseconds per message and the compressed size as a share of the raw one.
"""

from __future__ import annotations

import argparse
import random
import time
import zlib
from collections.abc import Iterator

from hokm.engine import Action, Game, Phase, Rules
from hokm.engine.view import views_json
from hokm.server.wire import dumps


def random_actions(games: int) -> Iterator[tuple[Game, int, Action]]:
    """``(game, seat, action)`` after every action of ``games`` random four-player games (seeds 0, 1, ...)."""
    for g in range(games):
        rng = random.Random(g)
        game = Game.new(Rules(players=4), rng=rng)
        while not game.is_over:
            if game.phase is Phase.DEAL:  # the next hand
                game.deal(rng=rng)
                continue
            seat = game.to_move
            action = rng.choice(game.legal_actions())
            game.apply(action, seat)
            yield game, seat, action


def streams(games: int) -> list[list[bytes]]:
    """Each recipient's messages (four seats, then the spectators) over ``games`` random games."""
    out: list[list[bytes]] = [[] for _ in range(5)]
    seats = [{"seat": s, "kind": "bot", "name": f"Computer {s + 1}", "bot": "medium", "connected": False,
              "auto": False} for s in range(4)]
    seq = 0
    for game, seat, action in random_actions(games):
        seq += 1
        for i, view in enumerate(views_json(game, [0, 1, 2, 3, None])):
            message = {"v": 1, "type": "event", "seq": seq, "at": 1764288000.0 + seq,
                       "event": {"kind": "action", "seat": seat, "action": action.to_json()},
                       "view": view, "seats": seats, "status": "playing",
                       "deadline": {"seat": game.to_move, "kind": "play", "at": 1764288020.5 + seq,
                                    "seconds": 20.0}}
            out[i].append(dumps(message).encode())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    texts = streams(args.games)
    count = sum(len(t) for t in texts)
    raw = sum(len(m) for t in texts for m in t)
    print(f"{count} messages, {raw // count} bytes each on average")
    for level in (6, 3, 1):
        size = 0
        t0 = time.perf_counter()
        for stream in texts:
            encoder = zlib.compressobj(level, zlib.DEFLATED, -12, 5)
            for m in stream:
                size += len(encoder.compress(m) + encoder.flush(zlib.Z_SYNC_FLUSH)) - 4
        spent = time.perf_counter() - t0
        print(f"level {level}: {1e6 * spent / count:.1f} us a message, {size / raw:.3f} of the raw size")


if __name__ == "__main__":
    main()
