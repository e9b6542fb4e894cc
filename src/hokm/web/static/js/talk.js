// Quick phrases, emotes, free text and the rematch at the table, loaded once a table is open.
// Phrases and emotes travel as ids from the server's fixed lists (src/hokm/server/phrases.py); the
// words are here in both languages. Free text goes to the whole table in a private room, and to the
// writer's friends at the table anywhere else. Players' own text always goes into the page as
// text (textContent, isolated with dir="auto"), never as markup.
import { h, clear } from "./dom.js";
import { getLang, t, addStrings, errorText } from "./i18n.js";

addStrings({
  en: {
    chatPlaceholder: "Write a message…",
    chatSend: "Send",
    chatLog: "Table chat",
    chatLogSpectators: "Spectators' chat",
    chatLogFriends: "Friends' chat",
    chatFriendsOnly: "Only your friends at this table see this.",
    chatFriendsPlaceholder: "Write to your friends…",
    chatNoFriendsHere: "None of your friends is at this table, so nobody here would read what you write. Quick phrases and emotes reach everyone.",
    chatEmpty: "No messages yet.",
    chatMute: "Mute",
    chatUnmute: "Unmute",
    chatMuted: "Muted:",
    chatMuteList: "Mute a player",
    chatSlowDown: "Slow down a little, then send again.",
    chatTooLong: "A message holds at most 200 characters.",
    chatNothing: "The message has nothing to show.",
    chatYou: "You",
    chatNew: "New messages",
    chatWatchOnly: "Spectators chat in private rooms only.",
  },
  fa: {
    chatPlaceholder: "پیامی بنویسید…",
    chatSend: "بفرست",
    chatLog: "گفت‌وگوی میز",
    chatLogSpectators: "گفت‌وگوی تماشاگران",
    chatLogFriends: "گفت‌وگوی دوستان",
    chatFriendsOnly: "فقط دوستانتان سر این میز این را می‌بینند.",
    chatFriendsPlaceholder: "برای دوستانتان بنویسید…",
    chatNoFriendsHere: "هیچ‌یک از دوستانتان سر این میز نیستند و کسی نوشتهٔ شما را نمی‌بیند. پیام‌های سریع و شکلک‌ها را همه می‌بینند.",
    chatEmpty: "هنوز پیامی نیست.",
    chatMute: "بی‌صدا کردن",
    chatUnmute: "صدادار کردن",
    chatMuted: "بی‌صدا:",
    chatMuteList: "بی‌صدا کردن بازیکن",
    chatSlowDown: "کمی آهسته‌تر؛ چند لحظه بعد دوباره بفرستید.",
    chatTooLong: "هر پیام حداکثر ۲۰۰ نویسه است.",
    chatNothing: "پیام چیزی برای نشان دادن ندارد.",
    chatYou: "شما",
    chatNew: "پیام تازه",
    chatWatchOnly: "تماشاگران فقط در اتاق‌های خصوصی گفت‌وگو می‌کنند.",
  },
});

export const PHRASES = {
  well_played: { fa: "خوب بازی کردی", en: "Well played" },
  hurry: { fa: "عجله کن", en: "Hurry up" },
  hokm: { fa: "حکم!", en: "Hokm!" },
  thanks: { fa: "ممنون", en: "Thanks" },
  sorry: { fa: "ببخشید", en: "Sorry" },
  nice_trick: { fa: "دور قشنگی بود", en: "Nice trick" },
  good_luck: { fa: "موفق باشی", en: "Good luck" },
  oops: { fa: "اِی وای!", en: "Oops!" },
};
export const EMOTES = { smile: "😊", laugh: "😂", wow: "😮", sad: "😢", angry: "😠", clap: "👏" };
/** What each emote button says to a screen reader and on a long press, in the page's language. */
export const EMOTE_NAMES = {
  smile: { fa: "لبخند", en: "Smile" },
  laugh: { fa: "خنده", en: "Laugh" },
  wow: { fa: "شگفتی", en: "Wow" },
  sad: { fa: "غم", en: "Sad" },
  angry: { fa: "خشم", en: "Angry" },
  clap: { fa: "دست زدن", en: "Applause" },
};

const WORDS = {
  talk: { fa: "پیام سریع", en: "Quick phrases" },
  rematch: { fa: "دوباره بازی کنیم", en: "Play again" },
  asked: { fa: "منتظر بقیه…", en: "Waiting for the others…" },
  wants: { fa: "می‌خواهد دوباره بازی کند", en: "wants to play again" },
};
const say = (k) => WORDS[k][getLang()] || WORDS[k].en;

function addStyles() {
  if (document.querySelector("link[data-talk-css]")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("../css/talk.css", import.meta.url).href;
  link.dataset.talkCss = "1";
  document.head.append(link);
}

/** The words of a chat event in the page's language (a phrase) or the emote's face. */
export function chatText(ev) {
  if (ev.text) return ev.text;
  if (ev.phrase && PHRASES[ev.phrase]) return PHRASES[ev.phrase][getLang()] || PHRASES[ev.phrase].en;
  return EMOTES[ev.emote] || "";
}

/**
 * Where a seat's bubble goes: beside the seat on the side that faces the middle of the table (under the top seat,
 * inside a side seat, over your own), so that it covers neither the seat's name nor another's, and never the
 * scores in the bar: it stays on the cloth, below the bar. Returns the box's left and top within the table.
 */
function bubbleSpot(table, at, bubble) {
  const box = table.el.table.getBoundingClientRect();
  const seat = at.getBoundingClientRect(), felt = table.el.felt.getBoundingClientRect(), bar = table.el.top.getBoundingClientRect();
  const pos = ["top", "left", "right", "bottom"].find((p) => at.classList.contains(`pos-${p}`)) || "top";
  const gap = 6;
  if (pos === "left" || pos === "right") {
    // Between the two side seats: no wider than the room the seats leave in the middle.
    const room = felt.width - 2 * (seat.width + 2 * gap);
    bubble.style.setProperty("--room", `${Math.max(96, room)}px`);
  }
  const b = { width: bubble.offsetWidth, height: bubble.offsetHeight }; // its own size, not scaled by its entrance
  let x, y;
  if (pos === "top") { x = seat.left + seat.width / 2 - b.width / 2; y = seat.bottom + gap; }
  else if (pos === "left") { x = seat.right + gap; y = seat.top + seat.height / 2 - b.height / 2; }
  else if (pos === "right") { x = seat.left - gap - b.width; y = seat.top + seat.height / 2 - b.height / 2; }
  else { x = seat.left; y = seat.top - gap - b.height; }
  const clamp = (px, py) => [Math.min(Math.max(px, felt.left + 8), felt.right - 8 - b.width),
    Math.min(Math.max(py, Math.max(bar.bottom, felt.top) + 4), box.bottom - 4 - b.height)];
  [x, y] = clamp(x, y);
  if (pos === "bottom") {
    // Over your seat lies another seat where yours sits in a corner (a small phone: the left seat's cards; on its
    // side: the right seat, your seat being in the line under the cloth), and a bubble nearer that seat than yours
    // reads as its. Then it goes beside your seat, toward the middle of the table.
    const others = [...table.el.table.querySelectorAll(".seat")].filter((e) => e !== at).map((e) => e.getBoundingClientRect());
    const far = (r, px, py) => Math.hypot(Math.max(r.left - px, 0, px - r.right), Math.max(r.top - py, 0, py - r.bottom));
    const mine = (px, py) => others.every((r) => !r.width || far(seat, px + b.width / 2, py + b.height / 2) < far(r, px + b.width / 2, py + b.height / 2));
    if (!mine(x, y)) {
      const inward = seat.left + seat.width / 2 < felt.left + felt.width / 2;
      const [bx, by] = clamp(inward ? seat.right + gap : seat.left - gap - b.width, seat.top + seat.height / 2 - b.height / 2);
      if (mine(bx, by)) return { left: bx - box.left, top: by - box.top, side: inward ? "left" : "right" };
    }
  }
  return { left: x - box.left, top: y - box.top, side: pos };
}

function placeBubble(table, at, bubble) {
  bubble.style.left = "0px"; // measured where it has the table's whole width
  bubble.style.top = "0px";
  const spot = bubbleSpot(table, at, bubble);
  bubble.style.left = `${spot.left}px`;
  bubble.style.top = `${spot.top}px`;
  bubble.dataset.side = spot.side; // its entrance grows away from the seat (talk.css), never over it
}

/** The seats were drawn again (a badge, a name, the turn): each bubble keeps clear of its seat's new box. */
function followSeats(table) {
  for (const bubble of table.el.table.querySelectorAll(".chat-bubble")) {
    const at = table.el.table.querySelector(`.seat[data-seat="${bubble.dataset.seat}"]`);
    if (at) placeBubble(table, at, bubble);
  }
}

/** Show a chat event for a while at the seat it came from (over the table: a seat re-render keeps it). */
export function showChat(table, ev) {
  const seat = Number(ev.seat);
  const at = table.el.table.querySelector(`.seat[data-seat="${seat}"]`);
  const text = chatText(ev);
  if (!at || !text) return;
  const old = table.el.table.querySelector(`.chat-bubble[data-seat="${seat}"]`);
  if (old) old.remove();
  const bubble = h("div.chat-bubble" + (ev.emote ? ".emote" : "") + (ev.text ? ".text" : ""), { dir: "auto", role: "status", dataset: { seat: String(seat), testid: `chat-${seat}` } });
  bubble.textContent = text; // the player's own words: text, never markup
  bubble.style.visibility = "hidden"; // measured first, then placed
  table.el.table.append(bubble);
  placeBubble(table, at, bubble);
  bubble.style.removeProperty("visibility");
  table.say(`${table.nameOf(seat)}: ${text}`);
  setTimeout(() => bubble.remove(), ev.text ? 6000 : 4000);
  // Said during our turn over the cards played: read for a moment, then the cards show through (the words stay in
  // the log).
  if (myTurn(table)) setTimeout(() => yieldToTrick(table, bubble), 1500);
}

/** Whether two boxes (getBoundingClientRect) share any area; an element not drawn (no width) shares none. */
function overlaps(r, q) {
  return q.width > 0 && r.left < q.right && r.right > q.left && r.top < q.bottom && r.bottom > q.top;
}

/** Is the table waiting for this page's player to play or discard? */
function myTurn(table) {
  const v = table.view;
  return !!(v && v.legal && v.legal.length && (v.legal[0].type === "play" || v.legal[0].type === "discard"));
}

/** A bubble lying over a card of the trick grows faint, so that the cards the player must answer show. */
function yieldToTrick(table, bubble) {
  if (!bubble.isConnected) return;
  const r = bubble.getBoundingClientRect();
  bubble.classList.toggle("faint", [...table.el.trick.querySelectorAll(".trick-card")].some((c) => overlaps(r, c.getBoundingClientRect())));
}

// ------------------------------------------------------------------------------ free text
const LOG_SIZE = 60;
const chat = { tableId: null, me: null, log: [], muted: new Set(), send: null, table: null, unread: 0, social: null, blocked: null, unsent: null };
const muteKey = (id) => `hokm.mute.${id}`;

function loadMuted(tableId) {
  try { return new Set(JSON.parse(localStorage.getItem(muteKey(tableId)) || "[]")); } catch { return new Set(); }
}

function saveMuted() {
  try { localStorage.setItem(muteKey(chat.tableId), JSON.stringify([...chat.muted])); } catch { /* private mode: for this visit only */ }
}

/** In a private room free text goes to the table from a seated player, to the spectators from the others. */
function privateRoom(table) { return !!(table.info && table.info.mode === "private"); }
function watching(table) { return !table.view || table.view.seat === null || table.view.seat === undefined; }
/** Free text is open in a private room to everyone there, and at any other table to a seated player (to their friends). */
function textOpen(table) { return privateRoom(table) || !watching(table); }

/** Who spoke, as the page names them: the seat's name, the spectator's nickname, or "You". */
function speaker(table, ev) {
  if (ev.player && ev.player === chat.me) return t("chatYou");
  if (ev.seat !== null && ev.seat !== undefined) return table.nameOf(ev.seat);
  return ev.name || "?";
}

function logEntry(table, ev) {
  const who = h("bdi.chat-who", { dir: "auto" }, speaker(table, ev));
  const said = h("bdi.chat-said", { dir: "auto" });
  said.textContent = chatText(ev); // free text as written; a phrase in the page's language; an emote's face
  return h("li.chat-line" + (ev.channel === "spectators" || ev.channel === "friends" ? `.${ev.channel}` : ""), { dataset: { player: ev.player || "" } }, who, ": ", said);
}

function renderLog() {
  const list = document.querySelector("[data-testid=chat-log]");
  if (!list) return;
  clear(list);
  const shown = chat.log.filter((ev) => !chat.muted.has(ev.player));
  if (!shown.length) list.append(h("li.muted", {}, t("chatEmpty")));
  for (const ev of shown) list.append(logEntry(chat.table, ev));
  list.scrollTop = list.scrollHeight;
  const sheet = list.closest(".talk-sheet");
  if (sheet) markMore(sheet);
}

function markUnread() {
  const btn = document.querySelector("[data-testid=talk]");
  if (!btn) return;
  const dot = btn.querySelector(".talk-unread");
  if (chat.unread && !dot) btn.append(h("span.talk-unread", { "aria-label": t("chatNew") }));
  if (!chat.unread && dot) dot.remove();
}

/** The people this page can mute: the other seated people, and spectators who wrote. */
function mutable(table) {
  const people = new Map();
  for (const s of table.seats || []) {
    if (s && s.player_id && s.kind === "human" && s.player_id !== chat.me) people.set(s.player_id, s.name || "?");
  }
  for (const ev of chat.log) if (ev.player && ev.player !== chat.me && !people.has(ev.player)) people.set(ev.player, ev.name || "?");
  return people;
}

function muteRow(table) {
  const row = h("div.chat-mutes", { role: "group", "aria-label": t("chatMuteList") });
  for (const [id, name] of mutable(table)) {
    const blocked = !!chat.blocked && chat.blocked.has(id);
    const on = chat.muted.has(id) || blocked; // a blocked player is muted for as long as the block holds
    const words = blocked ? "chatMuted" : on ? "chatUnmute" : "chatMute";
    row.append(h("div.chat-person", { dataset: { player: id } },
      h("button.btn.small.chat-mute" + (on ? ".on" : ""), { type: "button", "aria-pressed": on ? "true" : "false", dataset: { mute: id },
        disabled: blocked, "aria-label": `${t(words)} ${name}`, onclick: () => { toggleMute(id); } },
      on ? "🔇 " : "🔈 ", `${t(words)} `, h("bdi", { dir: "auto" }, name)),
      // Blocking (the friends API) holds everywhere and for good: no friend request, invitation or text from them.
      chat.social ? h("button.btn.small.chat-block" + (blocked ? ".on" : ""), { type: "button", "aria-pressed": blocked ? "true" : "false",
        dataset: { block: id }, "aria-label": `${t(blocked ? "unblock" : "block")} ${name}`, onclick: () => { toggleBlock(id); } },
      t(blocked ? "unblock" : "block")) : null));
  }
  return row;
}

function redrawPeople() {
  const row = document.querySelector(".chat-mutes");
  if (row && chat.table) row.replaceWith(muteRow(chat.table));
  renderLog();
}

/** Block a player (or unblock one blocked here): the server's block list; blocked is muted here too, so their
 *  phrases and emotes show nowhere either. */
async function toggleBlock(id) {
  const status = document.querySelector("[data-testid=chat-status]");
  try {
    if (chat.blocked.has(id)) {
      await chat.social.unblock(id);
      chat.blocked.delete(id);
    } else {
      await chat.social.block(id);
      chat.blocked.add(id);
      chat.muted.add(id);
      saveMuted();
    }
    if (status) status.textContent = "";
  } catch (err) {
    if (status) status.textContent = errorText(err);
  }
  redrawPeople();
}

/** Who this player has blocked, asked once a table (the chat panel's Block buttons say it). */
async function loadBlocked() {
  if (!chat.social || chat.blocked) return;
  chat.blocked = new Set();
  try { for (const id of await chat.social.blocked()) chat.blocked.add(id); } catch { /* shown as not blocked */ }
  redrawPeople();
}

function toggleMute(id) {
  if (chat.muted.has(id)) chat.muted.delete(id); else chat.muted.add(id);
  saveMuted();
  redrawPeople();
}

/** The free-text part of the chat panel: the log, the mute buttons, the box to write in. */
function textPanel(table) {
  const status = h("p.chat-status", { role: "status", dataset: { testid: "chat-status" } });
  // Away from a private room the words reach only the writer's friends at the table: the panel says so.
  const friendsOnly = !privateRoom(table);
  const hint = t(friendsOnly ? "chatFriendsPlaceholder" : "chatPlaceholder");
  // Empty, the box reads in the page's direction (a Persian placeholder and caret at the right); once written in,
  // in the direction of what is written.
  const pageDir = document.documentElement.dir === "rtl" ? "rtl" : "ltr";
  const input = h("input.chat-input", { type: "text", maxlength: "200", dir: pageDir, autocomplete: "off", enterkeyhint: "send",
    placeholder: hint, "aria-label": hint, dataset: { testid: "chat-input" } });
  input.addEventListener("input", () => { input.dir = input.value.trim() ? "auto" : pageDir; });
  const form = h("form.chat-form", { onsubmit: (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    status.textContent = "";
    chat.send({ type: "chat", text });
    chat.unsent = text; // until the table sends it back: a refusal puts it back in the box
    input.value = "";
    input.dir = pageDir;
    // Sent: a seated player's sheet closes, as it does after a quick phrase, and the table is in view again (the
    // words show in a bubble at their seat). A spectator's words have no seat to show at: the log is where they
    // read them, so their sheet stays open.
    const sheet = form.closest(".talk-sheet");
    if (sheet && !watching(table)) sheet.hidden = true;
  } }, input, h("button.btn.small.primary", { type: "submit", dataset: { testid: "chat-send" } }, t("chatSend")));
  const title = friendsOnly ? t("chatLogFriends") : watching(table) ? t("chatLogSpectators") : t("chatLog");
  const note = friendsOnly ? h("p.chat-note.chat-friends-only", { dataset: { testid: "chat-friends-only" } }, t("chatFriendsOnly")) : null;
  const log = h("ul.chat-log", { dataset: { testid: "chat-log" }, "aria-live": "polite" });
  if (friendsOnly && chat.social && chat.social.friends) {
    // Words for friends where none of them has this table open would reach nobody: no box, and the note says why
    // (asked each time the sheet opens; a friend who comes later brings the box back).
    form.hidden = true;
    chat.social.friends().then((friends) => {
      if (friends.some((f) => f.table === chat.tableId)) { form.hidden = false; return; }
      note.textContent = t("chatNoFriendsHere");
      note.dataset.testid = "chat-no-friends";
      note.classList.add("chat-nobody"); // the sheet then holds no box and no log (talk.css)
      if (!chat.log.length) log.hidden = true; // an empty log at a table of strangers says nothing
    }, () => { form.hidden = false; });
  }
  return h("section.chat-panel", { "aria-label": title },
    h("h3.chat-title", {}, title), note, log, muteRow(table), form, status);
}

/** A refused chat message, said in the page's words under the box. */
export function onChatError(msg) {
  const words = { rate_limited: "chatSlowDown", text_too_long: "chatTooLong", empty_text: "chatNothing", chat_closed: "chatWatchOnly" }[msg.code];
  const status = document.querySelector("[data-testid=chat-status]");
  if (!words) return false;
  if (!status) return true;
  status.textContent = t(words);
  // The sheet closed when the words were sent: it opens again to say why they went nowhere, with them in the box.
  const sheet = status.closest(".talk-sheet");
  if (sheet && sheet.hidden && chat.table) { sheet.hidden = false; placeSheet(chat.table, sheet); }
  const input = sheet && sheet.querySelector("[data-testid=chat-input]");
  if (input && !input.value && chat.unsent) { input.value = chat.unsent; input.dir = "auto"; }
  chat.unsent = null;
  return true;
}

/** Keep a chat event in the log (the last LOG_SIZE), and redraw the log if the sheet shows it. */
function remember(ev) {
  chat.log.push(ev);
  if (chat.log.length > LOG_SIZE) chat.log.shift();
}

/** A free-text chat event: muted players' are dropped; the rest go to the log and, for a seat, its bubble. */
function onText(table, ev) {
  if (ev.player && ev.player === chat.me) chat.unsent = null;
  if (ev.player && chat.muted.has(ev.player)) return;
  remember(ev);
  const sheet = document.querySelector("[data-testid=talk-sheet]");
  if (sheet && !sheet.hidden) {
    renderLog();
    const row = document.querySelector(".chat-mutes");
    if (row) row.replaceWith(muteRow(table));
  } else if (ev.player !== chat.me) { chat.unread += 1; markUnread(); }
  if (ev.channel !== "spectators" && ev.seat !== null && ev.seat !== undefined) showChat(table, ev);
  else table.say(`${speaker(table, ev)}: ${ev.text}`);
}

/** The chat button in a corner of the felt (the bar has no room on a phone): a sheet of phrases
 *  and emotes; each press sends its id. */
export function mountTalk(table, send, { tableId = null, me = null, social = null } = {}) {
  addStyles();
  const felt = table.el.felt;
  if (!felt || felt.querySelector(".talk-btn")) return;
  Object.assign(chat, { tableId, me, log: [], muted: tableId ? loadMuted(tableId) : new Set(), send, table, unread: 0, social, blocked: null, unsent: null });
  const sheet = h("div.talk-sheet", { hidden: true, role: "menu", dataset: { testid: "talk-sheet" } });
  sheet.addEventListener("scroll", () => markMore(sheet), { passive: true });
  const pick = (msg) => { sheet.hidden = true; send({ type: "chat", ...msg }); };
  // On a phone the sheet lies over the chat button: it closes from its own ✕, with Escape, or with a tap beside it.
  const close = () => { sheet.hidden = true; };
  const fill = () => {
    clear(sheet);
    sheet.append(h("div.talk-head", {}, h("button.icon-btn.talk-close", { type: "button", "aria-label": t("close"), title: t("close"),
      dataset: { testid: "talk-close" }, onclick: () => { close(); btn.focus({ preventScroll: true }); } }, "✕")));
    if (textOpen(table)) { sheet.append(textPanel(table)); loadBlocked(); }
    if (watching(table)) { // phrases and emotes are the seated players'
      if (!privateRoom(table)) sheet.append(h("p.chat-note", {}, t("chatWatchOnly")));
      return;
    }
    for (const id of Object.keys(PHRASES)) {
      sheet.append(h("button.btn.small", { type: "button", role: "menuitem", dataset: { phrase: id }, onclick: () => pick({ phrase: id }) }, PHRASES[id][getLang()] || PHRASES[id].en));
    }
    const faces = h("div.talk-emotes");
    for (const [id, face] of Object.entries(EMOTES)) {
      faces.append(h("button.icon-btn", { type: "button", role: "menuitem", "aria-label": (EMOTE_NAMES[id] || {})[getLang()] || id, title: (EMOTE_NAMES[id] || {})[getLang()] || id, dataset: { emote: id }, onclick: () => pick({ emote: id }) }, face));
    }
    sheet.append(faces);
  };
  const btn = h("button.icon-btn.talk-btn", { type: "button", "aria-label": say("talk"), title: say("talk"), dataset: { testid: "talk" },
    onclick: () => {
      fill();
      sheet.hidden = !sheet.hidden;
      if (!sheet.hidden) {
        placeSheet(table, sheet);
        chat.unread = 0; markUnread(); renderLog();
        const input = sheet.querySelector("[data-testid=chat-input]");
        if (input && matchMedia("(hover: hover)").matches) input.focus(); // a phone's keyboard only when asked
      }
    },
    // a speech bubble drawn here, not an emoji: it shows the same on every phone
    html: '<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path fill="currentColor" d="M4 3h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2h-9l-5 4v-4H4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z"/></svg>' });
  felt.append(btn);
  table.el.table.append(sheet);
  // The game's end: its summary takes the screen, and the sheet goes.
  table.el.table.addEventListener("game-over", () => { sheet.hidden = true; });
  // A window that asks us to choose against the clock comes first, and so does our turn to play or discard
  // where the sheet lies over the hand or the line with the clock; words typed so far stay in the box.
  table.el.table.addEventListener("decision", (ev) => {
    if (sheet.hidden) return;
    const kind = ev.detail && ev.detail.kind;
    if (kind === "play" || kind === "discard") {
      const r = sheet.getBoundingClientRect();
      if (![table.el.hand, table.el.actions, table.el.trick].some((el) => el && overlaps(r, el.getBoundingClientRect()))) return;
    }
    close();
  });
  // Escape closes it from inside, and from its button (where the focus stays after a tap on it).
  for (const el of [sheet, btn]) {
    el.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && !sheet.hidden) { ev.stopPropagation(); close(); btn.focus({ preventScroll: true }); }
    });
  }
  // A tap beside the sheet closes it. The listener is the document's: once this table's page is gone it takes
  // itself away, rather than keep the old table alive for as long as the app runs.
  const beside = (ev) => {
    if (!sheet.isConnected) { document.removeEventListener("pointerdown", beside, true); return; }
    if (!sheet.hidden && !sheet.contains(ev.target) && !btn.contains(ev.target)) close();
  };
  document.addEventListener("pointerdown", beside, true);
  table.el.table.addEventListener("seats-drawn", () => {
    followSeats(table);
    if (!sheet.hidden && seatUnder(table, sheet)) placeSheet(table, sheet); // a seat grown under it: the sheet moves off
  });
  // A window resized with the sheet open: placed again (the listener goes with this table's page, as `beside`).
  const resized = () => {
    if (!sheet.isConnected) { removeEventListener("resize", resized); return; }
    if (!sheet.hidden) placeSheet(table, sheet);
  };
  addEventListener("resize", resized);
  // Our turn begins: bubbles over the trick's cards grow faint at once.
  table.el.table.addEventListener("decision", () => {
    for (const b of table.el.table.querySelectorAll(".chat-bubble")) yieldToTrick(table, b);
  });
}

/** Whether a seat on the cloth lies under the open sheet. */
function seatUnder(table, sheet) {
  const s = sheet.getBoundingClientRect();
  return [...table.el.felt.querySelectorAll(".seat")].some((e) => overlaps(s, e.getBoundingClientRect()));
}

/** The least height of the sheet in px: its close button's line, its title and a row of phrases. */
const SHEET_LEAST = 120;

/** The sheet opens under the top bar, never over it (the Hokm, the scores and the buttons stay in view), on its
 *  button's side of the cloth (talk.css). */
function placeSheet(table, sheet) {
  placeSheetBox(table, sheet);
  markMore(sheet);
}

/** A sheet with more below its edge says so: its foot fades (a line cut through its letters read as the end). */
function markMore(sheet) {
  sheet.classList.toggle("more-below", sheet.scrollHeight - sheet.scrollTop - sheet.clientHeight > 2);
}

function placeSheetBox(table, sheet) {
  const box = table.el.table.getBoundingClientRect(), bar = table.el.top.getBoundingClientRect();
  const top = Math.max(0, bar.bottom - box.top) + 6;
  sheet.style.insetBlockStart = `${top}px`;
  // Opened during our turn it ends above the line with the turn's clock and above the hand, however short that leaves
  // it (it scrolls; SHEET_LEAST at the least): it hides neither the seconds left nor the cards to choose from.
  const whole = box.height - top - 8;
  const floor = Math.min(...[table.el.actions, table.el.handWrap]
    .map((el) => el && el.getBoundingClientRect()).filter((r) => r && r.height > 0).map((r) => r.top - box.top));
  const room = myTurn(table) ? Math.min(whole, floor - top - 6) : whole;
  sheet.style.maxBlockSize = `${Math.max(SHEET_LEAST, room)}px`;
  sheet.style.right = "";
  sheet.style.maxInlineSize = "";
  // On a wide table it lies between the trick and the seat on that side where it fits there, over neither, and clear
  // of any other seat in the same band (the partner's, wide with its name and cards, reaches past the trick's edge).
  const trick = table.el.trick.getBoundingClientRect();
  const seats = [...table.el.felt.querySelectorAll(".seat")].map((e) => e.getBoundingClientRect());
  const s = sheet.getBoundingClientRect();
  const under = seats.filter((r) => overlaps(s, r));
  if (!trick.width || !under.length) return;
  const to = Math.min(...under.map((r) => r.left)) - 8;
  const band = seats.filter((r) => r.bottom > s.top && r.top < s.bottom && r.right <= to);
  const from = Math.max(trick.right, ...band.map((r) => r.right)) + 8;
  if (to - from < 280) return; // narrower, its phrases would stand one to a line
  sheet.style.maxInlineSize = `${Math.min(s.width, to - from)}px`;
  sheet.style.right = `${box.right - to}px`;
  const moved = sheet.getBoundingClientRect();
  if (seats.some((r) => overlaps(moved, r)) || moved.bottom > box.bottom) { // it grew onto another seat: the edge after all
    sheet.style.maxInlineSize = "";
    sheet.style.right = "";
  }
}

/** The game-over button that asks for a rematch; the server's next_table event moves everyone on. */
export function rematchButton(api, tableId, toast) {
  const b = h("button.btn.primary", { type: "button", dataset: { testid: "rematch" } }, say("rematch"));
  b.onclick = async () => {
    b.disabled = true;
    try {
      const info = await api.post(`/api/tables/${tableId}/rematch`, {});
      if (info.next) location.hash = `#/table/${info.next}`;
      else b.textContent = say("asked");
    } catch (err) {
      b.disabled = false;
      toast(errorText(err), "error");
    }
  };
  return b;
}

/**
 * Another player asks to play again: said in the game's summary, on a line of its own just above its buttons (a
 * toast there would lie over "Play again" for as long as it shows); without the summary, a toast.
 */
function rematchAsked(table, seat, toast) {
  const modal = table.el.overlay.querySelector(".modal");
  const foot = modal && table.el.overlay.dataset.kind === "game" ? modal.querySelector(".modal-foot") : null;
  table.say(`${table.nameOf(seat)} ${say("wants")}`);
  if (!foot) { toast(`${table.nameOf(seat)} ${say("wants")}`); return; }
  let line = modal.querySelector(`.rematch-asked[data-seat="${seat}"]`);
  if (!line) {
    line = h("p.rematch-asked", { role: "status", dataset: { seat: String(seat), testid: `rematch-asked-${seat}` } },
      h("bdi", { dir: "auto" }, table.nameOf(seat)), " ", say("wants"));
    modal.insertBefore(line, foot);
  }
}

/** A table event this module handles: a chat bubble, a rematch asked, the rematch's table. */
export function onTalkEvent(table, ev, mine, toast) {
  if (ev.kind === "chat" && ev.player && chat.muted.has(ev.player)) return; // a muted player: nothing of theirs shows
  if (ev.kind === "chat" && ev.text) onText(table, ev);
  else if (ev.kind === "chat") {
    // A quick phrase or an emote: over the seat, and in the log with the words.
    remember(ev);
    const sheet = document.querySelector("[data-testid=talk-sheet]");
    if (sheet && !sheet.hidden) renderLog();
    showChat(table, ev);
  }
  else if (ev.kind === "rematch" && ev.seat !== mine) rematchAsked(table, ev.seat, toast);
  else if (ev.kind === "next_table") location.hash = `#/table/${ev.table_id}`;
}
