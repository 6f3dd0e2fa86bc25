// Hints while learning (hints.py): in a game without a rating and without other people
// (practice against bots, a tutorial) the seat's prompt has a "hint" button; the expert's
// answer is worded here (the options as the table words them, hint.why from the catalog).
// A game where a hint was used says so in its replay, at the steps where it was used.
import { h, icon, toast } from "./dom.js";
import { t } from "./i18n.js";
import { get, post } from "./api.js";
import { whyWords } from "./why.js";

const pct = (p) => `${Math.round(100 * p)}%`;

// Whether the table offers hints: no rating, and nobody but this person (a tutorial always).
export function hintsOffered(snap) {
  if (!snap || snap.rated || snap.seat === null || snap.seat === undefined) return false;
  return !!snap.tutorial || snap.seats.filter((s) => s.type === "human").length <= 1;
}

export class HintButton {
  // getToken(): the seat's token; rerender(): draw the table again (the answer is kept for the
  // step it was asked at, so a table drawn again while the expert thinks shows it when it comes).
  constructor(gameId, getToken, rerender) {
    this.gameId = gameId;
    this.getToken = getToken;
    this.rerender = rerender;
    this.answer = null;  // {step, text}
    this.asking = null;  // the step being asked about
  }

  // Put the button (or the answer) in the prompt box of the seat's own decision.
  place(box, ctx, snap) {
    if (!hintsOffered(snap) || !ctx.decision || !ctx.isMe(ctx.decision.player) || !ctx.decision.options) return;
    if (ctx.decision.options.length < 2) return;
    if (this.answer && this.answer.step === snap.step) {
      box.append(h("p.hint-text", { role: "status" }, icon("eye"), " ", this.answer.text));
      return;
    }
    const btn = h("button.btn.small.ghost.hint-btn", { type: "button", "aria-busy": String(this.asking === snap.step) }, t("hint.ask"));
    btn.addEventListener("click", () => this.ask(ctx, snap, btn));
    if (this.asking === snap.step) btn.disabled = true;
    // in the title's line ("Your turn"), so that the prompt takes no more room (a phone's prompt bar)
    const title = box.querySelector(".prompt-title");
    if (title) title.append(" ", btn);
    else box.append(btn);
  }

  async ask(ctx, snap, btn) {
    const step = snap.step;
    this.asking = step;
    btn.disabled = true;
    btn.textContent = t("hint.thinking");
    try {
      const got = await post(`/api/games/${encodeURIComponent(this.gameId)}/hint`, undefined, this.getToken());
      const d = ctx.decision;
      const label = (o) => { try { return ctx.renderer.optionLabel(ctx, d, o); } catch (e) { return o; } };
      const what = whyWords(got.why);
      const words = { preferred: label(got.preferred), win: pct(got.win), second: label(got.second), win_second: pct(got.win_second) };
      const text = got.second === null || got.second === undefined
        ? t("hint.only", { preferred: label(got.preferred) })
        : what ? t("hint.why_more", { ...words, what }) : t("hint.why", words);
      this.answer = { step, text };
      if (btn.isConnected) {
        btn.remove();
        const box = document.querySelector(".prompt");
        if (box) box.append(h("p.hint-text", { role: "status" }, icon("eye"), " ", text));
      } else this.rerender();
    } catch (e) {
      btn.disabled = false;
      btn.textContent = t("hint.ask");
      toast(e.message, "error");
    } finally {
      this.asking = null;
    }
  }
}

// The replay of a game played with hints: a mark in the header, and a note at each step where one was used.
export async function loadHints(gameId, token) {
  try {
    return (await get(`/api/games/${encodeURIComponent(gameId)}/hints`, token)).hints || [];
  } catch (e) {
    return [];
  }
}

export function hintBadge(hints) {
  return hints.length ? h("span.badge.hint-badge", { title: t("hint.used_game") }, t("hint.used")) : null;
}

// hints: [{seat, step}]; step: the replay's step (the decision taken at step - 1 was the one hinted).
export function hintNote(hints, step, name) {
  const at = hints.filter((x) => x.step === step - 1);
  return at.length ? h("p.muted.small.hint-note", null, icon("eye"), " ", t("hint.used_here", { player: name(at[0].seat) })) : null;
}
