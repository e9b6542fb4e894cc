// Seven table themes. A theme is a set of CSS custom properties put on <html>; the felt texture
// is an SVG pattern drawn here, so every theme stays crisp at any size.

function texture(kind, colour, alpha) {
  let body;
  switch (kind) {
    case "tiles": // interlaced lozenges, the feel of a tiled Persian courtyard
      body = `<path d="M20 0 L40 20 L20 40 L0 20Z" fill="none" stroke="${colour}" stroke-opacity="${alpha}" stroke-width="1"/><circle cx="20" cy="20" r="3" fill="${colour}" fill-opacity="${alpha}"/>`;
      return svg(40, 40, body);
    case "grain": // wood grain: long soft lines
      body = `<path d="M0 8 C30 4 50 14 80 9 M0 22 C25 26 55 18 80 24 M0 34 C30 31 50 38 80 35" fill="none" stroke="${colour}" stroke-opacity="${alpha}" stroke-width="1.2"/>`;
      return svg(80, 40, body);
    case "carpet": // a small medallion repeat
      body = `<path d="M24 6 L42 24 L24 42 L6 24Z" fill="none" stroke="${colour}" stroke-opacity="${alpha}" stroke-width="1.2"/><path d="M24 16 L32 24 L24 32 L16 24Z" fill="${colour}" fill-opacity="${alpha}"/><circle cx="0" cy="0" r="4" fill="${colour}" fill-opacity="${alpha}"/><circle cx="48" cy="48" r="4" fill="${colour}" fill-opacity="${alpha}"/><circle cx="48" cy="0" r="4" fill="${colour}" fill-opacity="${alpha}"/><circle cx="0" cy="48" r="4" fill="${colour}" fill-opacity="${alpha}"/>`;
      return svg(48, 48, body);
    case "stars":
      body = `<circle cx="7" cy="9" r="0.9" fill="${colour}" fill-opacity="${alpha}"/><circle cx="31" cy="25" r="0.6" fill="${colour}" fill-opacity="${alpha}"/><circle cx="19" cy="39" r="1.1" fill="${colour}" fill-opacity="${alpha}"/><circle cx="42" cy="5" r="0.7" fill="${colour}" fill-opacity="${alpha}"/>`;
      return svg(48, 48, body);
    case "dunes":
      body = `<path d="M0 30 Q15 20 30 30 T60 30" fill="none" stroke="${colour}" stroke-opacity="${alpha}" stroke-width="1.4"/>`;
      return svg(60, 40, body);
    case "none":
      return "none";
    default: // felt: fine speckle
      body = `<circle cx="3" cy="3" r="0.6" fill="${colour}" fill-opacity="${alpha}"/><circle cx="9" cy="8" r="0.5" fill="${colour}" fill-opacity="${alpha}"/>`;
      return svg(12, 12, body);
  }
}

function svg(w, h, body) {
  const s = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${body}</svg>`;
  return `url("data:image/svg+xml;charset=utf-8,${encodeURIComponent(s)}")`;
}

export const THEMES = {
  felt: { felt: "#1f6b45", feltDeep: "#124430", rim: "#5b3a1f", ink: "#f4f1e6", muted: "#b9d6c4", accent: "#f2c14e", panel: "rgba(8,32,20,0.72)", tex: ["felt", "#000", 0.18] },
  turquoise: { felt: "#137c84", feltDeep: "#0a4a52", rim: "#c59a3c", ink: "#fdf8ec", muted: "#b9e3e3", accent: "#ffd166", panel: "rgba(4,40,46,0.72)", tex: ["tiles", "#fff", 0.12] },
  walnut: { felt: "#7a4b2a", feltDeep: "#3f2412", rim: "#2a170a", ink: "#fbefe0", muted: "#e2c7a8", accent: "#ffcf70", panel: "rgba(34,18,6,0.74)", tex: ["grain", "#000", 0.22] },
  midnight: { felt: "#1b2340", feltDeep: "#0b1024", rim: "#39456e", ink: "#e9edff", muted: "#a9b4de", accent: "#8fb3ff", panel: "rgba(6,10,26,0.76)", tex: ["stars", "#fff", 0.5] },
  carpet: { felt: "#8c1d2c", feltDeep: "#4d0c16", rim: "#1d2d50", ink: "#fff3e4", muted: "#f0c4b6", accent: "#f5c451", panel: "rgba(40,4,10,0.74)", tex: ["carpet", "#f5c451", 0.22] },
  saffron: { felt: "#d99a3d", feltDeep: "#9c5f17", rim: "#5a3410", ink: "#2a1705", muted: "#5b3a17", accent: "#7a1f12", panel: "rgba(255,243,220,0.82)", tex: ["dunes", "#fff", 0.25] },
  slate: { felt: "#dfe3e8", feltDeep: "#b8c0ca", rim: "#6b7785", ink: "#14181d", muted: "#4b5563", accent: "#1f5fbf", panel: "rgba(255,255,255,0.86)", tex: ["none", "#000", 0] },
};

export function applyTheme(name) {
  const th = THEMES[name] || THEMES.felt;
  const root = document.documentElement.style;
  root.setProperty("--felt", th.felt);
  root.setProperty("--felt-deep", th.feltDeep);
  root.setProperty("--rim", th.rim);
  root.setProperty("--ink", th.ink);
  root.setProperty("--muted", th.muted);
  root.setProperty("--accent", th.accent);
  root.setProperty("--panel", th.panel);
  root.setProperty("--texture", texture(...th.tex));
  document.documentElement.dataset.theme = name in THEMES ? name : "felt";
}
