// Replay viewer for a finished game: every hand, trick by trick, with all hands face up (the
// game is over, so nothing is hidden any more). The server works the frames out with the engine
// (GET /api/games/{id}/replay: who held which card, who took each trick, who was Hâkem), so this
// file only draws them; it also asks the server (POST /api/verify) to check the record's shuffles.
// On request it shows the post-hand analysis of the hand on screen (analysis.js, loaded then: it
// needs the server, so it is not kept for offline use, and without the server the button gives way to
// a line saying so).

import { h, clear } from "./dom.js";
import { t, num, cardName, suitName, sep, addStrings, botName, seatNames, errorText } from "./i18n.js";
import { faceUrl, suitIcon } from "./cards.js";
import { orderHand } from "./handorder.js";
import * as settings from "./settings.js";
import { CROWN } from "./table.js";

addStrings({
  en: { analyseHand: "Analyse hand {n}", analysing: "Analysing…", analysed: "Hand {n} analysed",
    analyseOffline: "Analysing a hand needs the server: it is not available offline.",
    replayPrevHand: "Previous hand", replayNextHand: "Next hand", replayLed: "{name} led",
    // A replay (and its analysis) is its players' own: a link opened by anyone else says so, not "reload the page".
    err_replay_unauthorized: "Only this game's players can watch its replay. If you played in it, sign in to your account on this device first.",
    err_replay_forbidden: "Only this game's players can watch its replay.",
    err_replay_game_in_progress: "This game is still being played: its replay opens once it is over." },
  fa: { analyseHand: "تحلیل دست {n}", analysing: "در حال تحلیل…", analysed: "دست {n} تحلیل شد",
    analyseOffline: "تحلیل دست به سرور نیاز دارد و بدون اتصال در دسترس نیست.",
    replayPrevHand: "دست قبلی", replayNextHand: "دست بعدی", replayLed: "{name} شروع کرد",
    err_replay_unauthorized: "بازپخش این بازی فقط برای بازیکنان آن است. اگر در آن بازی کرده‌اید، اول در این دستگاه وارد حساب خود شوید.",
    err_replay_forbidden: "بازپخش این بازی فقط برای بازیکنان آن است.",
    err_replay_game_in_progress: "این بازی هنوز ادامه دارد؛ بازپخش آن پس از پایان بازی باز می‌شود." },
});

/** One flat list of frames (a hand's start, then each trick) from the server's per-hand frames. */
export function flatten(replay) {
  return replay.hands.flatMap((hand) => hand.frames.map((f) => ({ ...f, trickNo: f.trick_no })));
}

/** offline: the replay comes from the device's store (the offline page), where the server cannot be asked. */
export async function showReplay(app, api, gameId, { offline = false } = {}) {
  const main = h("main.replay", {}, h("p.muted", {}, "…"));
  app.append(main);
  let rec, frames, bots;
  try {
    const data = await api.get(`/api/games/${gameId}/replay`);
    rec = data.record;
    frames = flatten(data.frames);
    bots = data.bots || [];
  } catch (err) {
    clear(main).append(h("section.card-panel", {}, h("p", {}, errorText(err, "replay")), h("a.btn", { href: "#/" }, t("home"))));
    return null;
  }
  // The computer's seats by the page's own name for them ("رایانه ۲"), as at the table; the record's is English.
  const names = seatNames(Array.from({ length: rec.players }, (_, i) => rec.names && rec.names[i]), bots);
  let at = 0;
  const analysis = new Map(); // hand index -> the analysed hand (finished games only)
  let marks = null; // analysis.js, once asked for
  let analysisNotes = [];
  const analysisBox = h("div.replay-analysis", { "aria-live": "polite" });
  const analyseBtn = h("button.btn.small.analyse", { type: "button", onclick: () => analyse() });
  // The analysis is the server's: offline (the device's copy, or the browser without a network) there is none.
  const canAnalyse = () => !offline && navigator.onLine !== false;
  async function analyse() {
    const hand = frames[at].hand;
    if (analysis.has(hand)) return;
    analyseBtn.disabled = true;
    analyseBtn.textContent = t("analysing");
    try {
      marks = marks || await import("./analysis.js");
      const res = await marks.fetchAnalysis(api, gameId, hand);
      analysis.set(hand, res.hand);
      analysisNotes = res.notes;
    } catch (err) {
      clear(analysisBox).append(h("p.help", {}, errorText(err, "replay")));
    }
    analyseBtn.disabled = false;
    draw();
  }
  // A hand's cards at the deal (17 with three players, else 13): the style sheet sizes a hand's row for them.
  const board = h("div.replay-board", { dataset: { players: rec.players }, style: { "--deal": rec.players === 3 ? 17 : 13 } });
  const caption = h("div.replay-caption", { "aria-live": "polite" });
  const verify = h("div.replay-verify", { "aria-live": "polite" });
  const go = (i) => { at = Math.max(0, Math.min(frames.length - 1, i)); draw(); };
  const handStart = (dir) => {
    const cur = frames[at].hand;
    const target = frames.findIndex((f) => f.hand === cur + dir);
    if (target >= 0) go(target);
  };
  // Back points to where the row starts (the right in Persian), forward to where it goes.
  const [back, fwd, backHand, fwdHand] = document.dir === "rtl" ? ["▶", "◀", "⏭", "⏮"] : ["◀", "▶", "⏮", "⏭"];
  const controls = h("div.replay-controls", {},
    h("button.btn.small.prev-hand", { type: "button", onclick: () => handStart(-1), "aria-label": t("replayPrevHand"), title: t("replayPrevHand") }, backHand),
    h("button.btn.small.prev", { type: "button", onclick: () => go(at - 1), "aria-label": t("prev") }, back),
    h("button.btn.small.next", { type: "button", onclick: () => go(at + 1), "aria-label": t("next") }, fwd),
    h("button.btn.small.next-hand", { type: "button", onclick: () => handStart(1), "aria-label": t("replayNextHand"), title: t("replayNextHand") }, fwdHand),
    h("button.btn.small", { type: "button", onclick: () => download(rec, gameId) }, t("download")), analyseBtn);
  const keys = (ev) => {
    if (ev.key === "ArrowRight") go(at + (document.dir === "rtl" ? -1 : 1));
    if (ev.key === "ArrowLeft") go(at + (document.dir === "rtl" ? 1 : -1));
  };
  window.addEventListener("keydown", keys);
  const redraw = () => draw(); // the network came or went: the analysis button follows
  window.addEventListener("online", redraw);
  window.addEventListener("offline", redraw);
  clear(main).append(h("section.card-panel.replay-panel", {}, h("h2", {}, t("replay")), caption, board, controls, analysisBox, verify));

  function draw() {
    const f = frames[at];
    clear(caption).append(
      h("span", {}, t("handN", { n: f.hand + 1 })), sep(),
      h("span", {}, f.trickNo ? t("trickN", { n: f.trickNo }) : t("beforeFirstTrick")), sep(),
      h("span.trump-inline", {}, t("hokm"), " ", h("span.suit-inline", { html: f.trump ? suitIcon(f.trump) : "" }), f.trump ? " " + suitName(f.trump) : ""), sep(),
      h("span", {}, `${t("hakem")}: `, h("bdi", { dir: "auto" }, names[f.hakem])),
      // Who led: with the seats' turn order, the order the trick's cards were played in (the cards alone do not say).
      ...(f.trick ? [sep(), h("span.replay-led", {}, t("replayLed", { name: `\u2068${names[f.trick.leader]}\u2069` }))] : []));
    const done = analysis.get(f.hand);
    analyseBtn.textContent = done ? t("analysed", { n: num(f.hand + 1) }) : t("analyseHand", { n: num(f.hand + 1) });
    analyseBtn.disabled = Boolean(done);
    analyseBtn.hidden = !canAnalyse() && !done;
    clear(analysisBox);
    if (done) analysisBox.append(...analysisNotes.map((x) => h("p.help", {}, x)), marks.legend());
    else if (analyseBtn.hidden) analysisBox.append(h("p.help.analyse-offline", {}, t("analyseOffline")));
    clear(board);
    for (let s = 0; s < rec.players; s++) {
      const played = f.trick ? f.trick.cards[(s - f.trick.leader + rec.players) % rec.players] : null;
      board.append(h("div.replay-seat" + (f.trick && f.trick.winner === s ? ".won" : ""), { dataset: { seat: s, led: String(Boolean(f.trick && f.trick.leader === s)) } },
        h("div.replay-who", {},
          h("div.replay-name", {}, h("bdi", { dir: "auto" }, names[s]), s === f.hakem ? [" ", h("span.badge.crown", { title: t("hakem"), "aria-label": t("hakem"), html: CROWN })] : null),
          // Each seat's own tricks so far, as at the table ("۳ دور"): never two bare numbers whose order says whose.
          f.seat_tricks ? h("div.replay-tricks.muted.small", {}, t("tricksN", { n: f.seat_tricks[s] })) : null),
        h("div.replay-played", {}, played ? h("img.card-img", { src: faceUrl(settings.get("faces"), played), alt: cardName(played) }) : null,
          played && marks ? marks.markOf(analysis.get(f.hand), f, s, names) : null),
        h("div.replay-hand", {}, orderHand(f.hands[s], f.trump).map((c) => h("img.card-img", { src: faceUrl(settings.get("faces"), c), alt: cardName(c), title: cardName(c) }))),
        played && marks ? marks.betterOf(analysis.get(f.hand), f, s) : null));
    }
  }
  draw();
  api.post("/api/verify", rec).then((res) => {
    clear(verify).append(h("h3", {}, t("fairness")), h("ul.fair-list", {}, res.hands.map((vh) =>
      h("li.fair-item", { dataset: { ok: String(vh.ok) } }, h("span.fair-mark", {}, vh.ok ? "✓" : "✗"),
        h("span.fair-text", {}, vh.ok ? t("verifyOk", { n: vh.hand + 1 }) : `${t("verifyBad", { n: vh.hand + 1 })} ${vh.message}`)))),
      signatureLine(res.signature));
  }).catch((err) => { verify.textContent = `${t("fairness")}: ${errorText(err)}`; });
  return () => {
    window.removeEventListener("keydown", keys);
    window.removeEventListener("online", redraw);
    window.removeEventListener("offline", redraw);
  };
}

/** The computer's seat as the table names it ("Computer 2", "رایانه ۲"). */
export { botName };

/** Who signed the record: this server, another key (its fingerprint, left to right), nobody, or a broken signature. */
function signatureLine(sig) {
  const status = sig.this_server ? "this_server" : sig.status;
  const key = { this_server: "sigThis", signed: "sigOther", unsigned: "sigNone", bad_signature: "sigBad" }[status] || "sigNone";
  const ok = status === "this_server" ? "true" : status === "bad_signature" ? "false" : "unknown";
  return h("p.fair-signature", { dataset: { status, ok } }, h("span.fair-mark", {}, ok === "true" ? "✓" : ok === "false" ? "✗" : "?"), " ", t(key),
    status === "signed" ? [" ", h("bdi.sig-key", { dir: "ltr" }, sig.fingerprint)] : null);
}

function download(rec, gameId) {
  const blob = new Blob([JSON.stringify(rec, null, 1)], { type: "application/json" });
  const a = h("a", { href: URL.createObjectURL(blob), download: `hokm-${gameId}.json` });
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}
