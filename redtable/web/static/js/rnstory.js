// Red North's turn account: a turn is a run of one seat's actions (a change of actor starts
// the next); its account is that turn's own log sentences, the public words the log already
// has in en/uk/pl, on one line.
import { t } from "./i18n.js";

const ACTS = new Set(["deployed", "first-player", "sax", "withdraw", "flip", "reinforce", "inspire", "promote", "invoke", "pass",
  "loki", "freya", "saga", "hel", "odin", "thor", "tyr", "nornir"]);

// current: the turn so far (null before the first)
export function turnStart(e, current) {
  if (!ACTS.has(e.kind)) return null;
  return !current || current.seat !== e.player ? e.player : null;
}

export function account(ctx, seat, events) {
  const lines = [];
  for (const e of events) {
    if (!ACTS.has(e.kind)) continue;
    const line = ctx.renderer.logLine(ctx, e);
    if (line && line.text) lines.push(line.text);
  }
  return lines.join(" ");
}

// A card of a hand the replay shows once the game is over (a slug).
export function cardLabel(ctx, c) {
  return { slug: c, name: t("rn.card." + c) };
}
