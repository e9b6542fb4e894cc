// The post-hand analysis in the replay viewer (GET /api/games/{id}/analysis, docs/analysis.md):
// each played card marked, the better card behind a button. The server gives it only for a game
// that is over, so no hand in progress is ever marked. Loaded when a player asks for it.

import { h } from "./dom.js";
import { t, cardName, addStrings, getLang } from "./i18n.js";

addStrings({
  en: {
    markFine: "fine", markInaccuracy: "inaccuracy: gave away tricks", markMistake: "mistake: made or lost a kot",
    markBlunder: "blunder: lost the hand", markUnsolved: "not analysed",
    showBetter: "Show the better card for {name}", betterCards: "Better: {cards}", listSep: ", ",
    analysisNote: "Judged with every hand visible, as if every player saw all the cards.",
    analysisParanoid: "Three players: each player is judged against the other two playing together.",
    marksLegend: "The marks", marksTap: "Tap a mark for the better card.",
  },
  fa: {
    markFine: "درست", markInaccuracy: "بی‌دقتی: چند دور را واگذار کرد", markMistake: "اشتباه: نتیجهٔ کُت را عوض کرد",
    markBlunder: "اشتباه بزرگ: دست را باخت", markUnsolved: "بررسی نشد",
    showBetter: "کارت بهتر برای {name}", betterCards: "بهتر: {cards}", listSep: "، ",
    analysisNote: "این داوری با دانستن کارت‌های همهٔ بازیکنان انجام شده است.",
    analysisParanoid: "بازی سه‌نفره: هر بازیکن در برابر دو بازیکن دیگر با هم سنجیده می‌شود.",
    marksLegend: "نشانه‌ها", marksTap: "برای دیدن کارت بهتر، روی نشانه بزنید.",
  },
});

/** The mark's icon (chess-style, read with the colour, the legend and the hidden text) and its string key. */
export const MARKS = {
  fine: ["✓", "markFine"], inaccuracy: ["?!", "markInaccuracy"], mistake: ["?", "markMistake"],
  blunder: ["??", "markBlunder"], unsolved: ["–", "markUnsolved"],
};

/** The icon as the page writes it: with the Persian question mark in Persian (read from the right, «؟!»). */
function iconOf(mark) {
  const [icon] = MARKS[mark] || MARKS.unsolved;
  return getLang() === "fa" ? icon.replaceAll("?", "؟") : icon;
}

/** Each mark beside what it means, under the analysis: the marks carry no words of their own. */
export function legend() {
  return h("div.mark-legend", { "aria-hidden": "true" }, h("span.mark-legend-title", {}, t("marksLegend")),
    Object.entries(MARKS).map(([mark, [, key]]) => h("span.mark-legend-item", {},
      h("span.mark-badge", { dataset: { mark } }, h("span", {}, iconOf(mark))), " ", t(key))),
    h("span.mark-legend-tap", {}, t("marksTap")));
}

/** One hand's analysis from the server, with the notes to show beside it. */
export async function fetchAnalysis(api, gameId, hand) {
  const res = await api.get(`/api/games/${gameId}/analysis?hand=${hand}`);
  return { hand: res.hands[0], notes: [t("analysisNote"), ...(res.paranoid ? [t("analysisParanoid")] : [])] };
}

/** The analysed play of seat s in the trick frame f shows, or null. */
function playOf(hand, f, s) {
  if (!hand || !f.trickNo) return null;
  return hand.plays.find((x) => x.trick === f.trickNo - 1 && x.seat === s) || null;
}

/** The mark of the card seat s played: icon and colour, its words for screen readers; a button when a better card exists. */
export function markOf(hand, f, s, names) {
  const p = playOf(hand, f, s);
  if (!p) return null;
  const [, key] = MARKS[p.mark] || MARKS.unsolved;
  const badge = h("span.mark-badge", { dataset: { mark: p.mark }, title: t(key) },
    h("span", { "aria-hidden": "true" }, iconOf(p.mark)), h("span.sr-only", {}, t(key)));
  if (!p.better.length) return h("div.replay-mark", {}, badge);
  const id = `better-${f.hand}-${f.trickNo}-${s}`;
  const toggle = h("button.mark-toggle", { type: "button", "aria-expanded": "false", "aria-controls": id,
    "aria-label": `${t(key)}. ${t("showBetter", { name: names[s] })}`,
    onclick: () => {
      const box = document.getElementById(id);
      box.hidden = !box.hidden;
      toggle.setAttribute("aria-expanded", String(!box.hidden));
    } }, badge);
  return h("div.replay-mark", {}, toggle);
}

/** The better cards for seat s's play, hidden until its mark is pressed. */
export function betterOf(hand, f, s) {
  const p = playOf(hand, f, s);
  if (!p || !p.better.length) return null;
  const [, key] = MARKS[p.mark] || MARKS.unsolved;
  // What was wrong with the card, then what was better.
  return h("p.mark-better", { id: `better-${f.hand}-${f.trickNo}-${s}`, hidden: true },
    h("span.mark-better-why", {}, t(key) + "."), " ", t("betterCards", { cards: p.better.map(cardName).join(t("listSep")) }));
}
