// Your turn, told outside the page: the tab title's "● " marker while a decision is yours,
// and (if you turn it on; off by default, remembered in this browser) a short chime when a
// decision becomes yours (the same setting turns on the table's other sounds: sounds.js).
//
// Both are driven straight from the session's messages, not from the table's rendering:
// a hidden tab gets no animation frames, so a title set while rendering would wait until the
// tab is shown again, which is exactly when it is no longer needed. The tone is made with
// WebAudio (two short sine notes), no audio file.
import { h, svg } from "./dom.js";
import { t } from "./i18n.js";
import { notify } from "./notify.js";

const KEY = "redtable.chime";
export const MARK = "● ";

export function chimeOn() {
  try { return localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
}

export function setChimeOn(on) {
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* private mode: this page only */ }
}

let audio = null;
export function audioContext() {
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  if (!audio) audio = new AC();
  // created or resumed from the toggle's click, a browser lets it play later in a hidden tab
  if (audio.state === "suspended" && audio.resume) audio.resume().catch(() => {});
  return audio;
}

// A short rising two-note tone, quiet (peak gain 0.16), half a second.
export function playChime() {
  const ac = audioContext();
  if (!ac) return false;
  const now = ac.currentTime;
  const gain = ac.createGain();
  gain.connect(ac.destination);
  gain.gain.setValueAtTime(0.0001, now);
  gain.gain.exponentialRampToValueAtTime(0.16, now + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.5);
  for (const [freq, at] of [[659.25, 0], [987.77, 0.13]]) {
    const osc = ac.createOscillator();
    osc.type = "sine";
    osc.frequency.setValueAtTime(freq, now + at);
    osc.connect(gain);
    osc.start(now + at);
    osc.stop(now + 0.55);
  }
  return true;
}

function bell() {
  return svg("svg", { viewBox: "0 0 24 24", class: "icon icon-bell", "aria-hidden": "true" },
    svg("path", { d: "M6 16 V11 A6 6 0 0 1 18 11 V16 L20 18 H4 Z" }),
    svg("path", { d: "M10 20 A2 2 0 0 0 14 20" }),
    svg("path", { class: "bell-off", d: "M4 4 L20 20" }));
}

export class TurnSignals {
  constructor() {
    this.mine = null;   // null until the first snapshot: opening a page where it is your turn is no news
    this.base = "redtable";
    this.button = h("button.btn.small.ghost.chime", { type: "button", "aria-pressed": String(chimeOn()) },
      bell(), h("span", null, t("chime.toggle")));
    this.button.addEventListener("click", () => {
      const on = !chimeOn();
      setChimeOn(on);
      this.label();
      if (on) playChime();  // a preview, and the click lets the page play sound later
    });
    this.label();
  }

  label() {
    const on = chimeOn();
    // (in the toolbar's "More" menu the toggle is a menuitemcheckbox: toolbar.js)
    this.button.setAttribute(this.button.getAttribute("role") === "menuitemcheckbox" ? "aria-checked" : "aria-pressed", String(on));
    this.button.classList.toggle("on", on);
    this.button.title = on ? t("chime.on_title") : t("chime.off_title");
    this.button.querySelector("span").textContent = t("chime.toggle");
  }

  // mine: a decision is asked of this seat (not one the server answers); sent: it was decided
  // and is on its way. base: the tab title without the marker.
  update(mine, sent, base) {
    if (base) this.base = base;
    if (mine && this.mine === false && chimeOn()) playChime();
    if (mine && this.mine === false && document.hidden) {  // (with permission: notify.js; one per game)
      const m = (location.hash || "").match(/^#\/game\/([^/?]+)/);
      notify(t("turn.notify_title"), this.base, m ? decodeURIComponent(m[1]) : "turn", location.hash);
    }
    this.mine = mine;
    const title = (mine && !sent ? MARK : "") + this.base;
    if (document.title !== title) document.title = title;
  }

  destroy() { document.title = "redtable"; }
}
