// Sound effects synthesised with Web Audio: no sound files. The audio context is created on the
// first user gesture (browsers refuse to start audio before one), and every effect is a few
// oscillators or a noise burst through an envelope.

import * as settings from "./settings.js";

let ctx = null;

function audio() {
  if (settings.get("muted")) return null;
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    try { ctx = new AC(); } catch { return null; }
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

function tone(a, freq, start, length, type = "sine", gain = 0.2) {
  const o = a.createOscillator();
  const g = a.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, a.currentTime + start);
  g.gain.setValueAtTime(0.0001, a.currentTime + start);
  g.gain.exponentialRampToValueAtTime(gain, a.currentTime + start + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, a.currentTime + start + length);
  o.connect(g).connect(a.destination);
  o.start(a.currentTime + start);
  o.stop(a.currentTime + start + length + 0.05);
}

function noise(a, start, length, filterFreq, gain = 0.25) {
  const n = Math.floor(a.sampleRate * length);
  const buf = a.createBuffer(1, n, a.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < n; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / n);
  const src = a.createBufferSource();
  src.buffer = buf;
  const f = a.createBiquadFilter();
  f.type = "bandpass";
  f.frequency.value = filterFreq;
  const g = a.createGain();
  g.gain.value = gain;
  src.connect(f).connect(g).connect(a.destination);
  src.start(a.currentTime + start);
}

const EFFECTS = {
  // a card sliding off the deck: short filtered noise swishes
  deal(a) { for (let i = 0; i < 4; i++) noise(a, i * 0.07, 0.06, 3200, 0.18); },
  // a card landing on the felt: a soft thump plus a click
  play(a) { noise(a, 0, 0.05, 1800, 0.3); tone(a, 140, 0, 0.08, "sine", 0.15); },
  // a trick won: two rising notes
  trick(a) { tone(a, 660, 0, 0.18, "triangle", 0.14); tone(a, 880, 0.1, 0.25, "triangle", 0.14); },
  // trump declared: a bright arpeggio
  trump(a) { [523, 659, 784, 1047].forEach((f, i) => tone(a, f, i * 0.08, 0.3, "triangle", 0.12)); },
  // kot: a fanfare
  kot(a) {
    [392, 523, 659, 784].forEach((f, i) => tone(a, f, i * 0.12, 0.25, "sawtooth", 0.06));
    tone(a, 1047, 0.5, 0.7, "triangle", 0.16);
  },
  // your turn: a gentle ping
  turn(a) { tone(a, 988, 0, 0.15, "sine", 0.08); },
};

export function play(name) {
  const a = audio();
  if (!a || !EFFECTS[name]) return;
  try { EFFECTS[name](a); } catch { /* an effect must never break the game */ }
}

/** Unlock audio on the first gesture so later effects can play. */
export function unlockOnGesture() {
  const once = () => { if (!settings.get("muted")) audio(); window.removeEventListener("pointerdown", once); };
  window.addEventListener("pointerdown", once);
}
