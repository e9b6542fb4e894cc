"""Codes typed as people type them: Persian or Arabic digits, full-width letters, lower case, spaces and
dashes all reach the same room, device or friend."""

from __future__ import annotations

import pytest

from hokm.server.codes import typed_code

from .harness import Player, ServerProcess, run

PERSIAN = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
ARABIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


@pytest.mark.parametrize("typed", ["EQ5P5D2E", "eq5p5d2e", "EQ۵P۵D۲E", "EQ٥P٥D٢E", " eq5p-5d2e ", "ＥＱ５Ｐ５Ｄ２Ｅ",
                                   "EQ5P 5D2E"])
def test_every_way_of_typing_a_code_is_the_same_code(typed: str) -> None:
    assert typed_code(typed) == "EQ5P5D2E"


def test_a_room_code_read_out_and_typed_on_a_persian_keyboard_opens_the_room(server: ServerProcess) -> None:
    async def main() -> None:
        host = await Player(server, "host").signup()
        friend = await Player(server, "friend").signup()
        room = await host.api("POST", "/api/tables", {"mode": "private", "players": 2}, status=201)
        code = room["code"]
        for typed in (code.translate(PERSIAN), code.lower().translate(ARABIC)):
            found = await friend.api("GET", f"/api/codes/{typed}")
            assert found["table_id"] == room["table_id"]
        info = await friend.api("POST", f"/api/tables/{room['table_id']}/sit",
                                {"seat": 1, "code": code.translate(PERSIAN)})
        assert info["seats"][1]["player_id"] == friend.id
        for p in (host, friend):
            await p.close()
    run(main())
