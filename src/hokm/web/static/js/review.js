// Looking back over the hand: the ⟲ button steps through every completed trick of the hand in
// play (the view's `completed` list), each card where its player sits, with the player's name,
// and the winning card on top.

import { h, clear } from "./dom.js";
import { t, cardName, addStrings } from "./i18n.js";
import { faceUrl } from "./cards.js";
import * as settings from "./settings.js";

addStrings({
  en: { reviewTitle: "Trick {n} of {m}", reviewLed: "{name} led", reviewLedYou: "You led", reviewWonYou: "You took the trick" },
  // "You" takes the verb of "you": «شما شروع کردید», as «این دور را شما بردید» below it, never «شما شروع کرد»
  fa: { reviewTitle: "دور {n} از {m}", reviewLed: "{name} شروع کرد", reviewLedYou: "شما شروع کردید",
    reviewWonYou: "این دور را شما بردید" },
});

// Where each seat's card lies on the review board (% of its width and height): apart enough that
// every card and its player's name can be read.
const SPOTS = { bottom: [50, 74], top: [50, 26], left: [24, 50], right: [76, 50] };

/** Open the review at the last completed trick, or close it when it is open. */
export function toggleReview(table) {
  const o = table.el.overlay;
  if (o.dataset.kind === "last" && !o.hidden) { table.closeModal("last"); return; }
  const start = table.view;
  if (!start || !start.completed.length) return;
  let at = start.completed.length - 1;
  const title = h("h2.review-title");
  const board = h("div.last-trick.review-board");
  const led = h("p.help.review-led");
  const won = h("p.help.review-won");
  const prev = h("button.btn.review-prev", { type: "button", onclick: () => show(at - 1) }, t("prev"));
  const next = h("button.btn.review-next", { type: "button", onclick: () => show(at + 1) }, t("next"));
  const close = h("button.btn.review-close", { type: "button", onclick: () => table.closeModal("last") }, t("close"));

  let count = 0; // the tricks the review knew of when it last drew
  function show(k) {
    const v = table.view;
    const n = v.completed.length;
    if (!n) { table.closeModal("last"); return; }
    count = n;
    at = Math.max(0, Math.min(n - 1, k));
    const tr = v.completed[at];
    title.textContent = t("reviewTitle", { n: at + 1, m: n });
    clear(board);
    board.dataset.trick = String(at);
    tr.cards.forEach((c, i) => {
      const seat = (tr.leader + i) % v.players;
      const [x, y] = SPOTS[table.posOf(seat)];
      const win = seat === tr.winner;
      board.append(h("div.trick-card.review-card" + (win ? ".winner" : ""), {
        style: { left: `${x}%`, top: `${y}%`, zIndex: win ? 20 : 10 + i },
        dataset: { seat, card: c }, role: "img", "aria-label": `${table.nameOf(seat)}: ${cardName(c)}`,
      }, h("img.card-img", { src: faceUrl(settings.get("faces"), c), alt: "" }),
      h("span.review-name", { dir: "auto" }, table.nameOf(seat))));
    });
    led.textContent = tr.leader === v.seat ? t("reviewLedYou") : t("reviewLed", { name: table.nameOf(tr.leader) });
    won.textContent = tr.winner === v.seat ? t("reviewWonYou") : t("trickTo", { name: table.nameOf(tr.winner) });
    prev.disabled = at === 0;
    next.disabled = at === n - 1;
  }

  const box = table.openModal("last", { title: t("lastTrick"), body: [title, board, led, won,
    h("div.row.review-nav", {}, prev, next), h("p.choice-timer", { "aria-live": "off" }), close] }, { dismissable: true });
  table.clockInBox(); // opened on your turn, it covers the line below the table: your clock shows in it
  box.addEventListener("keydown", (ev) => {
    // Arrows follow the page's direction: the earlier trick is on the reading side.
    const back = document.documentElement.dir === "rtl" ? "ArrowRight" : "ArrowLeft";
    const fwd = back === "ArrowLeft" ? "ArrowRight" : "ArrowLeft";
    if (ev.key === back) { ev.preventDefault(); show(at - 1); }
    if (ev.key === fwd) { ev.preventDefault(); show(at + 1); }
  });
  show(at);
  // Tricks go on being taken under it (opened just after our card, it saw the trick before ours): a review on the
  // latest trick moves on to the new one, one on an earlier trick stays there, and either counts the new ones.
  table.followReview = () => {
    const n = table.view.completed.length;
    if (n !== count) show(at === count - 1 ? n - 1 : at);
  };
}
