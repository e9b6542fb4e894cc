// The commit/reveal check, done in the browser: before each deal the server published a
// commitment (SHA-256 of its secret seed); once the hand is over it reveals the seed. Hashing the
// revealed seed here shows the server did not change it after seeing play. (The full check, that
// the deck follows from the seeds, is `POST /api/verify` on the game record; see docs/fairness.md.)

import { t } from "./i18n.js";

function hexToBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

async function sha256Hex(bytes) {
  const d = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * [{hand, commit, ok: true|false|null, note, dealt}] for the FairHand list of GET /api/tables/{id}/fair.
 * `played` is how many hands the game has finished once it is over (null while it goes on): the
 * server commits to the next deck before it knows the game is over, so a commitment past the last
 * hand was never dealt, and its seed has nothing to prove.
 */
export async function checkHands(hands, played = null) {
  const out = [];
  for (const fh of hands || []) {
    const item = { hand: fh.hand, commit: fh.commit || "", ok: null, note: "", dealt: true };
    if (!fh.server_seed && played !== null && fh.hand >= played) {
      item.dealt = false;
      item.note = t("notDealt");
    } else if (!fh.server_seed) {
      item.note = t("notRevealed"); // the seed is revealed when the hand is over
    } else if (!(window.crypto && crypto.subtle)) {
      item.note = t("noWebCrypto");
    } else {
      const commit = fh.commit.toLowerCase();
      const seed = fh.server_seed;
      // The seed is hex; the commitment is SHA-256 of its bytes (hokm.fairness.commitment).
      const isHex = /^[0-9a-fA-F]+$/.test(seed) && seed.length % 2 === 0;
      item.ok = isHex && (await sha256Hex(hexToBytes(seed))) === commit;
    }
    out.push(item);
  }
  return out;
}
