// Player avatars drawn in SVG: sixteen for people (faces in the manner of Persian miniatures, with
// headwear of town and country, and four motifs: the sun, a cypress, a pomegranate, a nightingale)
// and six for the computer (brass automata in an eight-sided frame), so a bot is never mistaken
// for a person. The protocol carries no avatar, so each seat shows the one derived from its player
// id (or name), and your own seat shows the one you chose in settings.

import * as settings from "./settings.js";

const INK = "#2a1a10";
const SKINS = ["#f3d7b6", "#e6bf94", "#c99a6e", "#a8784e"];
const HAIRS = ["#1c1410", "#3b2414", "#6b4423", "#8a8a8a"];

// Each person: background, robe, skin, hair, headwear, beard.
const PEOPLE = {
  shah: { bg: "#24509a", robe: "#b8322a", skin: 0, hair: 0, head: "taj", beard: "full" },
  banu: { bg: "#1a8a8a", robe: "#24509a", skin: 0, hair: 0, head: "veil", beard: null },
  pahlevan: { bg: "#b8322a", robe: "#2d6e50", skin: 1, hair: 0, head: "bare", beard: "moustache" },
  darvish: { bg: "#c77f16", robe: "#6b4a2a", skin: 2, hair: 3, head: "kolah", beard: "full" },
  shaer: { bg: "#2d6e50", robe: "#f4ead2", skin: 1, hair: 1, head: "turban", beard: "short" },
  golbanu: { bg: "#8e2a5a", robe: "#c77f16", skin: 1, hair: 1, head: "scarf", beard: null },
  chupan: { bg: "#5b7f2a", robe: "#8a5a2a", skin: 3, hair: 0, head: "namad", beard: "moustache" },
  shirin: { bg: "#c0463a", robe: "#1a8a8a", skin: 0, hair: 2, head: "crown", beard: null },
  mirza: { bg: "#3a2f6b", robe: "#24509a", skin: 2, hair: 1, head: "kolah-black", beard: "short" },
  bibi: { bg: "#1d4f8a", robe: "#6b2a4a", skin: 2, hair: 3, head: "scarf", beard: null },
  javan: { bg: "#d99a3d", robe: "#b8322a", skin: 3, hair: 0, head: "bare", beard: null },
  sarbaz: { bg: "#6b2a2a", robe: "#2d4f7a", skin: 1, hair: 0, head: "helmet", beard: "moustache" },
};
const MOTIFS = { khorshid: "sun", sarv: "cypress", anar: "pomegranate", bolbol: "nightingale" };
const BOTS = {
  bot_firuze: "#1a8a8a", bot_lajvard: "#24509a", bot_yaqut: "#b8322a", bot_zomorrod: "#2d6e50", bot_kahroba: "#c77f16", bot_banafsh: "#6b3a8a",
};

export const PEOPLE_IDS = [...Object.keys(PEOPLE), ...Object.keys(MOTIFS)];
export const BOT_IDS = Object.keys(BOTS);
/** Every avatar a player may choose (the bots' own are not offered). */
export const AVATARS = Object.fromEntries(PEOPLE_IDS.map((id) => [id, true]));

function face(skin, hair) {
  return `<ellipse cx="0" cy="-6" rx="15" ry="18" fill="${skin}" stroke="${INK}" stroke-width="1.2"/>` +
    `<path d="M-11 -12 Q-5.5 -16.5 0 -12 Q5.5 -16.5 11 -12" fill="none" stroke="${hair}" stroke-width="1.9"/>` +
    `<path d="M-10 -7.5 Q-6 -11 -2.4 -7.5 Q-6 -5.8 -10 -7.5Z M2.4 -7.5 Q6 -11 10 -7.5 Q6 -5.8 2.4 -7.5Z" fill="${INK}"/>` +
    `<path d="M0 -6 L-2 2 L0.8 2.4" fill="none" stroke="${INK}" stroke-width="1"/>` +
    `<path d="M-3.4 6.8 Q0 9 3.4 6.8" fill="none" stroke="#a3312b" stroke-width="1.8" stroke-linecap="round"/>`;
}

const HEAD = {
  taj: (p, hair) => `<path d="M-14 -19 L-15 -44 L-7 -34 L0 -50 L7 -34 L15 -44 L14 -19Z" fill="#d9a92c" stroke="${INK}" stroke-width="1.1"/><circle cy="-32" r="3.4" fill="#c0283a" stroke="#d9a92c" stroke-width="1"/><rect x="-15" y="-23" width="30" height="5" rx="1.5" fill="${p.robe}" stroke="#d9a92c"/>`,
  veil: () => `<path d="M-24 50 C-28 20 -24 -14 -18 -26 C-10 -38 10 -38 18 -26 C24 -14 28 20 24 50Z" fill="#f6efe0" stroke="${INK}" stroke-width="1.1"/><path d="M-19 -23 C-20 0 -18 30 -15 50 M19 -23 C20 0 18 30 15 50" fill="none" stroke="#d9a92c" stroke-width="1.4"/>`,
  veilFront: (p, hair) => `<path d="M-14 -16 Q0 -29 14 -16 Q0 -21 -14 -16Z" fill="${hair}"/><circle cy="-21" r="2" fill="#fff" stroke="#d9a92c"/>`,
  turban: (p) => `<path d="M-17 -16 C-19 -36 -9 -42 0 -42 C9 -42 19 -36 17 -16 C8 -21 -8 -21 -17 -16Z" fill="#f4ead2" stroke="${INK}" stroke-width="1.1"/><path d="M-16 -25 C-8 -31 8 -31 16 -25 M-13 -33 C-6 -38 6 -38 13 -33" fill="none" stroke="${p.bg}" stroke-width="1.8"/><circle cy="-28" r="2.6" fill="#d9a92c"/>`,
  kolah: () => `<path d="M-14 -17 C-14 -36 -6 -52 0 -54 C6 -52 14 -36 14 -17 C6 -20 -6 -20 -14 -17Z" fill="#e9dcc0" stroke="${INK}" stroke-width="1.1"/><path d="M-12 -24 C-4 -27 4 -27 12 -24 M-9 -33 C-3 -35 3 -35 9 -33 M-5 -42 C-2 -43 2 -43 5 -42" fill="none" stroke="#8a6a3a" stroke-width="1.1"/>`,
  "kolah-black": () => `<path d="M-15 -17 L-13 -40 C-6 -44 6 -44 13 -40 L15 -17 C6 -20 -6 -20 -15 -17Z" fill="#1c1a22" stroke="${INK}" stroke-width="1.1"/><path d="M-13 -37 C-6 -40 6 -40 13 -37" fill="none" stroke="#555" stroke-width="1"/>`,
  scarf: (p, hair) => `<path d="M-22 40 C-26 14 -24 -16 -16 -27 C-8 -36 8 -36 16 -27 C24 -16 26 14 22 40 C16 28 17 10 15 -14 C8 -22 -8 -22 -15 -14 C-17 10 -16 28 -22 40Z" fill="${p.robe}" stroke="${INK}" stroke-width="1.1"/><path d="M-14 -15 Q0 -25 14 -15 Q0 -19 -14 -15Z" fill="${hair}"/><path d="M-20 -6 L-17 -2 M-21 4 L-18 8 M20 -6 L17 -2 M21 4 L18 8" stroke="#f6e6b0" stroke-width="1.6"/>`,
  namad: () => `<path d="M-17 -17 C-18 -30 -10 -37 0 -37 C10 -37 18 -30 17 -17 C8 -20 -8 -20 -17 -17Z" fill="#8a6a45" stroke="${INK}" stroke-width="1.1"/>`,
  crown: (p, hair) => `<path d="M-16 -14 C-20 -2 -20 14 -22 24 C-16 18 -15 0 -13 -10Z M16 -14 C20 -2 20 14 22 24 C16 18 15 0 13 -10Z" fill="${hair}"/><path d="M-15 -12 Q0 -30 15 -12 Q0 -20 -15 -12Z" fill="${hair}"/><path d="M-10 -21 L-9 -31 L-4 -26 L0 -34 L4 -26 L9 -31 L10 -21Z" fill="#d9a92c" stroke="${INK}" stroke-width="1"/><circle cy="-25" r="1.8" fill="#fff"/>`,
  helmet: () => `<path d="M-17 -14 C-18 -32 -9 -40 0 -40 C9 -40 18 -32 17 -14Z" fill="#b8bcc4" stroke="${INK}" stroke-width="1.1"/><path d="M0 -40 V-50" stroke="${INK}" stroke-width="2"/><path d="M-1.5 -14 H1.5 V4 H-1.5Z" fill="#b8bcc4" stroke="${INK}" stroke-width="0.8"/><path d="M-17 -16 C-8 -19 8 -19 17 -16" fill="none" stroke="#d9a92c" stroke-width="2"/>`,
  bare: (p, hair) => `<path d="M-15 -10 C-17 -28 -8 -30 0 -30 C8 -30 17 -28 15 -10 C12 -20 6 -22 0 -21 C-6 -22 -12 -20 -15 -10Z" fill="${hair}"/>`,
};

const BEARD = {
  full: (hair) => `<path d="M-14 -4 C-14 16 -6 24 0 26 C6 24 14 16 14 -4 C10 6 5 8 0 7 C-5 8 -10 6 -14 -4Z" fill="${hair}"/><path d="M-7 3 Q-3 0 0 3 Q3 0 7 3" fill="none" stroke="${hair}" stroke-width="2.6"/>`,
  short: (hair) => `<path d="M-13 0 C-12 12 -5 16 0 16.5 C5 16 12 12 13 0 C9 8 5 9 0 9 C-5 9 -9 8 -13 0Z" fill="${hair}"/><path d="M-7 3.2 Q-3 0.6 0 3.2 Q3 0.6 7 3.2" fill="none" stroke="${hair}" stroke-width="2.4"/>`,
  moustache: (hair) => `<path d="M-10 4.5 Q-5 0.5 0 3.4 Q5 0.5 10 4.5 Q5 3 0 5 Q-5 3 -10 4.5Z" fill="${hair}" stroke="${hair}" stroke-width="1"/>`,
};

function person(p) {
  const skin = SKINS[p.skin], hair = HAIRS[p.hair];
  const back = p.head === "veil" ? HEAD.veil() : "";
  const robe = `<path d="M-40 52 C-38 26 -20 16 0 16 C20 16 38 26 40 52Z" fill="${p.robe}" stroke="${INK}" stroke-width="1.2"/>` +
    `<path d="M-9 17 L0 30 L9 17" fill="none" stroke="#d9a92c" stroke-width="2.4"/>` +
    `<rect x="-5" y="8" width="10" height="10" fill="${skin}"/>`;
  const front = p.head === "veil" ? HEAD.veilFront(p, hair) : HEAD[p.head](p, hair);
  const beard = p.beard ? BEARD[p.beard](hair) : "";
  return `<circle r="50" fill="${p.bg}"/>` + tileRing() + back + robe + face(skin, hair) + beard + front;
}

// A faint ring of small lozenges round the edge, as on a tile roundel.
function tileRing() {
  let s = "";
  for (let i = 0; i < 16; i++) s += `<path d="M0 -47 L2.4 -43 L0 -39 L-2.4 -43Z" fill="#fff" fill-opacity="0.22" transform="rotate(${i * 22.5})"/>`;
  return s;
}

function motif(kind) {
  if (kind === "sun") {
    // Khorshid: the sun with a face, rays alternating straight and flame-like.
    let rays = "";
    for (let i = 0; i < 16; i++) {
      rays += i % 2
        ? `<path d="M-3 -24 Q0 -44 3 -24Z" fill="#f7cf3b" transform="rotate(${i * 22.5})"/>`
        : `<path d="M-4 -24 C-6 -34 4 -36 0 -46 C8 -36 4 -30 4 -24Z" fill="#e9962a" transform="rotate(${i * 22.5})"/>`;
    }
    return `<circle r="50" fill="#1d4f8a"/>` + tileRing() + rays + `<circle r="24" fill="#f7cf3b" stroke="#c77f16" stroke-width="1.5"/>` +
      `<path d="M-11 -6 Q-7 -9.5 -3 -6 M3 -6 Q7 -9.5 11 -6" fill="none" stroke="${INK}" stroke-width="1.8"/>` +
      `<path d="M-10 -2 Q-7 -4 -4 -2 M4 -2 Q7 -4 10 -2" fill="none" stroke="${INK}" stroke-width="1.5"/>` +
      `<path d="M0 -3 L-1.6 5 L1 5.2" fill="none" stroke="${INK}" stroke-width="1.1"/><path d="M-5 10 Q0 14 5 10" fill="none" stroke="#a3312b" stroke-width="2" stroke-linecap="round"/>`;
  }
  if (kind === "cypress") {
    // Sarv: the cypress bent at the tip, the boteh's ancestor, on a garden ground.
    return `<circle r="50" fill="#e9dcc0"/>` + tileRing() + `<path d="M-40 30 Q0 22 40 30 V52 H-40Z" fill="#8fbf6a"/>` +
      `<path d="M0 36 C-18 20 -16 -12 -4 -34 C-1 -40 5 -44 8 -40 C4 -38 3 -34 4 -30 C16 -8 16 20 0 36Z" fill="#2d6e50" stroke="${INK}" stroke-width="1.2"/>` +
      `<path d="M0 30 C-8 14 -8 -6 0 -26" fill="none" stroke="#8fd0a8" stroke-width="1.4"/><rect x="-2.5" y="34" width="5" height="10" fill="#6b4a2a"/>`;
  }
  if (kind === "pomegranate") {
    // Anar, cut open, with its seeds and crown, a fruit of Yalda night.
    let seeds = "";
    for (const [x, y] of [[-8, 2], [-2, -4], [5, 1], [-4, 9], [3, 8], [9, 8], [-10, 10], [0, 15], [7, -5]]) seeds += `<ellipse cx="${x}" cy="${y}" rx="2.6" ry="3.2" fill="#e8344e" stroke="#8e1b2a" stroke-width="0.6"/>`;
    return `<circle r="50" fill="#f4ead2"/>` + tileRing() + `<path d="M-8 -28 L-6 -36 L-2 -30 L2 -38 L4 -30 L9 -35 L8 -27Z" fill="#8e1b2a" stroke="${INK}" stroke-width="1"/>` +
      `<circle cy="2" r="28" fill="#b8202e" stroke="${INK}" stroke-width="1.2"/><path d="M-20 -8 C-22 10 -8 24 6 22 C18 20 22 6 18 -6 C10 -16 -12 -18 -20 -8Z" fill="#f6d9b0"/>` + seeds +
      `<path d="M22 -30 C30 -36 38 -30 36 -22 C30 -26 26 -24 22 -30Z" fill="#2d6e50"/>`;
  }
  // Bolbol: a nightingale on a rose branch.
  return `<circle r="50" fill="#1a8a8a"/>` + tileRing() + `<path d="M-40 24 C-10 14 14 20 40 10" fill="none" stroke="#6b4a2a" stroke-width="3"/>` +
    `<circle cx="26" cy="2" r="7" fill="#c0283a" stroke="${INK}" stroke-width="1"/><circle cx="26" cy="2" r="2.6" fill="#e8637a"/><path d="M30 9 C34 14 30 18 26 16" fill="#2d6e50"/>` +
    `<path d="M-26 18 C-30 4 -18 -14 0 -14 C6 -22 16 -22 18 -14 L26 -12 L18 -8 C18 6 8 16 -8 18 L-22 34 L-18 18Z" fill="#8a5a2a" stroke="${INK}" stroke-width="1.2"/>` +
    `<path d="M-16 4 C-8 -4 4 -2 8 6 C0 2 -8 4 -16 4Z" fill="#5b3a1f"/><circle cx="11" cy="-13" r="1.8" fill="${INK}"/>`;
}

function bot(colour, i) {
  // A brass automaton in an octagon: a round head with lamp eyes and a star on the brow.
  const oct = Array.from({ length: 8 }, (_, k) => {
    const a = Math.PI / 8 + (k * Math.PI) / 4;
    return `${(48 * Math.cos(a)).toFixed(2)} ${(48 * Math.sin(a)).toFixed(2)}`;
  }).join("L");
  const antenna = ["M0 -30 V-42", "M-10 -28 L-16 -40 M10 -28 L16 -40", "M0 -30 C-8 -38 8 -42 0 -46"][i % 3];
  const mouth = ["M-10 14 H10", "M-10 12 Q0 18 10 12", "M-10 13 H-4 M-1 13 H1 M4 13 H10"][Math.floor(i / 2) % 3];
  return `<path d="M${oct}Z" fill="${colour}" stroke="#d9a92c" stroke-width="3"/>` +
    `<path d="${antenna}" fill="none" stroke="#d9a92c" stroke-width="2.6" stroke-linecap="round"/><circle cy="${i % 3 === 2 ? -46 : -42}" r="3.2" fill="#f7cf3b"/>` +
    `<rect x="-24" y="-30" width="48" height="54" rx="14" fill="#e3c074" stroke="${INK}" stroke-width="1.4"/>` +
    `<rect x="-30" y="-6" width="6" height="14" rx="2" fill="#b08a3e"/><rect x="24" y="-6" width="6" height="14" rx="2" fill="#b08a3e"/>` +
    `<path d="M0 -27 L2 -22 L7 -20 L2 -18 L0 -13 L-2 -18 L-7 -20 L-2 -22Z" fill="${colour}"/>` +
    `<circle cx="-10" cy="-3" r="6.5" fill="#1c1a22"/><circle cx="10" cy="-3" r="6.5" fill="#1c1a22"/>` +
    `<circle cx="-10" cy="-3" r="3" fill="#7ff0e8"/><circle cx="10" cy="-3" r="3" fill="#7ff0e8"/>` +
    `<path d="${mouth}" fill="none" stroke="${INK}" stroke-width="2.4" stroke-linecap="round"/>` +
    `<path d="M-20 24 H20 V34 H-20Z" fill="#b08a3e" stroke="${INK}" stroke-width="1"/>`;
}

const cache = new Map();

/** SVG markup of an avatar (an unknown id draws the first person). */
export function avatarSvg(id) {
  if (!cache.has(id)) {
    let body;
    if (id in BOTS) body = bot(BOTS[id], BOT_IDS.indexOf(id));
    else if (id in MOTIFS) body = motif(MOTIFS[id]);
    else body = person(PEOPLE[id] || PEOPLE[PEOPLE_IDS[0]]);
    cache.set(id, `<svg class="avatar-svg" viewBox="-50 -50 100 100" aria-hidden="true" focusable="false">${body}</svg>`);
  }
  return cache.get(id);
}

/** A stable number for a string (FNV-1a), so one player gets the same avatar everywhere. */
function hash(s) {
  let x = 0x811c9dc5;
  for (const ch of String(s)) {
    x ^= ch.codePointAt(0);
    x = Math.imul(x, 0x01000193) >>> 0;
  }
  return x;
}

/** The avatar shown for someone who has not chosen one: derived from a player id or name. */
export function derivedAvatar(key) { return PEOPLE_IDS[hash(key) % PEOPLE_IDS.length]; }

/**
 * The avatar of a seat. info: the seat's SeatInfo ({kind, player_id, name}); mine: whether it is
 * this browser's seat. Bots get a bot avatar by seat number; a person standing in for by the computer
 * keeps their own.
 */
export function seatAvatar(info, seat, mine) {
  const chosen = settings.get("avatar");
  if (mine && chosen in AVATARS) return chosen;
  if (info && info.kind === "bot") return BOT_IDS[seat % BOT_IDS.length];
  return derivedAvatar((info && (info.player_id || info.name)) || `seat-${seat}`);
}
