// Court figures for the "miniature" card faces: the king (شاه), queen (بی‌بی) and jack (سرباز) as
// half-length figures in the manner of Persian miniature painting (a pointed arch behind, almond
// eyes, flat robes with gold trim), drawn twice, head to head, like a court card. All in SVG here.

// Robes by suit: lapis, vermilion, saffron, malachite; gold and ink shared.
const ROBE = { S: "#24509a", H: "#b8322a", D: "#c77f16", C: "#2d6e50" };
const ROBE_DARK = { S: "#16356b", H: "#7d1d18", D: "#8a560b", C: "#1b4a34" };
const GOLD = "#d9a92c";
const INK = "#2a1a10";
const SKIN = "#f3d7b6";
const HAIR = "#1c1410";

// The upper half of the panel spans x 22..78, y 16..70; the lower half is the same turned about (50, 70).
function face(cx, cy) {
  return `<ellipse cx="${cx}" cy="${cy}" rx="6.6" ry="8" fill="${SKIN}" stroke="${INK}" stroke-width="0.6"/>` +
    // joined arched brows, almond eyes, a fine nose and a small mouth
    `<path d="M${cx - 5} ${cy - 2.6} Q${cx - 2.6} ${cy - 4.4} ${cx} ${cy - 2.6} Q${cx + 2.6} ${cy - 4.4} ${cx + 5} ${cy - 2.6}" fill="none" stroke="${HAIR}" stroke-width="0.8"/>` +
    `<path d="M${cx - 4.4} ${cy - 0.8} Q${cx - 2.7} ${cy - 2.2} ${cx - 1.1} ${cy - 0.8} Q${cx - 2.7} ${cy - 0.1} ${cx - 4.4} ${cy - 0.8}Z" fill="${HAIR}"/>` +
    `<path d="M${cx + 1.1} ${cy - 0.8} Q${cx + 2.7} ${cy - 2.2} ${cx + 4.4} ${cy - 0.8} Q${cx + 2.7} ${cy - 0.1} ${cx + 1.1} ${cy - 0.8}Z" fill="${HAIR}"/>` +
    `<path d="M${cx} ${cy - 1} L${cx - 0.9} ${cy + 2.4} L${cx + 0.3} ${cy + 2.6}" fill="none" stroke="${INK}" stroke-width="0.5"/>` +
    `<path d="M${cx - 1.4} ${cy + 4.4} Q${cx} ${cy + 5.3} ${cx + 1.4} ${cy + 4.4}" fill="none" stroke="#a3312b" stroke-width="0.9"/>`;
}

function robe(suit, collar) {
  return `<path d="M25 70 C26 58 36 52.5 50 52.5 C64 52.5 74 58 75 70Z" fill="${ROBE[suit]}" stroke="${INK}" stroke-width="0.7"/>` +
    `<path d="M43 53.5 L50 64 L57 53.5" fill="none" stroke="${GOLD}" stroke-width="1.6"/>` +
    `<path d="M50 64 V70" stroke="${GOLD}" stroke-width="1.2"/>` +
    `<path d="M30 62 Q34 60 37 64 M70 62 Q66 60 63 64" fill="none" stroke="${ROBE_DARK[suit]}" stroke-width="1"/>` +
    (collar ? `<path d="M42 53 Q50 57 58 53 L57 51 Q50 54 43 51Z" fill="${collar}"/>` : "");
}

function king(suit) {
  return robe(suit, GOLD) +
    `<rect x="47.5" y="48" width="5" height="5" fill="${SKIN}"/>` +
    face(50, 41) +
    // beard and moustache
    `<path d="M43.6 42 C43.4 50 47 55 50 56.5 C53 55 56.6 50 56.4 42 C55 46.5 52 47.5 50 47 C48 47.5 45 46.5 43.6 42Z" fill="${HAIR}"/>` +
    `<path d="M46.2 45 Q48 44 50 45.3 Q52 44 53.8 45" fill="none" stroke="${HAIR}" stroke-width="1.1"/>` +
    // the tall crown of the shahs, with a jewel and a plume
    `<path d="M42.6 35 L42 24 L45.6 28 L50 19 L54.4 28 L58 24 L57.4 35Z" fill="${GOLD}" stroke="${INK}" stroke-width="0.6"/>` +
    `<rect x="42.2" y="33" width="15.6" height="3" rx="1" fill="${ROBE_DARK[suit]}" stroke="${GOLD}" stroke-width="0.5"/>` +
    `<circle cx="50" cy="28.5" r="1.7" fill="#c0283a" stroke="${GOLD}" stroke-width="0.5"/>` +
    `<circle cx="50" cy="18.6" r="1.1" fill="${GOLD}" stroke="${INK}" stroke-width="0.4"/>` +
    // sceptre
    `<path d="M66 69 L69 40" stroke="${GOLD}" stroke-width="1.4"/><circle cx="69.2" cy="38.6" r="2.2" fill="${GOLD}" stroke="${INK}" stroke-width="0.5"/>`;
}

function queen(suit) {
  return robe(suit, null) +
    // veil falling round the face and over the shoulders
    `<path d="M39 70 C37 56 38 40 41 33 C44 27 56 27 59 33 C62 40 63 56 61 70Z" fill="#f6efe0" stroke="${INK}" stroke-width="0.6"/>` +
    `<path d="M41 34 C40 45 41 58 43 70 M59 34 C60 45 59 58 57 70" fill="none" stroke="${GOLD}" stroke-width="0.8"/>` +
    // two long locks of hair beside the face
    `<path d="M43.2 38 C41.5 44 43.5 49 42 53 C44.6 50 44.2 44 45 39Z M56.8 38 C58.5 44 56.5 49 58 53 C55.4 50 55.8 44 55 39Z" fill="${HAIR}"/>` +
    face(50, 41) +
    `<path d="M43.4 36 Q50 30.5 56.6 36 Q50 33.8 43.4 36Z" fill="${HAIR}"/>` +
    // a small crown and a pearl on the brow
    `<path d="M44.5 32 L45 27.5 L47.5 30 L50 25.5 L52.5 30 L55 27.5 L55.5 32Z" fill="${GOLD}" stroke="${INK}" stroke-width="0.5"/>` +
    `<circle cx="50" cy="34.4" r="0.9" fill="#fff" stroke="${GOLD}" stroke-width="0.4"/>` +
    `<circle cx="43.6" cy="44.5" r="0.9" fill="${GOLD}"/><circle cx="56.4" cy="44.5" r="0.9" fill="${GOLD}"/>` +
    // a rose held up
    `<path d="M34 68 L35.5 56" stroke="#2d6e50" stroke-width="0.9"/><circle cx="35.7" cy="55" r="2.6" fill="#c0283a" stroke="${INK}" stroke-width="0.4"/>` +
    `<circle cx="35.7" cy="55" r="1" fill="#e8637a"/>`;
}

function jack(suit) {
  return robe(suit, ROBE_DARK[suit]) +
    `<path d="M31 70 L33 57 L38 55" fill="none" stroke="${GOLD}" stroke-width="1"/>` +
    `<rect x="47.5" y="48" width="5" height="5" fill="${SKIN}"/>` +
    face(50, 42) +
    // a fine moustache
    `<path d="M46 46.3 Q48 45 50 46.4 Q52 45 54 46.3" fill="none" stroke="${HAIR}" stroke-width="1"/>` +
    // turban wound in bands, with a feather (jiqe)
    `<path d="M41.5 37.5 C40.5 29 45 25 50 25 C55 25 59.5 29 58.5 37.5 C54 35 46 35 41.5 37.5Z" fill="#f4ead2" stroke="${INK}" stroke-width="0.6"/>` +
    `<path d="M42 33.5 C46 30.5 54 30.5 58 33.5 M43 29.6 C47 27.2 53 27.2 57 29.6" fill="none" stroke="${ROBE[suit]}" stroke-width="1"/>` +
    `<circle cx="50" cy="31.5" r="1.5" fill="${GOLD}" stroke="${INK}" stroke-width="0.4"/>` +
    `<path d="M50.5 30 C53 25 52 21 55 17 C55 22 55 26 51.5 31Z" fill="${ROBE_DARK[suit]}"/>` +
    // a spear on the shoulder
    `<path d="M37 70 L31.5 27" stroke="#6b4a2a" stroke-width="1.3"/><path d="M31.1 21 L33.5 27.6 L31.6 27.9 L29.4 28.2Z" fill="#c9ccd2" stroke="${INK}" stroke-width="0.4"/>`;
}

const DRAW = { K: king, Q: queen, J: jack };

/**
 * The middle of a court card: a framed panel (class "paper", the ground of the suit marks) with the
 * figure drawn head to head. `glyph(x, y, r)` draws a suit mark (the caller's suit shape).
 */
export function courtFigure(rank, suit, glyph, panel = "#f7efd8", arch = "#cfe8e2") {
  const half = `<path d="M31 70 V41 Q31 27 50 17.5 Q69 27 69 41 V70" fill="${arch}" stroke="${GOLD}" stroke-width="0.9"/>` + DRAW[rank](suit);
  return `<g class="court-figure" data-rank="${rank}">` +
    `<rect class="paper" x="22" y="15" width="56" height="110" rx="5" fill="${panel}" stroke="${INK}" stroke-width="0.9"/>` +
    `<clipPath id="court-clip-${rank}${suit}"><rect x="22.5" y="15.5" width="55" height="109" rx="4.6"/></clipPath>` +
    `<g clip-path="url(#court-clip-${rank}${suit})"><g>${half}</g><g transform="rotate(180 50 70)">${half}</g></g>` +
    `<path d="M22.5 70 H77.5" stroke="${GOLD}" stroke-width="1.2"/>` +
    `<rect x="24.5" y="17.5" width="51" height="105" rx="3.6" fill="none" stroke="${GOLD}" stroke-width="0.8"/>` +
    glyph(71.5, 24.5, 3.8) + `<g transform="rotate(180 50 70)">${glyph(71.5, 24.5, 3.8)}</g>` +
    `</g>`;
}
