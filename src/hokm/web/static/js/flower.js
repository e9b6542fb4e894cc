// The match score as a seven-petal flower, as players mark it at a real table: one yellow petal
// per point, a cup in the middle once the flower is complete. The number itself is written beside
// the flower (the bar's game score), not repeated inside it.

import { esc } from "./dom.js";

export function flowerSvg(points, target = 7, label = "") {
  const petals = Math.max(target, 1);
  let s = `<svg class="flower" viewBox="-50 -50 100 100" role="img" aria-label="${esc(label)}">`; // label holds player names: escape it
  for (let i = 0; i < petals; i++) {
    const on = i < points;
    const a = (360 / petals) * i;
    s += `<path d="M0 -9 C-15 -18 -15 -38 0 -47 C15 -38 15 -18 0 -9Z" transform="rotate(${a})" class="${on ? "petal on" : "petal"}"/>`;
  }
  const done = points >= target;
  s += `<circle r="10" class="${done ? "core done" : "core"}"/>`;
  if (done) s += `<path d="M-6 -5 H6 V-1 A6 6 0 0 1 -6 -1Z M-2 4 H2 V6 H4 V8 H-4 V6 H-2Z" class="cup"/>`;
  return s + "</svg>";
}
