// Persian ornament drawn in code: girih strapwork, khatam inlay stars and termeh boteh rows. Each
// function returns one repeating tile { w, h, body } (SVG markup in a w x h box); themes.js paints
// a tile as a page-wide <pattern> and as the cloth's texture.

const f = (n) => Math.round(n * 100) / 100;

/** Where the lines (x0,y0)+t(dx,dy) and (x1,y1)+u(ex,ey) cross. */
function cross([x0, y0], [dx, dy], [x1, y1], [ex, ey]) {
  const det = dx * ey - dy * ex;
  const t = ((x1 - x0) * ey - (y1 - y0) * ex) / det;
  return [x0 + t * dx, y0 + t * dy];
}

function regular(cx, cy, n, side, start) {
  const r = side / (2 * Math.sin(Math.PI / n));
  return Array.from({ length: n }, (_, i) => {
    const a = start + (2 * Math.PI * i) / n;
    return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
  });
}

/**
 * Girih by the polygons-in-contact method: from the middle of each edge of a tiling, two lines
 * leave at `contact` degrees and run until they meet the line from the neighbouring edge. On the
 * square-octagon tiling this gives the eight-pointed star and cross of Persian tilework. Returns, for
 * each polygon, the star polygon (edge midpoints and meeting points alternating).
 */
function hankin(polygons, contact) {
  const th = (contact * Math.PI) / 180;
  const rot = ([x, y], a) => [x * Math.cos(a) - y * Math.sin(a), x * Math.sin(a) + y * Math.cos(a)];
  return polygons.map((v) => {
    const n = v.length;
    const mids = [], dirs = [];
    for (let i = 0; i < n; i++) {
      const a = v[i], b = v[(i + 1) % n];
      const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
      mids.push([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]);
      dirs.push([(b[0] - a[0]) / len, (b[1] - a[1]) / len]);
    }
    const star = [];
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const p = cross(mids[i], rot(dirs[i], th), mids[j], rot([-dirs[j][0], -dirs[j][1]], -th));
      star.push(mids[i], p);
    }
    return star;
  });
}

const pathOf = (pts) => "M" + pts.map(([x, y]) => `${f(x)} ${f(y)}`).join("L") + "Z";

/**
 * Eight-fold girih on one period of the square-octagon tiling (an octagon in the middle, a square
 * on each corner). colours: { line, star, cross, ground } (null leaves a part unpainted).
 */
export function girih(side, colours, alpha = 1, contact = 67.5) {
  const d = side * (1 + Math.SQRT2);
  const oct = regular(d / 2, d / 2, 8, side, Math.PI / 8);
  const squares = [[0, 0], [d, 0], [0, d], [d, d]].map(([x, y]) => regular(x, y, 4, side, 0));
  const [octStar, ...sqStars] = hankin([oct, ...squares], contact);
  const lw = f(side * 0.09);
  let body = colours.ground ? `<rect width="${f(d)}" height="${f(d)}" fill="${colours.ground}"/>` : "";
  body += `<g opacity="${alpha}">`;
  if (colours.star) body += `<path d="${pathOf(octStar)}" fill="${colours.star}"/>`;
  if (colours.cross) for (const s of sqStars) body += `<path d="${pathOf(s)}" fill="${colours.cross}"/>`;
  if (colours.dot) body += `<circle cx="${f(d / 2)}" cy="${f(d / 2)}" r="${f(side * 0.18)}" fill="${colours.dot}"/>`;
  const lines = [octStar, ...sqStars].map(pathOf).join("");
  // Strapwork: a wide band in the line colour with a thin groove, as the lines of cut tile read.
  body += `<path d="${lines}" fill="none" stroke="${colours.line}" stroke-width="${lw}" stroke-linejoin="miter"/>`;
  if (colours.groove) body += `<path d="${lines}" fill="none" stroke="${colours.groove}" stroke-width="${f(lw * 0.32)}"/>`;
  body += "</g>";
  return { w: f(d), h: f(d), body };
}

/** Khatam inlay: small eight-pointed stars of two squares on a diagonal lattice, as on inlaid wood. */
export function khatam(size, colours, alpha = 1) {
  const star = (cx, cy, r) => {
    const sq = (a) => regular(cx, cy, 4, r * Math.SQRT2, a);
    return `<path d="${pathOf(sq(0))}${pathOf(sq(Math.PI / 4))}" fill="${colours.star}" fill-rule="nonzero"/>` +
      `<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(r * 0.32)}" fill="${colours.dot}"/>`;
  };
  const s = size, r = s * 0.22;
  let body = `<g opacity="${alpha}">`;
  for (const [x, y] of [[0, 0], [s, 0], [0, s], [s, s], [s / 2, s / 2]]) body += star(x, y, r);
  // Small lozenges between the stars: the triangles of the inlay seen from a distance.
  for (const [x, y] of [[s / 2, 0], [0, s / 2], [s, s / 2], [s / 2, s]]) {
    body += `<path d="M${f(x)} ${f(y - r * 0.7)}L${f(x + r * 0.35)} ${f(y)}L${f(x)} ${f(y + r * 0.7)}L${f(x - r * 0.35)} ${f(y)}Z" fill="${colours.lozenge}"/>`;
  }
  return { w: f(s), h: f(s), body: body + "</g>" };
}

/** One boteh (paisley): a teardrop whose tip curls over, with an inner outline and a flower. */
export function boteh(x, y, scale, colours, flip = false) {
  const outer = "M0 12 C-8 12 -11 4 -9 -2 C-7 -9 1 -10 5 -15 C7 -17 9 -16 8 -13 C6 -8 10 -5 9 2 C8 8 5 12 0 12Z";
  const inner = "M0 8.5 C-5 8.5 -7 3 -6 -1 C-5 -5 0 -6.5 3.5 -9.5 C3 -6 6 -3 5.5 1.5 C5 5.5 3 8.5 0 8.5Z";
  let petals = "";
  for (let i = 0; i < 6; i++) petals += `<ellipse cx="0" cy="-2.4" rx="1.1" ry="2.2" transform="rotate(${i * 60} 0 1.6)" fill="${colours.flower}"/>`;
  const t = `translate(${f(x)} ${f(y)}) scale(${flip ? -scale : scale} ${scale})`;
  return `<g transform="${t}"><path d="${outer}" fill="${colours.body}" stroke="${colours.edge}" stroke-width="0.8"/>` +
    `<path d="${inner}" fill="none" stroke="${colours.edge}" stroke-width="0.6" stroke-dasharray="1.2 1"/>` +
    `<g transform="translate(0 1.6)">${petals}</g><circle cx="0" cy="1.6" r="1" fill="${colours.edge}"/></g>`;
}

/**
 * Termeh: rows of boteh, each row turned the other way, between narrow bands of lozenges and
 * dots, in the manner of Yazd's woven cloth. colours: { ground, body, edge, flower, band }; the
 * tile is 48 x 64 times scale.
 */
export function termeh(colours, alpha = 1, scale = 1) {
  const w = 48, h = 64;
  let body = colours.ground ? `<rect width="${w}" height="${h}" fill="${colours.ground}"/>` : "";
  body += `<g opacity="${alpha}">`;
  body += boteh(12, 18, 0.95, colours) + boteh(36, 18, 0.95, colours) + boteh(0, 50, 0.95, colours, true) +
    boteh(24, 50, 0.95, colours, true) + boteh(48, 50, 0.95, colours, true);
  for (const y of [1.5, 33.5]) {
    body += `<path d="M0 ${y}H${w}" stroke="${colours.band}" stroke-width="0.7"/>`;
    for (let x = 0; x < w; x += 6) body += `<path d="M${x + 3} ${y - 1.6}l1.6 1.6 -1.6 1.6 -1.6 -1.6z" fill="${colours.band}"/>`;
  }
  return { w: w * scale, h: h * scale, body: `<g transform="scale(${scale})">${body}</g></g>` };
}
