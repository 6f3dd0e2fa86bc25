// The replay's scrubber: first / previous / play / next / last (each its mark and a short word:
// no control is an icon alone), a slider and the step, and the keys (← → one step, Home / End
// the setup and the last step) wherever the focus is.
//
// It is built once and only updated: a control that is rebuilt loses the keyboard focus, and
// the arrow keys then stop at the page. For the same reason an unusable button is marked
// aria-disabled instead of disabled (a disabled button drops the focus).
import { h, icon, svg } from "./dom.js";
import { t } from "./i18n.js";

const TYPING = new Set(["TEXTAREA", "SELECT"]);

// The scrubber's own marks: to the start |◀, a step back ‹, a step on ›, to the end ▶| (the
// play button keeps the shared play/pause icons), so a step and "play" never look alike.
const MARKS = {
  first: [["path", { d: "M6 5 V19", class: "bar" }], ["path", { d: "M19 5 L9 12 L19 19 Z" }]],
  prev: [["path", { d: "M15 5 L8 12 L15 19", class: "chev" }]],
  next: [["path", { d: "M9 5 L16 12 L9 19", class: "chev" }]],
  last: [["path", { d: "M18 5 V19", class: "bar" }], ["path", { d: "M5 5 L15 12 L5 19 Z" }]],
};
function mark(name) {
  return svg("svg", { viewBox: "0 0 24 24", class: "icon icon-step icon-" + name, "aria-hidden": "true" },
    ...MARKS[name].map(([tag, attrs]) => svg(tag, attrs)));
}

// The step a replay link asks for (#/replay/ID?step=12, or step=end), else null.
export function stepFromHash(hash, steps) {
  const m = String(hash || "").match(/[?&]step=(\d+|end)\b/);
  if (!m) return null;
  return m[1] === "end" ? steps : Math.max(0, Math.min(steps, parseInt(m[1], 10)));
}

export class Scrubber {
  // go(n): show step n; toggle(): play or pause.
  constructor({ go, toggle }) {
    this.go = go;
    this.toggle = toggle;
    this.step = 0;
    this.steps = 0;
    this.playing = false;
    this.loaded = false;  // no step is shown before the game's length is known
    this.stepper = null;
    // the word is the button's name (read out as seen); its title says the longer name and key
    const btn = (act, ico) => h("button.btn.small.step-btn", { type: "button", "data-act": act }, ico, h("span.step-word"));
    this.buttons = {
      first: btn("first", mark("first")), prev: btn("prev", mark("prev")), play: btn("play", icon("play")),
      next: btn("next", mark("next")), last: btn("last", mark("last")),
    };
    this.words = h("div.step-btns", null, Object.values(this.buttons));
    this.range = h("input.range", { type: "range", min: 0, max: 0, value: 0 });
    this.range.addEventListener("input", () => this.go(parseInt(this.range.value, 10), "range"));
    this.label = h("span.step-label", { "aria-live": "polite" });
    this.note = h("span.muted.small.replay-note", { hidden: true });
    this.keys = h("span.muted.small.replay-keys");
    this.el = h("div.scrubber", { role: "group" }, this.words, this.range, this.label, this.keys, this.note);
    this.el.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-act]");
      if (!b || b.getAttribute("aria-disabled") === "true") return;
      this.act(b.dataset.act);
    });
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    this.relabel();
  }

  act(what) {
    if (what === "play") return this.toggle();
    let to = { first: 0, prev: this.step - 1, next: this.step + 1, last: this.steps }[what];
    // stepper(dir, step): where ‹ and › go instead (the replay's steps by turn: replayturns.js)
    if (this.stepper && (what === "prev" || what === "next")) to = this.stepper(what === "next" ? 1 : -1, this.step);
    this.go(to, what);
  }

  key(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const tg = e.target;
    if (tg && (TYPING.has(tg.tagName) || tg.isContentEditable || (tg.tagName === "INPUT" && tg !== this.range))) return;
    if (tg === this.range) return;  // the slider steps by itself (and tells us through "input")
    if (document.querySelector(".overlay, .sheet-backdrop, .menu")) return;  // a dialog has the keys
    const what = { ArrowRight: "next", ArrowLeft: "prev", Home: "first", End: "last" }[e.key];
    if (!what) return;
    e.preventDefault();
    this.act(what);
  }

  set(step, steps, playing, running) {
    this.loaded = true;
    this.step = step;
    this.steps = steps;
    this.playing = playing;
    this.range.max = String(steps);
    this.range.value = String(step);
    this.range.setAttribute("aria-valuetext", this.stepText());
    this.label.textContent = this.stepText();
    const off = { first: step <= 0, prev: step <= 0, next: step >= steps, last: step >= steps, play: steps <= 0 };
    for (const [k, b] of Object.entries(this.buttons)) b.setAttribute("aria-disabled", String(off[k]));
    const play = this.buttons.play;
    play.replaceChildren(icon(playing ? "pause" : "play"), h("span.step-word", null, t(playing ? "replay.pause_word" : "replay.play_word")));
    play.title = playing ? t("replay.pause") : t("replay.play");
    play.setAttribute("aria-pressed", String(playing));
    this.note.hidden = !running;
  }

  stepText() { return this.step === 0 ? t("replay.setup") : t("replay.step", { n: this.step, total: this.steps }); }

  relabel() {
    this.el.setAttribute("aria-label", t("replay.scrubber"));
    this.range.setAttribute("aria-label", t("replay.scrubber"));
    const keys = { first: "Home", prev: "←", next: "→", last: "End" };
    for (const k of ["first", "prev", "next", "last"]) {
      this.buttons[k].querySelector(".step-word").textContent = t("replay." + k + "_word");
      this.buttons[k].title = `${t("replay." + k)} (${keys[k]})`;
    }
    const play = this.buttons.play;
    if (!this.loaded) { play.querySelector(".step-word").textContent = t("replay.play_word"); play.title = t("replay.play"); }
    this.keys.textContent = t("replay.keys");
    this.note.textContent = t("replay.not_finished");
    if (this.loaded) this.set(this.step, this.steps, this.playing, !this.note.hidden);
  }

  destroy() { document.removeEventListener("keydown", this.onKey); }
}
