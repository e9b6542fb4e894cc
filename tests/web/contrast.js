// Evaluated in the page by test_look.py: renders every theme x face design as a hand on the page's own
// stylesheet (a playable card and a dimmed one of each probe card), reads the
// computed colours of each rank/suit glyph and of the card paper under it, folds in what the hand
// does to them (fill-opacity, then every filter and opacity from the glyph up to the page), and
// returns the WCAG contrast ratio of each glyph. Filter functions are applied as colour matrices on
// sRGB values, the way Chromium paints them (test_look.py checks this against real pixels). A back carries
// no glyph, so backs are not a dimension here; the text the table draws on the theme itself (seat names,
// tricks, the score line, the status line) is measured from pixels by theme_text.js and test_look.py.
// It runs inside test_look.in_app, whose mod(name) imports the app's own instance of a module.
// The page's Content-Security-Policy (style-src 'self') refuses style="..." attributes in markup, so
// the probe sets its inline styles through the CSSOM (el.style), which the policy allows.
async () => {
  const cards = await mod("cards.js");
  const themes = await mod("themes.js");

  const parse = (css) => {
    const m = css.match(/rgba?\(([^)]+)\)/);
    if (!m) throw new Error("not a colour: " + css);
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return { c: p.slice(0, 3).map((v) => v / 255), a: p.length > 3 ? p[3] : 1 };
  };
  const mix = (top, a, under) => top.map((v, i) => a * v + (1 - a) * under[i]);
  const clamp = (c) => c.map((v) => Math.min(1, Math.max(0, v)));
  const amount = (arg) => (arg.trim().endsWith("%") ? parseFloat(arg) / 100 : parseFloat(arg));
  const matrix = (c, m) => clamp([0, 1, 2].map((r) => m[r][0] * c[0] + m[r][1] * c[1] + m[r][2] * c[2]));
  const saturateM = (s) => [
    [0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s],
    [0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s],
    [0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s],
  ];
  const sepiaM = (s) => [
    [0.393 + 0.607 * (1 - s), 0.769 - 0.769 * (1 - s), 0.189 - 0.189 * (1 - s)],
    [0.349 - 0.349 * (1 - s), 0.686 + 0.314 * (1 - s), 0.168 - 0.168 * (1 - s)],
    [0.272 - 0.272 * (1 - s), 0.534 - 0.534 * (1 - s), 0.131 + 0.869 * (1 - s)],
  ];

  // One CSS filter list applied to a colour; shadows paint behind the element and change nothing on it.
  function filter(c, css) {
    if (!css || css === "none") return c;
    const fns = css.match(/[a-z-]+\((?:[^()]|\([^()]*\))*\)/g) || [];
    for (const fn of fns) {
      const name = fn.slice(0, fn.indexOf("("));
      const arg = fn.slice(name.length + 1, -1);
      if (name === "drop-shadow") continue;
      const a = amount(arg);
      if (name === "brightness") c = clamp(c.map((v) => v * a));
      else if (name === "contrast") c = clamp(c.map((v) => (v - 0.5) * a + 0.5));
      else if (name === "saturate") c = matrix(c, saturateM(a));
      else if (name === "grayscale") c = matrix(c, saturateM(1 - Math.min(1, a)));
      else if (name === "sepia") c = matrix(c, sepiaM(Math.min(1, a)));
      else if (name === "invert") c = c.map((v) => a * (1 - v) + (1 - a) * v);
      else if (name === "opacity") throw new Error("opacity() filter on a card: composite it here first");
      else throw new Error("filter the test cannot fold in: " + fn);
    }
    return c;
  }
  const lum = (c) => {
    const l = c.map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
  };
  const ratio = (x, y) => {
    const a = lum(x), b = lum(y);
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  };

  // The colour a glyph and its paper end up as on screen, given the element chain above them.
  function effective(glyph, paper, backdrop) {
    const gs = getComputedStyle(glyph), ps = getComputedStyle(paper);
    const pc = parse(ps.fill), gc = parse(gs.fill);
    const paperA = pc.a * Number(ps.fillOpacity) * Number(ps.opacity);
    if (paperA < 0.999) throw new Error("card paper is not opaque");
    let g = mix(gc.c, gc.a * Number(gs.fillOpacity) * Number(gs.opacity), pc.c);
    let p = pc.c;
    // Groups between the glyph and the svg root may carry opacity too: each fades onto the paper.
    for (let el = glyph.parentElement; el && el.tagName.toLowerCase() !== "svg"; el = el.parentElement) {
      const o = Number(getComputedStyle(el).opacity);
      if (o < 1) g = mix(g, o, p);
    }
    for (let el = glyph.ownerSVGElement; el && el !== document.documentElement; el = el.parentElement) {
      const st = getComputedStyle(el);
      g = filter(g, st.filter);
      p = filter(p, st.filter);
      const o = Number(st.opacity);
      if (o < 1) { g = mix(g, o, backdrop); p = mix(p, o, backdrop); }
    }
    return [g, p];
  }

  const root = document.createElement("div");
  root.className = "table contrast-probe";
  root.style.cssText = "position:fixed;inset:0;z-index:1000;display:block";
  const wrap = document.createElement("div");
  wrap.className = "hand-wrap";
  wrap.style.cssText = "position:absolute;left:0;right:0;bottom:0";
  const hand = document.createElement("div");
  hand.className = "hand";
  wrap.append(hand);
  root.append(wrap);
  document.body.append(root);
  const probeCards = ["AS", "KH", "TD", "7C", "QS", "2D"]; // every suit, an ace, a court, pips
  const out = [];
  const faces = Object.keys(cards.FACE_DESIGNS);
  for (const theme of Object.keys(themes.THEMES)) {
    themes.applyTheme(theme);
    const felt = getComputedStyle(document.documentElement).getPropertyValue("--felt-deep").trim();
    const probe = document.createElement("div");
    probe.style.background = felt;
    document.body.append(probe);
    const backdrop = parse(getComputedStyle(probe).backgroundColor).c;
    probe.remove();
    for (const face of faces) {
      hand.innerHTML = "";
      const made = [];
      probeCards.forEach((card, i) => {
        for (const state of ["playable", "dimmed"]) {
          const el = document.createElement("button");
          el.className = "card " + state;
          el.style.setProperty("--x", `${(made.length + 1) * 60}px`);
          el.innerHTML = cards.faceSvg(face, card);
          Object.assign(el.firstElementChild.style, { display: "block", width: "100%" });
          hand.append(el);
          made.push([card, state, el]);
        }
      });
      let worst = null, glyphs = 0;
      for (const [card, state, el] of made) {
        const papers = [...el.querySelectorAll(".paper")];
        for (const g of el.querySelectorAll(".glyph")) {
          // The ground of a glyph: the last paper before it in drawing order that lies under its centre.
          const gb = g.getBoundingClientRect(), cx = gb.x + gb.width / 2, cy = gb.y + gb.height / 2;
          const paper = papers.filter((p) => {
            const b = p.getBoundingClientRect();
            return (p.compareDocumentPosition(g) & Node.DOCUMENT_POSITION_FOLLOWING) && cx >= b.left && cx <= b.right && cy >= b.top && cy <= b.bottom;
          }).pop();
          if (!paper) throw new Error(`${face} ${card}: a glyph lies on no paper`);
          const [gc, pc] = effective(g, paper, backdrop);
          const r = ratio(gc, pc);
          glyphs++;
          if (!worst || r < worst.ratio) {
            worst = { theme, face, card, state, ratio: r, glyph: gc.map((v) => Math.round(v * 255)), paper: pc.map((v) => Math.round(v * 255)),
              filter: getComputedStyle(el).filter };
          }
        }
      }
      out.push({ ...worst, glyphs });
    }
  }
  root.remove();
  return out;
}
