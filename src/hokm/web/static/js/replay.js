// Replay viewer for a finished game: every hand, trick by trick, with all hands face up (the
// game is over, so nothing is hidden any more). The server works the frames out with the engine
// (GET /api/games/{id}/replay: who held which card, who took each trick, who was Hâkem), so this
// file only draws them; it also asks the server (POST /api/verify) to check the record's shuffles.

import { h, clear } from "./dom.js";
import { t, num, cardName, suitName } from "./i18n.js";
import { faceUrl, sortHand, suitIcon } from "./cards.js";
import * as settings from "./settings.js";

/** One flat list of frames (a hand's start, then each trick) from the server's per-hand frames. */
export function flatten(replay) {
  return replay.hands.flatMap((hand) => hand.frames.map((f) => ({ ...f, trickNo: f.trick_no })));
}

export async function showReplay(app, api, gameId) {
  const main = h("main.replay", {}, h("p.muted", {}, "…"));
  app.append(main);
  let rec, frames;
  try {
    const data = await api.get(`/api/games/${gameId}/replay`);
    rec = data.record;
    frames = flatten(data.frames);
  } catch (err) {
    clear(main).append(h("section.card-panel", {}, h("p", {}, `${t("error")}: ${err.message || err.code}`), h("a.btn", { href: "#/" }, t("home"))));
    return null;
  }
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
