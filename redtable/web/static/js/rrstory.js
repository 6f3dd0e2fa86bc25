// Red Rising's turn account: one line per turn, in the log's public words ("Bo deploys Eo on
// Mars and gains Sevro from Luna: Helium +1").
//
// Built only from the events the reader's seat was sent (its view's events), so the line
// tells no more than the log does: a card gained face down stays "a card". The verbs are in
// the present tense, as the log's: in Ukrainian and Polish that needs no agreement with the
// player's gender. A token change is "noun +n", a heading form that needs no case after a
// numeral in any of the three languages.
import { t, list } from "./i18n.js";
import { cardName } from "./rr.js";

const LOCS = ["jupiter", "mars", "luna", "institute"];
const TOKENS = ["fleet", "helium", "influence"];

// A turn starts with the engine's "turn" event (an out-of-order turn too).
export function turnStart(e) {
  return e.kind === "turn" ? e.player : null;
}

function source(s) {
  if (LOCS.includes(s)) return t("rr.location_from." + s);
  const key = "rr.source_from." + s;
  const v = t(key);
  return v === key ? "" : v;
}

// What one event adds to the account of `seat`'s turn: an act (a clause without its subject),
// or null (the event is a detail the log tells).
function act(ctx, e) {
  const C = (s) => (s ? cardName(ctx, s) : t("table.face_down"));
  switch (e.kind) {
    case "deploy": return t("story.rr.deploy", { card: C(e.card), location: t("rr.location_in." + e.location) });
    case "gain":
      if (e.card && !e.face_down) return t("story.rr.gain", { card: C(e.card), source: source(e.source) });
      return t("story.rr.gain_hidden", { source: source(e.source) });
    case "place":
      if (!e.card) return t("story.rr.place_hidden", { location: t("rr.location_in." + e.location) });
      return t("story.rr.place", { card: C(e.card), location: t("rr.location_in." + e.location) });
    case "banish":
      if (e.player === null || e.player === undefined) return null;
      return t("story.rr.banish", { card: C(e.card) });
    case "block": return t("story.rr.block", { other: ctx.name(e.against), card: C(e.card) });
    case "sovereign": return t("story.rr.sovereign");
    case "steal": return t("story.rr.steal", { other: ctx.name(e.victim) });
    case "move": return e.card ? t("story.rr.move", { card: C(e.card), location: t("rr.location_to." + e.location) }) : null;
    default: return null;
  }
}

const tidy = (s) => s.replace(/ +([.,:)])/g, "$1").replace(/ {2,}/g, " ").trim();

// The account of one turn: `seat` took it; `events` are the turn's events as the reader saw them.
export function account(ctx, seat, events) {
  const acts = [];      // the turn seat's own acts, in order
  const others = [];    // what another seat did within the turn (a block, say)
  const delta = {};
  for (const e of events) {
    const a = act(ctx, e);
    if (a) {
      if (e.player === seat || e.player === undefined) acts.push(a);
      else others.push(t("story.other", { player: ctx.name(e.player), act: a }));
    }
    if (TOKENS.includes(e.kind) && e.player === seat && typeof e.delta === "number") delta[e.kind] = (delta[e.kind] || 0) + e.delta;
  }
  let line = acts.length ? t("story.line", { player: ctx.name(seat), acts: list(acts) }) : t("story.line_none", { player: ctx.name(seat) });
  const changes = TOKENS.filter((k) => delta[k]).map((k) => t("story.rr.token", { token: t("rr." + k), n: (delta[k] > 0 ? "+" : "−") + Math.abs(delta[k]) }));
  if (changes.length) line = t("story.with_tokens", { line, tokens: changes.join(", ") });
  if (others.length) line = line + "; " + others.join("; ");
  return tidy(line);
}

// A card of a hand the replay shows once the game is over (the view's own-hand entry).
export function cardLabel(ctx, c) {
  return c && c.card ? { slug: c.card, name: cardName(ctx, c.card) } : { slug: "facedown", name: t("table.face_down") };
}
