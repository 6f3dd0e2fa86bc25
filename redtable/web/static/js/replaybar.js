// The replay's scrubber: first / previous / play / next / last, a slider and the step, and
// the keys (← → one step, Home / End the setup and the last step) wherever the focus is.
//
// It is built once and only updated: a control that is rebuilt loses the keyboard focus, and
// the arrow keys then stop at the page. For the same reason an unusable button is marked
// aria-disabled instead of disabled (a disabled button drops the focus).
import { h, icon } from "./dom.js";
import { t } from "./i18n.js";

const TYPING = new Set(["TEXTAREA", "SELECT"]);

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
    const btn = (act, ico) => h("button.icon-btn", { type: "button", "data-act": act }, icon(ico));
    this.buttons = {
      first: btn("first", "first"), prev: btn("prev", "prev"), play: btn("play", "play"),
      next: btn("next", "next"), last: btn("last", "last"),
    };
    this.range = h("input.range", { type: "range", min: 0, max: 0, value: 0 });
    this.range.addEventListener("input", () => this.go(parseInt(this.range.value, 10), "range"));
    this.label = h("span.step-label", { "aria-live": "polite" });
    this.note = h("span.muted.small.replay-note", { hidden: true });
    this.keys = h("span.muted.small.replay-keys");
    this.el = h("div.scrubber", { role: "group" }, Object.values(this.buttons), this.range, this.label, this.keys, this.note);
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
    const to = { first: 0, prev: this.step - 1, next: this.step + 1, last: this.steps }[what];
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
    play.replaceChildren(icon(playing ? "pause" : "play"));
    play.setAttribute("aria-label", playing ? t("replay.pause") : t("replay.play"));
    play.title = play.getAttribute("aria-label");
    play.setAttribute("aria-pressed", String(playing));
    this.note.hidden = !running;
  }

  stepText() { return this.step === 0 ? t("replay.setup") : t("replay.step", { n: this.step, total: this.steps }); }

  relabel() {
    this.el.setAttribute("aria-label", t("replay.scrubber"));
    this.range.setAttribute("aria-label", t("replay.scrubber"));
    for (const k of ["first", "prev", "next", "last"]) {
      this.buttons[k].setAttribute("aria-label", t("replay." + k));
      this.buttons[k].title = t("replay." + k);
    }
    this.keys.textContent = t("replay.keys");
    this.note.textContent = t("replay.not_finished");
    if (this.loaded) this.set(this.step, this.steps, this.playing, !this.note.hidden);
  }

  destroy() { document.removeEventListener("keydown", this.onKey); }
}
