"""``POST /api/verify`` on a real server: off the event loop, rate limited, depth bounded, signatures."""

from __future__ import annotations

import asyncio
import os
import stat
import statistics
import subprocess
import sys
import time

import httpx

from hokm.bench.verify import long_record
from hokm.records import dumps
from hokm.server.protocol import VerifyResponse
from hokm.signing import KEY_FILE, Signer
from hokm.verification import check_record

from .harness import run


async def _guest(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    r = await http.post("/api/guest", json={"nickname": name})
    return {"Authorization": f"Bearer {r.json()['token']}"}


def test_verifying_does_not_stall_the_server(make_server) -> None:
    """Eight long records checked at once: the event loop keeps answering, well within one check's time."""
    server = make_server(HOKM_VERIFY_RATE="1000", HOKM_VERIFY_BURST="1000")
    body = dumps(long_record()).encode()
    t = time.perf_counter()
    check_record(body)
    one = time.perf_counter() - t  # one check in this process, under the machine's current load

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=120) as http:
            auth = await _guest(http, "sara")
            assert (await http.post("/api/verify", content=body, headers=auth)).json()["ok"]  # workers warm
            done = asyncio.Event()
            gaps: list[float] = []

            async def probe() -> None:
                while not done.is_set():
                    t0 = time.perf_counter()
                    assert (await http.get("/api/health")).status_code == 200
                    gaps.append(time.perf_counter() - t0)
                    await asyncio.sleep(0.02)

            task = asyncio.create_task(probe())
            results = await asyncio.gather(*(http.post("/api/verify", content=body, headers=auth) for _ in range(8)))
            done.set()
            await task
            assert all(r.status_code == 200 and r.json()["ok"] for r in results)
            # Inline, most probes wait behind a whole check; in a worker process they wait for nothing.
            assert statistics.median(gaps) < one / 4, (statistics.median(gaps), one)

    run(main())


def test_deep_nesting_and_rate_limit_get_clean_errors(make_server) -> None:
    server = make_server(HOKM_VERIFY_RATE="0.001", HOKM_VERIFY_BURST="3")

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            sara, dara = await _guest(http, "sara"), await _guest(http, "dara")
            r = await http.post("/api/verify", content=b"[" * 990 + b"]" * 990, headers=sara)
            assert r.status_code == 400 and r.json()["error"]["code"] == "too_deep", r.text
            r = await http.post("/api/verify", content=b'{"format": "hokm/1", "meta": ' + b"{\"a\":" * 500 + b"1"
                                + b"}" * 501, headers=sara)
            assert r.status_code == 400 and r.json()["error"]["code"] == "too_deep", r.text
            r = await http.post("/api/verify", content=b"[1, 2]", headers=sara)
            assert r.status_code == 400 and r.json()["error"]["code"] == "bad_record"
            r = await http.post("/api/verify", content=b"[1, 2]", headers=sara)  # the burst of 3 is spent
            assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited", r.text
            r = await http.post("/api/verify", content=b"[1, 2]", headers=dara)  # same address
            assert r.status_code == 429
            r = await http.post("/api/guest", content=b'{"nickname": ' + b"[" * 990 + b"]" * 990 + b"}")
            assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"  # other bodies too
        assert "Traceback" not in server.log()

    run(main())


def test_records_are_signed_by_this_server(make_server, tmp_path) -> None:
    server = make_server(HOKM_SERVER_NAME="hokm.test")
    key_file = tmp_path / KEY_FILE
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            auth = await _guest(http, "sara")
            info = (await http.get("/api/info")).json()
            assert info["signing_key"] == Signer.from_file(key_file).public_key
            assert info["server_name"] == "hokm.test"
            fake = long_record(seed=7, target=3)  # a game made up with one's own seeds
            r = (await http.post("/api/verify", json=fake, headers=auth)).json()
            VerifyResponse.model_validate(r)
            assert r["ok"] and r["signature"]["status"] == "unsigned" and not r["signature"]["this_server"]
            assert "not signed" in r["message"] and "this server" in r["message"]
            forged = Signer.generate().sign(fake | {"meta": {"server": "hokm.test"}})
            r = (await http.post("/api/verify", json=forged, headers=auth)).json()
            assert r["signature"]["status"] == "signed" and not r["signature"]["this_server"]
            assert "not by this server" in r["message"]
            ours = Signer.from_file(key_file).sign(fake)
            r = (await http.post("/api/verify", json=ours, headers=auth)).json()
            assert r["signature"]["this_server"] and r["signature"]["fingerprint"] == info["signing_key_fingerprint"]
            ours["names"][0] = "Mallory"
            r = (await http.post("/api/verify", json=ours, headers=auth)).json()
            VerifyResponse.model_validate(r)
            assert not r["ok"] and r["signature"]["status"] == "bad_signature" and not r["signature"]["this_server"]

    run(main())


def test_the_signing_key_comes_from_the_settings(make_server, tmp_path) -> None:
    """Nodes of a cluster share a key through HOKM_SIGNING_KEY; a bad key stops the server with a message."""
    key = "5a" * 32
    server = make_server(HOKM_SIGNING_KEY=key)

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            assert (await http.get("/api/info")).json()["signing_key"] == Signer.from_hex(key).public_key

    run(main())
    assert not (tmp_path / KEY_FILE).exists()
    env = {**os.environ, "HOKM_SIGNING_KEY": "not hex"}
    done = subprocess.run([sys.executable, "-m", "hokm.cli.main", "serve", "--data-dir", str(tmp_path), "--port", "0"],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 2 and "signing key" in done.stderr and "Traceback" not in done.stderr
