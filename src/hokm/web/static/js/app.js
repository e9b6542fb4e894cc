// The web table's entry point: routes (#/ home, #/room/<id>, #/table/<id>, #/replay/<game>),
// the settings panel, and the glue between the server connection and the table view.

import { h, clear } from "./dom.js";
import { t, num, setLang, getLang, isRtl, LANGS } from "./i18n.js";
import * as settings from "./settings.js";
import * as sound from "./sound.js";
import { THEMES, applyTheme } from "./themes.js";
import { FACE_DESIGNS, BACK_DESIGNS, faceUrl, backUrl } from "./cards.js";
import { Api, TableSocket } from "./net.js";
import { Table } from "./table.js";
import { showReplay } from "./replay.js";
import { checkHands } from "./fair.js";

const api = new Api();
const app = document.getElementById("app");
let teardown = null; // what the current screen must stop when leaving it
let serverInfo = null;

// ------------------------------------------------------------------------------ language & look
function applyLang() {
  setLang(settings.get("lang"));
  document.documentElement.lang = getLang();
  document.documentElement.dir = isRtl() ? "rtl" : "ltr";
  document.title = `${t("appName")} · ${t("tagline")}`;
}

function applyLook() {
  applyTheme(settings.get("theme"));
  document.documentElement.dataset.speed = settings.get("speed");
}

settings.onChange((key) => {
  if (key === "lang") {
    // Redraw the screen in the new language; keep the settings sheet open if that is where it was chosen.
    const inSettings = !!document.querySelector(".sheet.settings");
    applyLang();
    route().then(() => { if (inSettings) openSettings(); });
  }
  if (key === "theme" || key === "speed") applyLook();
});

// ------------------------------------------------------------------------------ small widgets
function toast(text, kind = "info") {
  const el = h("div.toast", { role: "status", dataset: { kind } }, text);
  document.body.append(el);
  setTimeout(() => el.classList.add("gone"), 2600);
  setTimeout(() => el.remove(), 3200);
}

function errorText(err) {
  if (!err) return t("error");
  if (err.code === "network") return t("connectError");
  return `${t("error")}: ${err.message || err.code}`;
}

function segmented(name, options, value, onPick) {
  return h("div.segmented", { role: "radiogroup", "aria-label": name },
    options.map((o) => h("button.seg", {
      type: "button", role: "radio", "aria-checked": String(o.value === value), dataset: { value: o.value },
      onclick: (ev) => {
        for (const b of ev.currentTarget.parentNode.children) b.setAttribute("aria-checked", String(b === ev.currentTarget));
        onPick(o.value);
      },
    }, o.label)));
}

function langSwitch() {
  return h("div.lang-switch", {}, LANGS.map((l) => h("button.chip", {
    type: "button", lang: l.id, "aria-pressed": String(getLang() === l.id), onclick: () => settings.set("lang", l.id),
  }, l.label)));
}

// ------------------------------------------------------------------------------ settings panel
function openSettings() {
  const close = () => panel.remove();
  const swatches = (key, items, render) => h("div.swatches", { role: "radiogroup", "aria-label": t(key) },
    Object.keys(items).map((id) => h("button.swatch", {
      type: "button", role: "radio", "aria-checked": String(settings.get(key) === id), title: id, "aria-label": id, dataset: { value: id },
      onclick: (ev) => {
        settings.set(key, id);
        for (const b of ev.currentTarget.parentNode.children) b.setAttribute("aria-checked", String(b === ev.currentTarget));
      },
    }, render(id))));
  const panel = h("div.sheet-backdrop", { onclick: (ev) => { if (ev.target === panel) close(); } },
    h("div.sheet.settings", { role: "dialog", "aria-modal": "true", "aria-label": t("settings") },
      h("div.sheet-head", {}, h("h2", {}, t("settings")), h("button.icon-btn", { type: "button", onclick: close, "aria-label": t("close") }, "✕")),
      h("label.field-label", {}, t("language")), langSwitch(),
      h("label.field-label", {}, t("theme")),
      swatches("theme", THEMES, (id) => h("span.theme-dot", { style: { background: `radial-gradient(circle at 35% 30%, ${THEMES[id].felt}, ${THEMES[id].feltDeep})`, borderColor: THEMES[id].rim } })),
      h("label.field-label", {}, t("faces")),
      swatches("faces", FACE_DESIGNS, (id) => h("img.swatch-card", { src: faceUrl(id, "KH"), alt: "" })),
      h("label.field-label", {}, t("backs")),
      swatches("backs", BACK_DESIGNS, (id) => h("img.swatch-card", { src: backUrl(id), alt: "" })),
      h("label.field-label", {}, t("speed")),
      segmented(t("speed"), ["slow", "normal", "fast", "off"].map((s) => ({ value: s, label: t("speed_" + s) })), settings.get("speed"), (v) => settings.set("speed", v)),
      h("label.field-label", {}, t("sound")),
      segmented(t("sound"), [{ value: "on", label: t("on") }, { value: "off", label: t("off") }], settings.get("muted") ? "off" : "on", (v) => settings.set("muted", v === "off")),
      h("label.field-label", {}, t("hints")),
      segmented(t("hints"), [{ value: "on", label: t("on") }, { value: "off", label: t("off") }], settings.get("hints") ? "on" : "off", (v) => settings.set("hints", v === "on")),
    ));
  document.body.append(panel);
  panel.querySelector("button").focus();
}

function topBar(extra = []) {
  return h("header.app-bar", {},
    h("a.brand", { href: "#/" }, h("span.brand-mark", { "aria-hidden": "true" }, "♠"), h("span", {}, t("appName"))),
    h("div.app-bar-tools", {}, ...extra, langSwitch(),
      h("button.icon-btn.settings-btn", { type: "button", onclick: openSettings, "aria-label": t("settings"), title: t("settings") }, "⚙")));
}

// ------------------------------------------------------------------------------ home
async function ensureAuth() {
  const nick = settings.get("nickname") || "";
  return api.ensureGuest(nick);
}

async function getInfo() {
  if (!serverInfo) {
    try { serverInfo = await api.get("/api/info"); } catch { serverInfo = { bots: [], default_bot: null }; }
  }
  return serverInfo;
}

function levelsFrom(info) {
  const names = (info.bots || []).map((b) => b.name);
  // Three friendly levels, by the server's own level names when it has them.
  const wanted = [["easy", ["easy", "heuristic", "random"]], ["medium", ["medium", "heuristic"]], ["hard", ["hard", "expert"]]];
  const out = [];
  for (const [label, candidates] of wanted) {
    const hit = candidates.find((c) => names.includes(c));
    if (hit) out.push({ value: hit, label: t("level_" + label) });
  }
  if (!out.length) for (const n of names) out.push({ value: n, label: n });
  return out;
}

async function home() {
  const params = new URLSearchParams(location.search);
  const code = params.get("join");
  if (code) {
    history.replaceState(null, "", location.pathname + "#/");
    // An invite link: go straight in when we already have a name, else ask for one first.
    if (settings.get("nickname")) return joinByCode(code);
  }
  const info = await getInfo();
  const levels = levelsFrom(info);
  let players = 4;
  let target = 7;
  let level = (levels.find((l) => l.value === info.default_bot) || levels[Math.min(1, levels.length - 1)] || {}).value;
  const nick = h("input#nickname.input", { type: "text", maxlength: "24", autocomplete: "nickname", placeholder: t("nicknamePlaceholder"), value: settings.get("nickname") || "" });
  nick.addEventListener("change", () => settings.set("nickname", nick.value.trim()));
  nick.addEventListener("input", () => settings.set("nickname", nick.value.trim()));
  const busy = (btn, fn) => async () => {
    btn.disabled = true;
    try { await fn(); } catch (err) { toast(errorText(err), "error"); } finally { btn.disabled = false; }
  };
  const playBtn = h("button.btn.primary.big#play-computer", { type: "button" }, t("start"));
  playBtn.onclick = busy(playBtn, async () => {
    await ensureAuth();
    const tbl = await api.post("/api/tables", { mode: "computer", players, bot: level || undefined, rules: { target_points: target }, seed: randomHex(16) });
    location.hash = `#/table/${tbl.table_id}`;
  });
  const roomBtn = h("button.btn#create-room", { type: "button" }, t("createRoom"));
  roomBtn.onclick = busy(roomBtn, async () => {
    await ensureAuth();
    const tbl = await api.post("/api/tables", { mode: "private", players, bot: level || undefined, rules: { target_points: target }, seed: randomHex(16) });
    location.hash = `#/room/${tbl.table_id}`;
  });
  const codeIn = h("input#room-code.input.code", { type: "text", maxlength: "12", autocapitalize: "characters", placeholder: t("roomCode"), "aria-label": t("roomCode"), value: code || "" });
  const joinBtn = h("button.btn#join-room", { type: "button" }, t("join"));
  joinBtn.onclick = busy(joinBtn, async () => {
    if (!codeIn.value.trim()) { toast(t("codeInvalid"), "error"); return; }
    await joinByCode(codeIn.value.trim());
  });
  const quickBtn = h("button.btn#quick-match", { type: "button" }, t("findMatch"));
  quickBtn.onclick = busy(quickBtn, () => quickMatch(players));
  const recent = h("div.recent", {}, h("p.muted", {}, "…"));
  const leaders = h("ol.leaders", {});

  clear(app).append(topBar(), h("main.home", {},
    h("section.hero", {}, h("div.hero-cards", { "aria-hidden": "true" },
      ["AS", "KH", "QD", "JC"].map((c, i) => h("img.hero-card", { src: faceUrl(settings.get("faces"), c), alt: "", style: { "--i": i } }))),
      h("h1", {}, t("appName")), h("p.tagline", {}, t("tagline"))),
    h("section.card-panel.panel-name", {},
      h("label.field-label", { for: "nickname" }, t("nickname")), nick),
    h("section.card-panel.panel-computer", {},
      h("h2", {}, t("playComputer")),
      h("label.field-label", {}, t("players")),
      segmented(t("players"), [2, 3, 4].map((n) => ({ value: n, label: num(n) })), players, (v) => { players = v; }),
      levels.length ? h("label.field-label", {}, t("difficulty")) : null,
      levels.length ? segmented(t("difficulty"), levels, level, (v) => { level = v; }) : null,
      h("label.field-label", {}, t("target")),
      segmented(t("target"), [3, 5, 7].map((n) => ({ value: n, label: num(n) })), target, (v) => { target = v; }),
      playBtn),
    h("section.card-panel.panel-room", {},
      h("h2", {}, t("privateRoom")), roomBtn,
      h("div.row.join-row", {}, codeIn, joinBtn)),
    h("section.card-panel.panel-quick", {}, h("h2", {}, t("quickMatch")), quickBtn),
    h("section.card-panel.panel-recent", {}, h("h2", {}, t("recentGames")), recent),
    h("section.card-panel.panel-leaders", {}, h("h2", {}, t("leaderboard")), leaders)));
  loadRecent(recent);
  loadLeaders(leaders);
  if (code) { nick.focus(); toast(t("nicknameFirst")); }
  return null;
}

async function loadRecent(box) {
  clear(box);
  if (!api.auth) { box.append(h("p.muted", {}, t("noRecent"))); return; }
  try {
    const me = await api.get("/api/me").catch(() => null);
    if (me && me.tables && me.tables.length) {
      for (const id of me.tables) box.append(h("a.recent-item.live", { href: `#/table/${id}` }, `▶ ${t("room")} ${id.slice(0, 6)}`));
    }
    const res = await api.get("/api/me/games?limit=10");
    if (!res.games.length && !(me && me.tables && me.tables.length)) { box.append(h("p.muted", {}, t("noRecent"))); return; }
    for (const g of res.games) {
      const when = new Date(g.ended_at * 1000);
      const won = g.player_ids.includes(api.auth.player_id) && sideWon(g);
      box.append(h("div.recent-item", {},
        h("span.recent-names", {}, g.names.join(" · ")),
        h("span.recent-score", {}, g.scores.map(num).join(" – ")),
        h("span.recent-when", {}, when.toLocaleString(getLang() === "fa" ? "fa-IR" : "en-GB", { dateStyle: "short", timeStyle: "short" })),
        won ? h("span.won-tag", {}, "★") : null,
        h("a.btn.small", { href: `#/replay/${g.game_id}` }, t("replay"))));
    }
  } catch (err) {
    box.append(h("p.muted", {}, errorText(err)));
  }
}

async function loadLeaders(box) {
  // The server lists players to players: a first visit, with no identity yet, shows no list.
  if (!api.auth) { box.closest(".card-panel").hidden = true; return; }
  try {
    const res = await api.get("/api/leaderboard?limit=10");
    if (!res.players.length) { box.replaceWith(h("p.muted", {}, t("noRecent"))); return; }
    for (const p of res.players) {
      box.append(h("li.leader" + (api.auth && p.player_id === api.auth.player_id ? ".me" : ""), {},
        h("span.leader-name", {}, p.nickname),
        h("span.leader-stats", {}, `${num(Math.round(p.rating))} · ${t("wins", { n: p.wins })}`)));
    }
  } catch {
    box.replaceWith(h("p.muted", {}, "—"));
  }
}

function sideWon(g) {
  const seat = g.player_ids.indexOf(api.auth.player_id);
  const side = g.players === 4 ? seat % 2 : seat;
  return side === g.winner;
}

async function joinByCode(code) {
  await ensureAuth();
  const tbl = await api.get(`/api/codes/${encodeURIComponent(code.toUpperCase())}`);
  location.hash = tbl.status === "waiting" ? `#/room/${tbl.table_id}` : `#/table/${tbl.table_id}`;
}

async function quickMatch(players) {
  await ensureAuth();
  let st = await api.post("/api/queue", { players, seed: randomHex(16) });
  const cancel = h("button.btn", { type: "button" }, t("cancel"));
  const box = h("div.sheet-backdrop", { dataset: { sticky: "1" } }, h("div.sheet.center", { role: "dialog", "aria-modal": "true" },
    h("div.spinner", { "aria-hidden": "true" }), h("p", { "aria-live": "polite" }, t("searching")), cancel));
  document.body.append(box);
  let stop = false;
  cancel.onclick = async () => { stop = true; box.remove(); await api.del("/api/queue").catch(() => {}); };
  while (!stop && st.status !== "matched") {
    await new Promise((r) => setTimeout(r, 1000));
    st = await api.get("/api/queue").catch(() => st);
  }
  box.remove();
  if (!stop && st.table) location.hash = `#/table/${st.table}`;
}

// ------------------------------------------------------------------------------ private room
async function room(tableId) {
  await ensureAuth();
  const info = await getInfo();
  const levels = levelsFrom(info);
  const body = h("main.room");
  clear(app).append(topBar(), body);
  let alive = true;
  const draw = (tbl) => {
    if (tbl.status !== "waiting") { location.hash = `#/table/${tbl.table_id}`; return; }
    const me = api.auth.player_id;
    const host = tbl.host === me;
    const seated = tbl.seats.some((s) => s.player_id === me);
    const link = tbl.invite_url || `${location.origin}/?join=${tbl.code}`;
    const act = (fn) => async () => { try { draw(await fn()); } catch (err) { toast(errorText(err), "error"); } };
    clear(body).append(
      h("section.card-panel", {},
        h("h2", {}, t("privateRoom")),
        h("div.code-box", {}, h("span.muted", {}, t("roomCode")), h("strong.room-code", { dir: "ltr" }, tbl.code || "")),
        h("button.btn#copy-link", { type: "button", onclick: async () => { try { await navigator.clipboard.writeText(link); toast(t("copied")); } catch { prompt(t("shareLink"), link); } } }, t("shareLink")),
        h("p.muted.small", { dir: "ltr" }, link)),
      h("section.card-panel.seat-list", {},
        tbl.seats.map((s) => h("div.seat-row", { dataset: { seat: s.seat } },
          h("span.seat-no", {}, `${t("seat")} ${num(s.seat + 1)}`),
          h("span.seat-who", {}, s.kind === "empty" ? t("emptySeat") : s.kind === "bot" ? `🤖 ${t("bot")}` : s.name + (s.player_id === me ? ` (${t("you")})` : "")),
          tbl.players === 4 ? h("span.team-dot", { dataset: { team: s.seat % 2 } }) : null,
          s.kind === "empty" && !seated ? h("button.btn.small.sit", { type: "button", onclick: act(() => api.post(`/api/tables/${tableId}/sit`, { seat: s.seat, seed: randomHex(16) })) }, t("sitHere")) : null,
          s.kind === "empty" && seated ? h("button.btn.small.move", { type: "button", onclick: act(async () => {
            // Changing seats is leaving one and taking another.
            const mine = tbl.seats.find((x) => x.player_id === me);
            await api.post(`/api/tables/${tableId}/free`, { seat: mine.seat });
            return api.post(`/api/tables/${tableId}/sit`, { seat: s.seat, seed: randomHex(16) });
          }) }, t("moveHere")) : null,
          s.kind === "empty" && host ? h("button.btn.small.add-bot", { type: "button", onclick: act(() => api.post(`/api/tables/${tableId}/bot`, { seat: s.seat, level: levels.length ? tbl.bot : undefined })) }, t("addBot")) : null,
          s.kind !== "empty" && (host || s.player_id === me) && !(host && s.player_id === me) ? h("button.btn.small.free", { type: "button", onclick: act(() => api.post(`/api/tables/${tableId}/free`, { seat: s.seat })) }, s.player_id === me ? t("leaveSeat") : t("removeBot")) : null))),
      host ? h("button.btn.primary.big#start-game", { type: "button", disabled: tbl.seats.some((s) => s.kind === "empty"), onclick: act(() => api.post(`/api/tables/${tableId}/start`, {})) }, t("startGame"))
        : h("p.muted", { "aria-live": "polite" }, t("waitingHost")));
  };
  const poll = async () => {
    while (alive) {
      try { draw(await api.get(`/api/tables/${tableId}`)); } catch (err) { toast(errorText(err), "error"); }
      await new Promise((r) => setTimeout(r, 1200));
    }
  };
  poll();
  return () => { alive = false; };
}

// ------------------------------------------------------------------------------ live table
async function tablePage(tableId) {
  await ensureAuth();
  const root = h("main.table-page");
  clear(app).append(root);
  let sock = null;
  let tableInfo = null;
  let gameId = null;
  let lastStatus = "open";
  const table = new Table(root, {
    onAction: (a) => sock && sock.action(a),
    onHint: () => sock && sock.hint(),
    onMenu: () => openMenu(),
    onGameOverActions: () => [
      gameId ? h("a.btn", { href: `#/replay/${gameId}` }, t("replay")) : null,
      gameId ? h("button.btn", { type: "button", onclick: () => downloadRecord(gameId) }, t("download")) : null,
      h("button.btn", { type: "button", onclick: () => showFairness(tableId) }, t("verify")),
      h("a.btn.primary", { href: "#/" }, t("newGame")),
    ],
  });
  const openMenu = () => {
    const close = () => m.remove();
    const m = h("div.sheet-backdrop", { onclick: (ev) => { if (ev.target === m) close(); } },
      h("div.sheet", { role: "dialog", "aria-modal": "true", "aria-label": t("menu") },
        h("div.sheet-head", {}, h("h2", {}, t("menu")), h("button.icon-btn", { type: "button", onclick: close, "aria-label": t("close") }, "✕")),
        h("button.btn.wide", { type: "button", onclick: () => { close(); openSettings(); } }, t("settings")),
        h("button.btn.wide", { type: "button", onclick: () => { close(); showFairness(tableId); } }, t("fairness")),
        tableInfo && tableInfo.code ? h("p.muted", {}, `${t("roomCode")}: `, h("strong", { dir: "ltr" }, tableInfo.code)) : null,
        h("a.btn.wide", { href: "#/", onclick: close }, t("leave"))));
    document.body.append(m);
  };
  sock = new TableSocket(api, tableId, {
    onStatus: (s) => {
      if (s === "lost") table.banner(t("reconnecting"), "warn");
      if (s === "open") {
        if (lastStatus === "lost") toast(t("reconnected"));
        table.banner(null);
      }
      document.body.dataset.connection = s;
      lastStatus = s;
    },
    onState: (msg) => {
      tableInfo = msg.table;
      gameId = msg.table.game_id || gameId;
      if (msg.table.status === "waiting") { location.hash = `#/room/${tableId}`; return; }
      // A fresh state replaces whatever was queued: it is the truth as of msg.seq.
      table.queue.length = 0;
      table.update({ view: msg.view, seats: msg.table.seats, deadline: msg.deadline, info: msg.table, fresh: true });
      // A seat a bot took while we were away: ask for it back.
      const mine = msg.seat !== null && msg.table.seats[msg.seat];
      if (mine && mine.auto) sock.back();
    },
    onEvent: (msg) => {
      if (msg.event.kind === "game_over") gameId = msg.event.game_id;
      // Add our own randomness to the next shuffle, so the deck is not the server's choice alone
      // (the first hand's seed went with creating the table, sitting, or queueing).
      if (msg.event.kind === "commit" && msg.view && msg.view.seat !== null) sock.send({ type: "seed", seed: randomHex(16) });
      if (tableInfo) tableInfo.status = msg.status;
      // A bot took our seat (we timed out twice): offer it back until we press the button.
      const ev = msg.event;
      if (ev.kind === "seat" && msg.view && ev.seat === msg.view.seat) {
        if (ev.info && ev.info.auto) table.banner(t("botPlayingYou"), "info", { label: t("takeBack"), onclick: () => { sock.back(); table.banner(null); } });
        else if (ev.reason === "reclaim") table.banner(null);
      }
      table.update({ view: msg.view, seats: msg.seats, deadline: msg.deadline, event: msg.event, serverAt: msg.at });
    },
    onHint: (msg) => table.showHint(msg.action),
    onError: (msg) => {
      // The next event sets things right; a late seed simply does not count.
      if (["stale_seq", "rate_limited", "seed_closed"].includes(msg.code) || msg.ref === "seed") return;
      toast(`${t("error")}: ${msg.message || msg.code}`, "error");
    },
  });
  sock.open();
  // Re-connect straight away when the tab comes back to life (phones suspend sockets).
  const wake = () => { if (document.visibilityState === "visible" && sock.ws && sock.ws.readyState > 1) { clearTimeout(sock.retryTimer); sock.open(); } };
  document.addEventListener("visibilitychange", wake);
  window.hokmDebug = { table, sock };
  return () => { sock.close(); table.destroy(); document.removeEventListener("visibilitychange", wake); };
}

function randomHex(bytes) {
  const b = new Uint8Array(bytes);
  crypto.getRandomValues(b);
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}

async function downloadRecord(gameId) {
  try {
    const rec = await api.get(`/api/games/${gameId}/record`);
    const blob = new Blob([JSON.stringify(rec, null, 1)], { type: "application/json" });
    const a = h("a", { href: URL.createObjectURL(blob), download: `hokm-${gameId}.json` });
    document.body.append(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  } catch (err) {
    toast(errorText(err), "error");
  }
}

async function showFairness(tableId) {
  const list = h("ul.fair-list", { "aria-live": "polite" }, h("li", {}, "…"));
  const close = () => box.remove();
  const box = h("div.sheet-backdrop", { onclick: (ev) => { if (ev.target === box) close(); } },
    h("div.sheet", { role: "dialog", "aria-modal": "true", "aria-label": t("fairness") },
      h("div.sheet-head", {}, h("h2", {}, t("fairness")), h("button.icon-btn", { type: "button", onclick: close, "aria-label": t("close") }, "✕")), list));
  document.body.append(box);
  try {
    const res = await api.get(`/api/tables/${tableId}/fair`);
    const checks = await checkHands(res.hands);
    clear(list);
    if (!checks.length) list.append(h("li.muted", {}, "—"));
    for (const c of checks) {
      list.append(h("li.fair-item", { dataset: { ok: String(c.ok) } },
        h("span.fair-mark", { "aria-hidden": "true" }, c.ok === true ? "✓" : c.ok === false ? "✗" : "…"),
        h("span", {}, c.ok === true ? t("verifyOk", { n: c.hand + 1 }) : c.ok === false ? t("verifyBad", { n: c.hand + 1 }) : `${t("handN", { n: c.hand + 1 })}: ${c.note}`),
        h("code.commit", { dir: "ltr" }, c.commit.slice(0, 16) + "…")));
    }
  } catch (err) {
    clear(list).append(h("li", {}, errorText(err)));
  }
}

// ------------------------------------------------------------------------------ router
async function route() {
  if (teardown) { try { teardown(); } catch { /* screen already gone */ } teardown = null; }
  document.querySelectorAll(".sheet-backdrop").forEach((el) => el.remove());
  const hash = location.hash.replace(/^#\/?/, "");
  const [page, id] = hash.split("/");
  try {
    if (page === "table" && id) teardown = await tablePage(id);
    else if (page === "room" && id) teardown = await room(id);
    else if (page === "replay" && id) { clear(app).append(topBar()); teardown = await showReplay(app, api, id); }
    else teardown = await home();
  } catch (err) {
    clear(app).append(topBar(), h("main.home", {}, h("section.card-panel", {}, h("p", {}, errorText(err)), h("a.btn", { href: "#/" }, t("home")))));
  }
}

// Escape closes the topmost sheet (settings, menu, fairness).
window.addEventListener("keydown", (ev) => {
  if (ev.key !== "Escape") return;
  const sheets = document.querySelectorAll(".sheet-backdrop");
  const top = sheets[sheets.length - 1];
  if (top && !top.dataset.sticky) top.remove(); // the matchmaking sheet is left with its Cancel button
});

applyLang();
applyLook();
sound.unlockOnGesture();
window.addEventListener("hashchange", route);
route();
