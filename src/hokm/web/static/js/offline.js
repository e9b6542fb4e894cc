// The page the service worker shows when the server cannot be reached (offline.html): it says so,
// offers to try again, lists the replays kept on this device, which it can show without the server
// (the replay viewer reads them from the service worker's copy), and opens the settings, which live in
// the browser and apply here as in the app.

import { h, clear } from "./dom.js";
import { t, isRtl, seatNames } from "./i18n.js";
import * as settings from "./settings.js";
import { applyLang, applyLook, openSettings, langSwitch } from "./settingspanel.js";
import { Api, ApiError } from "./net.js";
import { showReplay } from "./replay.js";

const SAVED = "hokm-saved-v1"; // the cache sw.js keeps replays in
const app = document.getElementById("app");
const net = new Api();
// Reading goes through the service worker's copies; checking a record needs the server.
const api = {
  get: (path) => net.get(path),
  post: async () => { throw new ApiError(0, "offline", t("offlineTitle")); },
};
let teardown = null;

async function savedGames() {
  if (!("caches" in self)) return [];
  const cache = await caches.open(SAVED);
  const games = [];
  for (const request of await cache.keys()) {
    const m = new URL(request.url).pathname.match(/^\/api\/games\/([^/]+)\/replay$/);
    if (!m) continue;
    try {
      const data = await (await cache.match(request)).json();
      games.push({ id: decodeURIComponent(m[1]), names: seatNames(data.record.names || [], data.bots) });
    } catch { /* a damaged copy: leave it out */ }
  }
  return games;
}

function topBar() {
  return h("header.app-bar", {},
    h("a.brand", { href: "#/" }, h("span.brand-mark", { "aria-hidden": "true" }, "♠"), h("span", {}, t("appName"))),
    h("div.app-bar-tools", {}, langSwitch(),
      h("button.icon-btn.settings-btn", { type: "button", onclick: openSettings, "aria-label": t("settings"), title: t("settings") }, "⚙")));
}

async function home() {
  const list = h("div.recent", {}, h("p.muted", {}, "…"));
  clear(app).append(topBar(), h("main.home", {},
    h("section.card-panel.offline-panel", {},
      h("h1", {}, t("offlineTitle")),
      h("p", {}, t("offlineText")),
      h("button.btn.primary.big.try-again", { type: "button", onclick: () => location.reload() }, t("tryAgain"))),
    h("section.card-panel.saved-games", {}, h("h2", {}, t("savedGames")), list)));
  const games = await savedGames();
  clear(list);
  if (!games.length) list.append(h("p.muted", {}, t("noSavedGames")));
  const sep = isRtl() ? "، " : ", ";
  for (const g of games) {
    // Each name in its own isolated run: names typed by players start in either script.
    const names = g.names.length ? g.names.flatMap((n, i) => [i ? sep : null, h("bdi", { dir: "auto" }, n)])
      : [h("bdi", { dir: "ltr" }, g.id)];
    list.append(h("a.recent-item.live.saved-game", { href: `#/replay/${encodeURIComponent(g.id)}` },
      h("span", {}, ...names), h("span.muted", {}, t("replay"))));
  }
}

async function route() {
  if (teardown) { try { teardown(); } catch { /* already gone */ } teardown = null; }
  const [page, id] = location.hash.replace(/^#\/?/, "").split("/");
  if (page === "replay" && id) {
    clear(app).append(topBar());
    teardown = await showReplay(app, api, decodeURIComponent(id), { offline: true });
  } else {
    await home();
  }
}

settings.onChange((key) => {
  if (key === "lang") {
    // The page again in the new language, the settings sheet still open where it was chosen.
    const inSettings = !!document.querySelector(".sheet.settings");
    document.querySelectorAll(".sheet-backdrop").forEach((el) => el.remove());
    applyLang("offlineTitle");
    route().then(() => { if (inSettings) openSettings(); });
  }
  if (key === "theme" || key === "speed") applyLook();
});

window.addEventListener("keydown", (ev) => {
  const sheets = document.querySelectorAll(".sheet-backdrop");
  if (ev.key === "Escape" && sheets.length) sheets[sheets.length - 1].remove();
});

// Back online: the app itself again, at once from this page's home; a replay being watched is not cut short, and a
// bar at the head of the page offers the way back instead.
window.addEventListener("online", () => {
  if (!location.hash.startsWith("#/replay/")) { location.reload(); return; }
  if (document.querySelector(".online-again")) return;
  // At the head of the page, in its flow: over nothing (the replay's controls lie at its foot).
  const bar = h("div.online-again", { role: "status", dataset: { testid: "online-again" } },
    h("span", {}, t("onlineAgain")),
    h("button.btn.small.primary", { type: "button", onclick: () => location.reload() }, t("backToApp")));
  const main = document.querySelector("main");
  if (main) main.prepend(bar); else document.body.prepend(bar);
  bar.scrollIntoView({ block: "nearest" });
});

applyLang("offlineTitle");
applyLook();
window.addEventListener("hashchange", route);
route();
