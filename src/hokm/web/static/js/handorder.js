// How the hand is sorted: by suit, trump first or last, colours alternating or grouped, ranks
// high to low or low to high. The choice lives in the settings (localStorage) and applies at once.

import { RANKS } from "./cards.js";
import { h } from "./dom.js";
import { t, addStrings } from "./i18n.js";
import * as settings from "./settings.js";

addStrings({
  en: {
    handOrder: "Hand order",
    trumpFirst: "Hokm first",
    trumpLast: "Hokm last",
    coloursAlternate: "Colours alternate",
    coloursGrouped: "Colours together",
    highFirst: "High to low",
    lowFirst: "Low to high",
  },
  fa: {
    handOrder: "چینش کارت‌های دست",
    trumpFirst: "حکم اول",
    trumpLast: "حکم آخر",
    coloursAlternate: "رنگ‌ها یک در میان",
    coloursGrouped: "رنگ‌ها کنار هم",
    highFirst: "بزرگ به کوچک",
    lowFirst: "کوچک به بزرگ",
  },
});

/** The settings this module reads, with their choices; the first choice is the default. */
export const HAND_ORDER = {
  handTrump: ["first", "last"],
  handColours: ["alternate", "grouped"],
  handRanks: ["high", "low"],
};

const ALTERNATE = ["S", "H", "C", "D"]; // black, red, black, red
const GROUPED = ["S", "C", "H", "D"]; // blacks, then reds

export function isHandOrderKey(key) { return key in HAND_ORDER; }

function choice(key) {
  const v = settings.get(key);
  return HAND_ORDER[key].includes(v) ? v : HAND_ORDER[key][0];
}

/** The suits from left to right (in reading order) for this trump and these settings. */
export function suitOrder(trump, opts = {}) {
  const trumpPlace = opts.trump || choice("handTrump");
  const colours = opts.colours || choice("handColours");
  let order = (colours === "grouped" ? GROUPED : ALTERNATE).slice();
  if (!trump || !order.includes(trump)) return order;
  if (colours === "alternate") {
    // Rotating a black-red-black-red cycle keeps the colours alternating.
    const i = order.indexOf(trump) + (trumpPlace === "last" ? 1 : 0);
    order = order.slice(i).concat(order.slice(0, i));
  } else {
    // Trump's colour sits together, with trump at the outer end.
    const mate = { S: "C", C: "S", H: "D", D: "H" }[trump];
    const others = order.filter((s) => s !== trump && s !== mate);
    order = trumpPlace === "last" ? [...others, mate, trump] : [trump, mate, ...others];
  }
  return order;
}

/** The cards sorted for display. */
export function orderHand(cards, trump, opts = {}) {
  const suits = suitOrder(trump, opts);
  const dir = (opts.ranks || choice("handRanks")) === "low" ? 1 : -1;
  return cards.slice().sort((x, y) => {
    const sx = suits.indexOf(x[1]), sy = suits.indexOf(y[1]);
    if (sx !== sy) return sx - sy;
    return dir * (RANKS.indexOf(x[0]) - RANKS.indexOf(y[0]));
  });
}

/** The settings-panel controls, built with the panel's own segmented-button widget. */
export function handOrderFields(segmented) {
  const group = (key, labels) => segmented(labels.map((l) => t(l)).join(" / "),
    HAND_ORDER[key].map((value, i) => ({ value, label: t(labels[i]) })), choice(key), (v) => settings.set(key, v));
  return [
    h("label.field-label", {}, t("handOrder")),
    h("div.hand-order", { dataset: { setting: "handTrump" } }, group("handTrump", ["trumpFirst", "trumpLast"])),
    h("div.hand-order", { dataset: { setting: "handColours" } }, group("handColours", ["coloursAlternate", "coloursGrouped"])),
    h("div.hand-order", { dataset: { setting: "handRanks" } }, group("handRanks", ["highFirst", "lowFirst"])),
  ];
}
