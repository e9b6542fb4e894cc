"""How the server ships the web table's files: build-versioned assets, revalidated entry points, gzip."""

from __future__ import annotations

import gzip
import json
import re
import shutil
from pathlib import Path

import pytest
import rjsmin
from starlette.testclient import TestClient

from hokm.server.webassets import IMMUTABLE, WebAssets
from hokm.web import static_dir


@pytest.fixture(scope="module")
def assets() -> WebAssets:
    return WebAssets(static_dir())


@pytest.fixture(scope="module")
def client(assets: WebAssets) -> TestClient:
    return TestClient(assets)


def test_the_page_refers_to_build_versioned_assets(assets: WebAssets, client: TestClient) -> None:
    html = client.get("/").text
    refs = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert f"/assets/{assets.build}/js/app.js" in refs
    assert f"/assets/{assets.build}/css/app.css" in refs
    for ref in refs:
        if ref.startswith("/assets/"):
            assert client.get(ref).status_code == 200, ref
    assert "manifest.webmanifest" in refs  # entry points keep their plain URLs


def test_assets_are_immutable_and_compressed(assets: WebAssets, client: TestClient) -> None:
    r = client.get(f"/assets/{assets.build}/js/table.js", headers={"accept-encoding": "gzip, br"})
    assert r.headers["cache-control"] == IMMUTABLE
    assert r.headers["content-encoding"] == "gzip"
    assert r.headers["vary"] == "Accept-Encoding"
    assert int(r.headers["content-length"]) < (static_dir() / "js" / "table.js").stat().st_size / 2
    source = (static_dir() / "js" / "table.js").read_text("utf-8")
    assert r.content.decode() == rjsmin.jsmin(source)  # the client decoded it: the module without its comments
    assert "//" not in r.content.decode().split("\n")[0][:3] and len(r.content) < len(source.encode())
    font = client.get(f"/assets/{assets.build}/fonts/vazirmatn-subset.woff2")
    assert font.headers["content-type"] == "font/woff2" and "content-encoding" not in font.headers
    assert font.headers["cache-control"] == IMMUTABLE


def test_style_sheets_are_shipped_without_their_comments(assets: WebAssets, client: TestClient) -> None:
    source = (static_dir() / "css" / "app.css").read_text("utf-8")
    shipped = client.get(f"/assets/{assets.build}/css/app.css").text
    assert "/*" in source and "/*" not in shipped and len(shipped) < 0.8 * len(source)
    # What the rules say is kept: a calc() keeps the spaces its + and - need, and each media query its rules.
    assert "(100cqh - var(--band) - 6px)" in source and "(100cqh - var(--band) - 6px)" in shipped
    assert shipped.count("@media") == source.count("@media") and shipped.count(":has(") == source.count(":has(")


@pytest.mark.parametrize("path", ["/", "/index.html", "/sw.js", "/manifest.webmanifest", "/offline.html",
                                  "/js/app.js"])
def test_entry_points_are_revalidated_with_an_etag(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 200
    assert r.headers["cache-control"] == "no-cache"
    etag = r.headers["etag"]
    again = client.get(path, headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b""
    assert client.get(path, headers={"accept-encoding": "identity", "if-none-match": etag}).status_code == 304


def test_no_gzip_for_a_client_that_does_not_accept_it(client: TestClient) -> None:
    r = client.get("/", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in r.headers
    assert r.content.startswith(b"<!doctype html>")
    raw = client.get("/", headers={"accept-encoding": "gzip"})
    assert raw.headers["content-encoding"] == "gzip"


def test_the_service_worker_carries_the_build_and_what_to_keep(assets: WebAssets, client: TestClient) -> None:
    sw = client.get("/sw.js")
    assert sw.headers["content-type"].startswith("text/javascript")
    line = re.search(r"^const BUILD = (.*);$", sw.text, re.M)
    assert line
    build = json.loads(line.group(1))
    assert build["version"] == assets.build
    assert "/offline.html" in build["precache"]
    assert f"/assets/{assets.build}/js/app.js" in build["precache"]
    assert f"/assets/{assets.build}/fonts/vazirmatn-subset.woff2" in build["precache"]
    # The full font is fetched only for rare characters; it is not downloaded for the cache.
    assert not any(url.endswith("vazirmatn-variable.woff2") for url in build["precache"])
    for url in build["precache"]:
        assert client.get(url).status_code == 200, url


def test_an_old_build_or_unknown_file_is_not_found(client: TestClient) -> None:
    assert client.get("/assets/0000000000000000/js/app.js").status_code == 404
    assert client.get("/nothing-here.js").status_code == 404
    assert client.get("/../pyproject.toml").status_code == 404
    r = client.post("/")
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD"


def test_head_sends_headers_only(client: TestClient) -> None:
    r = client.head("/")
    assert r.status_code == 200 and r.content == b"" and int(r.headers["content-length"]) > 0


def test_any_change_to_a_shipped_file_makes_a_new_build(tmp_path: Path, assets: WebAssets) -> None:
    copy = tmp_path / "static"
    shutil.copytree(static_dir(), copy)
    same = WebAssets(copy)
    assert same.build == assets.build
    css = copy / "css" / "app.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n/* changed */\n", encoding="utf-8")
    changed = WebAssets(copy)
    assert changed.build != assets.build
    sw = TestClient(changed).get("/sw.js").text
    assert f'"version":"{changed.build}"' in sw


def test_gzip_bodies_are_made_once_and_decode_to_the_file(assets: WebAssets) -> None:
    body = assets.assets["css/app.css"]
    assert body.gz is not None and gzip.decompress(body.gz) == body.data


def test_the_page_announces_every_module_it_imports(assets: WebAssets, client: TestClient) -> None:
    html = client.get("/").text
    preloaded = set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', html))
    imported = set()
    todo = ["js/app.js", "js/pwa.js"]
    while todo:
        module = static_dir() / todo.pop()
        for ref in re.findall(r'from "\./([^"]+)"', module.read_text(encoding="utf-8")):
            if f"js/{ref}" not in imported:
                imported.add(f"js/{ref}")
                todo.append(f"js/{ref}")
    assert imported and preloaded == {f"/assets/{assets.build}/{m}" for m in imported}
    # They come before the scripts that import them.
    assert html.index("modulepreload") < html.index('<script type="module"')


def test_a_websocket_to_a_file_path_is_refused_cleanly(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect("/index.html"):
            pass
