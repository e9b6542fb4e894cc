"""The web table's files as the server ships them: read once at start-up, versioned, compressed.

At start-up every file of the static folder is read into memory and hashed; the hash of all of
them is the *build*, so any change to any shipped file gives a new build without a build step.

- Assets (scripts, styles, the font, images) are served at ``/assets/<build>/<path>`` with
  ``Cache-Control: public, max-age=31536000, immutable``: a browser never asks for them twice, and
  a new build has new URLs.
- The entry points (``index.html``, ``offline.html``, ``sw.js``, the manifests) keep their plain
  URLs and are revalidated on every use (``no-cache`` with an ``ETag``, answered ``304`` when
  unchanged). The server rewrites their references to assets to the build's URLs, lists the ES
  modules a page imports as ``modulepreload`` links (one round trip instead of one per level of
  imports), and writes the build and the service worker's list of files to cache into ``sw.js``.
- Serves the modules and style sheets without their comments and spare spaces (rjsmin, rcssmin);
  the build hash is the sources'.
- Text is sent gzip-compressed to a browser that accepts it (compressed once, at start-up).
- Any file may still be fetched at its plain path (``/js/app.js``), revalidated like the HTML.

The WebSocket and the ``/api`` routes never reach this application.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import mimetypes
import posixpath
import re
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rcssmin
import rjsmin

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

ASSET_PREFIX = "/assets/"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
# Entry points: fixed URLs, revalidated, their references rewritten to the build's asset URLs.
ENTRY_POINTS = ("index.html", "offline.html", "sw.js", "manifest.webmanifest", "manifest.en.webmanifest")
# Kept out of the service worker's cache: fetched only when needed (the full font serves the rare
# characters outside the subset; icons are for the installer; the licence is for people; the
# account and friends panels and the post-hand analysis work only with the server, and load when
# a player has an identity or asks for them; the quick phrases and the rematch work only with the
# server, and load when a table opens; profile pages need the server too, and load when opened).
NOT_PRECACHED = re.compile(r"^(fonts/vazirmatn-variable\.woff2|icons/.*\.png|.*\.txt"
                           r"|js/(social|account|friends|analysis|talk|profile)\.js|css/(social|talk|profile)\.css)$")
COMPRESSIBLE = {"text/html", "text/css", "text/javascript", "application/javascript", "image/svg+xml",
                "application/json", "application/manifest+json", "text/plain"}
TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".html": "text/html",
         ".svg": "image/svg+xml", ".webmanifest": "application/manifest+json", ".json": "application/json",
         ".woff2": "font/woff2", ".png": "image/png", ".txt": "text/plain", ".ico": "image/x-icon"}
SW_BUILD_LINE = re.compile(r"^const BUILD = .*;$", re.M)
HTML_REF = re.compile(r'(\s(?:src|href)=")([^"#:?]+)(")')
MODULE_SCRIPT = re.compile(r'<script type="module" src="([^"#:?]+)"></script>')
JS_IMPORT = re.compile(r'^\s*(?:import|export)\b[^;]*?["\'](\.{1,2}/[^"\']+)["\']', re.M)


@dataclass(frozen=True)
class Body:
    """One file ready to send: its bytes, their gzip form when that is smaller, headers."""

    data: bytes
    gz: bytes | None
    media_type: str
    etag: str
    cache_control: str


def media_type_of(path: str) -> str:
    suffix = Path(path).suffix.lower()
    kind = TYPES.get(suffix) or mimetypes.guess_type(path)[0] or "application/octet-stream"
    return f"{kind}; charset=utf-8" if kind.startswith("text/") or kind in COMPRESSIBLE - {"image/svg+xml"} else kind


def make_body(data: bytes, path: str, cache_control: str) -> Body:
    media = media_type_of(path)
    gz = None
    if media.split(";")[0] in COMPRESSIBLE and len(data) > 256:
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        gz = packed if len(packed) < len(data) else None
    return Body(data, gz, media, '"' + hashlib.sha256(data).hexdigest()[:20] + '"', cache_control)


class WebAssets:
    """An ASGI application serving one static folder as described in the module's docstring."""

    def __init__(self, root: Path) -> None:
        self.root = root
        raw: dict[str, bytes] = {}
        for p in sorted(root.rglob("*")):
            if p.is_file() and not p.name.startswith("."):
                raw[p.relative_to(root).as_posix()] = p.read_bytes()
        digest = hashlib.sha256()
        for rel, data in raw.items():
            digest.update(rel.encode() + b"\0" + hashlib.sha256(data).digest())
        self.build = digest.hexdigest()[:16]
        self.base = f"{ASSET_PREFIX}{self.build}/"
        # The modules' sources, for their import graph (read before the comments and line breaks go).
        self.sources = {rel: data.decode("utf-8", "replace") for rel, data in raw.items() if rel.endswith(".js")}
        for rel in raw:
            if rel.endswith(".js") and rel not in ENTRY_POINTS:  # comments and spaces are for the source's readers
                raw[rel] = rjsmin.jsmin(raw[rel].decode("utf-8")).encode("utf-8")
            elif rel.endswith(".css"):
                raw[rel] = rcssmin.cssmin(raw[rel].decode("utf-8")).encode("utf-8")
        self.assets = {rel: make_body(data, rel, IMMUTABLE) for rel, data in raw.items() if rel not in ENTRY_POINTS}
        self.plain = {rel: make_body(data, rel, REVALIDATE) for rel, data in raw.items() if rel not in ENTRY_POINTS}
        for rel in ENTRY_POINTS:
            if rel in raw:
                self.plain[rel] = make_body(self.rewrite(rel, raw[rel].decode("utf-8")).encode("utf-8"), rel,
                                            REVALIDATE)
        if "index.html" in self.plain:
            self.plain[""] = self.plain["index.html"]

    # ------------------------------------------------------------------ rewriting
    def asset_url(self, ref: str) -> str:
        rel = ref.removeprefix("./")
        return self.base + rel if rel in self.assets else ref

    def precache(self) -> list[str]:
        """What the service worker keeps for offline use: the offline page and the assets pages load."""
        urls = ["/offline.html"] if "offline.html" in self.plain else []
        return urls + [self.base + rel for rel in self.assets if not NOT_PRECACHED.match(rel)]

    def rewrite(self, rel: str, text: str) -> str:
        if rel.endswith(".html"):
            text = self.preload_modules(text)
            return HTML_REF.sub(lambda m: m.group(1) + self.asset_url(m.group(2)) + m.group(3), text)
        if rel.endswith(".webmanifest"):
            manifest = json.loads(text)
            for icon in manifest.get("icons", []):
                icon["src"] = self.asset_url(icon["src"])
            return json.dumps(manifest, ensure_ascii=False, indent=1) + "\n"
        if rel == "sw.js":
            build = json.dumps({"version": self.build, "precache": self.precache()}, separators=(",", ":"))
            return SW_BUILD_LINE.sub(lambda m: f"const BUILD = {build};", text, count=1)
        return text

    def module_graph(self, entry: str) -> list[str]:
        """Every module ``entry`` imports, directly or not (static imports), in the order met."""
        seen: list[str] = []
        todo = [entry]
        while todo:
            rel = todo.pop(0)
            source = self.sources.get(rel)
            if source is None:
                continue
            for ref in JS_IMPORT.findall(source):
                dep = posixpath.normpath(posixpath.join(posixpath.dirname(rel), ref))
                if dep not in seen and dep != entry:
                    seen.append(dep)
                    todo.append(dep)
        return seen

    def preload_modules(self, html: str) -> str:
        """Announce the modules the page's scripts import, so the browser fetches them all at once
        instead of one level of imports after another."""
        entries = [ref.removeprefix("./") for ref in MODULE_SCRIPT.findall(html)]
        deps = [d for e in entries for d in self.module_graph(e)]
        wanted = list(dict.fromkeys(d for d in deps if d not in entries))
        first = MODULE_SCRIPT.search(html)
        if not wanted or first is None:
            return html
        indent = html[html.rfind("\n", 0, first.start()) + 1:first.start()]
        links = "".join(f'<link rel="modulepreload" href="{d}">\n{indent}' for d in wanted)
        return html[:first.start()] + links + html[first.start():]

    # ------------------------------------------------------------------ serving
    def find(self, path: str) -> Body | None:
        if path.startswith(ASSET_PREFIX):
            build, _, rel = path[len(ASSET_PREFIX):].partition("/")
            return self.assets.get(rel) if build == self.build else None
        return self.plain.get(path.lstrip("/"))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # a WebSocket to an unknown path: refuse it, nothing else
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1000})
            return
        method = scope["method"]
        path = scope["path"]
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if method not in ("GET", "HEAD"):
            await self.plain_text(send, 405, "method not allowed", [(b"allow", b"GET, HEAD")])
            return
        body = self.find(path)
        if body is None:
            await self.plain_text(send, 404, "not found")
            return
        use_gz = body.gz is not None and accepts_gzip(headers.get("accept-encoding", ""))
        etag = body.etag[:-1] + '-gz"' if use_gz else body.etag
        out = [(b"content-type", body.media_type.encode()), (b"cache-control", body.cache_control.encode()),
               (b"etag", etag.encode())]
        if body.gz is not None:
            out.append((b"vary", b"Accept-Encoding"))
        if etag_matches(headers.get("if-none-match", ""), body.etag):
            await send({"type": "http.response.start", "status": 304, "headers": out})
            await send({"type": "http.response.body", "body": b""})
            return
        data = body.gz if use_gz and body.gz is not None else body.data
        if use_gz:
            out.append((b"content-encoding", b"gzip"))
        out.append((b"content-length", str(len(data)).encode()))
        await send({"type": "http.response.start", "status": 200, "headers": out})
        await send({"type": "http.response.body", "body": b"" if method == "HEAD" else data})

    @staticmethod
    async def plain_text(send: Send, status: int, text: str, extra: list[tuple[bytes, bytes]] | None = None) -> None:
        data = text.encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                (b"content-length", str(len(data)).encode()), *(extra or [])]})
        await send({"type": "http.response.body", "body": data})


def accepts_gzip(header: str) -> bool:
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            q = params.strip()
            return not (q.startswith("q=") and q[2:].strip() in ("0", "0.0", "0.00", "0.000"))
    return False


def etag_matches(header: str, etag: str) -> bool:
    """If-None-Match against either representation (plain or gzip) of the same bytes."""
    if not header:
        return False
    if header.strip() == "*":
        return True
    base = etag.strip('"')
    for tag in header.split(","):
        t = tag.strip().removeprefix("W/").strip('"')
        if t in (base, base + "-gz"):
            return True
    return False
