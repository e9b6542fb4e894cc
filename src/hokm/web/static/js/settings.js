// Settings kept in the browser (localStorage). Other modules read get() and subscribe with
// onChange(); a broken or missing store (private mode) falls back to defaults in memory.

import { browserLang } from "./i18n.js";

const KEY = "hokm.settings.v1";

const DEFAULTS = {
  lang: null, // null: follow the browser
  theme: "felt",
  faces: "classic",
  backs: "lattice",
  speed: "normal",
  muted: false,
  hints: true,
  nickname: "",
  avatar: "", // "": the avatar derived from your player id, as others see it (avatars.js)
};

let current = load();
const listeners = new Set();

function load() {
  let stored = {};
  try {
    stored = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    stored = {};
  }
  const s = { ...DEFAULTS, ...stored };
  if (!s.lang) s.lang = browserLang();
  return s;
}

export function get(key) { return current[key]; }
export function all() { return { ...current }; }

export function set(key, value) {
  if (current[key] === value) return;
  current = { ...current, [key]: value };
  try {
    localStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    // Storage refused (quota, private mode): the setting still holds for this page.
  }
  for (const fn of listeners) fn(key, value);
}

export function onChange(fn) { listeners.add(fn); return () => listeners.delete(fn); }

/** Milliseconds for an animation of nominal length ms, scaled by the speed setting. */
export function dur(ms) {
  if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return 0;
  const f = { slow: 1.6, normal: 1, fast: 0.5, off: 0 }[current.speed] ?? 1;
  return Math.round(ms * f);
}
