"""Names through the real HTTP API: the server shows the cleaned name and refuses the rest with a code."""

from __future__ import annotations

import httpx

from .harness import run

ZWNJ, ZWJ = "\u200c", "\u200d"


def test_guest_names_through_the_api(server) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.url) as http:
            for typed, shown in [(f"می{ZWNJ}خواهم", f"می{ZWNJ}خواهم"), (f"👩{ZWJ}💻 Sara", f"👩{ZWJ}💻 Sara"),
                                 ("\u202eSara\u202c", "Sara"), ("Ｏｍｉｄ", "Omid")]:
                r = await http.post("/api/guest", json={"nickname": typed})
                assert r.status_code == 201, r.text
                assert r.json()["nickname"] == shown
                me = await http.get("/api/me", headers={"Authorization": f"Bearer {r.json()['token']}"})
                assert me.json()["nickname"] == shown
            for typed, code in [("\u2800", "name_invisible"), ("\u3164", "name_invisible"),
                                ("\u115f\u1160", "name_invisible"), ("\u0301", "name_invisible"),
                                ("  ", "name_empty"), ("Ѕara", "name_confusable")]:
                r = await http.post("/api/guest", json={"nickname": typed})
                assert r.status_code == 400, (typed, r.text)
                assert r.json()["error"]["code"] == code, (typed, r.text)
        assert "Traceback" not in server.log()

    run(main())
