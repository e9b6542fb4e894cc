// The web table's service worker: keeps the app's files on the device so it opens without the
// server, shows offline.html when the server cannot be reached, and keeps the replays a player has
// opened. The server writes the build (a hash of every shipped file) and the list of files to keep
// into the line below when it starts (hokm.server.webassets), so a new build is a new worker.
const BUILD = {"version": "dev", "precache": []};

const SHELL = `hokm-shell-${BUILD.version}`; // this build's files; older builds' caches go on activate
const SAVED = "hokm-saved-v1"; // replays kept on the device, across builds
const SHELL_PREFIX = "hokm-shell-";
const OFFLINE_PAGE = "/offline.html";
const REPLAY = /^\/api\/games\/[^/]+\/replay$/;
const ASSETS = `/assets/${BUILD.version}/`;

self.addEventListener("install", (event) => {
  // Where the browser supports it, build files are read from the cache without starting this
  // worker's script at all (the static routing API); the fetch handler below does the same elsewhere.
  if (event.addRoutes) {
    try {
      event.addRoutes([
        { condition: { urlPattern: "/assets/*" }, source: "cache" },
        // Pages: the network's answer is used as soon as it comes, without waiting for this worker
        // to start; the fetch handler's (the offline page) only when the network fails.
        { condition: { requestMode: "navigate" }, source: "race-network-and-fetch-handler" },
      ]).catch(() => {});
    } catch {
      // A browser that knows routes but not these: the fetch handler does the same work.
    }
  }
  // The assets have build-specific URLs with a year-long cache lifetime: what the page has just
  // loaded comes out of the HTTP cache, so this costs no second download.
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(BUILD.precache)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith(SHELL_PREFIX) && key !== SHELL) await caches.delete(key);
    }
    // The browser asks the server for a page while this worker starts, not after.
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();
  })());
});

// Pages ask a worker which build it serves, and tell a waiting worker to take over (the player
// chose "reload", or the page already runs this worker's build).
self.addEventListener("message", (event) => {
  const type = event.data && event.data.type;
  if (type === "version" && event.ports[0]) event.ports[0].postMessage(BUILD.version);
  else if (type === "activate-now") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(request, event.preloadResponse));
  else if (url.pathname.startsWith("/assets/")) event.respondWith(asset(request, url));
  else if (REPLAY.test(url.pathname)) event.respondWith(replay(request));
  // Everything else (the API, the manifest, sw.js itself) goes to the network as usual.
});

/** Pages come from the server (so a new build shows at once); without it, the offline page. */
async function page(request, preloaded) {
  try {
    return (await preloaded) || await fetch(request);
  } catch (err) {
    const offline = await caches.match(OFFLINE_PAGE, { cacheName: SHELL });
    if (offline) return offline;
    throw err;
  }
}

/** Build-versioned files never change: the cache first, then the network (kept if this build's). */
async function asset(request, url) {
  const hit = await caches.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && url.pathname.startsWith(ASSETS)) {
    const copy = response.clone();
    caches.open(SHELL).then((cache) => cache.put(request, copy));
  }
  return response;
}

/** A finished game's replay: fresh from the server when it answers, else the copy kept here. */
async function replay(request) {
  try {
    const response = await fetch(request);
    if (response.ok) {
      const copy = response.clone();
      await (await caches.open(SAVED)).put(request.url, copy);
    }
    return response;
  } catch (err) {
    const kept = await caches.match(request.url, { cacheName: SAVED });
    if (kept) return kept;
    return new Response(JSON.stringify({ v: 1, error: { code: "offline", message: "the server cannot be reached" } }),
      { status: 503, headers: { "Content-Type": "application/json" } });
  }
}
