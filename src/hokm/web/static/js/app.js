// The web table's entry point: routes (#/ home, #/room/<id>, #/table/<id>, #/replay/<game>,
// #/profile and #/profile/<username>, the profile pages of profile.js, loaded when opened),
// the settings panel, and the glue between the server connection and the table view.

import { h, clear } from "./dom.js";
import { t, num, decimal, sep, scoreGap, dateTime, shortWhen, getLang, errorText, typedCode, botName } from "./i18n.js";
import * as settings from "./settings.js";
import * as sound from "./sound.js";
import { faceUrl } from "./cards.js";
import { AVATARS, avatarSvg, seatAvatar } from "./avatars.js";
import { Api, TableSocket, socialSocket } from "./net.js";
import { Table } from "./table.js";
import { showReplay } from "./replay.js";
import { checkHands } from "./fair.js";
import { applyLang, applyLook, openSettings, segmented, langSwitch } from "./settingspanel.js";
import { QueueWait } from "./matchwait.js";

const api = new Api();
const app = document.getElementById("app");
let teardown = null; // what the current screen must stop when leaving it
let serverInfo = null;

// ------------------------------------------------------------------------------ language & look
settings.onChange((key) => {
  if (key === "lang") {
    // Redraw the screen in the new language; keep the settings sheet open if that is where it was chosen.
    const inSettings = !!document.querySelector(".sheet.settings");
    applyLang("tagline");
    route().then(() => { if (inSettings) openSettings(); });
  }
  if (key === "theme" || key === "speed") applyLook();
  // The avatar chosen here is the one others see on your profile page: tell the server (quietly).
  if (key === "avatar" && api.auth) {
    const avatar = settings.get("avatar");
    api.request("PUT", "/api/me/profile", { avatar: avatar in AVATARS ? avatar : null }).catch(() => {});
  }
});

// ------------------------------------------------------------------------------ small widgets
function toast(text, kind = "info") {
  const el = h("div.toast", { role: "status", dataset: { kind } }, text);
  document.body.append(el);
  placeToast(el);
  setTimeout(() => el.classList.add("gone"), 2600);
  setTimeout(() => el.remove(), 3200);
}

/** What a toast must not lie over: the buttons, links and fields on top at their middle (not under a sheet). */
function controlBoxes() {
  const out = [];
  for (const el of document.querySelectorAll("button, a[href], input, select, textarea, [role=button]")) {
    if (el.closest(".toast")) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || r.bottom <= 0 || r.top >= innerHeight) continue;
    const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1), y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
    const hit = document.elementFromPoint(x, y);
    if (hit && (hit === el || el.contains(hit) || hit.contains(el))) out.push(r);
  }
  return out;
}

/** A toast goes where it covers no button: at the foot of the screen, else at its top, else in its middle (over
 *  the cloth or a list); where every place covers one, the one that covers least. */
function placeToast(el) {
  el.style.visibility = "hidden"; // out of the way while the controls under it are found
  const controls = controlBoxes();
  let best = null;
  for (const spot of ["bottom", "top", "middle"]) {
    el.dataset.spot = spot;
    const r = el.getBoundingClientRect();
    const covered = controls.reduce((a, c) => a + Math.max(0, Math.min(r.right, c.right) - Math.max(r.left, c.left)) * Math.max(0, Math.min(r.bottom, c.bottom) - Math.max(r.top, c.top)), 0);
    if (!best || covered < best.covered) best = { spot, covered };
    if (!covered) break;
  }
  el.dataset.spot = best.spot;
  el.style.removeProperty("visibility");
}

/**
 * A friend's invitation or friend request, on whatever screen the player is (a table, a room, a profile): a
 * note at the top of the screen, clear of the hand, with the name as text and what to do (Join, Accept), until
 * answered or closed. The home page lists them in its own panels (friends.js).
 */
function socialNotice(msg) {
  const name = (p) => h("bdi", { dir: "auto" }, p.nickname);
  if (msg.type === "invitation") {
    const inv = msg.invitation;
    notice("invitation", [name(inv.sender), " ", t("invitesYou"), " ", h("span.small", {}, `(${t("roomFor", { n: inv.players })})`)],
      { label: t("join"), primary: true, run: async () => {
        const res = await api.post(`/api/invitations/${inv.id}/accept`, {});
        const room = res.invitation || inv;
        if (room.code) sessionStorage.setItem(roomCodeKey(room.table_id), room.code);
        location.hash = `#/room/${room.table_id}`;
      } },
      { label: t("decline"), run: () => api.post(`/api/invitations/${inv.id}/decline`, {}) });
  } else if (msg.type === "friend_request") {
    const who = msg.sender;
    notice("friend-request", [name(who), " ", t("wantsFriend")],
      { label: t("accept"), primary: true, run: async () => { await api.post(`/api/friends/${who.player_id}/accept`, {}); toast(t("nowFriends")); } },
      { label: t("decline"), run: () => api.post(`/api/friends/${who.player_id}/decline`, {}) });
  }
}

function notice(kind, text, ...actions) {
  const box = h("div.notice", { role: "alert", dataset: { testid: `notice-${kind}` } });
  const close = () => box.remove();
  box.append(h("p.notice-text", {}, ...text),
    h("div.notice-actions", {}, ...actions.map((a) => h("button.btn.small" + (a.primary ? ".primary" : ""), { type: "button", onclick: async (ev) => {
      ev.currentTarget.disabled = true;
      try { await a.run(); close(); } catch (err) { close(); toast(errorText(err), "error"); }
    } }, a.label)),
    h("button.icon-btn.notice-close", { type: "button", "aria-label": t("close"), title: t("close"), onclick: close }, "✕")));
  let stack = document.querySelector(".notices");
  if (!stack) { stack = h("div.notices"); document.body.append(stack); }
  stack.append(box);
  setTimeout(close, 30000); // an invitation not answered in time is still listed on the home page
}

// The rules' button: an open book («؟» at the table is the hint's).
const BOOK = `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path d="M12 6.6C10.1 5.2 7.5 4.6 3.5 4.8v13.4c4-.2 6.6.4 8.5 1.8 1.9-1.4 4.5-2 8.5-1.8V4.8c-4-.2-6.6.4-8.5 1.8zM12 6.6V20" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round"/></svg>`;

function topBar(extra = []) {
  return h("header.app-bar", {},
    h("a.brand", { href: "#/" }, h("span.brand-mark", { "aria-hidden": "true" }, "♠"), h("span", {}, t("appName"))),
    h("div.app-bar-tools", {}, ...extra, langSwitch(),
      h("button.icon-btn.rules-btn", { type: "button", onclick: openRules, "aria-label": t("rules"), title: t("rules"), dataset: { testid: "open-rules" },
        html: BOOK }),
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
  // Exactly the levels the server offers, weakest first, in its own words (GET /api/info).
  const lang = getLang();
  const pick = (words, fallback) => (words && words[lang]) || fallback;
  return (info.bots || []).map((b) => ({
    value: b.name,
    label: pick(b.label, b.name),
    about: pick(b.about, b.description || ""),
    strength: b.strength ? pick(b.strength.words, "") : "",
  }));
}

function levelPicker(levels, value, onPick) {
  // The level buttons, and below them what the chosen level does and how strong it measured.
  const about = h("p.muted.small.level-about#level-about", { "aria-live": "polite" });
  const describe = (v) => {
    const l = levels.find((x) => x.value === v);
    clear(about).append(...(l ? [h("span", {}, l.about), l.strength ? h("span.level-strength", {}, " " + l.strength) : ""] : []));
  };
  describe(value);
  const picker = segmented(t("difficulty"), levels, value, (v) => { describe(v); onPick(v); });
  picker.classList.add("level-picker");
  return [picker, about];
}

// An invite code from the link this page was opened with, until it is used or set aside.
let pendingInvite = null;

async function home() {
  const params = new URLSearchParams(location.search);
  const code = params.get("join");
  const link = params.get("link"), friend = params.get("friend");
  if (link || friend) {
    history.replaceState(null, "", location.pathname);
    await (await import("./social.js")).socialLink(api, socialCtx(), link, friend);
  }
  if (code) {
    history.replaceState(null, "", location.pathname + "#/");
    // An invite link: go straight in when we already have a name, else ask for one first.
    // A link's room that is not there (any more) is said as such, not as a bare "not found".
    if (settings.get("nickname")) return joinByCode(code).catch((err) => { throw err && err.status === 404 ? { code: "room_gone" } : err; });
    pendingInvite = code;
  }
  if (pendingInvite) return inviteStep(pendingInvite);
  const info = await getInfo();
  const levels = levelsFrom(info);
  let players = 4;
  let target = 7;
  let level = (levels.find((l) => l.value === info.default_bot) || levels[Math.min(1, levels.length - 1)] || {}).value;
  const nick = h("input#nickname.input", { type: "text", maxlength: "24", dir: "auto", autocomplete: "nickname", placeholder: t("nicknamePlaceholder"), value: settings.get("nickname") || "" });
  nick.addEventListener("change", () => settings.set("nickname", nick.value.trim()));
  nick.addEventListener("input", () => settings.set("nickname", nick.value.trim()));
  const busy = (btn, fn, where = "") => async () => {
    btn.disabled = true;
    try { await fn(); } catch (err) { toast(errorText(err, where), "error"); } finally { btn.disabled = false; }
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
  // A code is Latin and read left to right: what a Persian keyboard types (۵, lower case, dashes) shows as the code.
  const codeIn = h("input#room-code.input.code.ltr-code", { type: "text", maxlength: "16", dir: "ltr", autocapitalize: "characters", autocomplete: "off",
    spellcheck: "false", inputmode: "text", placeholder: t("roomCode"), "aria-label": t("roomCode"), value: typedCode(code || "") });
  codeIn.addEventListener("input", () => {
    const typed = typedCode(codeIn.value);
    if (typed !== codeIn.value) { codeIn.value = typed; codeIn.setSelectionRange(typed.length, typed.length); }
  });
  const joinBtn = h("button.btn#join-room", { type: "button" }, t("join"));
  joinBtn.onclick = busy(joinBtn, async () => {
    if (!typedCode(codeIn.value)) { toast(t("codeInvalid"), "error"); return; }
    await joinByCode(typedCode(codeIn.value));
  }, "room");
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
      ...(levels.length ? levelPicker(levels, level, (v) => { level = v; }) : []),
      h("label.field-label", {}, t("target")),
      segmented(t("target"), [3, 5, 7].map((n) => ({ value: n, label: num(n) })), target, (v) => { target = v; }),
      playBtn),
    h("section.card-panel.panel-room", {},
      h("h2", {}, t("privateRoom")), roomBtn,
      h("div.row.join-row", {}, codeIn, joinBtn)),
    h("section.card-panel.panel-quick", {}, h("h2", {}, t("quickMatch")), quickBtn),
    h("section.card-panel.panel-recent", {}, h("h2", {}, t("recentGames")), recent,
      api.auth ? h("a.btn.small#open-profile", { href: "#/profile" }, t("myProfile")) : null),
    h("section.card-panel.panel-leaders", {}, h("h2", {}, t("leaderboard")), leaders)));
  const main = app.querySelector("main.home");
  loadRecent(recent);
  loadLeaders(leaders);
  loadResume(main);
  return socialSlot(main, () => players);
}

// ------------------------------------------------------------------------------ account & friends
const socialCtx = (players) => ({ toast, errorText, ensureAuth, players, route, roomCodeKey });

function socialSlot(main, players) {
  let stop = null;
  let gone = false;
  const mount = async (slot) => {
    const social = await import("./social.js");
    if (!gone && main.isConnected) stop = social.mountSocial(api, main, slot, socialCtx(players));
  };
  if (api.auth) mount().catch(() => {});
  else {
    const open = h("button.btn#open-account", { type: "button" }, t("accountOpen"));
    const slot = h("section.card-panel.panel-account-open", {}, open);
    open.onclick = () => mount(slot).catch((err) => toast(errorText(err), "error"));
    main.append(slot);
  }
  return () => { gone = true; if (stop) stop(); };
}

/** The first screen of an invited visitor: the room's code, a name, and Join; seats come next. */
function inviteStep(code) {
  const nick = h("input#nickname.input", { type: "text", maxlength: "24", dir: "auto", autocomplete: "nickname", placeholder: t("nicknamePlaceholder"), value: settings.get("nickname") || "" });
  const problem = h("p.form-error", { role: "alert", hidden: true });
  const join = h("button.btn.primary.big#join-invite", { type: "submit" }, t("join"));
  const form = h("form.card-panel.invite", { dataset: { testid: "invite" } },
    h("h1.invite-title", {}, t("invitedTitle")),
    h("p.invite-code", {}, t("roomCode"), ": ", h("bdi.room-code.ltr-code", { dir: "ltr", dataset: { testid: "invite-code" } }, typedCode(code))),
    h("p.help", {}, t("invitedHelp")),
    h("label.field-label", { for: "nickname" }, t("nickname")), nick, problem, join,
    h("p.small", {}, h("a", { href: "#/", onclick: () => { pendingInvite = null; } }, t("notNow"))));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = nick.value.trim();
    if (!name) { problem.textContent = t("nicknameNeeded"); problem.hidden = false; nick.focus(); return; }
    settings.set("nickname", name);
    join.disabled = true;
    try {
      await joinByCode(code);
      pendingInvite = null;
    } catch (err) {
      problem.textContent = errorText(err && err.status === 404 ? { code: "room_gone" } : err, "room");
      problem.hidden = false;
    } finally {
      join.disabled = false;
    }
  });
  clear(app).append(topBar(), h("main.home.invite-page", {}, form));
  nick.focus();
  return null;
}

/** Our games still going on: offered first on the home page, with who is at each table. One game has a panel of
 * its own; several share one, a compact row each, so that a phone still shows "Play the computer" on its first screen. */
async function loadResume(main) {
  if (!api.auth || !main) return;
  const me = await api.get("/api/me").catch(() => null);
  const ids = (me && me.tables) || [];
  const games = [];
  for (const id of ids.slice(0, 3)) {
    const tbl = await api.get(`/api/tables/${id}`).catch(() => null);
    if (tbl) games.push([id, tbl]);
  }
  if (!games.length || !main.isConnected) return;
  const rows = games.map(([id, tbl]) => {
    const waiting = tbl.status === "waiting";
    const others = tbl.seats.filter((s) => s.player_id !== api.auth.player_id && s.kind !== "empty")
      .map((s) => h("bdi", { dir: "auto" }, s.kind === "bot" ? botName(s.seat) : s.name));
    const names = others.flatMap((b, i) => (i ? [sep(), b] : [b]));
    // Two games at once against the computer would read alike: each says how many play and since when (a
    // room waiting for players has not started: "since" fits it and a game alike).
    const began = tbl.created_at ? [sep(), t("since", { time: shortWhen(new Date(tbl.created_at * 1000)) })] : [];
    return {
      waiting,
      what: [h("p.muted.resume-what", {}, t("roomFor", { n: tbl.players }), ...began),
        names.length ? h("p.muted", {}, t("withPlayers"), " ", ...names) : null],
      button: (big) => h(`a.btn.primary.resume-btn${big ? ".big" : ""}`, { href: waiting ? `#/room/${id}` : `#/table/${id}` },
        waiting ? t("backToRoom") : t("resume")),
    };
  });
  // One column for them all: on a wide page the home's grid gives them one cell.
  const list = h("div.resumes", { dataset: { testid: "resumes" } });
  if (rows.length === 1) {
    const [r] = rows;
    list.append(h("section.card-panel.panel-resume", { dataset: { testid: "resume" } },
      h("h2", {}, r.waiting ? t("roomWaiting") : t("gameInProgress")), ...r.what, r.button(true)));
  } else {
    list.append(h("section.card-panel.panel-resume.resume-many", {},
      h("h2", {}, t("gamesInProgress")),
      ...rows.map((r) => h("div.resume-row", { dataset: { testid: "resume" } }, h("div.resume-text", {}, ...r.what), r.button(false)))));
  }
  const old = main.querySelector(":scope > .resumes");
  if (old) old.replaceWith(list); else main.prepend(list);
}

async function loadRecent(box) {
  clear(box);
  if (!api.auth) { box.append(h("p.muted", {}, t("noRecent"))); return; }
  try {
    const res = await api.get("/api/me/games?limit=10");
    // Unfinished games have their own panels above; this one says that none has finished yet.
    if (!res.games.length) { box.append(h("p.muted", {}, t("noRecent"))); return; }
    for (const g of res.games) {
      const when = new Date(g.ended_at * 1000);
      const won = g.player_ids.includes(api.auth.player_id) && sideWon(g);
      box.append(h("div.recent-item", {},
        h("span.recent-names", {}, g.names.map((_, i) => h("bdi", { dir: "auto" }, playerName(g, i))).flatMap((b, i) => (i ? [sep(), b] : [b]))),
        h("span.recent-score", {}, scoreWords(g)),
        h("span.recent-when", {}, dateTime(when)),
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
    if (!res.players.length) { box.replaceWith(h("p.muted.no-leaders", {}, t("noLeaders"))); return; }
    // The rank is drawn by the page in the page's digits: a list marker would put "1." (a dot beside a
    // digit) in front of a Persian line.
    for (const [i, p] of res.players.entries()) {
      box.append(h("li.leader" + (api.auth && p.player_id === api.auth.player_id ? ".me" : ""), {},
        h("span.leader-rank", { "aria-hidden": "true" }, num(i + 1)),
        // Two players may share a nickname: a claimed username, isolated and a space apart, tells them apart.
        h("span.leader-who", {}, h("bdi.leader-name", { dir: "auto" }, p.nickname),
          p.username ? [" ", h("bdi.muted.small.leader-username", { dir: "auto" }, `@${p.username}`)] : null),
        // A rating says something only after rated games: a player with none shows their wins alone. The two
        // numbers are two chips, never one run of text where «ریتینگ ۱، ۱ برد» reads as 1.1. The rating as the
        // profile writes it (one decimal, the page's minus sign).
        h("span.leader-stats", {},
          p.rated_games ? h("span.leader-rating", {}, t("ratingN", { n: decimal(p.rating) })) : null,
          h("span.leader-wins", {}, t("wins", { n: p.wins })))));
    }
  } catch {
    box.replaceWith(h("p.muted", {}, "—"));
  }
}

/** A finished game's player: the computer by the page's name for it, a person by their own. */
function playerName(g, i) { return g.player_ids && !g.player_ids[i] ? botName(i) : g.names[i]; }

/** "Us 3، Them 1" / "You 2، Bahar 3": a score says whose it is in words, not by its order. */
function scoreWords(g) {
  const seat = g.player_ids.indexOf(api.auth.player_id);
  const name = (i) => h("bdi", { dir: "auto" }, playerName(g, i));
  const label = (side) => {
    if (g.players === 4) {
      if (seat >= 0) return [side === g.sides[seat] ? t("us") : t("them")];
      return g.sides.flatMap((s, i) => (s === side ? [name(i)] : [])).flatMap((n, k) => (k ? [" + ", n] : [n]));
    }
    return [side === seat ? t("you") : name(side)];
  };
  const gap = (parts) => scoreGap(parts[parts.length - 1].textContent ?? parts[parts.length - 1]);
  return g.scores.flatMap((sc, side) => { const l = label(side); return [...(side ? [sep()] : []), ...l, gap(l), num(sc)]; });
}

function sideWon(g) {
  const seat = g.player_ids.indexOf(api.auth.player_id);
  return seat >= 0 && g.sides[seat] === g.winner;
}

// A private room's seats need its invite code; the server shows the code only to members, so
// the code a guest arrived with is kept for the room's page (this tab only).
const roomCodeKey = (tableId) => `hokm.roomCode.${tableId}`;

async function joinByCode(code) {
  await ensureAuth();
  const tbl = await api.get(`/api/codes/${encodeURIComponent(typedCode(code))}`);
  if (tbl.code) sessionStorage.setItem(roomCodeKey(tbl.table_id), tbl.code);
  location.hash = tbl.status === "waiting" ? `#/room/${tbl.table_id}` : `#/table/${tbl.table_id}`;
}

async function quickMatch(players) {
  await ensureAuth();
  let st = await api.post("/api/queue", { players, seed: randomHex(16) });
  const cancel = h("button.btn", { type: "button" }, t("cancel"));
  const wait = new QueueWait();
  wait.update(st);
  const box = h("div.sheet-backdrop", { dataset: { sticky: "1" } }, h("div.sheet.center.queue-sheet", { role: "dialog", "aria-modal": "true" },
    h("div.spinner", { "aria-hidden": "true" }), h("p", { "aria-live": "polite" }, t("searching")), wait.el, cancel));
  document.body.append(box);
  let stop = false;
  cancel.onclick = async () => { stop = true; wait.stop(); box.remove(); await api.del("/api/queue").catch(() => {}); };
  while (!stop && st.status !== "matched") {
    await new Promise((r) => setTimeout(r, 1000));
    st = await api.get("/api/queue").catch(() => st);
    wait.update(st);
  }
  wait.stop();
  box.remove();
  if (!stop && st.table) location.hash = `#/table/${st.table}`;
}

// ------------------------------------------------------------------------------ private room
async function room(tableId) {
  await ensureAuth();
  const body = h("main.room");
  clear(app).append(topBar(), body);
  let alive = true;
  const draw = (tbl) => {
    if (tbl.status !== "waiting") { location.hash = `#/table/${tbl.table_id}`; return; }
    const me = api.auth.player_id;
    const host = tbl.host === me;
    const seated = tbl.seats.some((s) => s.player_id === me);
    if (tbl.code) sessionStorage.setItem(roomCodeKey(tableId), tbl.code);
    const code = tbl.code || sessionStorage.getItem(roomCodeKey(tableId)) || undefined;
    const link = tbl.invite_url || `${location.origin}/?join=${code || ""}`;
    const act = (fn) => async () => { try { draw(await fn()); } catch (err) { toast(errorText(err), "error"); } };
    clear(body).append(
      h("section.card-panel", {},
        h("h2", {}, t("privateRoom")),
        h("div.code-box", {}, h("span.muted", {}, t("roomCode")), h("bdi.room-code.ltr-code", { dir: "ltr", dataset: { testid: "room-code" } }, code || "")),
        h("button.btn#copy-link", { type: "button", onclick: async () => { try { await navigator.clipboard.writeText(link); toast(t("copied")); } catch { prompt(t("shareLink"), link); } } }, t("shareLink")),
        h("p.muted.small.invite-link", {}, h("bdi.ltr-code", { dir: "ltr", dataset: { testid: "invite-link" } }, link))),
      h("section.card-panel.seat-list", {},
        tbl.seats.map((s) => h("div.seat-row", { dataset: { seat: s.seat } },
          h("span.seat-no", {}, `${t("seat")} ${num(s.seat + 1)}`),
          s.kind === "empty" ? null : h("span.avatar-pic.room-avatar", { html: avatarSvg(seatAvatar(s, s.seat, s.player_id === me)), dataset: { avatar: seatAvatar(s, s.seat, s.player_id === me) } }),
          h("span.seat-who", {}, s.kind === "empty" ? t("emptySeat") : s.kind === "bot" ? botName(s.seat)
            : [h("bdi", { dir: "auto" }, s.name), s.player_id === me ? ` (${t("you")})` : ""]),
          tbl.players === 4 ? h("span.team-dot", { dataset: { team: tbl.sides[s.seat] }, title: t("teamsLegend") }) : null,
          // The row's buttons together at its end: on a narrow phone they go under the row as one, not one by one.
          h("span.seat-actions", {},
          s.kind === "empty" && !seated ? h("button.btn.small.sit", { type: "button", onclick: act(() => api.post(`/api/tables/${tableId}/sit`, { seat: s.seat, seed: randomHex(16), code })) }, t("sitHere")) : null,
          s.kind === "empty" && seated ? h("button.btn.small.move", { type: "button", onclick: act(async () => {
            // Changing seats is leaving one and taking another.
            const mine = tbl.seats.find((x) => x.player_id === me);
            await api.post(`/api/tables/${tableId}/free`, { seat: mine.seat });
            return api.post(`/api/tables/${tableId}/sit`, { seat: s.seat, seed: randomHex(16), code });
          }) }, t("moveHere")) : null,
          s.kind === "empty" && host ? h("button.btn.small.add-bot", { type: "button", onclick: act(() => api.post(`/api/tables/${tableId}/bot`, { seat: s.seat })) }, t("addBot")) : null,
          s.kind !== "empty" && (host || s.player_id === me) && !(host && s.player_id === me) ? h("button.btn.small.free", { type: "button", onclick: act(() => api.post(`/api/tables/${tableId}/free`, { seat: s.seat })) }, s.player_id === me ? t("leaveSeat") : t("removeBot")) : null))),
        // What the coloured dots mean: nothing else on this page says who plays with whom.
        tbl.players === 4 ? h("p.muted.small.teams-legend", {}, t("teamsLegend")) : null),
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
/** The engine's codes for an action the rules do not allow (hokm.engine.errors.IllegalActionError). */
const REFUSALS = ["not_your_turn", "wrong_phase", "not_in_hand", "must_follow_suit", "bad_discard", "hand_over", "game_over", "bad_action"];

async function tablePage(tableId) {
  await ensureAuth();
  const root = h("main.table-page");
  clear(app).append(root);
  let sock = null;
  let tableInfo = null;
  let gameId = null;
  let lastStatus = "open";
  let talk = null;
  const table = new Table(root, {
    onAction: (a) => sock && sock.action(a),
    onHint: () => sock && sock.hint(),
    onMenu: () => openMenu(),
    // The replay, the record and a rematch are the players'; someone who watched can check the deals.
    onGameOverActions: () => {
      const player = table.view && table.view.seat !== null && table.view.seat !== undefined;
      return [
        player && gameId ? h("a.btn", { href: `#/replay/${gameId}` }, t("replay")) : null,
        player && gameId ? h("button.btn", { type: "button", onclick: () => downloadRecord(gameId) }, t("download")) : null,
        h("button.btn", { type: "button", onclick: () => showFairness(tableId, playedHands()) }, t("fairness")),
        player && talk ? talk.rematchButton(api, tableId, toast) : null,
        h("a.btn.primary", { href: "#/" }, t("newGame")),
      ];
    },
  });
  // Once the game is over, how many hands it played (the fairness list leaves out a deck never dealt).
  const playedHands = () => (table.view && table.view.phase === "over" ? table.view.results.length : null);
  const openMenu = () => {
    const close = () => m.remove();
    const m = h("div.sheet-backdrop", { onclick: (ev) => { if (ev.target === m) close(); } },
      h("div.sheet", { role: "dialog", "aria-modal": "true", "aria-label": t("menu") },
        h("div.sheet-head", {}, h("h2", {}, t("menu")), h("button.icon-btn", { type: "button", onclick: close, "aria-label": t("close") }, "✕")),
        h("button.btn.wide", { type: "button", onclick: () => { close(); openSettings(); } }, t("settings")),
        h("button.btn.wide", { type: "button", dataset: { testid: "menu-rules" }, onclick: () => { close(); openRules(); } }, t("rules")),
        h("button.btn.wide", { type: "button", onclick: () => { close(); showFairness(tableId, playedHands()); } }, t("fairness")),
        tableInfo && tableInfo.code ? h("p.muted", {}, `${t("roomCode")}: `, h("bdi.ltr-code", { dir: "ltr", dataset: { testid: "menu-room-code" } }, h("strong", {}, tableInfo.code))) : null,
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
      if (msg.view && msg.view.phase === "over") keepReplay(gameId); // a finished game seen again (a reload)
      // A seat a bot took while we were away: ask for it back.
      const mine = msg.seat !== null && msg.table.seats[msg.seat];
      if (mine && mine.auto) sock.back();
    },
    onEvent: (msg) => {
      if (msg.event.kind === "game_over") { gameId = msg.event.game_id; keepReplay(gameId); }
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
      if (talk) talk.onTalkEvent(table, ev, msg.view && msg.view.seat, toast);
    },
    onHint: (msg) => table.showHint(msg.action),
    onSocial: socialNotice,
    onError: (msg) => {
      // The next event sets things right; a late seed simply does not count.
      if (msg.ref === "chat" && talk && talk.onChatError(msg)) return; // said under the chat box
      if (["stale_seq", "rate_limited", "seed_closed"].includes(msg.code) || msg.ref === "seed") return;
      // An action the rules refused (IllegalActionError codes): the table says why, on the card.
      if (msg.ref === "action" && REFUSALS.includes(msg.code)) { table.showRefusal(msg); return; }
      toast(errorText(msg), "error");
    },
  }, { code: sessionStorage.getItem(roomCodeKey(tableId)) });
  // talk.js first: a finished game's summary offers its rematch button.
  const talking = import("./talk.js");
  // Blocking from the chat panel goes through the friends API (docs/protocol.md).
  const social = {
    block: (id) => api.post(`/api/blocks/${encodeURIComponent(id)}`, {}),
    unblock: (id) => api.del(`/api/blocks/${encodeURIComponent(id)}`),
    blocked: async () => (await api.get("/api/friends")).blocked.map((p) => p.player_id),
    friends: async () => (await api.get("/api/friends")).friends,
  };
  // The table's node, asked while talk.js loads, so that the first connection already names it (a balancer
  // routes it to the node that runs the table); a slow answer does not hold the connection back for long.
  const owner = api.get(`/api/tables/${encodeURIComponent(tableId)}`).then((info) => { if (info && !sock.joined) sock.node = info.node || null; }, () => {});
  const mounted = talking.then((m) => { talk = m; m.mountTalk(table, (x) => sock.send(x), { tableId, me: api.auth && api.auth.player_id, social }); }).catch(() => {});
  Promise.all([mounted, Promise.race([owner, new Promise((r) => setTimeout(r, 1500))])]).then(() => sock.open());
  // Re-connect straight away when the tab comes back to life (phones suspend sockets).
  const wake = () => { if (document.visibilityState === "visible" && sock.ws && sock.ws.readyState > 1) { clearTimeout(sock.retryTimer); sock.open(); } };
  document.addEventListener("visibilitychange", wake);
  window.hokmDebug = { table, sock };
  return () => {
    sock.close(); table.destroy(); document.removeEventListener("visibilitychange", wake);
    if (window.hokmDebug && window.hokmDebug.table === table) window.hokmDebug = null; // no handle on a table gone
  };
}

/**
 * Ask for a finished game's replay as soon as it is over, so that the service worker keeps it on the device
 * (sw.js keeps every replay fetched) and the offline page lists it, whether or not the player opens it. The
 * record may take a moment to be written: a few tries, then nothing (the replay is kept when it is opened).
 */
const keptReplays = new Set();
async function keepReplay(id, tries = 4) {
  if (!id || keptReplays.has(id) || !("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return;
  keptReplays.add(id);
  for (let i = 0; i < tries; i++) {
    try { await api.get(`/api/games/${encodeURIComponent(id)}/replay`); return; } catch (err) {
      if (err && err.code === "network") return;
    }
    await new Promise((r) => setTimeout(r, 1500 * (i + 1)));
  }
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

async function showFairness(tableId, played = null) {
  const list = h("ul.fair-list", { "aria-live": "polite" }, h("li", {}, "…"));
  const close = () => box.remove();
  const box = h("div.sheet-backdrop", { onclick: (ev) => { if (ev.target === box) close(); } },
    h("div.sheet", { role: "dialog", "aria-modal": "true", "aria-label": t("fairness") },
      h("div.sheet-head", {}, h("h2", {}, t("fairness")), h("button.icon-btn", { type: "button", onclick: close, "aria-label": t("close") }, "✕")), list));
  document.body.append(box);
  try {
    const res = await api.get(`/api/tables/${tableId}/fair`);
    const checks = await checkHands(res.hands, played);
    clear(list);
    if (!checks.length) list.append(h("li.muted", {}, "—"));
    for (const c of checks) {
      list.append(h("li.fair-item", { dataset: { ok: String(c.ok), dealt: String(c.dealt) } },
        h("span.fair-mark", { "aria-hidden": "true" }, c.ok === true ? "✓" : c.ok === false ? "✗" : c.dealt ? "…" : "–"),
        h("span.fair-text", {}, c.ok === true ? t("verifyOk", { n: c.hand + 1 }) : c.ok === false ? t("verifyBad", { n: c.hand + 1 }) : `${t("handN", { n: c.hand + 1 })}: ${c.note}`),
        // The commitment on a line of its own, whole, left to right in Latin digits: every row alike.
        h("bdi.commit.ltr-code", { dir: "ltr", title: c.commit }, c.commit)));
    }
  } catch (err) {
    clear(list).append(h("li", {}, errorText(err)));
  }
}

/** The rules' sheet (js/rules.js, loaded when first opened). */
async function openRules() {
  try { (await import("./rules.js")).openRules(); } catch (err) { toast(errorText(err), "error"); }
}

// ------------------------------------------------------------------------------ router
/** A screen's teardown, with a connection that brings a friend's invitations and requests while it shows (the
 *  table's own connection and the home page's friends panel bring them on their screens). */
function withNews(stop) {
  const close = api.auth ? socialSocket(api, socialNotice) : null;
  return () => { if (close) close(); if (stop) stop(); };
}

async function route() {
  if (teardown) { try { teardown(); } catch { /* screen already gone */ } teardown = null; }
  document.querySelectorAll(".sheet-backdrop").forEach((el) => el.remove());
  window.scrollTo(0, 0); // a new screen opens at its top, not where the last one was scrolled to
  const hash = location.hash.replace(/^#\/?/, "");
  const [page, id] = hash.split("/");
  try {
    if (page === "table" && id) teardown = await tablePage(id);
    else if (page === "room" && id) teardown = withNews(await room(id));
    else if (page === "replay" && id) { clear(app).append(topBar()); teardown = withNews(await showReplay(app, api, id)); }
    else if (page === "profile") {
      clear(app).append(topBar());
      const { showProfile } = await import("./profile.js");
      teardown = withNews(await showProfile(app, api, { ensureAuth, errorText, toast }, id ? decodeURIComponent(id) : null));
    }
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

applyLang("tagline");
applyLook();
sound.unlockOnGesture();
window.addEventListener("hashchange", route);
route();
