// Replay viewer for a finished game: every hand, trick by trick, with all hands face up (the
// game is over, so nothing is hidden any more). It reads the game's hokm/1 record, and asks the
// server (POST /api/verify) to check it with the engine, so what is shown is a checked game.
//
// Showing a record needs three facts the record leaves to the rules: which seat got which card
// (the deal packets), who took each trick, and who is Hâkem next. They are worked out below
// for display only, following the rule notes; the server's verification of the same record is
// shown beside them, tests/web/test_replay.py holds them to the engine's own answers, and live
// play never uses this code.

import { h, clear } from "./dom.js";
import { t, num, cardName, suitName } from "./i18n.js";
import { faceUrl, sortHand, suitIcon, RANKS } from "./cards.js";
import * as settings from "./settings.js";

const PACKETS = { 3: [5, 4, 4, 4], 4: [5, 4, 4] };

function sideOf(n, seat) { return n === 4 ? seat % 2 : seat; }
function rank(c) { return RANKS.indexOf(c[0]); }

function trickWinner(cards, leader, trump, n) {
  let best = 0;
  for (let i = 1; i < cards.length; i++) {
    const a = cards[best], b = cards[i];
    const beats = b[1] === a[1] ? rank(b) > rank(a) : b[1] === trump;
    if (beats) best = i;
  }
  return (leader + best) % n;
}

function dealt(rec, hand, hakem) {
  const n = rec.players;
  const deck = hand.deck;
  const hands = Array.from({ length: n }, () => []);
  if (n === 2) {
    hands[hakem] = deck.slice(0, 5);
    hands[1 - hakem] = deck.slice(5, 10);
    const discards = hand.discards || [[], []];
    for (let s = 0; s < 2; s++) hands[s] = hands[s].filter((c) => !discards[s].includes(c));
    const stock = deck.slice(10);
    (hand.draws || []).forEach((choice, i) => {
      const seat = i % 2 === 0 ? hakem : 1 - hakem;
      hands[seat].push(choice === "keep" ? stock[2 * i] : stock[2 * i + 1]);
    });
    return hands;
  }
  let i = 0;
  for (const size of PACKETS[n]) {
    for (let k = 0; k < n; k++) {
      hands[(hakem + k) % n].push(...deck.slice(i, i + size));
      i += size;
    }
  }
  return hands;
}

/** The winning side of a finished hand from its trick counts (RULES-NOTES, "End of a hand"). */
function handWinner(n, tricks, played) {
  if (n !== 3) return tricks.findIndex((x) => x >= 7);
  const left = 17 - played;
  for (let p = 0; p < 3; p++) {
    const others = [0, 1, 2].filter((q) => q !== p);
    if (tricks[p] >= 7 && others.every((q) => tricks[q] === 0)) return p;
    if (others.every((q) => tricks[p] > tricks[q] + left)) return p;
  }
  const most = Math.max(...tricks);
  const tied = [0, 1, 2].filter((p) => tricks[p] === most);
  if (tied.length === 2) return [0, 1, 2].find((p) => !tied.includes(p));
  return -1;
}

/** The ace draw: cards are turned one to each seat in turn order from `start`; the first ace is Hâkem. */
function firstAceSeat(draw, n) {
  const i = draw.cards.findIndex((c) => c[0] === "A");
  return (draw.start + Math.max(0, i)) % n;
}

/** Frames: one per hand start and one per trick, each with every seat's remaining cards. */
export function framesOf(rec) {
  const n = rec.players;
  let hakem = rec.hakem_draw ? firstAceSeat(rec.hakem_draw, n) : rec.first_hakem;
  const frames = [];
  rec.hands.forEach((hand, hi) => {
    const holding = dealt(rec, hand, hakem).map((cs) => cs.slice());
    const tricks = new Array(n === 4 ? 2 : n).fill(0);
    let leader = hakem;
    const base = { hand: hi, hakem, trump: hand.trump };
    frames.push({ ...base, trickNo: 0, trick: null, hands: holding.map((c) => c.slice()), tricks: tricks.slice() });
    const plays = hand.plays || [];
    for (let k = 0; k + n <= plays.length; k += n) {
      const cards = plays.slice(k, k + n);
      const winner = trickWinner(cards, leader, hand.trump, n);
      cards.forEach((c, i) => {
        const seat = (leader + i) % n;
        holding[seat] = holding[seat].filter((x) => x !== c);
      });
      tricks[sideOf(n, winner)] += 1;
      frames.push({ ...base, trickNo: k / n + 1, trick: { leader, cards, winner }, hands: holding.map((c) => c.slice()), tricks: tricks.slice() });
      leader = winner;
    }
    const w = handWinner(n, tricks, plays.length / n);
    if (w >= 0 && w !== sideOf(n, hakem)) hakem = (hakem + 1) % n;
  });
  return frames;
}

export async function showReplay(app, api, gameId) {
  const main = h("main.replay", {}, h("p.muted", {}, "…"));
  app.append(main);
  let rec;
  try {
    rec = await api.get(`/api/games/${gameId}/record`);
  } catch (err) {
    clear(main).append(h("section.card-panel", {}, h("p", {}, `${t("error")}: ${err.message || err.code}`), h("a.btn", { href: "#/" }, t("home"))));
    return null;
  }
  const frames = framesOf(rec);
  const names = rec.names || Array.from({ length: rec.players }, (_, i) => t("seatName", { n: i + 1 }));
  let at = 0;
  const board = h("div.replay-board", { dataset: { players: rec.players } });
  const caption = h("div.replay-caption", { "aria-live": "polite" });
  const verify = h("div.replay-verify", { "aria-live": "polite" });
  const go = (i) => { at = Math.max(0, Math.min(frames.length - 1, i)); draw(); };
  const handStart = (dir) => {
    const cur = frames[at].hand;
    const target = frames.findIndex((f) => f.hand === cur + dir);
    if (target >= 0) go(target);
  };
  const controls = h("div.replay-controls", {},
    h("button.btn.small", { type: "button", onclick: () => handStart(-1), "aria-label": t("prev") + " " + t("handN", { n: "" }) }, "⏮"),
    h("button.btn.small.prev", { type: "button", onclick: () => go(at - 1), "aria-label": t("prev") }, "◀"),
    h("button.btn.small.next", { type: "button", onclick: () => go(at + 1), "aria-label": t("next") }, "▶"),
    h("button.btn.small", { type: "button", onclick: () => handStart(1), "aria-label": t("next") + " " + t("handN", { n: "" }) }, "⏭"),
    h("button.btn.small", { type: "button", onclick: () => download(rec, gameId) }, t("download")));
  const keys = (ev) => {
    if (ev.key === "ArrowRight") go(at + (document.dir === "rtl" ? -1 : 1));
    if (ev.key === "ArrowLeft") go(at + (document.dir === "rtl" ? 1 : -1));
  };
  window.addEventListener("keydown", keys);
  clear(main).append(h("section.card-panel.replay-panel", {}, h("h2", {}, t("replay")), caption, board, controls, verify));

  function draw() {
    const f = frames[at];
    clear(caption).append(
      h("span", {}, t("handN", { n: f.hand + 1 })), " · ",
      h("span", {}, f.trickNo ? t("trickN", { n: f.trickNo }) : t("allHands")), " · ",
      h("span.trump-inline", {}, t("hokm"), " ", h("span.suit-inline", { html: f.trump ? suitIcon(f.trump) : "" }), f.trump ? suitName(f.trump) : ""), " · ",
      h("span", {}, `${t("hakem")}: ${names[f.hakem]}`), " · ",
      h("span", {}, `${t("tricks")}: ${f.tricks.map(num).join(" – ")}`));
    clear(board);
    for (let s = 0; s < rec.players; s++) {
      const played = f.trick ? f.trick.cards[(s - f.trick.leader + rec.players) % rec.players] : null;
      board.append(h("div.replay-seat" + (f.trick && f.trick.winner === s ? ".won" : ""), { dataset: { seat: s } },
        h("div.replay-name", {}, names[s], s === f.hakem ? " 👑" : ""),
        h("div.replay-played", {}, played ? h("img.card-img", { src: faceUrl(settings.get("faces"), played), alt: cardName(played) }) : null),
        h("div.replay-hand", {}, sortHand(f.hands[s], f.trump).map((c) => h("img.card-img", { src: faceUrl(settings.get("faces"), c), alt: cardName(c), title: cardName(c) })))));
    }
  }
  draw();
  api.post("/api/verify", rec).then((res) => {
    clear(verify).append(h("h3", {}, t("fairness")), h("ul.fair-list", {}, res.hands.map((vh) =>
      h("li.fair-item", { dataset: { ok: String(vh.ok) } }, h("span.fair-mark", {}, vh.ok ? "✓" : "✗"), vh.ok ? t("verifyOk", { n: vh.hand + 1 }) : `${t("verifyBad", { n: vh.hand + 1 })} ${vh.message}`))));
  }).catch((err) => { verify.textContent = `${t("fairness")}: ${err.message || err.code}`; });
  return () => window.removeEventListener("keydown", keys);
}

function download(rec, gameId) {
  const blob = new Blob([JSON.stringify(rec, null, 1)], { type: "application/json" });
  const a = h("a", { href: URL.createObjectURL(blob), download: `hokm-${gameId}.json` });
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}
