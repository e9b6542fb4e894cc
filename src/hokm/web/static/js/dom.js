// Tiny DOM helpers: build elements without a framework, and escape text for markup.

/** h("button#play.card.big", {onclick, "aria-label": ...}, child, "text"): tag, optional id, classes. */
export function h(tag, attrs = {}, ...children) {
  const idMatch = tag.match(/#([\w-]+)/);
  const id = idMatch ? idMatch[1] : null;
  const [name, ...classes] = tag.replace(/#[\w-]+/, "").split(".");
  const el = document.createElement(name || "div");
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(" ");
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "html") el.innerHTML = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "style" && typeof v === "object") {
      // Custom properties (--x) need setProperty; plain assignment ignores them.
      for (const [sk, sv] of Object.entries(v)) {
        if (sk.startsWith("--")) el.style.setProperty(sk, String(sv));
        else el.style[sk] = sv;
      }
    }
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); return el; }

export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
