// The game's score sheet: one row per finished hand (the view's `results`), with the Hâkem, the
// trump, the tricks of each side, who took how many points (and whether by kot or Hâkem-koti), and the running
// score. Sides are named in words ("Us", "Them", or the players' names), never by order alone.

import { h } from "./dom.js";
import { t, num, suitName, addStrings, scoreGap, unbroken } from "./i18n.js";
import { suitIcon } from "./cards.js";

addStrings({
  en: {
    scoreSheet: "Score sheet",
    sheetHand: "Hand",
    sheetTricks: "Tricks",
    sheetPoints: "Points",
    sheetScore: "Score",
    sheetEmpty: "No hand has finished yet.",
    sheetBot: "Bot",
  },
  fa: {
    scoreSheet: "برگ امتیاز",
    sheetHand: "دست",
    sheetTricks: "دورها",
    sheetPoints: "امتیاز دست",
    sheetScore: "امتیاز بازی",
    sheetEmpty: "هنوز هیچ دستی تمام نشده است.",
    sheetBot: "رایانه",
  },
});

/** A seat's name as a phone's sheet shows it: "Bot 2" for the computer's "Computer 2" (in Persian «رایانه ۲», short
 *  already), "You", and a player's name cut to its first letters with "…" when it is long. */
function shortName(table, seat) {
  const s = table.seats && table.seats[seat];
  if (table.view && seat === table.view.seat) return t("you");
  if (s && s.kind === "bot") return `${t("sheetBot")} ${num(seat + 1)}`;
  const name = table.nameOf(seat);
  const letters = typeof Intl.Segmenter === "function" ? [...new Intl.Segmenter().segment(name)].map((g) => g.segment) : [...name];
  return letters.length > 7 ? letters.slice(0, 5).join("").trim() + "…" : name;
}

/** A side's short name ("Us", "Them", a seat's short name, or a pair of them to someone who watches). */
function shortSideName(table, side) {
  const v = table.view;
  if (v.players !== 4) return shortName(table, side);
  if (v.seat === null || v.seat === undefined) return table.seatsOf(side).map((s) => shortName(table, s)).join(" + ");
  return table.sideName(side);
}

/** A name in a cell: in full, and in its short form that a phone shows instead (the style sheet picks one); the
 *  cell's label and title say it in full whichever shows. A number in a name stays on the line of the word before it
 *  («رایانه ۳» broken after «رایانه» left a lone «۳» that reads as one more number of the table). */
function nameBoth(full, short) {
  if (full === short) return h("bdi.sh-name", { dir: "auto" }, unbroken(full));
  return h("bdi.sh-name", { dir: "auto" }, h("span.sh-full", {}, unbroken(full)),
    h("span.sh-short", { "aria-hidden": "true" }, unbroken(short)));
}

/** Who took a hand's points, in full and short, each with a colon after a name that ends in a digit. */
function pointsSide(table, side) {
  const full = table.sideName(side);
  const one = (name) => [h("bdi", { dir: "auto" }, unbroken(name)), scoreGap(name).trimEnd()];
  if (side === null || side === undefined) return one(full);
  const short = shortSideName(table, side);
  if (full === short) return one(full);
  return [h("span.sh-full", {}, one(full)), h("span.sh-short", { "aria-hidden": "true" }, one(short))];
}

/** The sheet as a <table> for the current view of `table` (a Table). */
export function scoreTable(table) {
  const v = table.view;
  if (!v.results.length) return h("p.muted.sheet-empty", {}, t("sheetEmpty"));
  const sides = v.scores.length; // a score per side
  const sideIds = [...Array(sides).keys()];
  const running = sideIds.map(() => 0);
  // Each column stands apart (a rule between columns, names wrapping within their own column), so that headings
  // never run together: «دست»، «حاکم»، «حکم»، and each side's name over its own numbers.
  const head = h("thead", {},
    h("tr", {},
      h("th", { rowspan: 2, scope: "col" }, t("sheetHand")),
      h("th.col-start", { rowspan: 2, scope: "col" }, t("hakem")),
      h("th.col-start", { rowspan: 2, scope: "col" }, t("hokm")),
      h("th.group.col-start", { colspan: sides, scope: "colgroup" }, t("sheetTricks")),
      h("th.col-start", { rowspan: 2, scope: "col" }, t("sheetPoints")),
      h("th.group.col-start", { colspan: sides, scope: "colgroup" }, t("sheetScore"))),
    h("tr", {}, [...sideIds, ...sideIds].map((s) => h("th.side.col-start", { scope: "col", dataset: { side: s }, title: table.sideName(s), "aria-label": table.sideName(s) },
      nameBoth(table.sideName(s), shortSideName(table, s))))));
  const rows = v.results.map((r, i) => {
    if (r.winner !== null && r.winner !== undefined) running[r.winner] += r.points;
    const kot = r.hakem_koti ? t("hakemKoti") : r.kot ? t("kot") : null;
    return h("tr.sheet-row", { dataset: { hand: i, winner: r.winner } },
      h("td.sh-hand", {}, num(i + 1)),
      h("td.sh-hakem.col-start", { title: table.nameOf(r.hakem), "aria-label": table.nameOf(r.hakem) }, nameBoth(table.nameOf(r.hakem), shortName(table, r.hakem))),
      // The suit on a light chip, as on the trump badge: a black suit on the dark sheet would hardly show.
      h("td.sh-trump.col-start", { dataset: { suit: r.trump || "" } }, r.trump ? [h("span.suit-pic", { html: suitIcon(r.trump) }), h("span.sr-only", {}, suitName(r.trump))] : "—"),
      sideIds.map((s) => h("td.sh-tricks" + (s ? "" : ".col-start"), { dataset: { side: s } }, num(r.tricks[s]))),
      // Who took the points, then how many on a chip of their own: "آن‌ها +۱", and after a name that ends in a
      // digit a colon ("رایانه ۲: +۱"), so that the seat's number and the points never read as one sum.
      h("td.sh-points.col-start", {}, h("span.points-line", {},
        h("span.points-side", { title: table.sideName(r.winner) }, pointsSide(table, r.winner)),
        " ", h("span.points-n", {}, `+${num(r.points)}`)),
        kot ? [" ", h("span.sh-kot", {}, kot)] : null),
      sideIds.map((s) => h("td.sh-score" + (s === r.winner ? ".won" : "") + (s ? "" : ".col-start"), { dataset: { side: s } }, num(running[s]))));
  });
  return h("div.sheet-scroll", {}, h("table.score-sheet", { dataset: { sides } }, head, h("tbody", {}, rows)));
}

/** Open the sheet over the table (closed by its button, Escape or a tap outside). */
export function openScoreSheet(table) {
  if (!table.view) return;
  table.openModal("sheet", { title: t("scoreSheet"), body: [h("h2", {}, t("scoreSheet")),
    h("p.choice-timer", { "aria-live": "off" }), scoreTable(table),
    h("button.btn.sheet-close", { type: "button", onclick: () => table.closeModal("sheet") }, t("close"))] }, { dismissable: true });
  table.clockInBox(); // opened on your turn, it covers the line with your clock: the clock shows in it
}

/** The bar button that opens it. */
export function scoreSheetButton(table) {
  return h("button.icon-btn.sheet-btn", { type: "button", onclick: () => openScoreSheet(table), "aria-label": t("scoreSheet"), title: t("scoreSheet") }, "▤");
}
