// Evaluated in the page by test_look.py (with `arg`: "hide" or "show"): the text the table draws on the theme
// itself, not on a card: seat names, each seat's tricks ("۰ دور"), the partner tag, the score line (names,
// the "points" word, the scores, the tricks), the hand number, the status line, "your turn" and your clock.
// "hide" makes each one's glyphs transparent (their shadow too), so a screenshot shows only what lies behind
// them, and returns each one's text colour and the box of its glyphs; "show" puts them back.
// Styles are set through the CSSOM (el.style), which the page's Content-Security-Policy allows.
(mode) => {
  const SELECTOR = ".seat .seat-name, .seat .seat-tricks, .seat .partner-tag, [data-testid=top-bar] .flower-name, " +
    "[data-testid=top-bar] .score-word, [data-testid=top-bar] .game-score, [data-testid=top-bar] .flower-tricks, " +
    "[data-testid=top-bar] .hand-no, .status-line, .your-turn, .my-timer";
  const els = [...document.querySelectorAll(SELECTOR)].filter((e) => e.textContent.trim() && e.getClientRects().length);
  if (mode === "show") {
    for (const e of els) for (const p of ["color", "-webkit-text-fill-color", "text-shadow"]) e.style.removeProperty(p);
    return null;
  }
  const out = els.map((e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    const r = range.getBoundingClientRect();
    return { cls: e.className, text: e.textContent.trim(), color: getComputedStyle(e).color,
             box: [r.left, r.top, r.right, r.bottom].map((v) => Math.round(v)) };
  });
  for (const e of els) {
    e.style.setProperty("color", "transparent", "important");
    e.style.setProperty("-webkit-text-fill-color", "transparent", "important");
    e.style.setProperty("text-shadow", "none", "important");
  }
  return out;
}
