// The live table: draws one seat's view (SeatView.to_json()) and turns taps, drags and keys into
// actions. It never decides a rule: what may be played comes only from view.legal.
//
// Updates are queued and applied one at a time, so a burst of events (bots playing quickly,
// a reconnect) still animates in order; when the queue runs long, animations are skipped to
// catch up. The DOM skeleton is built once and every area has a fixed size, so nothing on the
// table moves when cards do.

import { h, clear, sleep } from "./dom.js";
import { t, num, cardName, suitName, sep, scoreGap, botName, errorText, unbroken } from "./i18n.js";
import { faceUrl, backUrl, suitIcon, SUITS } from "./cards.js";
import { flowerSvg } from "./flower.js";
import * as settings from "./settings.js";
import { avatarSvg, seatAvatar } from "./avatars.js";
import * as sound from "./sound.js";
import { orderHand, isHandOrderKey } from "./handorder.js";
import { Preselect } from "./preselect.js";
import { toggleReview } from "./review.js";
import { scoreSheetButton, scoreTable } from "./scoresheet.js";

const POSITIONS = { 2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"] };

/** Which hand the completed tricks of a view belong to (after a hand ends, hand_index moved on). */
function handKey(v) {
  return (v.phase === "deal" || v.phase === "over") && v.results.length ? v.results.length - 1 : v.hand_index;
}

/** The Hâkem the crown marks: between hands (the summary up) the Hâkem of the hand just played, as the Hokm
 *  badge still shows that hand's Hokm; the view already names the next hand's Hâkem. */
function crownedSeat(v) {
  const r = (v.phase === "deal" || v.phase === "over") && v.results.length ? v.results[v.results.length - 1] : null;
  return r && Number.isInteger(r.hakem) ? r.hakem : v.hakem;
}

/** Every card played this hand, in order, with the trick it belongs to. */
function playsOf(v) {
  const out = [];
  v.completed.forEach((tr, i) => tr.cards.forEach((c, k) => out.push({ seat: (tr.leader + k) % v.players, card: c, trick: i })));
  v.trick.forEach((p) => out.push({ seat: p.seat, card: p.card, trick: v.completed.length }));
  return out;
}

/** How many cards of its suit the hand holds in a row around each card (the suit's run in the sorted hand). */
function runLengths(suits) {
  const out = [];
  for (let i = 0; i < suits.length;) {
    let j = i;
    while (j < suits.length && suits[j] === suits[i]) j++;
    for (let k = i; k < j; k++) out.push(j - i);
    i = j;
  }
  return out;
}

/** Whether the rows split a suit that would fit in a row of `most` cards (only a longer suit may split). */
export function splitsShortSuit(suits, starts, most) {
  const runs = runLengths(suits);
  return starts.some((b) => b > 0 && suits[b] === suits[b - 1] && runs[b] <= most);
}

/** The distance between two rows of the hand, for cards `cw` wide: a lower row leaves the rank and the suit of the
 *  row above it in sight. */
function rowGapOf(cw) { return Math.max(48, cw * 1.4 * 0.42); }

/** The height the hand takes in `rows` rows of cards `cw` wide: 26 px above the cards leaves room for a lifted card
 *  (playable, chosen, hinted) under the action line, and 6 px below them for a dimmed card, which sits lower. */
function handHeight(cw, rows) { return cw * 1.4 + (rows - 1) * rowGapOf(cw) + 32; }

/** Where each row of the hand starts: between two suits (a suit is read whole), or inside a suit only when that
 *  suit is longer than a row, in rows of at most `most` cards, as even as that allows; an even split when the
 *  hand cannot be cut so. */
export function rowStarts(suits, rows, most) {
  const n = suits.length;
  const even = Array.from({ length: rows }, (_, r) => r * Math.ceil(n / rows)).filter((i) => i < n || i === 0);
  if (rows < 2 || n === 0) return [0];
  const runs = runLengths(suits);
  const cuts = [];
  for (let i = 1; i < n; i++) if (suits[i] !== suits[i - 1] || runs[i] > most) cuts.push(i);
  // Choose rows - 1 cuts, in order: the fewest inside a suit, then the shortest longest row, then the most even
  // rows (hands are short: a small search).
  let best = null;
  const pick = (from, left, chosen) => {
    if (left === 0) {
      const edges = [0, ...chosen, n];
      const lengths = edges.slice(1).map((b, j) => b - edges[j]);
      const longest = Math.max(...lengths);
      const inside = chosen.filter((b) => suits[b] === suits[b - 1]).length;
      const spread = lengths.reduce((a, x) => a + x * x, 0);
      const better = !best || inside - best.inside || longest - best.longest || spread - best.spread;
      if (longest <= most && (better === true || better < 0)) best = { longest, inside, spread, starts: [0, ...chosen] };
      return;
    }
    for (let j = from; j < cuts.length; j++) pick(j + 1, left - 1, [...chosen, cuts[j]]);
  };
  pick(0, rows - 1, []);
  return best ? best.starts : even;
}

export class Table {
  constructor(root, hooks = {}) {
    this.root = root;
    this.hooks = hooks;
    this.view = null;
    this.seats = [];
    this.deadline = null;
    this.info = null;
    this.queue = [];
    this.busy = false;
    this.selected = new Set(); // discard picker
    this.hintCard = null;
    this.focusIndex = 0;
    this.handDealer = null; // {hand, seat}: the dealer of the hand that ended last, while its summary is read
    this.build();
    this.timerLoop = setInterval(() => this.drawTimers(), 250);
    this.onResize = () => { this.handRoom = 0; this.handCw = 0; this.handBox = null; this.handKey = null; this.measureTrickRoom(); this.layoutHand(); this.placeSummary(); };
    window.addEventListener("resize", this.onResize);
  }

  destroy() {
    clearInterval(this.timerLoop);
    window.removeEventListener("resize", this.onResize);
    if (this.seatWatch) this.seatWatch.disconnect();
    if (this.handWatch) this.handWatch.disconnect();
    for (const [type, fn] of this.windowListeners) window.removeEventListener(type, fn);
    this.unsubscribe();
    clear(this.root);
  }

  // ------------------------------------------------------------------ skeleton
  build() {
    clear(this.root);
    this.el = {};
    const e = this.el;
    e.trump = h("div.trump-badge", { role: "status", "aria-live": "polite" });
    e.handNo = h("div.hand-no");
    e.flowers = h("div.flowers");
    e.lastBtn = h("button.icon-btn.last-btn", { type: "button", onclick: () => this.toggleLastTrick(), "aria-label": t("lastTrick"), title: t("lastTrick") }, "⟲");
    e.hintBtn = h("button.icon-btn.hint-btn", { type: "button", onclick: () => this.askHint(), "aria-label": t("hint"), title: t("hint") }, t("questionMark"));
    e.muteBtn = h("button.icon-btn.mute-btn", { type: "button", "aria-label": t("mute"), title: t("mute"), onclick: () => settings.set("muted", !settings.get("muted")) });
    e.menuBtn = h("button.icon-btn.menu-btn", { type: "button", onclick: () => this.hooks.onMenu && this.hooks.onMenu(), "aria-label": t("menu"), title: t("menu") }, "☰");
    e.sheetBtn = scoreSheetButton(this);
    e.top = h("header.table-bar", { dataset: { testid: "top-bar" } }, e.menuBtn, e.trump, e.handNo, e.flowers, h("div.bar-tools", {}, e.hintBtn, e.lastBtn, e.sheetBtn, e.muteBtn));
    e.seats = h("div.seats");
    e.trick = h("div.trick-area", { "aria-label": t("trickN", { n: 1 }), dataset: { testid: "trick" } });
    // A seat's marks (Hâkem, dealer, the computer playing, offline) name themselves when tapped: a phone has no
    // hover to show their titles.
    const explain = (ev) => {
      const badge = ev.target.closest(".badge"), seat = ev.target.closest(".seat");
      if (badge && seat && badge.getAttribute("aria-label")) {
        this.note(`${this.nameOf(Number(seat.dataset.seat))}: ${badge.getAttribute("aria-label")}`);
      }
    };
    e.seats.addEventListener("click", explain);
    e.felt = h("div.felt", {}, e.seats, e.trick);
    // Your own seat: over the cloth's corner on an upright or large screen, beside the action line and
    // just above your hand on a phone held on its side (app.css places it).
    e.meSlot = h("div.me-slot");
    e.meSlot.addEventListener("click", explain);
    e.hand = h("div.hand", { role: "group", "aria-label": t("you") });
    e.probe = h("div.card-probe", { "aria-hidden": "true" });
    e.handWrap = h("div.hand-wrap", { dataset: { testid: "hand" } }, e.hand, e.probe);
    // One line between the table and the hand: whose turn it is, the decision asked of you, your clock.
    e.status = h("div.status-line", { "aria-live": "polite" });
    e.timerText = h("span.my-timer", { "aria-live": "off" });
    e.actionMain = h("div.action-main");
    e.note = h("div.table-note", { hidden: true, role: "status", dataset: { testid: "table-note" } });
    // A message that lasts (reconnecting, the computer playing for you) takes the action line's place too, so it
    // covers neither the scores in the bar nor the cloth; at the game's end the summary says what matters.
    e.banner = h("div.banner", { hidden: true, role: "alert", dataset: { testid: "banner" } });
    e.actions = h("div.action-bar", { dataset: { testid: "timer-line" } }, e.actionMain, e.status, e.timerText, e.banner, e.note);
    e.overlay = h("div.overlay", { hidden: true });
    e.live = h("div.sr-only", { "aria-live": "assertive", id: "announcer" });
    e.table = h("section.table", {}, e.top, e.felt, e.meSlot, e.actions, e.handWrap, e.overlay, e.live);
    this.root.append(e.table);
    this.pre = new Preselect(this);
    this.updateMute();
    this.unsubscribe = settings.onChange((k) => {
      if (k === "muted") this.updateMute();
      if (k === "hints") this.renderTools();
      if (k === "faces" || k === "backs" || k === "avatar") this.render();
      if (isHandOrderKey(k) && this.view) this.renderHand();
    });
    this.bindHandInput();
  }

  updateMute() {
    const m = settings.get("muted");
    this.el.muteBtn.textContent = m ? "🔇" : "🔊";
    // A toggle: its name stays "Mute" and its pressed state says whether the sound is off (a label that
    // changed with the state, "Sound on", read as the state rather than what a press does).
    this.el.muteBtn.setAttribute("aria-pressed", m ? "true" : "false");
  }

  // ------------------------------------------------------------------ updates
  /** Queue one server message's worth of state: {view, seats, deadline, info, event}. */
  update(msg) {
    this.queue.push(msg);
    if (!this.busy) this.drain();
  }

  async drain() {
    this.busy = true;
    while (this.queue.length) {
      const msg = this.queue.shift();
      try {
        await this.apply(msg, this.queue.length > 2);
      } catch (err) {
        console.warn("table update failed", err);
        this.render();
      }
    }
    this.busy = false;
    this.pre.settle();
  }

  async apply(msg, hurry) {
    if (msg.seats) this.seats = msg.seats;
    // Deadlines are in server time; events carry the server's clock, so measure the difference once.
    if (msg.serverAt) this.skew = msg.serverAt * 1000 - Date.now();
    if ("deadline" in msg) this.deadline = msg.deadline ? { ...msg.deadline } : null;
    if (msg.info) this.info = msg.info;
    if (msg.mySeat !== undefined) this.mySeat = msg.mySeat;
    const prev = this.view;
    const v = msg.view;
    if (msg.event) this.announceEvent(msg.event, v);
    if (!v) { this.renderSeats(); return; }
    this.view = v;
    // The summary of the last hand (or the ace draw) stays up a moment, then the new hand takes the table.
    const held = this.el.overlay.dataset.kind;
    // (The ace draw is not closed by a message the table hurries through: the last message of the queue, never
    // hurried, closes it once its time is up, and a choice waits for that as it does under a hand's summary.)
    if ((held === "hand" || (held === "ace" && !hurry)) && v.phase !== "deal" && v.phase !== "over") {
      // Until the time it is held to, which may be put later while it waits.
      for (let wait = this.summaryUntil - Date.now(); wait > 0 && !hurry; wait = this.summaryUntil - Date.now()) await sleep(wait);
      this.closeModal(held);
    }
    // Show the ace draw once: from its event, or on first sight of a game that has not begun playing. From its event
    // even while the table hurries through a queue: the game's start comes with the first deal's events behind it,
    // more of them the slower the phone, and a slow phone skipped how its game's Hâkem was found.
    const unplayed = !v.results.length && !v.completed.length && !v.trick.length && (v.phase === "trump" || v.phase === "deal");
    if (!this.aceShown && v.hakem_draw && ((msg.event && msg.event.kind === "start") || (msg.fresh && unplayed && !hurry))) {
      this.aceShown = true;
      this.showAceDraw(v);
    }
    let fresh = [];
    if (prev && handKey(prev) === handKey(v) && prev.players === v.players) {
      const before = playsOf(prev), after = playsOf(v);
      const isPrefix = before.length <= after.length && before.every((p, i) => p.card === after[i].card);
      if (isPrefix) fresh = after.slice(before.length);
    }
    if (fresh.length && !hurry && settings.dur(100) > 0) await this.animatePlays(prev, v, fresh);
    else if (fresh.length) this.announcePlays(v, fresh);
    if (prev && prev.trump !== v.trump && v.trump) sound.play("trump");
    if (prev && handKey(prev) !== handKey(v) && v.phase !== "over") sound.play("deal");
    // Two players: the dialog showed only the top card; what your draw took and what it burned is said once.
    // Not while the computer draws for you: the line then holds the banner that offers your seat back.
    const drawn = v.draw_log || [];
    const auto = v.seat !== null && v.seat !== undefined && this.seats[v.seat] && this.seats[v.seat].auto;
    if (prev && prev.draw_log && drawn.length === prev.draw_log.length + 1 && !auto) {
      const d = drawn[drawn.length - 1];
      this.note(t(d.choice === "keep" ? "drewKept" : "drewPassed", { first: cardName(d.first), second: cardName(d.second) }));
    }
    if (prev && v.results.length === prev.results.length + 1) {
      this.handDealer = { hand: prev.results.length, seat: prev.dealer };
    }
    this.render();
    if (prev && v.results.length > prev.results.length) await this.showHandSummary(v, hurry);
    // The game's winner comes with the game_over event; a fresh picture of a finished game (a rejoin)
    // has no event, and its winner is the last hand's: only that hand's winner scored in it.
    if (msg.event && msg.event.kind === "game_over") this.showGameSummary(v, msg.event.winner);
    else if (msg.fresh && v.phase === "over" && (!prev || prev.phase !== "over")) this.showGameSummary(v, v.results[v.results.length - 1].winner);
    if (this.isMyTurn() && (!prev || prev.to_move !== v.to_move || prev.phase !== v.phase)) sound.play("turn");
  }

  /** The seat that wears the dealer's mark: between hands (the last hand's Hâkem keeps the crown while its summary is
   * read) the dealer of that hand, as the views said while it was played; the next hand's comes with its deal. */
  dealerShown(v) {
    const between = (v.phase === "deal" || v.phase === "over") && v.results.length;
    const d = this.handDealer;
    return between && d && d.hand === v.results.length - 1 ? d.seat : v.dealer;
  }

  isMyTurn() { return this.view && this.view.legal && this.view.legal.length > 0; }

  mySeatOr0() { return this.view && this.view.seat !== null && this.view.seat !== undefined ? this.view.seat : 0; }

  posOf(seat) {
    const v = this.view;
    return POSITIONS[v.players][(seat - this.mySeatOr0() + v.players) % v.players];
  }

  nameOf(seat) {
    const s = this.seats && this.seats[seat];
    if (this.view && seat === this.view.seat) return t("you");
    // Bots get a name in the page's language rather than the server's English label.
    if (s && s.kind === "bot") return botName(seat);
    if (s && s.name) return s.name;
    return t("seatName", { n: seat + 1 });
  }

  sideName(side) {
    const v = this.view;
    if (v.players === 4) {
      if (v.seat === null || v.seat === undefined) return this.seatsOf(side).map((s) => this.nameOf(s)).join(" + ");
      return side === this.sideOf(v.seat) ? t("us") : t("them");
    }
    return this.nameOf(side);
  }

  /** "Sara takes the trick" / "You take the trick": the verb agrees. */
  trickToText(seat) { return seat === this.view.seat ? t("trickToYou") : t("trickTo", { name: this.nameOf(seat) }); }

  /** A seat's side, and a side's seats, as the server's view gives them (the engine's rule, not derived here). */
  sideOf(seat) { return this.view.sides[seat]; }

  seatsOf(side) { return this.view.sides.flatMap((s, seat) => (s === side ? [seat] : [])); }

  playedText(p) {
    return p.seat === this.view.seat ? t("playedYou", { card: cardName(p.card) }) : t("played", { name: this.nameOf(p.seat), card: cardName(p.card) });
  }

  /** Three players: why the seat with the fewest tricks took the hand (the other two tied for most). */
  tieText(winner) {
    const v = this.view;
    const [a, b] = [1, 2].map((k) => (winner + k) % v.players);
    const name = (s) => `\u2068${this.nameOf(s)}\u2069`; // a name of either script, isolated in the sentence
    if (v.seat === winner) return t("tieWonYou", { a: name(a), b: name(b) });
    if (v.seat === a || v.seat === b) return t("tieWonWithYou", { b: name(v.seat === a ? b : a), side: name(winner) });
    return t("tieWon", { a: name(a), b: name(b), side: name(winner) });
  }

  /** "We won the hand", "They won the game", "Bahar won the hand": the verb agrees in both languages. */
  wonText(kind, side) {
    const v = this.view;
    const seated = v.seat !== null && v.seat !== undefined;
    const base = kind === "hand" ? "handWon" : "gameWon";
    if (seated && v.players === 4) return t(side === this.sideOf(v.seat) ? base + "We" : base + "They");
    if (seated && side === v.seat) return t(base + "You");
    // Two partners, to someone who watches: "Sara + Computer 3 won", the verb plural in Persian.
    return t(base + (v.players === 4 ? "ByPair" : "By"), { side: this.sideName(side) });
  }

  // ------------------------------------------------------------------ rendering
  render() {
    if (!this.view) return;
    const v = this.view;
    this.shown = v;
    this.narrating = false;
    this.el.table.dataset.players = v.players;
    this.el.table.dataset.phase = v.phase;
    this.el.table.classList.toggle("my-turn", this.isMyTurn());
    this.showBanner();
    this.renderBar();
    this.renderSeats();
    this.renderTrick();
    this.renderHand();
    this.renderActions();
    this.renderStatus();
    this.renderTools();
    // What the view changed (the next deal's hand, a seat's marks) may move what the open summary must not cover.
    this.placeSummary();
    if (!this.el.overlay.hidden && this.el.overlay.dataset.kind === "last" && this.followReview) this.followReview();
  }

  renderBar() {
    const v = this.view;
    const e = this.el;
    // Drawn again only when something it shows changed (most cards played change no score and no trick count).
    const key = JSON.stringify([v.trump, v.hand_index, v.phase === "deal" || v.phase === "over", v.results.length, v.scores, v.tricks,
      v.seat, v.players, v.rules.target_points, v.scores.map((_, s) => this.sideName(s)), t("hokm")]);
    if (key === this.barKey) return;
    this.barKey = key;
    clear(e.trump);
    if (v.trump) {
      e.trump.append(h("span.trump-label", {}, t("hokm")), h("span.trump-suit", { html: suitIcon(v.trump) }), h("span.sr-only", {}, t("trumpIs", { suit: suitName(v.trump) })));
      e.trump.classList.remove("empty");
      e.trump.title = t("trumpIs", { suit: suitName(v.trump) });
    } else {
      e.trump.append(h("span.trump-label", {}, t("hokm")), h("span.trump-suit.unknown", { "aria-hidden": "true" }, t("questionMark")),
        h("span.sr-only", {}, t("trumpUnknown")));
      e.trump.classList.add("empty");
    }
    e.handNo.textContent = t("handN", { n: v.hand_index + 1 - (v.phase === "deal" || v.phase === "over" ? (v.results.length ? 1 : 0) : 0) });
    clear(e.flowers);
    const target = v.rules.target_points;
    const sides = v.scores.length; // a score per side
    // Your own side first, the others after it in turn order.
    const first = v.seat !== null && v.seat !== undefined ? this.sideOf(v.seat) : 0;
    for (let k = 0; k < sides; k++) {
      const s = (first + k) % sides;
      const mine = v.seat !== null && v.seat !== undefined && this.sideOf(v.seat) === s;
      const label = t("scoreOf", { side: this.sideName(s), n: v.scores[s], t: target });
      // The game score is the big number; this hand's tricks are the small line under the name.
      e.flowers.append(h("div.flower-box" + (mine ? ".mine" : ""), { title: label, dataset: { side: s, testid: `score-${s}` } },
        h("span.flower-pic", { html: flowerSvg(v.scores[s], target, label) }),
        h("span.flower-name", { dir: "auto" }, unbroken(this.sideName(s))),
        h("span.score-cell", { "aria-label": label }, h("span.score-word", { "aria-hidden": "true" }, t("scoreWord")), h("span.game-score" + (v.scores[s] ? "" : ".zero"), {}, num(v.scores[s]))),
        h("span.flower-tricks", { title: t("tricks") }, t("tricksN", { n: v.tricks[s] }))));
    }
  }

  /**
   * The seats, each drawn again only where something it shows changed: a card played changes two seats (the one that
   * played, the one to move next), and the others keep their elements, so a seat's pulse runs on and a screen reader
   * keeps its place. Rebuilding every seat on every card, and measuring the cloth after it, cost a phone most of the
   * time it spent on a card (docs/web.md, "Drawing only what changed").
   */
  renderSeats() {
    if (!this.view) return;
    const v = this.view;
    const e = this.el;
    const crowned = crownedSeat(v);
    const dealer = this.dealerShown(v);
    const back = backUrl(settings.get("backs"));
    const drawn = this.seatEls || new Map();
    // A seat that moved between the cloth and your own place (you sat down, or rose) redraws them all, in seat order.
    const whole = drawn.size !== v.players || [...drawn].some(([s, d]) => d.el.parentNode !== (s === v.seat ? e.meSlot : e.seats));
    if (whole) { clear(e.seats); clear(e.meSlot); drawn.clear(); }
    let changed = false;
    for (let s = 0; s < v.players; s++) {
      const pos = this.posOf(s);
      const info = this.seats[s] || {};
      const isMe = s === v.seat;
      const partner = v.players === 4 && v.seat !== null && v.seat !== undefined && !isMe && this.sideOf(s) === this.sideOf(v.seat);
      // A computer's own seat, or the computer standing in for a person: the mark says which.
      const robot = info.kind === "bot" ? t("computerSeat") : t("botPlaying");
      const count = v.hand_counts[s];
      const turn = v.to_move === s && v.phase !== "over" && v.phase !== "deal";
      const seatTricks = v.seat_tricks[s];
      const avatar = seatAvatar(info, s, isMe);
      const label = [this.nameOf(s), s === crowned ? t("hakem") : "", partner ? t("partner") : "", isMe ? "" : t("cardsLeft", { n: count }), `${t("tricks")} ${num(seatTricks)}`].filter(Boolean).join(sep());
      // Everything the seat's element shows (the label carries its words in the page's language).
      const key = JSON.stringify([pos, isMe, partner, v.players, s === crowned, s === dealer, info.kind, !!info.auto, !!info.connected,
        count, turn, seatTricks, avatar, label, robot, back]);
      const old = drawn.get(s);
      if (old && old.key === key) {
        old.el.classList.toggle("turn", turn); // the turn's ring, moved seat to seat while the cards flew (markTurn)
        continue;
      }
      const badges = h("div.badges");
      if (s === crowned) badges.append(h("span.badge.crown", { title: t("hakem"), "aria-label": t("hakem"), role: "img", html: CROWN }));
      if (s === dealer) badges.append(h("span.badge.dealer", { title: t("dealer"), "aria-label": t("dealer"), role: "img", html: DECK }));
      if (info.kind === "bot" || info.auto) badges.append(h("span.badge.bot", { title: robot, "aria-label": robot, role: "img", html: ROBOT }));
      if (info.kind === "human" && !info.connected && !isMe) badges.append(h("span.badge.offline", { title: t("offline"), "aria-label": t("offline"), role: "img" }, "⚡"));
      const fan = h("div.mini-fan", { "aria-hidden": "true" });
      if (!isMe) {
        const shown = Math.min(count, 7);
        for (let i = 0; i < shown; i++) fan.append(h("img.mini-card", { src: back, alt: "", style: { "--i": i, "--n": shown } }));
      }
      const el = h(`div.seat.pos-${pos}` + (isMe ? ".me" : "") + (partner ? ".partner" : "") + (turn ? ".turn" : "") + (v.players === 4 ? `.team-${this.sideOf(s)}` : ""),
        { dataset: { seat: s, testid: `seat-${pos}` }, "aria-label": label, role: "group" },
        // The picture is taken over from the seat's last element where it is the same (a picture is costly to draw).
        old && old.avatar === avatar ? old.el.querySelector(".avatar")
          : h("div.avatar", {}, h("span.timer-ring"), h("span.avatar-pic", { html: avatarSvg(avatar), dataset: { avatar } })),
        h("div.seat-text", {},
          h("div.seat-name", { dir: "auto" }, unbroken(this.nameOf(s))),
          h("div.seat-sub", {}, partner ? h("span.partner-tag", {}, t("partner")) : null, h("span.seat-tricks", { title: t("tricks") }, t("tricksN", { n: seatTricks })))),
        badges, fan);
      if (old) old.el.replaceWith(el);
      else (isMe ? e.meSlot : e.seats).append(el);
      drawn.set(s, { key, el, avatar });
      changed = true;
    }
    this.seatEls = drawn;
    this.drawTimers();
    if (!changed) return;
    this.watchSideSeats();
    this.el.table.dispatchEvent(new CustomEvent("seats-drawn")); // a seat's box may have changed: bubbles follow
  }

  /** The side seats are watched for their size: the room between them is measured after the page's layout, when a
   *  seat is drawn or grows (a badge, a longer name), never by making the browser lay the page out in the middle of
   *  drawing it. */
  watchSideSeats() {
    const left = this.el.seats.querySelector(".seat.pos-left"), right = this.el.seats.querySelector(".seat.pos-right");
    this.seatWatch ||= new ResizeObserver(() => this.measureTrickRoom());
    if (this.watched && this.watched[0] === left && this.watched[1] === right) return;
    this.seatWatch.disconnect();
    this.watched = [left, right];
    // Watching starts with a first report of each seat's size: the room is measured then.
    if (left && right) { this.seatWatch.observe(left); this.seatWatch.observe(right); }
    else this.el.felt.style.removeProperty("--trick-room");
  }

  /** The width the side seats leave between them, for the style sheet (--trick-room): on a phone on its side the trick
   *  lies in that band, as wide as the seats' names let it be («رایانه ۴» is narrower than "Computer 4"). */
  measureTrickRoom() {
    const left = this.el.seats.querySelector(".seat.pos-left"), right = this.el.seats.querySelector(".seat.pos-right");
    if (!left || !right) { this.el.felt.style.removeProperty("--trick-room"); return; }
    // The trick lies in the middle of the cloth: as wide as twice the room on its narrower side.
    const felt = this.el.felt.getBoundingClientRect(), middle = felt.left + felt.width / 2;
    const room = 2 * Math.min(middle - left.getBoundingClientRect().right, right.getBoundingClientRect().left - middle) - 16;
    const value = `${Math.max(0, Math.floor(room))}px`;
    if (this.el.felt.style.getPropertyValue("--trick-room") === value) return;
    this.el.felt.style.setProperty("--trick-room", value);
    this.placeSummary(); // the trick moved: the open summary keeps clear of it
  }

  drawTimers() {
    const d = this.deadline;
    for (const seatEl of [...this.el.seats.querySelectorAll(".seat"), ...this.el.meSlot.querySelectorAll(".seat")]) {
      const s = Number(seatEl.dataset.seat);
      const ring = seatEl.querySelector(".timer-ring");
      if (!d || d.seat !== s || (this.ringAt !== undefined && this.ringAt !== s)) {
        seatEl.style.removeProperty("--left"); seatEl.classList.remove("timing", "urgent");
        if (ring) ring.removeAttribute("title");
        continue;
      }
      const left = Math.max(0, d.at * 1000 - this.now());
      const frac = d.seconds > 0 ? Math.min(1, left / (d.seconds * 1000)) : 0;
      seatEl.classList.add("timing");
      seatEl.classList.toggle("urgent", left < 5000);
      seatEl.style.setProperty("--left", String(frac));
      if (ring) ring.title = t("timer", { n: Math.ceil(left / 1000) });
    }
    // Your clock shows only while the screen says it is your turn: not while the plays before it fly in, nor
    // while the line says what was just played or who took the trick (narrate), your own last card included.
    const shown = this.shown;
    const mine = d && shown && !this.narrating && shown.legal && shown.legal.length > 0 && d.seat === shown.seat;
    const left = mine ? Math.max(0, d.at * 1000 - this.now()) : 0;
    const text = mine ? t("timer", { n: Math.ceil(left / 1000) }) : "";
    if (this.el.timerText) this.el.timerText.textContent = text;
    // A choice on the clock (the Hokm, a card from the stock), the trick review and the score sheet say your time in
    // their own box: on a small phone the box lies over the line below the table, clock and all.
    const inBox = this.el.overlay.hidden ? null : this.el.overlay.querySelector(".choice-timer");
    if (inBox) {
      // The trick review or the score sheet opened on our turn: when the turn ends under it (the clock ran out and a
      // card was played for us), it closes, and the table says what happened.
      // (Opened while others played, it stays when our turn comes and goes under it: we opened it to read it.)
      const kind = this.el.overlay.dataset.kind;
      if (!text && inBox.dataset.onTurn && (kind === "last" || kind === "sheet")) { this.closeModal(kind); return; }
      inBox.textContent = text;
      inBox.classList.toggle("urgent", mine && left < 5000);
    }
  }

  /** The server's clock as best we know it (ms). */
  now() { return Date.now() + (this.skew || 0); }

  renderTrick() {
    const v = this.view;
    const e = this.el;
    clear(e.trick);
    let cards = v.trick;
    // After the last trick of a hand the table briefly keeps it in view.
    if (!cards.length && (v.phase === "deal" || v.phase === "over") && v.completed.length) {
      const last = v.completed[v.completed.length - 1];
      cards = last.cards.map((c, k) => ({ seat: (last.leader + k) % v.players, card: c }));
    }
    e.trick.setAttribute("aria-label", t("trickN", { n: v.completed.length + (v.trick.length ? 1 : 0) || 1 }));
    cards.forEach((p, i) => e.trick.append(this.trickCard(p, i)));
    if (v.players === 2 && (v.phase === "draw" || v.phase === "discard") && v.stock_size) {
      e.trick.append(h("div.stock", { "aria-label": `${t("stock")}: ${num(v.stock_size)}` },
        h("img.card-img", { src: backUrl(settings.get("backs")), alt: "" }), h("span.stock-n", { "aria-hidden": "true" }, `${t("stock")}: ${num(v.stock_size)}`)));
    }
  }

  trickCard(p, i) {
    const pos = this.posOf(p.seat);
    const tilt = ((p.card.charCodeAt(0) * 7 + p.card.charCodeAt(1) * 3) % 11) - 5; // stable small tilt per card
    // Where a card lies follows from data-pos in the style sheet, so each screen shape places it.
    return h("div.trick-card", { dataset: { seat: p.seat, card: p.card, pos }, style: { zIndex: 10 + i, "--tilt": `${tilt}deg` }, role: "img", "aria-label": `${this.nameOf(p.seat)}: ${cardName(p.card)}` },
      h("img.card-img", { src: faceUrl(settings.get("faces"), p.card), alt: "" }));
  }

  renderHand() {
    const v = this.view;
    const e = this.el;
    const legalCards = new Set(v.legal.filter((a) => a.type === "play").map((a) => a.card));
    const discarding = v.legal.some((a) => a.type === "discard");
    if (!discarding) this.selected.clear(); // a choice left over from a discard the timer made for us
    const hand = orderHand(v.hand, v.trump);
    const marking = this.pre.open(v);
    const old = new Map([...e.hand.children].map((c) => [c.dataset.card, c]));
    const keep = new Set();
    hand.forEach((card, i) => {
      let el = old.get(card);
      if (!el) {
        el = h("button.card", { type: "button", dataset: { card } }, h("img.card-img", { src: faceUrl(settings.get("faces"), card), alt: "", draggable: "false" }));
        e.hand.append(el);
      } else {
        // Set only when the faces changed: setting an image's source, even to the same one, makes it load again.
        const img = el.querySelector("img"), src = faceUrl(settings.get("faces"), card);
        if (img.getAttribute("src") !== src) img.src = src;
      }
      keep.add(card);
      const playable = legalCards.has(card);
      const isTrump = v.trump && card[1] === v.trump;
      el.classList.toggle("playable", playable);
      el.classList.toggle("dimmed", v.phase === "play" && this.isMyTurn() && !playable);
      el.classList.toggle("selected", discarding && this.selected.has(card));
      el.classList.toggle("hinted", this.hintCard === card);
      el.classList.toggle("trump", !!isTrump);
      // In the play, every card of the hand answers a tap: before your turn it is chosen in advance
      // (js/preselect.js); on your turn one the rules refuse is sent anyway, and the server's reason
      // (the engine's error code) is shown on it; the page never judges the rule.
      el.disabled = !(playable || discarding || marking || (v.phase === "play" && v.seat !== null && v.seat !== undefined));
      el.setAttribute("aria-disabled", el.disabled ? "true" : "false");
      el.setAttribute("aria-label", cardName(card) + (isTrump ? `${sep()}${t("hokm")}` : "") + (discarding && this.selected.has(card) ? " ✓" : ""));
      el.setAttribute("aria-pressed", discarding ? String(this.selected.has(card)) : null);
      if (!discarding) el.removeAttribute("aria-pressed");
      this.pre.decorate(el, card);
      el.dataset.index = String(i);
    });
    for (const [card, el] of old) if (!keep.has(card)) el.remove();
    // Keep the DOM order equal to the sorted order, for tabbing and screen readers. Only a card out of its place
    // moves: a moved element loses the focus, and a keyboard player's focus must outlive the other seats' plays.
    const focused = e.hand.contains(document.activeElement) ? document.activeElement : null;
    hand.forEach((card, i) => {
      const el = e.hand.querySelector(`[data-card="${card}"]`);
      if (el && e.hand.children[i] !== el) e.hand.insertBefore(el, e.hand.children[i] || null);
    });
    if (focused && focused.isConnected && document.activeElement !== focused) focused.focus({ preventScroll: true });
    this.layoutHand(true);
    this.updateRovingTabindex();
  }

  /** Place hand cards in one or more overlapping rows so every card keeps a 44 px target. */
  layoutHand() {
    const e = this.el;
    const cards = [...e.hand.children];
    // The hand's width and the style sheet's card width change only with the window or the hand's box (watched
    // below): measured once and kept, since reading them while the table is drawn makes the browser lay the whole
    // page out first, on every card played.
    if (!this.handBox) {
      const width = e.handWrap.clientWidth, card = e.probe.offsetWidth;
      if (width && card) this.handBox = { W: width, cssW: card };
      this.handWatch ||= new ResizeObserver(() => {
        if (this.handBox && e.handWrap.clientWidth !== this.handBox.W) { this.handBox = null; this.layoutHand(); }
      });
      this.handWatch.observe(e.handWrap);
    }
    const W = this.handBox ? this.handBox.W : e.handWrap.clientWidth || window.innerWidth;
    const cssW = this.handBox ? this.handBox.cssW : e.probe.offsetWidth || 80; // the CSS card width, resolved for this viewport
    // The same cards in the same box lie where they lay.
    const key = [W, cssW, window.innerWidth, window.innerHeight, document.documentElement.dir, this.view ? this.view.hand_size : 0,
      ...cards.map((el) => el.dataset.card)].join();
    if (key === this.handKey) return;
    this.handKey = key;
    let cw = cssW;
    const n = cards.length;
    // Dealing (the hand growing) measures afresh; within a deal the cards keep the narrowest width
    // and the hand the largest room it has needed, so nothing moves under the player's thumb as
    // cards go.
    if (n > (this.handCount || 0)) { this.handRoom = 0; this.handCw = 0; }
    this.handCount = n;
    // A phone on its side has no height for a second row: its strips may narrow to 40 px to keep one.
    const most = this.view ? this.view.hand_size : n;
    const low = window.innerHeight < 500 && window.innerWidth > window.innerHeight;
    const minStep = low && cw + (most - 1) * 40 <= W - 8 ? Math.min(44, (W - cw - 8) / (most - 1)) : 44;
    const maxPerRow = Math.max(1, Math.floor((W - cw - 8) / minStep + 1e-6) + 1);
    let rows = Math.max(1, Math.ceil(n / maxPerRow));
    // Rows break between suits: a row may then hold more cards than the even split, in strips down to
    // 40 px, on cards down to 52 px wide where the row needs it, or the hand takes one row more.
    const strip = 40, smallest = 52;
    const longest = rows > 1 ? Math.max(maxPerRow, Math.floor((W - 8 - Math.min(cw, smallest)) / strip) + 1) : maxPerRow;
    const suits = cards.map((el) => el.dataset.card.slice(-1));
    let starts = rowStarts(suits, rows, longest);
    // A suit that fits in a row is never split: the hand takes a row more (or two) rather than that, where the
    // screen has the height for it (the hand then at most 30% of it). On a shorter phone (360 x 640) a third row
    // shrank the cloth until the trick's cards were 36 px wide: a short suit there shares two rows instead.
    const tallEnough = (r) => handHeight(cw, r) <= 0.3 * window.innerHeight;
    for (let more = 1; rows > 1 && more <= 2 && tallEnough(rows + more) && splitsShortSuit(suits, starts, longest); more++) {
      const next = rowStarts(suits, rows + more, longest);
      if (!splitsShortSuit(suits, next, longest)) { rows += more; starts = next; }
    }
    // Reserve room for the largest hand of this game once, so the table never jumps as cards go.
    const maxRows = Math.max(rows, Math.ceil(most / maxPerRow));
    const widest = Math.max(...starts.map((b, j) => (j + 1 < starts.length ? starts[j + 1] : n) - b));
    if (widest > maxPerRow && rows > 1) cw = Math.min(cw, W - 8 - (widest - 1) * strip);
    if (this.handCw) cw = Math.min(cw, this.handCw);
    this.handCw = cw;
    if (cw < cssW) e.hand.style.setProperty("--card-w", `${cw}px`);
    else e.hand.style.removeProperty("--card-w");
    const rowGap = rowGapOf(cw);
    // The hand reads in the page's direction: in Persian the first card (trump first, the highest first) is at the
    // right and the order runs leftwards. Each card still lies over the one on its left, so every card shows its
    // left strip and the rank in its corner.
    const rtl = document.documentElement.dir === "rtl";
    const need = handHeight(cw, maxRows);
    this.handRoom = Math.max(this.handRoom || 0, need);
    e.handWrap.style.height = `${this.handRoom}px`;
    cards.forEach((el, i) => {
      let r = 0;
      while (r + 1 < starts.length && starts[r + 1] <= i) r++;
      const inRow = (r + 1 < starts.length ? starts[r + 1] : n) - starts[r];
      const k = i - starts[r];
      const slot = rtl ? inRow - 1 - k : k; // the place from the left
      const step = inRow > 1 ? Math.min((W - cw - 8) / (inRow - 1), Math.max(inRow > maxPerRow ? strip : minStep, cw * 0.72)) : 0;
      const start = (W - (cw + step * (inRow - 1))) / 2;
      el.style.setProperty("--x", `${start + slot * step}px`);
      el.style.setProperty("--y", `${r * rowGap}px`);
      el.style.zIndex = String(r * 20 + slot + 1); // a lower row over the one above, a card over its left neighbour
    });
  }

  updateRovingTabindex() {
    const cards = [...this.el.hand.children];
    const enabled = cards.filter((c) => !c.disabled);
    if (this.focusIndex >= cards.length) this.focusIndex = cards.length - 1;
    cards.forEach((c) => c.setAttribute("tabindex", "-1"));
    const target = cards[this.focusIndex] && !cards[this.focusIndex].disabled ? cards[this.focusIndex] : enabled[0];
    if (target) target.setAttribute("tabindex", "0");
  }

  renderActions() {
    const v = this.view;
    const e = this.el;
    clear(e.actionMain);
    const legal = v.legal;
    // While the computer plays for us (the banner offers the seat back) it makes the choices: no window asks them
    // of us, over the banner and its button. A card played from the hand still takes the seat back.
    const mine = v.seat !== null && v.seat !== undefined ? this.seats[v.seat] : null;
    if (v.phase === "over" && this.el.overlay.dataset.kind !== "game" && this.gameBody) {
      // The game's summary, closed to look at the table (or reach the menu), opens again from here as it was
      // (a rematch asked for, its answers).
      e.actionMain.append(h("button.btn.primary", { type: "button", dataset: { testid: "game-result" },
        onclick: () => this.openModal("game", { title: t("gameOver"), body: this.gameBody }, { dismissable: true }) },
      t("gameResult")));
    }
    if (!legal.length || (mine && mine.auto)) { this.closeModal("trump"); this.closeModal("draw"); return; }
    const kind = legal[0].type;
    const held = this.el.overlay.dataset.kind;
    const wait = this.summaryUntil - Date.now();
    if ((held === "hand" || held === "ace") && wait > 0) {
      // Let the summary be read; the choice opens right after.
      clearTimeout(this.heldTimer);
      const release = () => {
        const left = this.summaryUntil - Date.now();
        if (left > 0) { this.heldTimer = setTimeout(release, left); return; }
        this.closeModal(held);
        this.render();
      };
      this.heldTimer = setTimeout(release, wait);
      return;
    }
    if (kind === "trump") this.openTrumpChooser();
    else this.closeModal("trump");
    if (kind === "draw") this.openDraw();
    else this.closeModal("draw");
    if (kind === "discard") {
      const need = legal[0].cards.length;
      const chosen = [...this.selected];
      const match = legal.find((a) => a.cards.length === chosen.length && a.cards.every((c) => this.selected.has(c)));
      e.actionMain.append(
        h("div.action-title", {}, t("discardTitle", { n: need }), h("small", {}, t("discardHelp", { n: need }))),
        h("button.btn.primary.discard-confirm", { type: "button", disabled: !match, onclick: () => { if (match) { this.selected.clear(); this.send(match); } } }, t("confirmCount", { a: chosen.length, n: need })));
    } else if (kind === "play") {
      e.actionMain.append(h("div.your-turn", {}, t("yourTurn")));
    }
    // A new turn of ours: what lies over the hand (the chat sheet) may give way (once a turn: the sheet opened
    // again during it stays).
    const turn = `${v.results.length}/${v.completed.length}/${v.trick.length}/${kind}`;
    if ((kind === "play" || kind === "discard") && turn !== this.turnShown) {
      this.turnShown = turn;
      // A note still up from before (what the last draw took and burned) gives the line to "your turn" once it could
      // be read, 1.2 s after it came rather than 3: beside it on a phone the turn stood squeezed onto two lines.
      this.shortenNote(1200);
      this.el.table.dispatchEvent(new CustomEvent("decision", { detail: { kind } }));
    }
    this.drawTimers();
  }

  /** The status line while cards fly and a full trick is read: what just happened, not whose turn it was before
   * (render() puts the turn back), and no "your turn" beside it: the card that answered it is already on its way.
   * The announcer says it aloud, so the line is not announced a second time. */
  narrate(text) {
    this.narrating = true;
    for (const pill of this.el.actionMain.querySelectorAll(".your-turn")) pill.remove();
    this.el.status.setAttribute("aria-live", "off");
    this.el.status.textContent = text;
    this.drawTimers();
  }

  renderStatus() {
    const v = this.view;
    this.el.status.setAttribute("aria-live", "polite");
    let s = "";
    if (v.phase === "trump" && !this.isMyTurn()) s = t("hakemChoosing", { name: this.nameOf(v.hakem) });
    else if (v.phase === "over") s = t("gameOver");
    else if (v.to_move !== null && v.to_move !== undefined && !this.isMyTurn() && v.phase !== "deal") s = t("waitingFor", { name: this.nameOf(v.to_move) });
    this.el.status.textContent = s;
  }

  renderTools() {
    const hintsOn = settings.get("hints") && (!this.info || this.info.hints !== false);
    this.el.hintBtn.hidden = !hintsOn;
    this.el.hintBtn.disabled = !this.isMyTurn();
    const v = this.view;
    this.el.lastBtn.disabled = !v || !v.completed.length;
  }

  // ------------------------------------------------------------------ input
  bindHandInput() {
    const hand = this.el.hand;
    let drag = null;
    hand.addEventListener("click", (ev) => {
      const el = ev.target.closest(".card");
      if (!el || el.disabled || (drag && drag.moved)) return;
      this.chooseCard(el.dataset.card);
    });
    hand.addEventListener("keydown", (ev) => {
      const cards = [...hand.children];
      const i = cards.indexOf(document.activeElement);
      if (i < 0) return;
      // The arrows move the way the hand is laid: in Persian the next card is on the left.
      const ahead = document.documentElement.dir === "rtl" ? "ArrowLeft" : "ArrowRight";
      const back = ahead === "ArrowLeft" ? "ArrowRight" : "ArrowLeft";
      const step = { [ahead]: 1, [back]: -1, ArrowDown: 1, ArrowUp: -1 }[ev.key];
      if (step) {
        ev.preventDefault();
        let j = i;
        for (let k = 0; k < cards.length; k++) {
          j = (j + step + cards.length) % cards.length;
          if (!cards[j].disabled) break;
        }
        this.focusIndex = j;
        this.updateRovingTabindex();
        cards[j].focus();
      } else if (ev.key === "Home" || ev.key === "End") {
        ev.preventDefault();
        const en = cards.filter((c) => !c.disabled);
        const c = ev.key === "Home" ? en[0] : en[en.length - 1];
        if (c) { this.focusIndex = cards.indexOf(c); this.updateRovingTabindex(); c.focus(); }
      }
    });
    hand.addEventListener("pointerdown", (ev) => {
      const el = ev.target.closest(".card");
      if (!el || el.disabled || !el.classList.contains("playable")) return;
      drag = { el, x: ev.clientX, y: ev.clientY, moved: false, id: ev.pointerId };
    });
    const move = (ev) => {
      if (!drag || ev.pointerId !== drag.id) return;
      const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 10) return;
      if (!drag.moved) { drag.moved = true; drag.el.classList.add("dragging"); try { drag.el.setPointerCapture(drag.id); } catch { /* not capturable */ } }
      drag.el.style.setProperty("--dx", `${dx}px`);
      drag.el.style.setProperty("--dy", `${dy}px`);
    };
    const end = (ev) => {
      if (!drag || ev.pointerId !== drag.id) return;
      const d = drag;
      if (d.moved) {
        const handTop = this.el.handWrap.getBoundingClientRect().top;
        d.el.classList.remove("dragging");
        d.el.style.removeProperty("--dx");
        d.el.style.removeProperty("--dy");
        if (ev.type === "pointerup" && ev.clientY < handTop - 10) this.chooseCard(d.el.dataset.card);
        setTimeout(() => { drag = null; }, 0); // let the click that follows see it was a drag
      } else {
        drag = null;
      }
    };
    // Moves and releases are followed on the window, so a drag may leave the hand.
    // Escape closes what is only there to be read (last trick, summaries), never a decision.
    const esc = (ev) => {
      const kind = this.el.overlay.dataset.kind;
      if (ev.key === "Escape" && ["last", "hand", "ace", "sheet"].includes(kind)) this.closeModal(kind);
    };
    this.windowListeners = [["pointermove", move], ["pointerup", end], ["pointercancel", end], ["keydown", esc]];
    for (const [type, fn] of this.windowListeners) window.addEventListener(type, fn);
  }

  chooseCard(card) {
    const v = this.view;
    if (!v) return;
    if (this.pre.open(v)) { this.pre.toggle(card); return; }
    if (v.legal.some((a) => a.type === "discard")) {
      if (this.selected.has(card)) this.selected.delete(card);
      else if (this.selected.size < v.legal[0].cards.length) this.selected.add(card);
      this.renderHand();
      this.renderActions();
      return;
    }
    const act = v.legal.find((a) => a.type === "play" && a.card === card);
    if (act) this.send(act);
    else if (v.phase === "play") this.tryRefused(card);
  }

  /** A card the view does not list as playable: ask the server, which answers with the reason. */
  tryRefused(card) {
    if (this.refused && Date.now() - this.refused.at < 1500) return; // one question at a time
    this.refused = { card, at: Date.now() };
    this.hooks.onAction && this.hooks.onAction({ type: "play", card });
  }

  /** The server refused an action (an engine error code, with the engine's facts: the suit to follow): shake the
   *  card and say why. */
  showRefusal({ code, message, suit = null }) {
    const asked = this.refused;
    this.refused = null;
    const card = asked && asked.card;
    const el = card && this.el.hand.querySelector(`[data-card="${card}"]`);
    if (el) {
      el.classList.remove("shake");
      void el.offsetWidth; // restart the animation
      el.classList.add("shake");
      setTimeout(() => el.classList.remove("shake"), 700);
    }
    const key = "refused_" + code;
    const text = t(key, { suit: suit ? suitName(suit) : "" });
    this.note(text === key ? errorText({ code, message }) : text);
  }

  /** A short message on the status line that goes by itself. */
  note(text) {
    const n = this.el.note;
    n.textContent = text;
    n.hidden = false;
    this.noteAt = Date.now();
    clearTimeout(this.noteTimer);
    this.noteTimer = setTimeout(() => { n.hidden = true; }, 3000);
    this.say(text);
  }

  /** The note up now goes `ms` after it came (at once if that is past), not at its usual 3 s. */
  shortenNote(ms) {
    if (this.el.note.hidden) return;
    clearTimeout(this.noteTimer);
    const left = ms - (Date.now() - (this.noteAt || 0));
    if (left <= 0) this.el.note.hidden = true;
    else this.noteTimer = setTimeout(() => { this.el.note.hidden = true; }, left);
  }

  send(action) {
    if (!this.isMyTurn()) return;
    this.hintCard = null;
    // No optimistic play: the card moves when the server's event says it was accepted. Until then the turn is
    // answered: a box opened in the meantime was not opened on our turn (see clockInBox).
    this.answered = this.view;
    this.el.table.classList.add("sending");
    this.hooks.onAction && this.hooks.onAction(action);
    setTimeout(() => this.el.table.classList.remove("sending"), 400);
  }

  async askHint() {
    if (!this.hooks.onHint || !this.isMyTurn()) return;
    this.hooks.onHint();
  }

  /** The server's suggestion: highlight a card, or announce a trump/draw choice. */
  showHint(action) {
    if (!action) return;
    if (action.type === "play") {
      this.hintCard = action.card;
      this.renderHand();
      this.say(t("hintSays", { card: cardName(action.card) }));
    } else if (action.type === "trump") {
      this.say(t("hintSays", { card: suitName(action.suit) }));
      const b = this.el.overlay.querySelector(`[data-suit="${action.suit}"]`);
      if (b) b.classList.add("hinted");
    } else if (action.type === "draw") {
      this.say(t("hintSays", { card: t(action.choice) }));
      const b = this.el.overlay.querySelector(`[data-choice="${action.choice}"]`);
      if (b) b.classList.add("hinted");
    } else if (action.type === "discard") {
      this.selected = new Set(action.cards);
      this.renderHand();
      this.renderActions();
    }
  }

  // ------------------------------------------------------------------ modals
  openModal(kind, content, { dismissable = false } = {}) {
    const o = this.el.overlay;
    if (o.dataset.kind === kind && !o.hidden) return o.firstChild;
    clear(o);
    o.dataset.kind = kind;
    const box = h("div.modal", { role: "dialog", "aria-modal": "true", "aria-label": content.title || "" }, ...content.body);
    if (dismissable) o.onclick = (ev) => { if (ev.target === o) this.closeModal(kind); };
    else o.onclick = null;
    o.append(box);
    o.hidden = false;
    this.placeSummary();
    // A choice with a clock (the Hokm, a card from the stock): what lay over the table (the chat sheet) gives way.
    if (kind === "trump" || kind === "draw") this.el.table.dispatchEvent(new CustomEvent("decision", { detail: { kind } }));
    const focus = box.querySelector("button:not([disabled])");
    if (focus) setTimeout(() => focus.focus({ preventScroll: true }), 0);
    return box;
  }

  closeModal(kind) {
    const o = this.el.overlay;
    if (!o.hidden && (!kind || o.dataset.kind === kind)) {
      const was = o.dataset.kind;
      o.hidden = true; clear(o); o.dataset.kind = ""; this.placeSummary();
      if (was === "game" && this.view) this.renderActions(); // the button that opens it again
    }
  }

  /** A hand's summary lies where it hides neither the scores in the bar nor a seat in its column: in the
   *  tallest gap between them that holds it (on a phone held upright, between the partner's seat and yours;
   *  on its side, below the partner's). Where no gap is tall enough (a small phone), it takes the tallest one
   *  that leaves out only your own seat, and your seat is drawn over it: a seat half covered misreads, «شما»
   *  cut to «ما». A choice on the clock (the Hokm, a card from the stock) opens under the bar; the other
   *  dialogs cover the whole table. */
  placeSummary() {
    const o = this.el.overlay;
    const table = this.el.table;
    o.style.alignItems = "";
    o.style.paddingTop = "";
    o.style.paddingLeft = "";
    o.style.paddingRight = "";
    table.classList.remove("summary-under-me");
    if (!o.hidden && (o.dataset.kind === "trump" || o.dataset.kind === "draw")) {
      // A choice on the clock opens under the bar, whose scores it would cover where the bar takes two rows (a
      // phone held upright).
      const under = this.el.top.getBoundingClientRect().bottom - table.getBoundingClientRect().top + 8;
      if (under > 70) o.style.paddingTop = `${under}px`;
      return;
    }
    if (o.hidden || o.dataset.kind !== "hand" || !o.firstElementChild) return;
    const room = table.getBoundingClientRect();
    const box = o.firstElementChild.getBoundingClientRect();
    const need = box.height + 16; // and a margin above and below
    const bar = this.el.top.getBoundingClientRect();
    if (this.placeSummaryBesideTrick(room, box, bar)) return;
    const inColumn = (r) => r.width > 0 && r.height > 0 && r.right > box.left && r.left < box.right;
    const tallestGap = (seats) => {
      const blocks = [bar, ...seats.map((e) => e.getBoundingClientRect())].filter(inColumn).sort((p, q) => p.top - q.top);
      let gap = null;
      let y = room.top;
      for (const r of [...blocks, { top: room.bottom, bottom: room.bottom }]) {
        if (r.top - y >= need && (!gap || r.top - y > gap[1] - gap[0])) gap = [y, r.top];
        y = Math.max(y, r.bottom);
      }
      return gap;
    };
    const others = [...this.el.seats.querySelectorAll(".seat")];
    let gap = tallestGap([...others, ...this.el.meSlot.querySelectorAll(".seat")]);
    if (!gap) {
      gap = tallestGap(others) || [bar.bottom, room.bottom];
      table.classList.add("summary-under-me");
      // Your seat (on the left) would lie on the box's first words, the names of its rows: where the box fits
      // right of the seat without covering another seat, it goes there.
      const mine = this.el.meSlot.querySelector(".seat");
      const seat = mine ? mine.getBoundingClientRect() : null;
      const left = seat ? seat.right + 6 : 0;
      const y = gap[0] + (gap[1] - gap[0] - box.height) / 2;
      const span = { left, right: Math.min(room.right - 6, left + box.width), top: y, bottom: y + box.height };
      const clear = (r) => r.right <= span.left || r.left >= span.right || r.bottom <= span.top || r.top >= span.bottom;
      if (seat && seat.right > box.left && span.right - span.left >= Math.min(box.width, 220)
          && others.every((e) => clear(e.getBoundingClientRect()))) {
        o.style.paddingLeft = `${left - room.left}px`;
      }
    }
    // The whole table stays dimmed; the box moves to the middle of its gap.
    o.style.alignItems = "flex-start";
    o.style.paddingTop = `${gap[0] + (gap[1] - gap[0] - box.height) / 2 - room.top}px`;
  }

  /** Where the table is wide (a desktop, a tablet), the summary lies beside the trick, between it and a side
   *  seat: the hand's last trick stays in sight, the box covers no seat and no score, and it stays put as the
   *  next deal comes (the trick's area does not move). False where no side has the room. */
  placeSummaryBesideTrick(room, box, bar) {
    const o = this.el.overlay;
    const trick = this.el.trick.getBoundingClientRect();
    if (!trick.width) return false;
    if (room.bottom - box.height - 8 < bar.bottom + 8) return false; // not the height for it under the bar
    const all = [...this.el.seats.querySelectorAll(".seat"), ...this.el.meSlot.querySelectorAll(".seat")]
      .map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
    const margin = 12;
    const rtl = document.documentElement.dir === "rtl";
    // The side beside the trick that holds the box with its top at ``top``, or null.
    const sideAt = (top) => {
      const seats = all.filter((r) => r.bottom > top && r.top < top + box.height);
      const slot = (from, to) => (to - from >= box.width + 2 * margin ? [from, to] : null);
      const leftEdge = Math.max(room.left, ...seats.filter((r) => r.right <= trick.left).map((r) => r.right));
      const rightEdge = Math.min(room.right, ...seats.filter((r) => r.left >= trick.right).map((r) => r.left));
      const left = slot(leftEdge, trick.left), right = slot(trick.right, rightEdge);
      // A seat lying across the band between the trick and the edge closes that side.
      const open = (g) => g && seats.every((r) => r.right <= g[0] || r.left >= g[1]);
      return (rtl ? [right, left] : [left, right]).find(open) || null; // the side where reading starts first
    };
    // Level with the trick's middle where it can; a taller box (a kot's line, a Hâkem-koti's) reached up beside the
    // seat above the trick, which closed both sides: then as near the middle as it can, below a seat or the bar.
    const lowest = room.bottom - box.height - 8;
    const middle = Math.max(bar.bottom + 8, Math.min(lowest, (trick.top + trick.bottom - box.height) / 2));
    const tops = [middle, bar.bottom + 8, ...all.map((r) => r.bottom + 8)].filter((y) => y >= bar.bottom + 8 && y <= lowest)
      .sort((a, b) => Math.abs(a - middle) - Math.abs(b - middle));
    for (const top of tops) {
      const side = sideAt(top);
      if (!side) continue;
      const [from, to] = side;
      const x = from + (to - from - box.width) / 2;
      o.style.alignItems = "flex-start";
      o.style.paddingTop = `${top - room.top}px`;
      // Padded to the box's own width on both sides, it lies there whichever way the page reads.
      o.style.paddingLeft = `${x - room.left}px`;
      o.style.paddingRight = `${room.right - x - box.width}px`;
      return true;
    }
    return false;
  }

  openTrumpChooser() {
    const v = this.view;
    const suits = v.legal.filter((a) => a.type === "trump").map((a) => a.suit);
    const cards = h("div.five", {}, orderHand(v.hand, null).map((c) => h("img.card-img.big", { src: faceUrl(settings.get("faces"), c), alt: cardName(c) })));
    const buttons = h("div.suit-choices", {}, SUITS.filter((s) => suits.includes(s)).map((s) => h("button.suit-btn", {
      type: "button", dataset: { suit: s }, "aria-label": suitName(s), onclick: () => this.send({ type: "trump", suit: s }),
    }, h("span.suit-pic", { html: suitIcon(s) }), h("span", {}, suitName(s)))));
    this.openModal("trump", { title: t("chooseTrump"), body: [h("h2", {}, t("chooseTrump")), h("p.help", {}, t("chooseTrumpHelp")), cards, buttons,
      h("p.choice-timer", { "aria-live": "off" })] });
    this.drawTimers();
  }

  openDraw() {
    const v = this.view;
    const kp = (c) => v.legal.find((a) => a.type === "draw" && a.choice === c);
    const body = [h("h2", {}, t("drawTitle")),
      h("div.draw-card", {}, v.draw_card ? h("img.card-img.big", { src: faceUrl(settings.get("faces"), v.draw_card), alt: cardName(v.draw_card) }) : null),
      h("p.help", {}, t("drawHelp"), h("br"), `${t("stock")}: ${num(v.stock_size || 0)}`),
      h("div.row", {},
        kp("keep") ? h("button.btn.primary", { type: "button", dataset: { choice: "keep" }, onclick: () => this.send(kp("keep")) }, t("keep")) : null,
        kp("pass") ? h("button.btn", { type: "button", dataset: { choice: "pass" }, onclick: () => this.send(kp("pass")) }, t("pass")) : null),
      h("p.choice-timer", { "aria-live": "off" })];
    // The drawn card changes each turn: rebuild rather than reuse.
    const o = this.el.overlay;
    if (o.dataset.kind === "draw" && o.dataset.card !== v.draw_card) this.closeModal("draw");
    this.openModal("draw", { title: t("drawTitle"), body });
    o.dataset.card = v.draw_card || "";
    this.drawTimers();
  }

  /** Step through the completed tricks of the hand (js/review.js). */
  toggleLastTrick() { toggleReview(this); }

  /** Who drew the first ace and so is the Hâkem, said to that seat as "you". */
  firstHakemText(hakem, seat) {
    return hakem === seat ? t("firstHakemYou") : t("firstHakem", { name: this.nameOf(hakem) });
  }

  /** The first Hâkem: cards turned one to each seat in turn until the first ace. */
  showAceDraw(v) {
    const d = v.hakem_draw;
    const rows = [];
    for (let k = 0; k < v.players; k++) {
      const seat = (d.start + k) % v.players;
      const cards = d.cards.filter((_, i) => (d.start + i) % v.players === seat);
      if (!cards.length) continue;
      rows.push(h("div.ace-row" + (seat === v.hakem ? ".won" : ""), {},
        h("span.sum-side", {}, this.nameOf(seat), seat === v.hakem ? h("span.badge.crown", { html: CROWN }) : null),
        h("span.ace-cards", {}, cards.map((c) => h("img.card-img", { src: faceUrl(settings.get("faces"), c), alt: cardName(c) })))));
    }
    this.closeModal();
    this.openModal("ace", { title: t("hakem"), body: [h("h2", {}, t("hakem")), h("p.help", {}, this.firstHakemText(v.hakem, v.seat)), ...rows] }, { dismissable: true });
    this.summaryUntil = Date.now() + Math.max(800, settings.dur(2600));
  }

  async showHandSummary(v, hurry) {
    const r = v.results[v.results.length - 1];
    if (!r) return;
    const sides = v.scores.length; // a score per side
    if (r.kot) sound.play("kot");
    else sound.play("trick");
    const rows = [];
    for (let s = 0; s < sides; s++) {
      rows.push(h("div.sum-row" + (s === r.winner ? ".won" : ""), {},
        h("span.sum-side", {}, this.sideName(s)),
        h("span.sum-tricks", {}, `${t("tricks")}: ${num(r.tricks[s])}`),
        h("span.sum-flower", { html: flowerSvg(v.scores[s], v.rules.target_points, this.sideName(s)) })));
    }
    const callout = r.hakem_koti ? h("div.callout.kot", {}, t("hakemKoti") + "!") : r.kot ? h("div.callout.kot", {}, t("kot") + "!") : null;
    const pts = r.points === 1 ? t("point1") : t("points", { n: r.points });
    const why = r.tie ? this.tieText(r.winner) : null;
    // Who won and what it is worth are two lines: no separator sits beside the number.
    // Why, under the tricks it explains (and clear of your seat, which a phone may draw over the top of the box).
    const body = [h("h2", {}, t("handOver")), callout, h("p.sum-head", {}, this.wonText("hand", r.winner)),
      h("p.sum-points", {}, pts), ...rows, why ? h("p.help.sum-why", {}, why) : null, this.summaryButtons()];
    this.say(`${this.wonText("hand", r.winner)}${sep()}${pts}${r.kot ? sep() + (r.hakem_koti ? t("hakemKoti") : t("kot")) : ""}${why ? " " + why : ""}`);
    if (v.phase === "over") return; // the game summary follows at once
    this.closeModal();
    this.openModal("hand", { title: t("handOver"), body }, { dismissable: true });
    // The server deals the next hand after a pause; the summary closes by itself when it arrives.
    this.summaryUntil = Date.now() + Math.max(800, settings.dur(2200));
  }

  /** The hand summary's buttons. While the computer plays for us the summary dims the banner that offers the seat
   *  back, so the summary offers it too, first. */
  summaryButtons() {
    const close = (primary) => h(`button.btn${primary ? ".primary" : ""}`, { type: "button", onclick: () => this.closeModal("hand") }, t("close"));
    const back = this.bannerAction;
    if (!back) return close(true);
    return h("div.sum-back", {}, h("p.help", {}, t("botPlayingYou")), h("div.row", {},
      h("button.btn.primary.sum-take-back", { type: "button", onclick: () => { this.closeModal("hand"); back.onclick(); } }, back.label),
      close(false)));
  }

  showGameSummary(v, winner) {
    const sides = v.scores.length;
    const mine = v.seat !== null && v.seat !== undefined ? this.sideOf(v.seat) : null;
    const r = v.results[v.results.length - 1];
    const rows = [];
    for (let s = 0; s < sides; s++) {
      rows.push(h("div.sum-row" + (s === winner ? ".won" : ""), {}, h("span.sum-side", {}, this.sideName(s)),
        h("span.sum-flower", { html: flowerSvg(v.scores[s], v.rules.target_points, this.sideName(s)) }),
        h("span.sum-score", { dataset: { testid: `final-score-${s}` } }, num(v.scores[s]))));
    }
    const callout = r && r.hakem_koti ? h("div.callout.kot", {}, t("hakemKoti") + "!") : r && r.kot ? h("div.callout.kot", {}, t("kot") + "!") : null;
    // A partnership speaks as "we" from the heading on ("We won!", then "Us 3, Them 2"); alone, "you".
    const team = v.players === 4;
    const head = mine === null ? this.wonText("game", winner)
      : mine === winner ? t(team ? "weWin" : "youWin") : t(team ? "weLose" : "youLose");
    const order = [...Array(sides).keys()].map((k) => ((mine ?? 0) + k) % sides); // your own side first
    // One form for the whole line: where a name ends in a number (a computer's), every name takes the colon.
    const gap = order.some((s) => scoreGap(this.sideName(s)) !== " ") ? ": " : " ";
    // Each side's score stays on its name's line: only between two sides may the line break.
    const final = order.flatMap((s, k) => [...(k ? [sep()] : []),
      h("span.final-pair", {}, h("bdi", {}, this.sideName(s)), gap, num(v.scores[s]))]);
    sound.play(mine === winner ? "kot" : "trick");
    // The summary scrolls; the buttons stay in a footer below it, always on screen.
    const close = h("button.icon-btn.modal-close", { type: "button", "aria-label": t("close"), dataset: { testid: "game-close" },
      onclick: () => this.closeModal("game") }, "✕");
    const body = [close, h("div.modal-scroll", {}, h("h2.game-over-title", {}, t("gameOver")), h("p.sum-head.big", {}, head), callout,
      h("p.final-score", {}, final), ...rows, scoreTable(this)),
    h("div.row.modal-foot", {},
      this.hooks.onGameOverActions ? this.hooks.onGameOverActions() : null)];
    this.say(`${t("gameOver")}. ${this.wonText("game", winner)}`);
    this.gameBody = body;
    this.openModal("game", { title: t("gameOver"), body }, { dismissable: true });
    this.el.table.dispatchEvent(new CustomEvent("game-over")); // what lay over the table (the chat sheet) gives way
  }

  // ------------------------------------------------------------------ animation
  seatPoint(seat) {
    const el = this.el.table.querySelector(`.seat[data-seat="${seat}"] .avatar`);
    const r = (el || this.el.trick).getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }

  /** Without animation: one sound, and one announcement of what happened. */
  announcePlays(v, plays) {
    sound.play("play");
    const parts = [];
    for (const p of plays) {
      parts.push(this.playedText(p));
      const tr = v.completed[p.trick];
      if (tr && p.card === tr.cards[tr.cards.length - 1]) parts.push(this.trickToText(tr.winner));
    }
    this.say(parts.slice(-4).join(". "));
  }

  async animatePlays(prev, v, plays) {
    // Show the state just before, then add each new card with a flight from its player.
    let trickNo = prev.completed.length;
    this.ringAt = plays[0].seat; // the first card's player until it lands
    try {
      for (const [i, p] of plays.entries()) {
        // Who plays once this card is down: the next card's player (after a full trick, its winner leads it), or after
        // the last card the view's. The ring leaves a seat as its card lands, not when the whole batch has been shown.
        const next = i + 1 < plays.length ? plays[i + 1].seat : (v.phase === "play" ? v.to_move : null);
        if (p.trick > trickNo) trickNo = p.trick;
        const inTrickIdx = this.el.trick.querySelectorAll(".trick-card").length;
        const from = p.seat === v.seat ? this.el.hand.querySelector(`[data-card="${p.card}"]`) : null;
        const fromRect = from ? from.getBoundingClientRect() : null;
        if (from) { from.remove(); this.layoutHand(); } // close the gap while the card flies
        const el = this.trickCard(p, inTrickIdx);
        this.el.trick.append(el);
        const to = el.getBoundingClientRect();
        const src = fromRect ? { x: fromRect.left + fromRect.width / 2, y: fromRect.top + fromRect.height / 2 } : this.seatPoint(p.seat);
        const dx = src.x - (to.left + to.width / 2), dy = src.y - (to.top + to.height / 2);
        sound.play("play");
        this.say(this.playedText(p));
        this.narrate(this.playedText(p));
        await el.animate([
          { transform: `translate(-50%, -50%) translate(${dx}px, ${dy}px) rotate(0deg) scale(${fromRect ? 1 : 0.6})`, opacity: fromRect ? 1 : 0.2 },
          { transform: `translate(-50%, -50%) rotate(var(--tilt))`, opacity: 1 },
        ], { duration: settings.dur(260), easing: "cubic-bezier(.2,.8,.2,1)" }).finished.catch(() => {});
        this.markTurn(next);
        // A full trick: pause so it can be read, then sweep it to the winner.
        const tr = v.completed[p.trick];
        if (tr && el.parentNode && this.el.trick.querySelectorAll(".trick-card").length === v.players) {
          this.narrate(this.trickToText(tr.winner));
          await sleep(settings.dur(650));
          await this.collectTrick(tr.winner);
          sound.play("trick");
          this.say(this.trickToText(tr.winner));
        }
      }
    } finally {
      this.ringAt = undefined; // the seats' next drawing marks them from the view
    }
  }

  /** The turn's ring on ``seat``'s picture alone (null: on none), between two drawings of the seats; a clock's ring
   *  too, where that seat has one (another seat's clock, the last card's player's, waits until its card is shown). */
  markTurn(seat) {
    this.ringAt = seat;
    for (const el of [...this.el.seats.querySelectorAll(".seat"), ...this.el.meSlot.querySelectorAll(".seat")]) {
      el.classList.toggle("turn", Number(el.dataset.seat) === seat);
    }
    this.drawTimers();
  }

  /** A box over the table with the clock in it (the trick review, the score sheet), just opened: its clock drawn, and
   *  marked as opened on our turn if it shows one (it then closes when the turn ends under it). Opened after our
   *  card went and before the server took it, it was opened to read, not to think over the turn: it stays. */
  clockInBox() {
    this.drawTimers();
    const inBox = this.el.overlay.querySelector(".choice-timer");
    if (inBox && inBox.textContent && this.answered !== this.view) inBox.dataset.onTurn = "1";
  }

  async collectTrick(winner) {
    const target = this.seatPoint(winner);
    const cards = [...this.el.trick.querySelectorAll(".trick-card")];
    const winEl = cards.find((c) => Number(c.dataset.seat) === winner);
    if (winEl) winEl.classList.add("winner");
    await Promise.all(cards.map((c) => {
      const r = c.getBoundingClientRect();
      const dx = target.x - (r.left + r.width / 2), dy = target.y - (r.top + r.height / 2);
      return c.animate([
        { transform: "translate(-50%, -50%) rotate(var(--tilt))", opacity: 1 },
        { transform: `translate(-50%, -50%) translate(${dx}px, ${dy}px) scale(0.35)`, opacity: 0 },
      ], { duration: settings.dur(420), easing: "ease-in", fill: "forwards" }).finished.catch(() => {});
    }));
    cards.forEach((c) => c.remove());
  }

  // ------------------------------------------------------------------ announcements
  say(text) {
    const live = this.el.live;
    live.textContent = "";
    // A fresh text node each time makes screen readers announce repeats too.
    requestAnimationFrame(() => { live.textContent = text; });
  }

  announceEvent(ev, v) {
    if (!ev) return;
    if (ev.kind === "action" && ev.action && ev.action.type === "trump") this.say(t("trumpIs", { suit: suitName(ev.action.suit) }));
    if (ev.kind === "start") this.say(this.firstHakemText(ev.hakem, (v || this.view || {}).seat));
    if (ev.kind === "seat" && ev.reason === "takeover") this.say(`${this.nameOf(ev.seat)}: ${t("botPlaying")}`);
    if (ev.kind === "seat" || ev.kind === "presence") this.renderSeats();
  }

  /** A message in the action line's place, with an optional button ({label, onclick}); null text hides it. */
  banner(text, kind = "warn", action = null) {
    const b = this.el.banner;
    this.bannerKind = text ? kind : null;
    this.bannerAction = text ? action : null;
    // The seat taken back meanwhile: a summary up offers it no more, and its Close is the one button again.
    const offer = action ? null : this.el.overlay.querySelector(".sum-back");
    if (offer) {
      const had = offer.contains(document.activeElement);
      const close = this.summaryButtons();
      offer.replaceWith(close);
      if (had) close.focus({ preventScroll: true });
    }
    if (text) {
      clear(b).append(h("span.banner-text", {}, text));
      if (action) b.append(h("button.btn.small.banner-btn", { type: "button", onclick: action.onclick }, action.label));
      b.dataset.kind = kind;
    }
    this.showBanner();
  }

  /** Once the game is over, "the computer is playing for you" is past: the summary takes the screen alone. */
  showBanner() {
    const over = this.view && this.view.phase === "over";
    this.el.banner.hidden = !this.bannerKind || (over && this.bannerKind === "info");
  }
}

export const CROWN = `<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M3 18 L4.5 7 L9 12 L12 5 L15 12 L19.5 7 L21 18 Z" fill="#f5c542" stroke="#8a5a00" stroke-width="1.2" stroke-linejoin="round"/><rect x="3" y="18.5" width="18" height="2.6" rx="1" fill="#f5c542" stroke="#8a5a00" stroke-width="1"/></svg>`;
// The dealer's mark: a small deck of cards, the same in every language.
const DECK = `<svg viewBox="0 0 24 24" aria-hidden="true"><rect x="4" y="6" width="11" height="15" rx="2" fill="#fff" stroke="#333" stroke-width="1.3" transform="rotate(-12 9.5 13.5)"/><rect x="9" y="4" width="11" height="15" rx="2" fill="#fff" stroke="#333" stroke-width="1.3"/><path d="M14.5 8.2 L17 11.5 L14.5 14.8 L12 11.5 Z" fill="#c0392b"/></svg>`;
const ROBOT = `<svg viewBox="0 0 24 24" aria-hidden="true"><rect x="5" y="8" width="14" height="11" rx="3" fill="#cfd8e3" stroke="#3b4a5a" stroke-width="1.4"/><circle cx="9.5" cy="13" r="1.6" fill="#3b4a5a"/><circle cx="14.5" cy="13" r="1.6" fill="#3b4a5a"/><path d="M12 8 V4.5" stroke="#3b4a5a" stroke-width="1.4"/><circle cx="12" cy="4" r="1.3" fill="#e05a47"/></svg>`;
