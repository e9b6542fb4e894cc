// Card art, drawn here as SVG: suit shapes, 8 face designs and 7 back patterns. Nothing is
// loaded from elsewhere; each image is built once per (design, card) and cached as a data URL.
//
// A card is the two-character notation of the engine: rank "23456789TJQKA" + suit "SHDC".

import { rankLabel } from "./i18n.js";
import { courtFigure } from "./figures.js";
import { girih, termeh } from "./ornament.js";

export const SUITS = ["S", "H", "D", "C"];
export const RANKS = "23456789TJQKA";
export const W = 100, H = 140; // card viewBox; the CSS keeps this 5:7 ratio

export function suitOf(card) { return card[1]; }
export function rankOf(card) { return RANKS.indexOf(card[0]); }
export function isRed(suit) { return suit === "H" || suit === "D"; }

// Suit shapes in a box from -1 to 1 around (0, 0), drawn as paths so they never depend on a font.
const SHAPES = {
  H: "M0 1 C-0.55 0.55 -1 0.15 -1 -0.35 A0.5 0.5 0 0 1 0 -0.6 A0.5 0.5 0 0 1 1 -0.35 C1 0.15 0.55 0.55 0 1Z",
  D: "M0 -1 L0.72 0 L0 1 L-0.72 0Z",
  S: "M0 -1 C-0.55 -0.5 -1 -0.15 -1 0.28 A0.5 0.5 0 0 0 -0.05 0.5 L-0.32 1 L0.32 1 L0.05 0.5 A0.5 0.5 0 0 0 1 0.28 C1 -0.15 0.55 -0.5 0 -1Z",
  C: "M-0.05 0.25 A0.42 0.42 0 1 1 -0.2 -0.22 A0.42 0.42 0 1 1 0.2 -0.22 A0.42 0.42 0 1 1 0.05 0.25 L0.32 1 L-0.32 1Z",
};

/** SVG markup of one suit shape centred on (x, y), half-size r. */
export function suitShape(suit, x, y, r, fill, flip = false, cls = "") {
  const rot = flip ? ` rotate(180)` : "";
  const c = cls ? ` class="${cls}"` : "";
  return `<path${c} d="${SHAPES[suit]}" fill="${fill}" transform="translate(${x} ${y}) scale(${r})${rot}"/>`;
}

/** A standalone suit icon (for buttons, badges, the trump marker). */
export function suitIcon(suit, colour) {
  const fill = colour || (isRed(suit) ? "#d0312d" : "#1d1d22");
  return `<svg class="suit-icon" viewBox="-1.1 -1.1 2.2 2.2" aria-hidden="true">${suitShape(suit, 0, 0, 1, fill)}</svg>`;
}

// Pip positions (x, y) for ranks 2..10; pips below the middle are drawn upside down.
const PIPS = {
  2: [[50, 30], [50, 110]],
  3: [[50, 30], [50, 70], [50, 110]],
  4: [[33, 30], [67, 30], [33, 110], [67, 110]],
  5: [[33, 30], [67, 30], [50, 70], [33, 110], [67, 110]],
  6: [[33, 30], [67, 30], [33, 70], [67, 70], [33, 110], [67, 110]],
  7: [[33, 30], [67, 30], [50, 50], [33, 70], [67, 70], [33, 110], [67, 110]],
  8: [[33, 30], [67, 30], [50, 50], [33, 70], [67, 70], [50, 90], [33, 110], [67, 110]],
  9: [[33, 28], [67, 28], [33, 56], [67, 56], [50, 70], [33, 84], [67, 84], [33, 112], [67, 112]],
  10: [[33, 28], [67, 28], [50, 42], [33, 56], [67, 56], [33, 84], [67, 84], [50, 98], [33, 112], [67, 112]],
};

// Each face design: paper, ink per suit, corner style, what goes in the middle, and an optional frame.
export const FACE_DESIGNS = {
  classic: {
    paper: "#fffdf8", edge: "#c9c3b5", ink: { S: "#1d1d22", C: "#1d1d22", H: "#bf262b", D: "#bf262b" },
    font: "Georgia, 'DejaVu Serif', serif", middle: "pips", frame: null, courtBg: "#f7ecce", accent: "#2b4a8b",
  },
  jumbo: {
    paper: "#ffffff", edge: "#bdbdbd", ink: { S: "#121212", C: "#121212", H: "#c81e25", D: "#c81e25" },
    font: "'DejaVu Sans', Arial, sans-serif", middle: "jumbo", frame: null, courtBg: "#fff3cc", accent: "#333",
  },
  fourColour: {
    paper: "#fcfcfa", edge: "#c4c4c4", ink: { S: "#1b1b1f", H: "#c42424", D: "#1d5cbd", C: "#0d7535" },
    font: "'DejaVu Sans', Arial, sans-serif", middle: "pips", frame: null, courtBg: "#f2f2f0", accent: "#555",
  },
  minimal: {
    paper: "#f7f4ee", edge: "#d6d0c4", ink: { S: "#2e3440", C: "#2e3440", H: "#a63c3c", D: "#a63c3c" },
    font: "'DejaVu Sans', Arial, sans-serif", middle: "single", frame: null, courtBg: "#f1ece1", accent: "#8a7f6a",
  },
  persian: {
    paper: "#fbf6e9", edge: "#b68b2e", ink: { S: "#123c5a", C: "#123c5a", H: "#b3262e", D: "#b3262e" },
    font: "Georgia, 'DejaVu Serif', serif", middle: "pips", frame: "tiles", courtBg: "#d9efef", accent: "#1a8a8a",
  },
  night: {
    paper: "#131726", edge: "#3b4560", ink: { S: "#eef2ff", C: "#a8f0d0", H: "#ff93ab", D: "#ffc27a" },
    font: "'DejaVu Sans', Arial, sans-serif", middle: "single", frame: "glow", courtBg: "#1a1f31", accent: "#7aa2ff",
  },
  // Persian miniature: court cards are figures (figures.js), aces sit in a shamseh (sun medallion).
  miniature: {
    paper: "#fcf7ea", edge: "#b08a3e", ink: { S: "#172447", C: "#172447", H: "#a81f2a", D: "#a81f2a" },
    font: "Georgia, 'DejaVu Serif', serif", middle: "pips", frame: "gilt", courtBg: "#f7efd8", accent: "#1a8a8a",
    figures: true, ace: "shamseh",
  },
  vintage: {
    paper: "#f3e6c8", edge: "#8f7448", ink: { S: "#3b2a1a", C: "#3b2a1a", H: "#9c2b1f", D: "#9c2b1f" },
    font: "Georgia, 'DejaVu Serif', serif", middle: "pips", frame: "double", courtBg: "#e6cf9e", accent: "#6b4f2a",
  },
};

function corner(d, rank, suit, ink, big) {
  const label = rankLabel(rank);
  const size = big ? 30 : 21;
  const narrow = label.length > 1 ? ` textLength="${big ? 30 : 21}" lengthAdjust="spacingAndGlyphs"` : "";
  const y = big ? 29 : 22;
  const sy = big ? 45 : 35;
  const sr = big ? 9 : 6.5;
  const one = `<text x="${big ? 17 : 12}" y="${y}" font-family="${d.font}" font-size="${size}" font-weight="700" fill="${ink}" text-anchor="middle"${narrow} class="glyph">${label}</text>${suitShape(suit, big ? 17 : 12, sy, sr, ink, false, "glyph")}`;
  return `<g>${one}</g><g transform="rotate(180 50 70)">${one}</g>`;
}

function frame(d) {
  if (d.frame === "tiles") {
    // A border of small lozenges and dots, the colours of Isfahan tilework.
    let s = `<rect x="5" y="5" width="90" height="130" rx="6" fill="none" stroke="${d.accent}" stroke-width="1.6"/>`;
    for (let i = 0; i < 9; i++) {
      const x = 14 + i * 9;
      s += `<path d="M${x} 2.2 l2.4 2.8 -2.4 2.8 -2.4 -2.8z" fill="${d.edge}"/><path d="M${x} 132.2 l2.4 2.8 -2.4 2.8 -2.4 -2.8z" fill="${d.edge}"/>`;
    }
    return s;
  }
  if (d.frame === "gilt") {
    // A gold rule with small four-petal rosettes in the corners free of the index, as on a manuscript page.
    let s = `<rect x="4.2" y="4.2" width="91.6" height="131.6" rx="5.5" fill="none" stroke="${d.edge}" stroke-width="1.1"/>`;
    for (const [x, y] of [[91, 9], [9, 131]]) {
      s += `<g transform="translate(${x} ${y})"><path d="M0 -3 Q1.2 0 0 3 Q-1.2 0 0 -3Z M-3 0 Q0 1.2 3 0 Q0 -1.2 -3 0Z" fill="${d.accent}"/><circle r="0.9" fill="${d.edge}"/></g>`;
    }
    return s;
  }
  if (d.frame === "double") {
    return `<rect x="4" y="4" width="92" height="132" rx="5" fill="none" stroke="${d.edge}" stroke-width="1.4"/>` +
      `<rect x="7" y="7" width="86" height="126" rx="3" fill="none" stroke="${d.edge}" stroke-width="0.6"/>`;
  }
  if (d.frame === "glow") {
    return `<rect x="4" y="4" width="92" height="132" rx="7" fill="none" stroke="${d.accent}" stroke-opacity="0.5" stroke-width="1.2"/>`;
  }
  return "";
}

// Court cards: no portraits, but an emblem per rank (crown, rosette, plume) in a framed panel.
function court(d, rank, suit, ink) {
  const bg = d.courtBg;
  let s = `<rect class="paper" x="24" y="26" width="52" height="88" rx="6" fill="${bg}" stroke="${ink}" stroke-width="1.2"/>`;
  s += `<rect x="27" y="29" width="46" height="82" rx="4" fill="none" stroke="${d.accent}" stroke-width="0.7" stroke-dasharray="2 1.5"/>`;
  if (rank === "K") {
    s += `<path d="M34 66 L36 46 L43 56 L50 40 L57 56 L64 46 L66 66 Z" fill="${ink}"/>` +
      `<rect x="34" y="67" width="32" height="5" rx="1.5" fill="${d.accent}"/>` +
      `<circle cx="50" cy="38" r="2.6" fill="${d.accent}"/><circle cx="36" cy="44" r="2" fill="${d.accent}"/><circle cx="64" cy="44" r="2" fill="${d.accent}"/>`;
  } else if (rank === "Q") {
    let petals = "";
    for (let i = 0; i < 8; i++) {
      petals += `<ellipse cx="50" cy="46" rx="4" ry="10" fill="${ink}" fill-opacity="${i % 2 ? 0.55 : 0.9}" transform="rotate(${i * 45} 50 56)"/>`;
    }
    s += petals + `<circle cx="50" cy="56" r="5" fill="${d.accent}"/>`;
  } else {
    s += `<path d="M50 36 C62 44 62 60 50 72 C54 60 52 50 50 36 Z" fill="${ink}"/>` +
      `<path d="M50 36 C40 46 40 58 48 70" fill="none" stroke="${d.accent}" stroke-width="2"/>` +
      `<rect x="44" y="72" width="12" height="4" rx="1.5" fill="${d.accent}"/>`;
  }
  s += suitShape(suit, 50, 94, 10, ink, false, "glyph");
  return s;
}

function shamseh(ink, d) {
  // A sun medallion: sixteen points round a disc, in gold and turquoise, under the ace's suit.
  let pts = "";
  for (let i = 0; i < 32; i++) {
    const r = i % 2 ? 26 : 33, a = (i * Math.PI) / 16;
    pts += `${i ? "L" : "M"}${(50 + r * Math.sin(a)).toFixed(2)} ${(70 - r * Math.cos(a)).toFixed(2)}`;
  }
  return `<path d="${pts}Z" fill="#e9c767" stroke="${d.edge}" stroke-width="0.8"/>` +
    `<circle class="paper" cx="50" cy="70" r="25" fill="#e3f1ec" stroke="${d.accent}" stroke-width="1.4"/>` +
    `<circle cx="50" cy="70" r="22.5" fill="none" stroke="${d.edge}" stroke-width="0.6" stroke-dasharray="1.6 1.2"/>`;
}

function middle(d, rank, suit, ink) {
  if ("JQK".includes(rank) && d.figures) return courtFigure(rank, suit, (x, y, r) => suitShape(suit, x, y, r, ink, false, "glyph"), d.courtBg);
  if ("JQK".includes(rank)) return court(d, rank, suit, ink);
  if (rank === "A" && d.ace === "shamseh") return shamseh(ink, d) + suitShape(suit, 50, 70, 17, ink, false, "glyph");
  const r = RANKS.indexOf(rank) + 2;
  if (rank === "A") {
    const extra = d.middle === "pips" ? `<circle cx="50" cy="70" r="30" fill="none" stroke="${ink}" stroke-opacity="0.18" stroke-width="1.2"/>` : "";
    return extra + suitShape(suit, 50, 70, 22, ink, false, "glyph");
  }
  if (d.middle === "jumbo") {
    return `<text x="50" y="92" font-family="${d.font}" font-size="58" font-weight="800" fill="${ink}" text-anchor="middle" fill-opacity="0.92" class="glyph">${rankLabel(rank)}</text>`;
  }
  if (d.middle === "single") return suitShape(suit, 50, 72, 17, ink, false, "glyph");
  return PIPS[r].map(([x, y]) => suitShape(suit, x, y, 8.5, ink, y > 72, "glyph")).join("");
}

/** SVG markup of a card face. Rank and suit marks carry class "glyph"; what they are drawn on (the
 *  card, a court panel) carries class "paper", so the contrast test can pair each mark with its ground. */
export function faceSvg(design, card) {
  const d = FACE_DESIGNS[design] || FACE_DESIGNS.classic;
  const rank = card[0], suit = card[1];
  const ink = d.ink[suit];
  const big = d.middle === "jumbo";
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}">` +
    `<rect class="paper" x="0.75" y="0.75" width="98.5" height="138.5" rx="8" fill="${d.paper}" stroke="${d.edge}" stroke-width="1.5"/>` +
    frame(d) + corner(d, rank, suit, ink, big) + (big && !"JQKA".includes(rank) ? middleJumbo(d, rank, suit, ink) : middle(d, rank, suit, ink)) +
    `</svg>`;
}

// The jumbo design keeps the corner index huge and puts one big suit in the middle: readable at phone size.
function middleJumbo(d, rank, suit, ink) {
  return suitShape(suit, 56, 84, 24, ink, false, "glyph");
}

// Card backs: a pattern in a tile, a border and a centre medallion; two colours each.
export const BACK_DESIGNS = {
  lattice: { a: "#8e1b2a", b: "#e9c46a", kind: "lattice" },
  girih: { a: "#173a6b", b: "#f2c14e", kind: "girih" },
  dots: { a: "#0f6f6a", b: "#bff0e8", kind: "dots" },
  waves: { a: "#3a2f86", b: "#b9b2ff", kind: "waves" },
  checker: { a: "#1f5b33", b: "#cfe8b0", kind: "checker" },
  sunburst: { a: "#b34a12", b: "#ffd29a", kind: "sunburst" },
  boteh: { a: "#6d1224", b: "#e2a93e", kind: "boteh" },
};

function backPattern(k, a, b) {
  switch (k) {
    case "lattice":
      return `<pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="10" height="10" fill="${a}"/><path d="M0 0H10M0 0V10" stroke="${b}" stroke-width="1.2"/><circle cx="5" cy="5" r="1.3" fill="${b}"/></pattern>`;
    case "girih": {
      // Eight-pointed stars and crosses in strapwork (ornament.js), gold on lapis.
      const t = girih(6.2, { ground: a, line: b, star: "#2a5a9a", cross: "#1a8a8a" });
      return `<pattern id="p" width="${t.w}" height="${t.h}" patternUnits="userSpaceOnUse" x="50" y="70">${t.body}</pattern>`;
    }
    case "dots":
      return `<pattern id="p" width="8" height="8" patternUnits="userSpaceOnUse"><rect width="8" height="8" fill="${a}"/><circle cx="2" cy="2" r="1.4" fill="${b}"/><circle cx="6" cy="6" r="1.4" fill="${b}" fill-opacity="0.6"/></pattern>`;
    case "waves":
      return `<pattern id="p" width="16" height="8" patternUnits="userSpaceOnUse"><rect width="16" height="8" fill="${a}"/><path d="M0 4 Q4 0 8 4 T16 4" fill="none" stroke="${b}" stroke-width="1.1"/></pattern>`;
    case "checker":
      return `<pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse"><rect width="10" height="10" fill="${a}"/><rect width="5" height="5" fill="${b}" fill-opacity="0.35"/><rect x="5" y="5" width="5" height="5" fill="${b}" fill-opacity="0.35"/></pattern>`;
    case "sunburst": {
      let rays = "";
      for (let i = 0; i < 24; i++) rays += `<path d="M50 70 L${50 + 90 * Math.cos((i * Math.PI) / 12)} ${70 + 90 * Math.sin((i * Math.PI) / 12)} L${50 + 90 * Math.cos(((i + 0.5) * Math.PI) / 12)} ${70 + 90 * Math.sin(((i + 0.5) * Math.PI) / 12)}Z" fill="${b}" fill-opacity="0.35"/>`;
      return `<pattern id="p" width="100" height="140" patternUnits="userSpaceOnUse"><rect width="100" height="140" fill="${a}"/>${rays}</pattern>`;
    }
    case "boteh":
    default: {
      // Termeh: rows of boteh turned alternately, as woven in Yazd (ornament.js).
      const t = termeh({ ground: a, body: "#8e1f30", edge: b, flower: "#f7e3a1", band: b }, 1, 0.5);
      return `<pattern id="p" width="${t.w}" height="${t.h}" patternUnits="userSpaceOnUse">${t.body}</pattern>`;
    }
  }
}

function backSvg(design) {
  const d = BACK_DESIGNS[design] || BACK_DESIGNS.lattice;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}"><defs>${backPattern(d.kind, d.a, d.b)}</defs>` +
    `<rect x="0.75" y="0.75" width="98.5" height="138.5" rx="8" fill="#fbfbf7" stroke="#bbb" stroke-width="1.5"/>` +
    `<rect x="6" y="6" width="88" height="128" rx="5" fill="url(#p)"/>` +
    `<rect x="6" y="6" width="88" height="128" rx="5" fill="none" stroke="${d.b}" stroke-width="1.4"/>` +
    `<circle cx="50" cy="70" r="15" fill="${d.a}" stroke="${d.b}" stroke-width="2"/>` +
    `<path d="M50 59 L53 67 L61 70 L53 73 L50 81 L47 73 L39 70 L47 67Z" fill="${d.b}"/></svg>`;
}

const cache = new Map();
function url(svg) { return "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg); }

/** Data URL of a card face in the given design. */
export function faceUrl(design, card) {
  const k = `f:${design}:${card}`;
  if (!cache.has(k)) cache.set(k, url(faceSvg(design, card)));
  return cache.get(k);
}

/** Data URL of a card back in the given design. */
export function backUrl(design) {
  const k = `b:${design}`;
  if (!cache.has(k)) cache.set(k, url(backSvg(design)));
  return cache.get(k);
}
