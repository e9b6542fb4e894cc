// Table themes. A theme is a set of CSS custom properties put on <html> and an ornament: a
// repeating tile drawn in code (ornament.js), painted on the page as an SVG <pattern> behind
// everything and on the cloth as its texture, so every theme stays crisp at any size.

import { girih, khatam, termeh } from "./ornament.js";

function texture(kind, colour, alpha) {
  let body;
  switch (kind) {
    case "girih": // eight-pointed stars and crosses in strapwork, as cut tile
      return girih(22, { line: colour }, alpha);
    case "khatam": // inlaid stars, as on a khatam-kari box
      return khatam(44, { star: colour, dot: "none", lozenge: colour }, alpha);
    case "termeh": // rows of boteh, as woven in Yazd
      return termeh({ body: "none", edge: colour, flower: colour, band: colour }, alpha, 1.5);
    case "tiles": // interlaced lozenges, the feel of a tiled Persian courtyard
      body = `<path d="M20 0 L40 20 L20 40 L0 20Z" fill="none" stroke="${colour}" stroke-opacity="${alpha}" stroke-width="1"/><circle cx="20" cy="20" r="3" fill="${colour}" fill-opacity="${alpha}"/>`;
      return { w: 40, h: 40, body };
    case "carpet": // a small medallion repeat
      body = `<path d="M24 6 L42 24 L24 42 L6 24Z" fill="none" stroke="${colour}" stroke-opacity="${alpha}" stroke-width="1.2"/><path d="M24 16 L32 24 L24 32 L16 24Z" fill="${colour}" fill-opacity="${alpha}"/><circle cx="0" cy="0" r="4" fill="${colour}" fill-opacity="${alpha}"/><circle cx="48" cy="48" r="4" fill="${colour}" fill-opacity="${alpha}"/><circle cx="48" cy="0" r="4" fill="${colour}" fill-opacity="${alpha}"/><circle cx="0" cy="48" r="4" fill="${colour}" fill-opacity="${alpha}"/>`;
      return { w: 48, h: 48, body };
    case "stars":
      body = `<circle cx="7" cy="9" r="0.9" fill="${colour}" fill-opacity="${alpha}"/><circle cx="31" cy="25" r="0.6" fill="${colour}" fill-opacity="${alpha}"/><circle cx="19" cy="39" r="1.1" fill="${colour}" fill-opacity="${alpha}"/><circle cx="42" cy="5" r="0.7" fill="${colour}" fill-opacity="${alpha}"/>`;
      return { w: 48, h: 48, body };
    case "dunes":
      body = `<path d="M0 30 Q15 20 30 30 T60 30" fill="none" stroke="${colour}" stroke-opacity="${alpha}" stroke-width="1.4"/>`;
      return { w: 60, h: 40, body };
    default: // felt: fine speckle
      body = `<circle cx="3" cy="3" r="0.6" fill="${colour}" fill-opacity="${alpha}"/><circle cx="9" cy="8" r="0.5" fill="${colour}" fill-opacity="${alpha}"/>`;
      return { w: 12, h: 12, body };
  }
}

function dataUrl({ w, h, body }) {
  const s = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${body}</svg>`;
  return `url("data:image/svg+xml;charset=utf-8,${encodeURIComponent(s)}")`;
}

// felt .. slate: colours and a texture(kind, colour, alpha); a theme with `orn` draws its own tile.
export const THEMES = {
  felt: { felt: "#1f6b45", feltDeep: "#124430", rim: "#5b3a1f", ink: "#f4f1e6", muted: "#b9d6c4", accent: "#f2c14e", panel: "rgba(8,32,20,0.72)", tex: ["felt", "#000", 0.18] },
  turquoise: { felt: "#10717a", feltDeep: "#0a4a52", rim: "#c59a3c", ink: "#fdf8ec", muted: "#b9e3e3", accent: "#ffd166", panel: "rgba(4,40,46,0.72)", tex: ["girih", "#fff", 0.13] },
  walnut: { felt: "#7a4b2a", feltDeep: "#3f2412", rim: "#2a170a", ink: "#fbefe0", muted: "#e2c7a8", accent: "#ffcf70", panel: "rgba(34,18,6,0.74)", tex: ["khatam", "#ffe3b0", 0.16] },
  midnight: { felt: "#1b2340", feltDeep: "#0b1024", rim: "#39456e", ink: "#e9edff", muted: "#a9b4de", accent: "#8fb3ff", panel: "rgba(6,10,26,0.76)", tex: ["stars", "#fff", 0.5] },
  carpet: { felt: "#8c1d2c", feltDeep: "#4d0c16", rim: "#1d2d50", ink: "#fff3e4", muted: "#f0c4b6", accent: "#f5c451", panel: "rgba(40,4,10,0.74)", tex: ["carpet", "#f5c451", 0.22] },
  saffron: { felt: "#d99a3d", feltDeep: "#bf8236", rim: "#5a3410", ink: "#2a1705", muted: "#5b3a17", accent: "#7a1f12", panel: "rgba(255,243,220,0.82)", tex: ["dunes", "#fff", 0.25] },
  slate: { felt: "#dfe3e8", feltDeep: "#b8c0ca", rim: "#6b7785", ink: "#14181d", muted: "#4b5563", accent: "#1f5fbf", panel: "rgba(255,255,255,0.86)", tex: ["girih", "#1c2c44", 0.07] },
  // Isfahan: lapis tile with turquoise strapwork, gold stars and crosses, as in the mosques' domes.
  isfahan: {
    felt: "#1d4f8a", feltDeep: "#0c2748", rim: "#c9a54a", ink: "#fdf8ec", muted: "#bcd6f0", accent: "#f2c14e", panel: "rgba(6,22,44,0.76)",
    orn: () => girih(26, { line: "#6fd8cf", groove: "#0c2748", star: "#f2c14e", cross: "#f7f1e1", dot: "#1d4f8a" }, 0.24),
  },
  // Termeh: the dark madder of Yazd's woven cloth, gold boteh in rows, green flowers.
  termeh: {
    felt: "#7a1526", feltDeep: "#3a0812", rim: "#d4a84a", ink: "#fff4e2", muted: "#f0c9b0", accent: "#f5c451", panel: "rgba(42,6,12,0.76)",
    orn: () => termeh({ body: "#e2a93e", edge: "#ffe09a", flower: "#2f8a5a", band: "#e2a93e" }, 0.22, 1.7),
  },
};

const SVG_NS = "http://www.w3.org/2000/svg";

/** The theme's ornament tile (see ornament.js). */
export function ornamentTile(name) {
  const th = THEMES[name] || THEMES.felt;
  return th.orn ? th.orn() : texture(...th.tex);
}

/** CSS background of a theme's swatch in settings: its ornament over its cloth. */
export function swatchBackground(name) {
  const th = THEMES[name] || THEMES.felt;
  return `${dataUrl(ornamentTile(name))} center / 60%, radial-gradient(circle at 35% 30%, ${th.felt}, ${th.feltDeep})`;
}

// The page-wide ornament: one fixed <svg> behind everything, filled with the tile as a <pattern>.
function paintOrnament(name, tile) {
  if (!document.body) return;
  let layer = document.querySelector("svg.theme-ornament");
  if (!layer) {
    layer = document.createElementNS(SVG_NS, "svg");
    layer.setAttribute("class", "theme-ornament");
    layer.setAttribute("aria-hidden", "true");
    layer.setAttribute("focusable", "false");
    document.body.prepend(layer);
  }
  layer.dataset.theme = name;
  layer.innerHTML = `<defs><pattern id="theme-ornament" width="${tile.w}" height="${tile.h}" patternUnits="userSpaceOnUse">${tile.body}</pattern></defs>` +
    `<rect width="100%" height="100%" fill="url(#theme-ornament)"/>`;
}

export function applyTheme(name) {
  const id = name in THEMES ? name : "felt";
  const th = THEMES[id];
  const tile = ornamentTile(id);
  const root = document.documentElement.style;
  root.setProperty("--felt", th.felt);
  root.setProperty("--felt-deep", th.feltDeep);
  root.setProperty("--rim", th.rim);
  root.setProperty("--ink", th.ink);
  root.setProperty("--muted", th.muted);
  root.setProperty("--accent", th.accent);
  root.setProperty("--panel", th.panel);
  root.setProperty("--texture", dataUrl(tile));
  document.documentElement.dataset.theme = id;
  paintOrnament(id, tile);
}
