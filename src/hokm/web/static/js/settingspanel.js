// The settings sheet (language, picture, table, card faces and backs, speed, sound, hints, hand order) and
// its small controls, shared by the app (app.js) and the page shown without the server (offline.js).
// Settings apply at once and are kept in the browser (settings.js).

import { h } from "./dom.js";
import { t, getLang, setLang, isRtl, LANGS } from "./i18n.js";
import * as settings from "./settings.js";
import { THEMES, swatchBackground, applyTheme } from "./themes.js";
import { FACE_DESIGNS, BACK_DESIGNS, faceUrl, backUrl } from "./cards.js";
import { AVATARS, avatarSvg } from "./avatars.js";
import { handOrderFields } from "./handorder.js";

/** The page in the chosen language: its lang, direction and title (the app's name, then `subtitle`'s text). */
export function applyLang(subtitle) {
  setLang(settings.get("lang"));
  document.documentElement.lang = getLang();
  document.documentElement.dir = isRtl() ? "rtl" : "ltr";
  document.title = `${t("appName")} · ${t(subtitle)}`;
  const about = document.querySelector('meta[name="description"]'); // what a search result or a shared link says
  if (about) about.content = t("appAbout");
}

/** The chosen theme and animation speed on the page. */
export function applyLook() {
  applyTheme(settings.get("theme"));
  document.documentElement.dataset.speed = settings.get("speed");
}

/** A row of buttons of which one is chosen (role radiogroup). */
export function segmented(name, options, value, onPick) {
  return h("div.segmented", { role: "radiogroup", "aria-label": name },
    options.map((o) => h("button.seg", {
      type: "button", role: "radio", "aria-checked": String(o.value === value), dataset: { value: o.value },
      onclick: (ev) => {
        for (const b of ev.currentTarget.parentNode.children) b.setAttribute("aria-checked", String(b === ev.currentTarget));
        onPick(o.value);
      },
    }, o.label)));
}

export function langSwitch() {
  return h("div.lang-switch", {}, LANGS.map((l) => h("button.chip", {
    type: "button", lang: l.id, "aria-pressed": String(getLang() === l.id), onclick: () => settings.set("lang", l.id),
  }, l.label)));
}

/** Each group of designs in as many equal columns as fit its sheet: the whole group in one row when its
 *  targets keep 44 px (avatars 54 px: the picture and its frame), else half as many per row, and so on, so rows
 *  come out even (themes 5 + 4, avatars 4 × 4 on a small phone) and never run past the sheet's padding. */
function fitSwatches(sheet) {
  if (!sheet.isConnected) return;
  for (const g of sheet.querySelectorAll(".swatches")) {
    const width = g.clientWidth;
    if (!width) continue;
    const least = Number(g.dataset.least), gap = 4;
    let cols = Number(g.dataset.row);
    while (cols > 1 && cols * least + (cols - 1) * gap > width) cols = Math.ceil(cols / 2);
    g.style.setProperty("--cols", String(cols));
  }
}

/** Open the settings sheet; closed by ✕, a tap outside it or Escape (the page's own key handler). */
export function openSettings() {
  const close = () => { resize.disconnect(); panel.remove(); };
  const swatches = (key, items, render, { label = (id) => id, row = null, least = 44 } = {}) => h("div.swatches", {
    role: "radiogroup", "aria-label": t(key), dataset: { row: row || Object.keys(items).length, least } },
  Object.keys(items).map((id) => h("button.swatch", {
    type: "button", role: "radio", "aria-checked": String(settings.get(key) === id), title: label(id), "aria-label": label(id), dataset: { value: id },
    onclick: (ev) => {
      settings.set(key, id);
      for (const b of ev.currentTarget.parentNode.children) b.setAttribute("aria-checked", String(b === ev.currentTarget));
    },
  }, render(id))));
  const sheet = h("div.sheet.settings", { role: "dialog", "aria-modal": "true", "aria-label": t("settings") },
    h("div.sheet-head", {}, h("h2", {}, t("settings")), h("button.icon-btn", { type: "button", onclick: () => close(), "aria-label": t("close") }, "✕")),
    h("label.field-label", {}, t("language")), langSwitch(),
    h("label.field-label", {}, t("avatar")),
    swatches("avatar", AVATARS, (id) => h("span.avatar-pic.swatch-avatar", { html: avatarSvg(id) }), { label: (id) => t("av_" + id), row: 8, least: 54 }),
    h("label.field-label", {}, t("theme")),
    swatches("theme", THEMES, (id) => h("span.theme-dot", { style: { background: swatchBackground(id), borderColor: THEMES[id].rim } })),
    h("label.field-label", {}, t("faces")),
    swatches("faces", FACE_DESIGNS, (id) => h("img.swatch-card", { src: faceUrl(id, "KH"), alt: "" })),
    h("label.field-label", {}, t("backs")),
    swatches("backs", BACK_DESIGNS, (id) => h("img.swatch-card", { src: backUrl(id), alt: "" })),
    h("label.field-label", {}, t("speed")),
    segmented(t("speed"), ["slow", "normal", "fast", "off"].map((s) => ({ value: s, label: t("speed_" + s) })), settings.get("speed"), (v) => settings.set("speed", v)),
    h("label.field-label", {}, t("sound")),
    segmented(t("sound"), [{ value: "on", label: t("on") }, { value: "off", label: t("off") }], settings.get("muted") ? "off" : "on", (v) => settings.set("muted", v === "off")),
    h("label.field-label", {}, t("hints")),
    segmented(t("hints"), [{ value: "on", label: t("on") }, { value: "off", label: t("off") }], settings.get("hints") ? "on" : "off", (v) => settings.set("hints", v === "on")),
    ...handOrderFields(segmented));
  const panel = h("div.sheet-backdrop", { onclick: (ev) => { if (ev.target === panel) close(); } }, sheet);
  const resize = new ResizeObserver(() => fitSwatches(sheet));
  document.body.append(panel);
  fitSwatches(sheet);
  resize.observe(sheet);
  panel.querySelector("button").focus();
}
