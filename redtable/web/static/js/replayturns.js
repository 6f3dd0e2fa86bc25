// The replay's steps by turn: where each turn ends, "my turns", what each step did (the turn
// accounts of turnstory.js), and every hand once the game is over (the server sends `hands`
// then, never before).
//
// A turn's events run from its start event to the next turn's; the replay shows a turn at the
// step that holds its last event (the decision that ended it). Steps stay the server's
// decisions: the switch to single decisions only changes what ‹ and › do.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { turnsOf } from "./turnstory.js";

export class ReplayTurns {
  // story: the title's story module; marks[k]: the events known after step k (marks[0]: the setup)
  constructor(story, events, marks, steps, me) {
    this.story = story;
    this.marks = marks;
    this.byTurn = true;
    this.turns = turnsOf(story, events);
    const stepOf = (i) => { let k = 0; while (k < marks.length - 1 && marks[k] <= i) k += 1; return k; };
    this.turns.forEach((tr, n) => {
      const next = this.turns[n + 1];
      tr.end = next ? Math.max(1, stepOf(next.from - 1)) : steps;  // the step that finishes it
    });
    this.ends = [...new Set(this.turns.map((tr) => tr.end))].sort((a, b) => a - b);
    this.mine = me === null || me === undefined ? [] : [...new Set(this.turns.filter((tr) => tr.seat === me).map((tr) => tr.end))].sort((a, b) => a - b);
    this.switch = h("div.replay-mode", { role: "group" },
      this.modeBtn = h("button.btn.small.ghost.mode-turn", { type: "button" }),
      this.modeDec = h("button.btn.small.ghost.mode-decision", { type: "button" }));
    this.myPrev = h("button.btn.small.ghost.my-prev", { type: "button" });
    this.myNext = h("button.btn.small.ghost.my-next", { type: "button" });
    this.myTurns = h("div.replay-mine", { role: "group", hidden: !this.mine.length }, this.myPrev, this.myNext);
    this.el = h("div.replay-turns", null, this.switch, this.myTurns);
    this.modeBtn.addEventListener("click", () => this.setMode(true));
    this.modeDec.addEventListener("click", () => this.setMode(false));
    this.relabel();
  }

  setMode(byTurn) {
    this.byTurn = byTurn;
    this.modeBtn.setAttribute("aria-pressed", String(byTurn));
    this.modeDec.setAttribute("aria-pressed", String(!byTurn));
    if (this.onMode) this.onMode();
  }

  // Where ‹ (dir -1) or › (+1) goes from `step`: the next turn's end (by turn) or the next step.
  stepFrom(step, dir, list) {
    const ends = list || this.ends;
    if (!list && !this.byTurn) return step + dir;
    if (dir > 0) return ends.find((s) => s > step) ?? (list ? null : this.marks.length - 1);
    const back = ends.filter((s) => s < step);
    return back.length ? back[back.length - 1] : (list ? null : 0);
  }

  mineFrom(step, dir) { return this.stepFrom(step, dir, this.mine); }

  // The turn a step belongs to (the first whose end is at or after it).
  turnAt(step) { return this.turns.find((tr) => tr.end >= step) || null; }

  // What the step shown did, in the turn accounts' words: its turn so far (by turn), or the
  // step's own events (by decision).
  account(ctx, step, by, stepEvents) {
    if (step === 0) return "";
    if (this.byTurn) {
      const tr = this.turnAt(step);
      if (!tr) return "";
      const upto = tr.events.filter((_, i) => tr.from + i < (this.marks[step] ?? Infinity));
      return this.story.account(ctx, tr.seat, upto);
    }
    return by === null || by === undefined ? "" : this.story.account(ctx, by, stepEvents);
  }

  // Which turn (1-based) a step is in, and how many (the step label by turn).
  turnNumber(step) {
    const tr = this.turnAt(step);
    return tr ? this.turns.indexOf(tr) + 1 : 0;
  }

  // Every seat's hand at the step (the game is over): names and mini cards a tap reads.
  hands(ctx, hands) {
    if (!hands) return null;
    return h("section.replay-hands", { "aria-labelledby": "replay-hands-h" },
      h("h2#replay-hands-h", null, t("replay.hands")),
      hands.map((hand, p) => h("div.replay-hand", { style: { "--seat": ctx.color(p) } },
        h("h3", null, h("span.seat-dot", { style: { background: ctx.color(p) }, "aria-hidden": "true" }), t("replay.hand_of", { player: ctx.name(p) })),
        hand.length
          ? h("ul.replay-hand-cards", null, hand.map((c) => {
            const { slug, name } = this.story.cardLabel(ctx, c);
            return h("li", null, h("button.hand-chip", { type: "button", "data-card": slug, "data-inspect": slug }, name));
          }))
          : h("p.muted.small", null, t("replay.empty_hand")))));
  }

  relabel() {
    this.switch.setAttribute("aria-label", t("replay.mode"));
    this.modeBtn.textContent = t("replay.by_turn");
    this.modeDec.textContent = t("replay.by_decision");
    this.myTurns.setAttribute("aria-label", t("replay.my_turns"));
    this.myPrev.textContent = "‹ " + t("replay.my_prev");
    this.myNext.textContent = t("replay.my_next") + " ›";
    this.setMode(this.byTurn);
  }
}
