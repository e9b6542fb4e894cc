"""permessage-deflate for long messages only: short ones go as they are, and both kinds read back.

The extension alone: a short message keeps its bytes and its RSV1 bit clear, a long one is
compressed, and a peer's decoder with context takeover reads any mix of the two. Then a whole game
through a server: what a client received compressed and raw, by length, with the threshold at
its default and at 0 (every message compressed, as before).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Sequence
from typing import Any

import pytest
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory, PerMessageDeflate
from websockets.frames import Frame, Opcode
from websockets.typing import ExtensionParameter

from hokm.server.config import ServerConfig
from hokm.server.wsdeflate import MIN_BYTES, DeflateLongMessages

from .harness import Player, ServerProcess, run


def pair(min_bytes: int) -> tuple[DeflateLongMessages, PerMessageDeflate]:
    """The server's side and a client's, as negotiated by uvicorn's settings (4 KiB windows)."""
    server = DeflateLongMessages(False, False, 12, 12, {"memLevel": 5}, min_bytes=min_bytes)
    client = PerMessageDeflate(False, False, 12, 12)
    return server, client


def message(size: int, seed: int) -> bytes:
    """``size`` bytes of JSON-like text that compresses as a view does, differing with ``seed``."""
    rng = random.Random(seed)
    cards = [{"seat": rng.randrange(4), "card": rng.choice("23456789TJQKA") + rng.choice("SHDC")}
             for _ in range(size // 20)]
    return json.dumps({"seq": seed, "trick": cards}).encode()[:size].ljust(size, b" ")


def test_short_messages_go_as_they_are_and_long_ones_compressed() -> None:
    server, _ = pair(1024)
    short = Frame(Opcode.TEXT, message(1023, 1))
    sent = server.encode(short)
    assert sent.data == short.data and not sent.rsv1
    long = server.encode(Frame(Opcode.TEXT, message(1024, 2)))
    assert long.rsv1 and len(long.data) < 1024 / 4
    assert MIN_BYTES == ServerConfig().ws_compress_min == 1024
    # Control frames and fragments are the extension's as before.
    ping = Frame(Opcode.PING, b"x" * 10)
    assert server.encode(ping) is ping
    first = server.encode(Frame(Opcode.TEXT, b"a" * 10, fin=False))
    assert first.rsv1


@pytest.mark.parametrize("min_bytes", [0, 300, 1024, 1 << 20])
def test_a_peer_reads_any_mix_with_context_takeover(min_bytes: int) -> None:
    """Raw messages between compressed ones leave both sides' contexts in step: every message reads
    back as sent, and the compressed ones still refer back to earlier ones (later copies of the same
    text shrink)."""
    server, client = pair(min_bytes)
    sizes = [1500, 200, 1500, 900, 40, 1500, 3000, 1023, 1024, 1500]
    sent = [message(n, 0 if n == 1500 else i) for i, n in enumerate(sizes)]  # every 1500 bytes alike
    compressed: dict[int, int] = {}
    for i, data in enumerate(sent):
        frame = server.encode(Frame(Opcode.TEXT, data))
        assert frame.rsv1 == (len(data) >= min_bytes)
        if frame.rsv1:
            compressed[i] = len(frame.data)
        assert client.decode(frame).data == data, i
    if min_bytes <= 1500:
        # A copy of a message sent within the window (4 KiB) is found whole in the context.
        assert compressed[2] < compressed[0] / 4 and compressed[5] < compressed[0] / 4


class Recording(PerMessageDeflate):
    """A client's extension that notes, for each message received, its length and whether it came
    compressed."""

    def __init__(self, agreed: PerMessageDeflate, seen: list[tuple[int, bool]]) -> None:
        super().__init__(agreed.remote_no_context_takeover, agreed.local_no_context_takeover,
                         agreed.remote_max_window_bits, agreed.local_max_window_bits, agreed.compress_settings)
        self.seen = seen

    def decode(self, frame: Frame, *, max_size: int | None = None) -> Frame:
        out = super().decode(frame, max_size=max_size)
        if frame.opcode in (Opcode.TEXT, Opcode.BINARY):
            self.seen.append((len(out.data), frame.rsv1))
        return out


class RecordingFactory(ClientPerMessageDeflateFactory):
    def __init__(self, seen: list[tuple[int, bool]]) -> None:
        super().__init__(client_max_window_bits=True)
        self.seen = seen

    def process_response_params(self, params: Sequence[ExtensionParameter],
                                accepted_extensions: Sequence[Extension]) -> PerMessageDeflate:
        return Recording(super().process_response_params(params, accepted_extensions), self.seen)


async def one_game(server: ServerProcess) -> tuple[Player, list[tuple[int, bool]]]:
    seen: list[tuple[int, bool]] = []
    p = Player(server, "zip", seed=3)
    p.ws_options = {"extensions": [RecordingFactory(seen)], "compression": None}
    await p.signup()
    await p.game_with_computers(bot="random")
    over = await p.play()
    assert over["event"]["kind"] == "game_over"
    await p.close()
    return p, seen


def test_a_game_reads_the_same_with_short_messages_raw(make_server: Any) -> None:
    """At the default threshold the view patches (most messages of a game) come raw and the state on
    joining compressed; at 0 every message is compressed. The player builds valid views from both
    (the harness checks every view against the protocol's model) and the game ends."""
    default = make_server()
    every = make_server(HOKM_WS_COMPRESS_MIN="0")

    async def main() -> None:
        (p, seen), (q, seen_all) = await asyncio.gather(one_game(default), one_game(every))
        assert len(seen) >= len(p.frames) > 20 and len(seen_all) >= len(q.frames) > 20
        assert all(compressed == (size >= 1024) for size, compressed in seen), seen
        assert any(size < 1024 for size, _ in seen) and any(size >= 1024 for size, _ in seen)
        assert all(compressed for _, compressed in seen_all)

    run(main())
    for s in (default, every):
        assert "Traceback" not in s.log()


def test_the_setting_is_checked() -> None:
    with pytest.raises(ValueError):
        ServerConfig(ws_compress_min=-1)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOKM_WS_COMPRESS_MIN", "300")
        assert ServerConfig().ws_compress_min == 300
