// Evaluated in the page by test_look.py (with `arg`: "hide" or "show"): the text the table draws on the theme
// itself, not on a card: seat names, each seat's tricks ("۰ دور"), the partner tag, the score line (names,
// the "points" word, the scores, the tricks), the hand number, the status line, "your turn" and your clock.
// "hide" makes each one's glyphs transparent (their shadow too), so a screenshot shows only what lies behind
// them, and returns each one's text colour and the box of its glyphs' ink; "same" lists what changed since "hide"
// (an element drawn again shows its glyphs; one that moved has other pixels under its box), a pixel's wobble
// aside (a clock's digits of another width shift their line by one); "show" puts them back.
// Styles are set through the CSSOM (el.style), which the page's Content-Security-Policy allows.
(mode) => {
  const SELECTOR = ".seat .seat-name, .seat .seat-tricks, .seat .partner-tag, [data-testid=top-bar] .flower-name, " +
    "[data-testid=top-bar] .score-word, [data-testid=top-bar] .game-score, [data-testid=top-bar] .flower-tricks, " +
    "[data-testid=top-bar] .hand-no, .status-line, .your-turn, .my-timer";
  if (mode === "show") { // every one, also a line the table emptied in the meantime
    for (const e of document.querySelectorAll(SELECTOR)) for (const p of ["color", "-webkit-text-fill-color", "text-shadow"]) e.style.removeProperty(p);
    return null;
  }
  const els = [...document.querySelectorAll(SELECTOR)].filter((e) => e.textContent.trim() && e.getClientRects().length);
  const boxOf = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  if (mode === "same") {
    const was = window.__themeTextHidden || [];
    const changed = [];
    if (els.length !== was.length) changed.push(`${was.length} lines, now ${els.length}`);
    for (const { el, box } of was) {
      if (!el.isConnected) changed.push(`${el.className} drawn again`);
      else if (el.style.getPropertyValue("color") !== "transparent") changed.push(`${el.className} shows its glyphs`);
      else if (boxOf(el).some((v, i) => Math.abs(v - box[i]) > 1.5)) changed.push(`${el.className} moved from ${box.map(Math.round)} to ${boxOf(el).map(Math.round)}`);
    }
    return changed;
  }
  // The box of the glyphs' ink: the text's box (the font's whole ascent and descent) less what no glyph of this
  // text reaches above or below. A large score's line box is far taller than its digit (a Persian zero is a small
  // ring in the middle of it) and runs past the score's own chip; the ground that matters lies behind the strokes.
  const canvas = document.createElement("canvas").getContext("2d");
  const out = els.map((e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    const r = range.getBoundingClientRect();
    const s = getComputedStyle(e);
    canvas.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const m = canvas.measureText(e.textContent.trim());
    const top = r.top + Math.max(0, m.fontBoundingBoxAscent - m.actualBoundingBoxAscent);
    const bottom = r.bottom - Math.max(0, m.fontBoundingBoxDescent - m.actualBoundingBoxDescent);
    return { cls: e.className, text: e.textContent.trim(), color: s.color,
             box: [r.left, Math.floor(top), r.right, Math.ceil(bottom)].map((v) => Math.round(v)) };
  });
  window.__themeTextHidden = els.map((e) => ({ el: e, box: boxOf(e) }));
  for (const e of els) {
    e.style.setProperty("color", "transparent", "important");
    e.style.setProperty("-webkit-text-fill-color", "transparent", "important");
    e.style.setProperty("text-shadow", "none", "important");
  }
  return out;
}
