// The table's other sounds, beside the turn chime (chime.js) and under the same setting (off
// by default, remembered in this browser): a card deployed, a block, the game's end.
//
// Made in the page with Web Audio (a few short oscillator notes each, quiet), no sound file.
// The chime is sine notes; these use triangle and square waves, so the two never sound alike.
// What sounded is kept in window.__sounds (the tests read it; a bounded list).
import { audioContext, chimeOn } from "./chime.js";

// Each sound: [wave, [[frequency Hz, start s, length s], ...], peak gain].
const SOUNDS = {
  deploy: ["triangle", [[196, 0, 0.14], [147, 0.05, 0.16]], 0.22],
  block: ["square", [[392, 0, 0.09], [311, 0.1, 0.14]], 0.07],
  end: ["triangle", [[523.25, 0, 0.2], [659.25, 0.16, 0.2], [783.99, 0.32, 0.45]], 0.18],
};

export function playSound(kind) {
  const spec = SOUNDS[kind];
  const ac = spec && audioContext();
  if (!ac) return false;
  const [wave, notes, peak] = spec;
  const now = ac.currentTime;
  for (const [freq, at, len] of notes) {
    const gain = ac.createGain();
    gain.connect(ac.destination);
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(peak, now + at + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
    const osc = ac.createOscillator();
    osc.type = wave;
    osc.frequency.setValueAtTime(freq, now + at);
    osc.connect(gain);
    osc.start(now + at);
    osc.stop(now + at + len + 0.02);
  }
  const heard = (window.__sounds = window.__sounds || []);
  heard.push(kind);
  if (heard.length > 200) heard.shift();
  return true;
}

// The sound an update of the game makes (one at most: the end, else a block, else a deploy).
// events: the update's events (the seat's own); status: the game's status after it.
export function soundOf(events, wasOver, status) {
  if (status === "finished" && !wasOver) return "end";
  const kinds = new Set((events || []).map((e) => e.kind));
  if (kinds.has("block")) return "block";
  if (kinds.has("deploy") || kinds.has("deployed")) return "deploy";
  return null;
}

export class TableSounds {
  constructor() { this.over = null; }  // null until the first snapshot: opening a finished game is no news

  // A snapshot (no sound) or an update (events) arrived; status: the game's now.
  heard(events, status, update) {
    const kind = update && this.over !== null ? soundOf(events, this.over, status) : null;
    this.over = status === "finished";
    if (kind && chimeOn()) playSound(kind);
  }
}
