// Red Rising: the table, how each decision maps onto it, the log and the scorepad.
import { h, icon, isTouch } from "./dom.js";
import { t, list, has, currentLang } from "./i18n.js";
import { scoreChart } from "./chart.js";
import { scorepadTable } from "./scorepad.js";

const LOCS = ["jupiter", "mars", "luna", "institute"];
const LOC_ICON = { jupiter: "fleet", mars: "helium", luna: "crown", institute: "influence" };
// Six houses, six colours a person tells apart: every pair, and each against the score chart's
// Sovereignty colour, at least 20 apart in CIEDE2000 (tests/web/test_web_look.py measures it).
export const HOUSE_COLORS = {
  apollo: "#e8b931", ceres: "#4fae4f", diana: "#a45de0", jupiter: "#3f8ae6", mars: "#d8453a", minerva: "#ff8fb8",
};
const ROWS = ["cards", "fleet", "helium", "sovereignty", "influence", "excess_cards", "total"];
const EN_GRAY = "You may treat this card as if it is any one other color (in addition to Gray).";
const EN_ORANGE = "You may treat this card as having the same name as any specific character.";
const EN_BLOCK = "When an opponent tries to steal or banish your cards, reveal this to block them.";

// ---------------------------------------------------------------------- card facts
function entries(ctx) {
  const g = ctx.cards;
  if (!g) return {};
  if (!g._by) g._by = Object.fromEntries(g.cards.map((c) => [c.card, c]));
  return g._by;
}

export function cardName(ctx, slug) {
  const e = entries(ctx)[slug];  // the server's gallery is in the page's language
  if (e) return e.name;
  return has("rr.cardname." + slug) && currentLang() !== "en" ? t("rr.cardname." + slug) : slug;
}

function colorName(c) { return t("rr.color." + c); }
function locName(l) { return t("rr.location." + l); }
function houseName(hs) { return t("rr.house." + hs); }
function houseFull(hs) { return t("rr.house_full." + hs); }

// A prompt that names the gesture: "tap" on a touch screen, "click" elsewhere.
function tk(key, params) { return t(isTouch() && has(key + "_touch") ? key + "_touch" : key, params); }

function localText(s) {
  if (!s || currentLang() === "en") return s;
  return s.replace(EN_GRAY, t("rr.gray_text")).replace(EN_ORANGE, t("rr.orange_text")).replace(EN_BLOCK, t("rr.block_text"));
}

// A card as it lies: size "full" (all text), "strip" (covered in a pile), "mini" (a chip).
// Its name and caste wrap rather than being cut (Polish names are long); the rules text is
// clamped on the table and whole in the inspector or the sheet a tap opens.
function cardEl(ctx, c, opts = {}) {
  const size = opts.size || "full";
  if (!c || c.face_down && !c.card) {
    return h("div.rcard.back." + size, {
      "data-target": opts.target, "data-key": opts.key || opts.target, "data-card": "facedown",
      role: size === "mini" ? "img" : null, "aria-label": size === "mini" ? t("table.face_down") : null,
    }, h("span.rc-back-mark", { "aria-hidden": "true" }), size !== "mini" ? h("span.rc-name", null, t("table.face_down")) : null);
  }
  const slug = typeof c === "string" ? c : c.card;
  const e = entries(ctx)[slug] || { name: slug, color: c.color || "gray", value: c.value ?? "?" };
  const faceDown = typeof c === "object" && c.face_down;
  const fdMark = faceDown && size !== "full"
    ? h("span.fd-mark", { title: t("table.face_down") }, icon("eye"), h("span.sr", null, t("table.face_down"))) : null;
  const el = h("div.rcard.c-" + e.color + "." + size + (faceDown ? ".fd" : ""), {
    "data-card": slug, "data-target": opts.target, "data-key": opts.key || opts.target || null,
  },
  h("div.rc-top", null,
    h("span.rc-val", null, e.value),
    h("span.rc-name", null, cardName(ctx, slug)),
    size === "mini" ? h("span.sr", null, ", " + colorName(e.color)) : h("span.rc-col", null, colorName(e.color)),
    fdMark),
  size === "full" ? h("div.rc-body", null,
    faceDown ? h("p.fd-tag", null, icon("eye"), t("table.face_down")) : null,
    e.deploy ? h("p.rc-ab.deploy", null, icon("play"), localText(e.deploy)) : null,
    e.end_game_bonus ? h("p.rc-ab.bonus", null, icon("star"), localText(e.end_game_bonus)) : null,
    e.end_of_game ? h("p.rc-ab.eog", null, icon("hourglass"), localText(e.end_of_game)) : null,
    e.block ? h("p.rc-ab.block", null, icon("shield"), localText(e.block)) : null) : null,
  size !== "mini" ? h("span.rc-flags", { "aria-hidden": "true" },
    e.deploy ? h("i.f-deploy", { title: t("rr.deploy_ability") }) : null,
    e.end_game_bonus ? h("i.f-bonus") : null,
    e.end_of_game ? h("i.f-eog") : null,
    e.block ? h("i.f-block") : null) : null);
  return el;
}

function cardDetail(ctx, slug) {
  const e = entries(ctx)[slug];
  if (!e) return null;
  const sec = (cls, title, text) => (text ? h("div.detail-sec." + cls, null, h("h3", null, title), h("p", null, localText(text))) : null);
  return h("div.detail",
    null,
    h("div.detail-card.c-" + e.color, null,
      h("span.rc-val", null, e.value),
      h("div", null, h("strong", null, cardName(ctx, slug)), h("div.muted", null, colorName(e.color)))),
    sec("deploy", t("rr.deploy_ability"), e.deploy),
    sec("bonus", t("rr.end_game_bonus"), e.end_game_bonus),
    sec("eog", t("rr.end_of_game"), e.end_of_game),
    sec("block", t("rr.block"), e.block));
}

// ---------------------------------------------------------------------- pieces of the board
function seatColor(ctx, seat) {
  const p = ctx.view && ctx.view.players && ctx.view.players[seat];
  return p ? HOUSE_COLORS[p.house] : "#888";
}

function playerPanel(ctx, p) {
  const v = ctx.view;
  const d = ctx.decision;
  const seat = ctx.seats && ctx.seats[p.seat];
  const deciding = d && d.player === p.seat;
  const turn = v.current_turn === p.seat;
  return h("div.rr-player" + (ctx.isMe(p.seat) ? ".me" : "") + (turn ? ".turn" : "") + (deciding ? ".deciding" : ""), {
    "data-target": `player:${p.seat}`, "data-key": `player:${p.seat}`, "data-seat": p.seat, "data-card": `house:${p.house}`,
    style: { "--house": HOUSE_COLORS[p.house] },
  },
  h("div.rp-head", null,
    h("span.rp-name", null, ctx.name(p.seat), ctx.isMe(p.seat) ? h("span.badge.you", null, t("seat.you")) : null,
      seat && seat.type === "bot" ? icon("bot", t("lobby.bot")) : null,
      seat && seat.type === "human" && !seat.connected && !ctx.readOnly ? h("span.badge.off", null, t("seat.offline")) : null),
    h("button.rp-house", { type: "button", "data-card": `house:${p.house}`, "data-inspect": `house:${p.house}`, "data-key": `house:${p.seat}` }, houseFull(p.house))),
  h("div.rp-stats", null,
    h("span.stat.hand", { title: t("table.hand_size", { n: p.hand_size }) }, h("span.mini-backs", { "aria-hidden": "true" }, h("i"), h("i")), h("b", null, p.hand_size)),
    h("span.stat.helium", { title: t("rr.helium") }, icon("helium"), h("b", null, p.helium)),
    h("span.stat.fleet", { title: t("rr.fleet") }, icon("fleet"), h("b", null, p.fleet)),
    h("span.stat.influence", { title: t("rr.influence") }, icon("influence"), h("b", null, p.influence))),
  h("div.rp-tokens", null,
    v.first_player === p.seat ? h("span.token.first", { title: t("rr.first_player") }, icon("moon"), h("span.sr", null, t("rr.first_player"))) : null,
    p.sovereign ? h("span.token.sovereign", { title: t("rr.sovereign") }, icon("crown"), h("span", null, t("rr.sovereign"))) : null,
    deciding ? h("span.token.thinking", null, t("seat.thinking")) : null));
}

// A long pile (15-19 cards late in a game) would push the tracks and the hand off the screen:
// from COLLAPSE_FROM cards on it shows its top card, the SHOWN_UNDER cards right under it and
// a "+N cards" button that lists the rest (open piles stay open across re-renders, and a
// pile opens by itself when the decision asks for one of its buried cards).
const COLLAPSE_FROM = 7;
const SHOWN_UNDER = 3;
const openPiles = new Set();

function locationColumn(ctx, loc, aimed) {
  const cards = ctx.view.locations[loc] || [];
  const hidden = cards.length >= COLLAPSE_FROM ? cards.length - 1 - SHOWN_UNDER : 0;
  const pileKey = `${ctx.gameId}:${loc}`;
  const pile = h("div.pile", { "data-count": cards.length });
  const place = (c, i) => cardEl(ctx, c, { size: i === cards.length - 1 ? "full" : "strip", target: `pos:${loc}:${i}`, key: `pos:${loc}:${i}` });
  if (hidden) {
    const buried = [...aimed].some((k) => k.startsWith(`pos:${loc}:`) && +k.split(":")[2] < hidden);
    const open = buried || openPiles.has(pileKey);
    const rest = h("div.pile-rest", { id: `pile-rest-${loc}`, hidden: !open }, cards.slice(0, hidden).map(place));
    const label = (o) => (o ? t("rr.pile_less", { n: hidden }) : t("rr.pile_more", { n: hidden }));
    const more = h("button.pile-more", {
      type: "button", "aria-expanded": String(open), "aria-controls": rest.id, "data-key": `more:${loc}`,
      onclick: () => {
        const now = rest.hidden;
        rest.hidden = !now;
        more.setAttribute("aria-expanded", String(now));
        more.querySelector(".pm-label").textContent = label(now);
        if (now) openPiles.add(pileKey); else openPiles.delete(pileKey);
      },
    }, h("span.pm-label", null, label(open)), h("span.pm-chips", { "aria-hidden": "true" },
      cards.slice(0, hidden).map((c) => h("i.c-" + ((entries(ctx)[c.card] || {}).color || "back")))));
    pile.append(more, rest);
  }
  cards.forEach((c, i) => { if (i >= hidden) pile.append(place(c, i)); });
  if (!cards.length) pile.append(h("div.pile-empty", null, t("table.empty")));
  return h("div.rr-loc.loc-" + loc, { "data-target": `loc:${loc}`, "data-key": `loc:${loc}` },
    h("header.loc-head", { "data-card": `loc:${loc}` },
      h("span.loc-icon", { "aria-hidden": "true" }, icon(LOC_ICON[loc])),
      h("span.loc-name", null, locName(loc)),
      h("span.loc-count", null, cards.length)),
    pile);
}

function fleetTrack(ctx) {
  const v = ctx.view;
  const vp = (ctx.cards && ctx.cards.fleet_vp) || [0, 1, 3, 6, 10, 15, 21, 28, 34, 39, 43];
  return h("section.rr-fleet", { "aria-label": t("rr.fleet_track") },
    h("h3", null, icon("fleet"), " ", t("rr.fleet_track")),
    h("ol.track", null, vp.map((pts, i) => h("li.cell" + (i >= 7 ? ".hot" : ""), null,
      h("span.cell-no", null, i),
      h("span.ships", null, v.players.filter((p) => p.fleet === i).map((p) => h("i.ship", {
        style: { background: HOUSE_COLORS[p.house] }, title: `${ctx.name(p.seat)} — ${houseName(p.house)}`,
      }))),
      h("span.cell-vp", null, pts)))));
}

function institute(ctx) {
  const v = ctx.view;
  const rows = v.players.map((p) => [ctx.name(p.seat), HOUSE_COLORS[p.house], p.influence]);
  if (v.neutral_influence) rows.push([t("seat.neutral"), "#9a9aa6", v.neutral_influence]);
  return h("section.rr-institute", { "aria-label": t("rr.institute_influence") },
    h("h3", null, icon("influence"), " ", t("rr.institute_influence")),
    h("ul.infl", null, rows.map(([name, col, n]) => h("li", null,
      h("span.infl-name", null, name),
      h("span.pips", { style: { "--house": col }, role: "img", "aria-label": String(n) },
        Array.from({ length: 10 }, (_, i) => h("i" + (i < n ? ".on" : "")))),
      h("b", null, n)))));
}

function piles(ctx) {
  const v = ctx.view;
  const holder = v.players.find((p) => p.sovereign);
  return h("section.rr-piles", null,
    h("div.deck", { "data-target": "deck", "data-key": "deck", "data-card": "deck" },
      h("div.deck-stack", { "aria-hidden": "true" }, h("i"), h("i"), h("i")),
      h("div.deck-label", null, h("strong", null, t("rr.deck")), h("span", null, t("rr.deck_cards", { n: v.deck_size })))),
    h("div.sov-spot", { title: t("rr.sovereign") }, icon("crown"),
      h("span", null, holder ? ctx.name(holder.seat) : t("rr.sovereign_free"))),
    h("section.banished", { "aria-label": t("rr.banished") },
      h("h3", null, icon("banish"), " ", t("rr.banished"), h("span.count", null, v.banished.length)),
      v.banished.length
        ? h("div.banished-list", { "data-scroll": "banished", role: "group", tabindex: "0", "aria-label": t("rr.banished") }, v.banished.map((s) => cardEl(ctx, s, { size: "mini", target: `banished:${s}`, key: `banished:${s}` })))
        : h("p.muted.small", null, t("rr.banished_none"))));
}

function myArea(ctx) {
  const v = ctx.view;
  if (ctx.me === null || ctx.me === undefined) return h("section.rr-hand.spectator", null, h("p.muted", null, icon("eye"), " ", t("table.spectating")));
  const me = v.players[ctx.me];
  const hand = me.hand || [];
  return h("section.rr-hand", { "aria-label": t("table.hand"), style: { "--house": HOUSE_COLORS[me.house] } },
    h("header.hand-head", null,
      h("h2", null, t("table.hand"), " ", h("span.count", null, hand.length)),
      h("p.house-line", { "data-card": `house:${me.house}` }, h("strong", null, houseFull(me.house)), " — ", t("rr.house_text." + me.house))),
    h("div.hand-cards", { "data-scroll": "hand", role: "group", tabindex: "0", "aria-label": t("table.hand") }, hand.map((c, i) => cardEl(ctx, c, { size: "full", target: c.card ? `hand:${c.card}` : null, key: `hand:${c.card || i}` }))));
}

// The board keys the pending decision of this seat points at (a buried card opens its pile).
function aimedKeys(ctx) {
  const d = ctx.decision;
  if (!d || !d.options || d.auto || ctx.readOnly || !ctx.isMe(d.player)) return new Set();
  return new Set(targets(ctx, d).board.keys());
}

function board(ctx) {
  const v = ctx.view;
  const aimed = aimedKeys(ctx);
  return h("div.rr-board", null,
    h("div.rr-players", { "data-scroll": "players", "data-n": v.players.length }, v.players.map((p) => playerPanel(ctx, p))),
    v.end_triggered && v.phase === "play" ? h("p.banner.warn", null, t("rr.end_triggered")) : null,
    v.phase === "end_of_game" ? h("p.banner", null, t("rr.phase.end_of_game")) : null,
    h("div.rr-center", null,
      h("div.rr-locations", { "data-scroll": "locs" }, LOCS.map((l) => locationColumn(ctx, l, aimed))),
      piles(ctx)),
    h("div.rr-tracks", null, fleetTrack(ctx), institute(ctx)),
    myArea(ctx));
}

function statusLine(ctx) {
  const v = ctx.view;
  const parts = [];
  if (v.current_turn !== null && v.current_turn !== undefined && v.phase === "play") {
    parts.push(`${ctx.name(v.current_turn)} · ${t("rr.turns", { n: (v.players[v.current_turn].turns || 0) + 1 })}`);
  }
  if (v.phase === "end_of_game") parts.push(t("rr.phase.end_of_game"));
  if (v.variant) parts.push(t("rr.variant"));
  return parts.join(" · ");
}

// ---------------------------------------------------------------------- decisions
function findOnBoard(ctx, slug) {
  const v = ctx.view;
  const me = ctx.me !== null && ctx.me !== undefined ? v.players[ctx.me] : null;
  if (me && (me.hand || []).some((c) => c.card === slug)) return `hand:${slug}`;
  for (const l of LOCS) {
    const i = (v.locations[l] || []).findIndex((c) => c.card === slug);
    if (i >= 0) return `pos:${l}:${i}`;
  }
  if (v.banished.includes(slug)) return `banished:${slug}`;
  return null;
}

function isSlug(ctx, o) { return !!entries(ctx)[o]; }

const PROMPT_KINDS = new Set(["facedown_card", "name_card", "order_under", "bottom_order"]);

function targets(ctx, d) {
  const board = new Map();
  const prompt = [];
  const add = (key, o) => { if (!board.has(key)) board.set(key, []); board.get(key).push(o); };
  for (const o of d.options) {
    let key = null;
    let alsoPrompt = false;
    if (LOCS.includes(o)) key = `loc:${o}`;
    else if (o === "deck") key = "deck";
    else if (o === "scout") { key = "deck"; alsoPrompt = true; }
    else if (/^p\d+$/.test(o)) { key = `player:${o.slice(1)}`; alsoPrompt = true; }
    else if (/^(jupiter|mars|luna|institute):\d+$/.test(o)) key = `pos:${o}`;
    else if (o.startsWith("block:")) { key = `hand:${o.slice(6)}`; alsoPrompt = true; }
    else if (isSlug(ctx, o) && !PROMPT_KINDS.has(d.kind)) key = findOnBoard(ctx, o);
    if (key && d.kind === "die_face") key = null;
    if (key) add(key, o);
    if (!key || alsoPrompt) prompt.push({ options: [o] });
  }
  return { board, prompt };
}

// The words a card's own question carries, in the page's language (the engine renders them
// from the card's encoding, redrising/words.py: "Gain Sevro" / "Don't gain Sevro").
function said(d) {
  const s = ((d && d.context) || {}).say;
  return s ? s[currentLang()] || s.en : null;
}

// "Red or Blue" in the page's language.
function orList(items) {
  try { return new Intl.ListFormat(currentLang(), { style: "long", type: "disjunction" }).format(items.map(String)); }
  catch (e) { return items.join(" / "); }
}

function topName(ctx, l) {
  const pile = ctx.view.locations[l] || [];
  const c = pile[pile.length - 1];
  return c ? (c.card ? cardName(ctx, c.card) : t("table.face_down")) : null;
}

function optionLabel(ctx, d, o) {
  const c = d.context || {};
  const w = said(d);
  if (w && (o === "yes" || o === "no" || o === "none") && w[o]) return w[o];
  if (w && w.options && w.options[o]) return w.options[o];
  if (d.kind === "loan_shark") return o === "yes" ? t("rr.opt.loan_yes") : t("rr.opt.loan_no");
  if (d.kind === "die_face") return t("rr.die." + o);
  if (d.kind === "choose_one" && has("rr.opt." + o)) return t("rr.opt." + o);
  if (LOCS.includes(o)) {
    const top = topName(ctx, o);
    if (d.kind === "gain" && top) return t("rr.opt.gain_loc", { location: locName(o), card: top });
    if (d.kind === "banish_top" && top) return t("rr.opt.banish_loc", { location: locName(o), card: top });
    return locName(o);
  }
  if (o === "none" && d.kind === "facedown_card") return t("rr.opt.none_facedown", { location: t("rr.location_in." + c.location) });
  if (d.kind === "may" && (o === "yes" || o === "no")) return t(o === "yes" ? "rr.opt.may_yes" : "rr.opt.may_no", { card: cardName(ctx, c.card) });
  if (["yes", "no", "none", "scout", "lead", "deck", "top", "bottom"].includes(o)) {
    if (o === "no" && (d.kind === "block" || d.kind === "block_sovereign")) return t("rr.opt.no_block");
    return t("rr.opt." + o);
  }
  if (/^p\d+$/.test(o)) return ctx.name(+o.slice(1));
  if (o.startsWith("block:")) return t("rr.opt.block_with", { card: cardName(ctx, o.slice(6)) });
  let m = o.match(/^(jupiter|mars|luna|institute):(\d+)$/);
  if (m) {
    const x = (ctx.view.locations[m[1]] || [])[+m[2]];
    return `${x && x.card ? cardName(ctx, x.card) : t("table.face_down")} — ${locName(m[1])}`;
  }
  if (has("rr.color." + o) && !isSlug(ctx, o)) return colorName(o);
  if (isSlug(ctx, o)) {
    const e = entries(ctx)[o];
    return `${cardName(ctx, o)} (${colorName(e.color)}, ${e.value})`;
  }
  return o;
}

function optionCard(ctx, d, o) {
  if (isSlug(ctx, o)) return cardEl(ctx, o, { size: "mini" });
  if (has("rr.color." + o) && (d.kind === "choose_color" || d.kind === "name_color")) {
    return h("button.btn.opt.swatch.c-" + o, { type: "button" }, h("i.sw", { "aria-hidden": "true" }), colorName(o));
  }
  return null;
}

function isInterrupt(ctx, d) {
  return ctx.view.current_turn !== d.player &&
    ["block", "block_sovereign", "steal_choice", "reveal", "loan_shark", "banish_from_hand", "choose_one"].includes(d.kind);
}

function promptText(ctx, d) {
  const c = d.context || {};
  const card = c.card ? cardName(ctx, c.card) : "";
  const P = (s) => ctx.name(s);
  const w = said(d);
  switch (d.kind) {
    case "action": return ctx.view.players[ctx.me].hand_size ? tk("rr.prompt.action") : t("rr.prompt.action_empty");
    case "deploy_location": return tk("rr.prompt.deploy_location", { card });
    case "scout_location": return t("rr.prompt.scout_location", { card });
    case "place_location": return t("rr.prompt.place_location", { card: c.placing ? cardName(ctx, c.placing) : card });
    case "move_location": return t("rr.prompt.move_location", { card });
    case "gain": return t("rr.prompt.gain");
    case "banish_top": return t("rr.prompt.banish_top");
    case "banish_from_location": return t("rr.prompt.banish_from_location");
    case "block": return c.card ? t("rr.prompt.block", { player: P(c.attacker), card }) : t("rr.prompt.block_nocard", { player: P(c.attacker) });
    case "block_sovereign": return t("rr.prompt.block_sovereign", { player: P(c.attacker) });
    case "steal_choice": return t("rr.prompt.steal_choice", { player: P(c.thief), card });
    case "reveal": return c.colors && c.colors.length
      ? t("rr.prompt.reveal_colors", { player: P(c.by), card, colors: orList(c.colors.map(colorName)) })
      : t("rr.prompt.reveal", { player: P(c.by), card });
    case "reveal_from_hand": return t("rr.prompt.reveal_from_hand", { card, n: c.left ?? 1 });
    case "name_card": return t("rr.prompt.name_card", { card, player: P(c.target) });
    case "deck_end": return t("rr.prompt.deck_end", { card, placing: cardName(ctx, c.placing) });
    case "facedown_card": return t("rr.prompt.facedown_card", { card, location: t("rr.location_in." + c.location) });
    case "loan_shark": return t("rr.prompt.loan_shark", { player: P(c.lender), card });
    case "choose_one":
      if (c.for !== undefined) return t("rr.prompt.choose_one_for", { player: P(c.for), card });
      return w ? t("rr.prompt.card_text", { card, text: w.text }) : t("rr.prompt.choose_one", { card });
    case "banish_from_hand":
      if (c.attacker !== undefined) return t("rr.prompt.banish_from_hand_attacked", { player: P(c.attacker), card });
      return w ? t("rr.prompt.card_text", { card, text: w.text }) : t("rr.prompt.banish_from_hand", { card });
    case "may": return w ? t("rr.prompt.may", { card, text: w.text }) : t("rr.prompt.may_short", { card });
    case "choose_card": case "choose_banished": case "choose_hand":
      return w ? t("rr.prompt.card_text", { card, text: w.text }) : t("rr.prompt." + d.kind, { card });
    default:
      if (has("rr.prompt." + d.kind)) return t("rr.prompt." + d.kind, { card });
      return t("rr.prompt.generic");
  }
}

function promptCard(ctx, d) {
  const c = d.context || {};
  const slug = c.card || (d.kind === "deploy_location" ? c.card : null);
  if (!slug || !isSlug(ctx, slug)) return null;
  return h("div.prompt-card", null, cardEl(ctx, slug, { size: "full" }));
}

function kindText(ctx, d) {
  return has("rr.kind." + d.kind) ? t("rr.kind." + d.kind) : t("rr.kind.generic");
}

// What the other players read while a seat decides: the decision's kind and its public part
// (the view's decision.about: the asking card when it lies face up, the seats it names),
// never its options.
const ABOUT_CARD = new Set(["deploy_location", "scout_location", "place_location", "move_location", "choose_card", "choose_opponent",
  "choose_one", "choose_color", "name_color", "block", "choose_banished", "order_under", "bottom_order", "reveal",
  "reveal_from_hand", "banish_from_hand", "choose_hand", "facedown_card", "name_card", "deck_end"]);

function waitingText(ctx, d) {
  const vd = (ctx.view && ctx.view.decision) || {};
  const about = (vd.player === d.player && vd.kind === d.kind && vd.about) || {};
  const card = about.card && isSlug(ctx, about.card) ? cardName(ctx, about.card) : null;
  const params = { player: ctx.name(d.player) };
  if (about.location) params.location = t("rr.location_in." + about.location);
  const other = about.thief ?? about.target;
  if (other !== undefined) params.other = ctx.name(other);
  if (d.kind === "may" && card) return t("rr.wait.may_card", { ...params, card });
  const key = has("rr.wait." + d.kind) ? "rr.wait." + d.kind : "rr.wait.generic";
  const text = t(key, params);
  return card && ABOUT_CARD.has(d.kind) ? t("rr.wait.about_card", { text, card }) : text;
}

// ---------------------------------------------------------------------- inspector
function inspect(ctx, key) {
  if (key === "facedown") return h("p.muted", null, t("table.face_down"));
  if (key === "deck") return h("div.detail", null, h("h3", null, t("rr.deck")), h("p", null, t("rr.deck_cards", { n: ctx.view.deck_size })),
    h("ul.die-list", null, ["jupiter", "mars", "luna", "institute", "banish", "place"].map((f) => h("li", null, icon("die"), " ", t("rr.die." + f)))));
  if (key.startsWith("house:")) {
    const hs = key.slice(6);
    return h("div.detail", { style: { "--house": HOUSE_COLORS[hs] } }, h("h3.house-title", null, houseFull(hs)), h("p", null, t("rr.house_text." + hs)));
  }
  if (key.startsWith("loc:")) {
    const l = key.slice(4);
    const cards = (ctx.view.locations[l] || []).slice().reverse();
    return h("div.detail", null, h("h3", null, locName(l)), h("p", null, t("rr.bonus." + l)),
      cards.length ? h("h3", null, t("rr.pile_list", { n: cards.length })) : null,
      cards.length ? h("ol.pile-list", null, cards.map((c) => h("li", null, cardEl(ctx, c, { size: "mini" })))) : null);
  }
  return cardDetail(ctx, key);
}

// ---------------------------------------------------------------------- log
function logLine(ctx, e) {
  const P = (s) => ctx.name(s);
  const C = (s) => (s ? cardName(ctx, s) : t("table.face_down"));
  const src = (s) => (LOCS.includes(s) ? t("rr.location_from." + s) : has("rr.source_from." + s) ? t("rr.source_from." + s) : "");
  const into = (l) => t("rr.location_in." + l);
  const L = (text, cls) => ({ text: text.replace(/ +([.,)])/g, "$1").replace(/ {2,}/g, " "), seat: e.player, cls });
  const colors = (cs) => orList((cs || []).map(colorName));
  switch (e.kind) {
    case "setup": {
      let s = t("rr.log.setup", { n: e.players, player: P(e.first) });
      if (e.neutral_house) s += " " + t("rr.log.setup_neutral", { house: houseFull(e.neutral_house), n: e.neutral_influence });
      return { text: s, cls: "head" };
    }
    case "hand": return L(t("rr.log.hand", { cards: list(e.cards.map(C)) }));
    case "turn": return { text: e.out_of_order ? t("rr.log.turn_extra", { player: P(e.player) }) : t("rr.log.turn", { player: P(e.player), n: e.number }), seat: e.player, cls: "turn" };
    case "lead": return L(e.empty_hand ? t("rr.log.lead_empty", { player: P(e.player) }) : t("rr.log.lead", { player: P(e.player) }));
    case "deploy": return L(e.bottom
      ? t("rr.log.deploy_bottom", { player: P(e.player), card: C(e.card), location: t("rr.location_of." + e.location) })
      : t("rr.log.deploy", { player: P(e.player), card: C(e.card), location: into(e.location) }), "key");
    case "ability": case "ability_effect": return null;
    case "gain":
      if (e.face_down) return L(t("rr.log.gain_facedown", { player: P(e.player), source: src(e.source) }), "key");
      if (e.card) return L(t("rr.log.gain", { player: P(e.player), card: C(e.card), source: src(e.source) }), "key");
      return L(t("rr.log.gain_hidden", { player: P(e.player), source: src(e.source) }), "key");
    case "gain_seen": return L(t("rr.log.gain_seen", { card: C(e.card), source: src(e.source) }));
    case "bonus": return L(t("rr.log.bonus", { player: P(e.player), location: t("rr.location_of." + e.location) }));
    case "fleet": return L(t(e.delta > 0 ? "rr.log.fleet_up" : "rr.log.fleet_down", { player: P(e.player), n: e.fleet }));
    case "helium": return L(t(e.delta > 0 ? "rr.log.helium_up" : "rr.log.helium_down", { player: P(e.player), n: Math.abs(e.delta), total: e.helium }));
    case "influence": return L(t(e.delta > 0 ? "rr.log.influence_up" : "rr.log.influence_down", { player: P(e.player), n: Math.abs(e.delta), total: e.influence }));
    case "sovereign": return L(e.taken_from !== null && e.taken_from !== undefined ? t("rr.log.sovereign_from", { player: P(e.player), other: P(e.taken_from) }) : t("rr.log.sovereign", { player: P(e.player) }), "key");
    case "house_ability": return L(t("rr.log.house_ability", { house: houseFull(e.house) }));
    case "die": return L(t("rr.log.die", { player: P(e.player), face: t("rr.die." + e.face) }));
    case "place": {
      let s;
      if (!e.card) s = t("rr.log.place_hidden", { player: P(e.player), location: into(e.location) });
      else if (e.bottom) s = t("rr.log.place_bottom", { player: P(e.player), card: C(e.card), location: t("rr.location_of." + e.location) });
      else s = t("rr.log.place", { player: P(e.player), card: C(e.card), location: into(e.location) });
      if (e.under) s = s.replace(/\.$/, "") + " " + t("rr.log.under", { card: C(e.under) }) + ".";
      return L(s);
    }
    case "reveal":
      if (e.source === "deck") return { text: t("rr.log.reveal_deck", { card: C(e.card) }), seat: e.by ?? e.player };
      if (e.source === "deck_bottom") return { text: t("rr.log.reveal_deck_bottom", { card: C(e.card) }), seat: e.by ?? e.player };
      return L(t("rr.log.reveal_hand", { player: P(e.player), card: C(e.card) }));
    case "banish":
      if (e.player === null || e.player === undefined) return L(t("rr.log.banish", { card: C(e.card), source: src(e.source) }));
      if (e.source === "block") return L(t("rr.log.banish_block", { player: P(e.player), card: C(e.card) }));
      return L(t("rr.log.banish_by", { player: P(e.player), card: C(e.card), source: src(e.source) }));
    case "block": return L(t(e.attempt === "take_sovereign" ? "rr.log.block_sovereign" : "rr.log.block", { player: P(e.player), other: P(e.against), card: C(e.card) }), "key");
    case "steal": return L(t("rr.log.steal", { player: P(e.player), other: P(e.victim), card: C(e.card_by) }));
    case "steal_seen": return L(t("rr.log.steal_seen", { player: P(e.player), other: P(e.victim), card: C(e.card) }));
    case "give": return L(t("rr.log.give", { player: P(e.player), other: P(e.to_player), card: C(e.card), source: src(e.source) }));
    case "move": {
      let s = e.card
        ? t("rr.log.move", { player: P(e.player), card: C(e.card), source: src(e.source), location: t("rr.location_to." + e.location) })
        : t("rr.log.move_hidden", { player: P(e.player), source: src(e.source), location: t("rr.location_to." + e.location) });
      if (e.under) s = s.replace(/\.$/, "") + " " + t("rr.log.under", { card: C(e.under) }) + ".";
      else if (e.over) s = s.replace(/\.$/, "") + " " + t("rr.log.onto", { card: C(e.over) }) + ".";
      return L(s);
    }
    case "to_deck": return L(t(e.end === "top" ? "rr.log.to_deck_top" : "rr.log.to_deck_bottom", { player: P(e.player), card: C(e.card) }));
    case "deck_bottom": return L(t("rr.log.deck_bottom", { player: P(e.player), card: C(e.card) }));
    case "return_to_deck": return L(t(e.shuffled ? "rr.log.return_to_deck_shuffled" : "rr.log.return_to_deck", { player: P(e.player), n: e.count }));
    case "look": return L(t("rr.log.look", { player: P(e.player), n: e.count }));
    case "look_seen": return L(t("rr.log.look_seen", { cards: list(e.cards.map(C)) }));
    case "look_hand": return L(t("rr.log.look_hand", { player: P(e.player), other: P(e.target) }));
    case "hand_seen": return L(t("rr.log.hand_seen", { other: P(e.target), cards: list(e.cards.map(C)) }));
    case "name_card": return L(t("rr.log.name_card", { player: P(e.player), other: P(e.target), card: C(e.card) }));
    case "name_color": return L(t("rr.log.name_color", { player: P(e.player), color: colorName(e.color), card: C(e.card) }));
    case "random_pick": return L(t("rr.log.random_pick", { player: P(e.player), other: P(e.target) }));
    case "random_pick_seen": return L(t("rr.log.random_pick_seen", { card: C(e.card) }));
    case "random_banished": return L(t("rr.log.random_banished", { player: P(e.player), card: C(e.card) }));
    case "points": return L(t("rr.log.points", { player: P(e.player), n: e.points, card: C(e.card) }));
    case "chose": return L(t("rr.log.chose", { player: P(e.player), option: has("rr.opt." + e.option) ? t("rr.opt." + e.option) : e.option, card: C(e.card) }));
    case "count": return L(t("rr.log.count", { player: P(e.player), n: e.count, colors: colors(e.colors), location: t("rr.location_at." + e.location) }));
    case "cannot_reveal": return L(t("rr.log.cannot_reveal", { player: P(e.player), colors: colors(e.colors), card: C(e.card) }));
    case "not_found": return L(t("rr.log.not_found", { colors: colors(e.colors), card: C(e.card) }));
    case "loan_shark":
      if (e.out_of_order_turn) return L(t("rr.log.loan_shark_paid", { player: P(e.player), lender: P(e.lender) }));
      return L(t(e.paid ? "rr.log.loan_shark" : "rr.log.loan_shark_none", { player: P(e.player), lender: P(e.lender), n: e.paid }));
    case "steal_helium": return L(t("rr.log.steal_helium", { player: P(e.player), other: P(e.victim), card: C(e.card) }));
    case "end_turn": return L(t("rr.log.end_turn", { player: P(e.player), card: C(e.card) }));
    case "nothing_to_gain": return L(t("rr.log.nothing_to_gain", { player: P(e.player) }));
    case "end_triggered": return { text: t("rr.log.end_triggered"), cls: "head" };
    case "apollo_last_turn": return L(t("rr.log.apollo_last_turn", { player: P(e.player) }), "head");
    case "game_end": return { text: t("rr.log.game_end"), cls: "head" };
    case "end_of_game_ability": return L(t("rr.log.end_of_game_ability", { player: P(e.player), card: C(e.card) }));
    case "scores": return { text: t("rr.log.scores", { scores: e.totals.map((s, i) => `${P(i)} ${s}`).join(", ") }), cls: "head" };
    default: return L(`${e.player !== undefined ? P(e.player) + ": " : ""}${e.kind.replace(/_/g, " ")}`);
  }
}

// ---------------------------------------------------------------------- end screen
function endScreen(ctx) {
  const v = ctx.view;
  const scores = v.scores || [];
  const winners = v.winners || (ctx.result && ctx.result.winners) || [];
  const names = v.players.map((p) => ctx.name(p.seat));
  const wrap = h("div.end-body");
  wrap.append(h("p.winner", null, winners.length === 1
    ? t("end.winner", { player: names[winners[0]] })
    : t("end.winners", { players: list(winners.map((w) => names[w])) })));
  if (scores.length) {
    wrap.append(h("div.end-grid", null,
      h("section", null, h("h2", null, t("end.scorepad")),
        scorepadTable({  // every column fits, also 6 players on a phone (scorepad.js)
          columns: v.players.map((p) => ({ name: names[p.seat], sub: houseName(p.house), color: HOUSE_COLORS[p.house], win: winners.includes(p.seat) })),
          rows: ROWS.map((r) => ({ key: r, label: t("rr.row." + r), short: t("rr.row_short." + r), values: scores.map((s) => s[r]) })),
        })),
      h("section", null, h("h2", null, t("end.chart")),
        scoreChart(names, scores.map((s) => ROWS.slice(0, -1).map((r) => s[r])), ROWS.slice(0, -1).map((r) => t("rr.row." + r)), v.players.map((p) => HOUSE_COLORS[p.house])))));
  }
  const hands = ctx.final && ctx.final.hands;
  if (hands && hands.length) {
    wrap.append(h("section.final-hands", null, h("h2", null, t("end.final_hands")),
      hands.map((hand, i) => {
        const ch = (ctx.final.choices || [])[i] || {};
        const notes = [
          ...Object.entries(ch.as_color || {}).map(([c, col]) => t("end.as_color", { card: cardName(ctx, c), color: colorName(col) })),
          ...Object.entries(ch.as_name || {}).map(([c, n]) => t("end.as_name", { card: cardName(ctx, c), name: cardName(ctx, n) })),
        ];
        return h("div.final-hand", { style: { "--house": HOUSE_COLORS[v.players[i].house] } },
          h("h3", null, names[i], h("small", null, houseName(v.players[i].house))),
          h("div.final-cards", null, hand.map((c) => h("div.final-card", null, cardEl(ctx, c.card, { size: "mini" }), h("span.pts", null, c.points ?? "")))),
          notes.length ? h("p.muted.small", null, t("end.choices"), ": ", notes.join("; ")) : null);
      })));
  }
  return wrap;
}

export default {
  board, statusLine, targets, optionLabel, optionCard, promptText, promptCard, kindText, waitingText, isInterrupt, inspect, logLine,
  endScreen, seatColor,
};
