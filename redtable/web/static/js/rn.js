// Red North: the table, how each decision maps onto it, the log and the final tally.
import { h, icon, isTouch } from "./dom.js";
import { t, list, has } from "./i18n.js";
import { lineChart } from "./chart.js";
import { scorepadTable } from "./scorepad.js";

const SEAT_COLORS = ["#e05a47", "#4f9de0", "#e6b83c", "#61b86a"];
const ROUNDS = ["spring", "summer", "ragnarok"];

function kindOf(slug) {
  if (!slug) return { type: "back" };
  if (slug === "jarl") return { type: "jarl", colour: "jarl" };
  const [type, colour] = slug.split("-");
  return { type, colour };
}

// A card's name; in the accusative ("acc") or instrumental ("ins") where the sentence's verb or
// preposition takes it: «додає жовтого рейдера», «між жовтим рейдером і ярлом», «dokłada
// Czerwonego Najeźdźcę» (the engine's kind_name declines them; English does not decline).
function cardName(slug, cas) {
  const k = cas ? `rn.card_${cas}.${slug}` : null;
  return k && has(k) ? t(k) : t("rn.card." + slug);
}
// A prompt that names the gesture: "tap" on a touch screen, "click" elsewhere.
function tk(key, params) { return t(isTouch() && has(key + "_touch") ? key + "_touch" : key, params); }
// Gods' and Outposts' names and texts, and the cards' rules texts, come from the cards endpoint
// (rendered by the engine's own tables in the page's language): each text exists once per
// language, in the rules package, and the board, the rules page, the guide and the terminal agree.
let gallery = null;
function know(ctx) { if (ctx && ctx.cards && ctx.cards.gods) gallery = ctx.cards; }
function godEntry(g) { return gallery ? gallery.gods.find((x) => x.god === g) : null; }
function outpostEntry(c) { return gallery ? gallery.outposts.find((x) => x.colour === c) : null; }
function godName(g) { const e = godEntry(g); return e ? e.name : t("rn.god." + g); }
function godAcc(g) { const e = godEntry(g); return e ? e.name_acc || e.name : t("rn.god." + g); }
function godText(g) { const e = godEntry(g); return e ? e.text : ""; }
function outpostName(c, fallback) { const e = outpostEntry(c); return e ? e.name : fallback || c; }
function outpostText(c) { const e = outpostEntry(c); return e ? e.text : ""; }
function cardText(slug) { const e = gallery ? gallery.kinds.find((x) => x.card === slug) : null; return e ? e.text : ""; }
function colourName(c) { return t("rn.colour." + c); }

function groupName(g) {
  return g.startsWith("hero-") ? cardName(g) : godName(g);
}

// A card: a kind slug, or null for a face-down card of another player. Its colour is on top
// and its kind (Raider, Hero) at the bottom, each wrapping rather than being cut.
function ncard(slug, opts = {}) {
  const k = kindOf(slug);
  const cls = ["ncard", k.type, "k-" + (k.colour || "back")];
  if (opts.small) cls.push("small");
  if (opts.downOwn) cls.push("down-own");
  const pts = k.type === "raider" ? 2 : k.type === "hero" ? 4 : k.type === "jarl" ? "+1" : "?";
  const el = h("div." + cls.join("."), {
    "data-card": slug || "back", "data-target": opts.target, "data-key": opts.key || opts.target,
    role: slug ? null : "img", "aria-label": slug ? null : t("table.face_down"),
  },
  h("span.n-type", null, slug ? (k.type === "jarl" ? t("rn.card.jarl") : colourName(k.colour)) : ""),
  opts.downOwn ? h("span.n-down", null, t("rn.face_down")) : null,
  h("span.n-pts", null, slug ? pts : icon("axe")),
  slug && k.type !== "jarl" ? h("span.n-name", null, t("rn.type." + k.type)) : null,
  opts.champion ? h("span.champ-mark", { title: t("rn.champion") }, icon("shield")) : null,
  opts.glory ? h("span.glory-tokens", { title: `${t("rn.glory")} ×${opts.glory}` }, Array.from({ length: opts.glory }, () => h("i"))) : null);
  return el;
}

function godCard(g, opts = {}) {
  return h("div.ncard.god" + (opts.invoked ? ".invoked" : ""), {
    "data-card": "god:" + g, "data-target": opts.target, "data-key": opts.key || opts.target,
  }, h("span.n-type", null, t("rn.god_card") + (opts.invoked ? ` · ${t("rn.invoked")}` : "")), h("span.n-pts", null, godName(g)));
}

function seatColor(ctx, seat) { return SEAT_COLORS[seat % SEAT_COLORS.length]; }

// ---------------------------------------------------------------------- the board
function roundsBar(ctx) {
  const v = ctx.view;
  return h("div.rounds", { role: "group", "aria-label": t("rn.round." + v.round_name) }, ROUNDS.map((r, i) => h("div.round" + (v.round === i + 1 ? ".now" : v.round > i + 1 ? ".done" : ""), null,
    h("strong", null, t("rn.round." + r)), h("span.small", null, t("rn.round_vp", { n: i + 1 })))));
}

function outposts(ctx) {
  know(ctx);
  return h("div.outposts", { role: "group", "aria-label": t("rn.outposts") }, ctx.view.outposts.map((o) => h("div.outpost.o-" + o.colour, {
    "data-card": "outpost:" + o.colour, "data-key": "outpost:" + o.colour, tabindex: "0",
  },
  h("span.o-name", null, outpostName(o.colour, o.name)),
  h("span.o-pts", null, colourName(o.colour), " · ", t("rn.outpost_points", { n: o.points })),
  h("span.o-holder", null, o.controller !== null && o.controller !== undefined
    ? [h("span.seat-dot", { style: { background: seatColor(ctx, o.controller) } }), t("rn.controlled_by", { player: ctx.name(o.controller) })]
    : h("span.muted", null, t("rn.uncontrolled"))))));
}

function muster(ctx) {
  const v = ctx.view;
  if (!v.muster.length) return h("section.muster-wrap", null, h("h3.rn-section-title", null, t("rn.muster")), h("p.muted", null, t("rn.muster_none")));
  return h("section.muster-wrap", null, h("h3.rn-section-title", null, t("rn.muster")),
    h("div.muster", null, v.muster.map((g) => h("div.mgroup", { "data-target": "muster:" + g.group, "data-key": "muster:" + g.group },
      g.top.type === "god" ? godCard(g.top.slug) : h("div.mcards", null, ncard(g.top.slug, { small: true })),
      h("div.mcards", null, g.cards.map((c) => ncard(c, { small: true })))))));
}

function piles(ctx) {
  const v = ctx.view;
  const counts = {};
  for (const c of v.discard) counts[c] = (counts[c] || 0) + 1;
  return h("div.rn-piles", null,
    h("div.rn-pile", null, h("h3.rn-section-title", null, icon("deck"), " ", t("rn.deck")), h("strong", null, v.deck_size)),
    h("div.rn-pile", { role: "group", "aria-label": t("rn.discard") }, h("h3.rn-section-title", null, t("rn.discard")),
      v.discard.length ? h("div.discard-list", null, Object.entries(counts).map(([c, n]) => h("span.dchip.k-" + (kindOf(c).colour), { "data-card": c }, `${cardName(c)} ×${n}`)))
        : h("span.muted.small", null, t("rn.discard_none"))),
    v.set_aside_hero ? h("div.rn-pile", null, h("h3.rn-section-title", null, t("rn.set_aside")), ncard(v.set_aside_hero, { small: true })) : null);
}

function seatRow(ctx, s) {
  const v = ctx.view;
  const seat = ctx.seats && ctx.seats[s.seat];
  const d = ctx.decision;
  const deciding = d && d.player === s.seat && v.phase !== "over";
  const own = ctx.isMe(s.seat);
  return h("div.rn-seat" + (own ? ".me" : "") + (deciding ? ".turn" : ""), {
    "data-target": `player:${s.seat}`, "data-key": `player:${s.seat}`, "data-seat": s.seat, style: { "--seat": seatColor(ctx, s.seat) },
  },
  h("div.rs-info", null,
    h("div.rs-name", null, h("span.seat-dot", { style: { background: seatColor(ctx, s.seat) } }), ctx.name(s.seat),
      own ? h("span.badge.you", null, t("seat.you")) : null,
      seat && seat.type === "bot" ? icon("bot", t("lobby.bot")) : null,
      seat && seat.type === "human" && !seat.connected && !ctx.readOnly ? h("span.badge.off", null, t("seat.offline")) : null,
      s.passed ? h("span.badge", null, t("rn.passed")) : null),
    h("div.rs-stats", null,
      h("span.stat.vp", { title: t("rn.vp") }, h("span", null, s.vp), " ", h("small.muted", null, t("rn.vp"))),
      h("span.stat.glory", { title: t("rn.glory") }, icon("glory"), h("b", null, s.glory)),
      h("span.stat.hand", { title: t("table.hand_size", { n: s.hand_size }) }, h("span.mini-backs", { "aria-hidden": "true" }, h("i"), h("i")), h("b", null, s.hand_size))),
    h("div.rp-tokens", null,
      v.first_player === s.seat ? h("span.token.first", null, icon("moon"), t("rn.first_player")) : null,
      v.tie_breaker === s.seat ? h("span.token.tie", null, icon("tie"), t("rn.tie_breaker")) : null,
      v.champion && v.champion.holder === s.seat ? h("span.token.champ", null, icon("shield"), v.champion.placed ? t("rn.champion_placed") : t("rn.champion")) : null,
      deciding ? h("span.token.thinking", null, t("seat.thinking")) : null),
    s.god ? godCard(s.god, { invoked: s.invoked, target: `god:${s.seat}` }) : null),
  h("div.rs-party", { role: "group", tabindex: "0", "aria-label": t("rn.party"), "data-scroll": "party" + s.seat },
    s.party.length ? s.party.map((slot, i) => ncard(slot.card, {
      target: `slot:${s.seat}:${i}`, key: `slot:${s.seat}:${i}`, glory: slot.glory, champion: slot.champion,
      downOwn: !slot.face_up && !!slot.card,
    })) : h("span.party-empty", null, t("rn.party_empty"))));
}

function myHand(ctx) {
  if (ctx.me === null || ctx.me === undefined) return h("section.rn-hand.spectator", null, h("p.muted", null, icon("eye"), " ", t("table.spectating")));
  const s = ctx.view.seats[ctx.me];
  const hand = s.hand || [];
  return h("section.rn-hand", { "aria-label": t("table.hand") },
    h("header.hand-head", null, h("h2", null, t("table.hand"), " ", h("span.count", null, hand.length))),
    h("div.hand-cards", { "data-scroll": "hand", role: "group", tabindex: "0", "aria-label": t("table.hand") }, hand.map((c, i) => ncard(c, { target: `hand:${c}`, key: `hand:${c}:${i}` }))));
}

function resolutionPanel(ctx, rep, open) {
  const v = ctx.view;
  const n = v.players;
  const colours = Object.keys(rep.raid_points);
  const title = t("rn.resolution", { round: t("rn.round." + ROUNDS[rep.round - 1]) });
  return h("details.resolution", { open: open ? true : null },
    h("summary", null, title),
    // (a table wider than a phone scrolls: the keyboard reaches it too)
    h("div.table-scroll", { tabindex: "0", role: "region", "aria-label": title }, h("table.resolution-table", null,
      h("thead", null, h("tr", null, h("th", null, t("rn.raid_points")), Array.from({ length: n }, (_, p) => h("th", null, h("span.seat-dot", { style: { background: seatColor(ctx, p) } }), " ", ctx.name(p))), h("th", null, t("rn.outposts")))),
      h("tbody", null, colours.map((c) => {
        const pts = rep.raid_points[c];
        const o = rep.outposts[c] || {};
        const best = Math.max(...pts);
        return h("tr", null, h("th.k-" + c, null, colourName(c)),
          pts.map((x) => h("td" + (x === best && x > 0 ? ".best" : ""), null, x)),
          h("td", null, o.controller !== null && o.controller !== undefined ? ctx.name(o.controller) : t("rn.uncontrolled"),
            o.decided_by ? h("small.muted", null, " (", has("rn.decided." + o.decided_by) ? t("rn.decided." + o.decided_by) : o.decided_by, ")") : null));
      }),
      h("tr", null, h("th", null, t("rn.vp")), rep.vp.map((x) => h("td", null, "+" + x)), h("td")),
      h("tr", null, h("th", null, t("rn.glory")), rep.glory.map((x) => h("td", null, "+" + x)), h("td"))))));
}

function board(ctx) {
  know(ctx);
  const v = ctx.view;
  const last = v.resolutions && v.resolutions.length ? v.resolutions[v.resolutions.length - 1] : null;
  return h("div.rn-board", null,
    h("div.rn-top", null, roundsBar(ctx), outposts(ctx)),
    h("div.rn-mid", null, muster(ctx), piles(ctx)),
    h("div.rn-seats", null, v.seats.map((s) => seatRow(ctx, s))),
    myHand(ctx),
    last ? resolutionPanel(ctx, last, v.phase === "deploy" && v.round === last.round + 1 || v.phase === "over") : null);
}

function statusLine(ctx) {
  const v = ctx.view;
  return `${t("rn.round." + v.round_name)} · ${t("rn.phase." + v.phase)}`;
}

// ---------------------------------------------------------------------- decisions
function partyLen(ctx, seat) { return ctx.view.seats[seat].party.length; }

function targets(ctx, d) {
  const board = new Map();
  const prompt = [];
  const me = ctx.me;
  const add = (key, o) => { if (!board.has(key)) board.set(key, []); board.get(key).push(o); };
  const groups = new Map();
  for (const o of d.options) {
    let m;
    if (d.kind === "deploy") add(`hand:${o}`, o);
    else if (d.kind === "turn") {
      if ((m = o.match(/^(withdraw|reinforce|inspire|promote):(\d+)$/))) add(`slot:${me}:${m[2]}`, o);
      else if (o.startsWith("invoke:")) { add(`god:${me}`, o); prompt.push({ options: [o] }); }
      else if (o.startsWith("pass:")) add(`muster:${o.slice(5)}`, o);
      else prompt.push({ options: [o] });
    } else if (d.kind === "reinforce") {
      const [card] = o.split(":");
      add(`hand:${card}`, o);
    } else if (d.kind === "loki") add(`slot:${me}:${o.slice(5)}`, o);
    else if (d.kind === "saga") add(`slot:${d.context.opponent}:${o.slice(5)}`, o);
    else if (d.kind === "angleland") {
      if (o.startsWith("give:")) add(`player:${o.slice(5)}`, o);
      prompt.push({ options: [o] });
    } else if ((d.kind === "sax" || d.kind === "hel") && o.includes(":")) {
      const [card] = o.split(":");
      if (!groups.has(card)) groups.set(card, []);
      groups.get(card).push(o);
    } else prompt.push({ options: [o] });
  }
  for (const [card, opts] of groups) prompt.push({ options: opts, label: cardName(card), card: ncard(card, { small: true }) });
  return { board, prompt };
}

function endLabel(e) { return e === "left" ? t("rn.opt.left") : t("rn.opt.right"); }

function optionLabel(ctx, d, o) {
  know(ctx);
  let m;
  if (o === "keep") return t("rn.opt.keep");
  if (o === "skip") return t("rn.opt.skip");
  if (o === "pass") return t("rn.opt.pass");
  if (o === "left" || o === "right") return endLabel(o);
  if ((m = o.match(/^give:(\d+)$/))) return t("rn.opt.give", { player: ctx.name(+m[1]) });
  if ((m = o.match(/^(withdraw|reinforce|inspire|promote):(\d+)$/))) return `${t("rn.action." + m[1])} — ${t("rn.help." + m[1])}`;
  if (o.startsWith("invoke:")) return t("rn.opt.invoke", { god: godAcc(o.slice(7)) });
  if (o.startsWith("pass:")) return t("rn.opt.pass_group", { group: groupName(o.slice(5)) });
  if ((m = o.match(/^slot:(\d+)$/))) {
    const seat = d.kind === "saga" ? d.context.opponent : ctx.me;
    const slot = ctx.view.seats[seat].party[+m[1]];
    return `${slot && slot.card ? cardName(slot.card) : t("table.face_down")} (${t("rn.slot", { n: +m[1] + 1 })})`;
  }
  if ((m = o.match(/^([a-z-]+):(left|right)$/))) return t("rn.opt.at_end", { card: cardName(m[1]), end: endLabel(m[2]) });
  if ((m = o.match(/^([a-z-]+):(\d+)$/))) {
    const pos = +m[2];
    const party = ctx.view.seats[ctx.me].party;
    const nm = (s) => (s && s.card ? cardName(s.card, "ins") : t("rn.face_down_ins"));
    if (pos === 0) return `${cardName(m[1])} — ${t("rn.opt.pos_left")}`;
    if (pos >= party.length) return `${cardName(m[1])} — ${t("rn.opt.pos_right")}`;
    return `${cardName(m[1])} — ${t("rn.opt.pos_between", { a: nm(party[pos - 1]), b: nm(party[pos]) })}`;
  }
  if (has("rn.card." + o)) return cardName(o);
  return o;
}

function promptText(ctx, d) {
  know(ctx);
  const c = d.context || {};
  switch (d.kind) {
    case "deploy": return tk("rn.prompt.deploy", { n: (c.placed || 0) + 1 });
    case "turn": return ctx.view.round === 3 ? tk("rn.prompt.turn_ragnarok") : tk("rn.prompt.turn");
    case "reinforce": return tk("rn.prompt.reinforce");
    case "loki": return t("rn.prompt.loki", { n: c.glory_left ?? "" });
    case "freya": return t("rn.prompt.freya", { card: c.card ? cardName(c.card, "acc") : t("table.face_down") });
    case "saga": return t("rn.prompt.saga", { player: ctx.name(c.opponent) });
    default: return has("rn.prompt." + d.kind) ? t("rn.prompt." + d.kind) : t("rr.prompt.generic");
  }
}

function promptCard(ctx, d) {
  const c = d.context || {};
  if (d.kind === "freya" && c.card) return h("div.prompt-card", null, ncard(c.card));
  return null;
}

function kindText(ctx, d) {
  return has("rn.kind." + d.kind) ? t("rn.kind." + d.kind) : t("rn.kind.generic");
}

// What the other players read while a seat decides: the kind and the view's public "pending"
// part (whose Party Saga turns up), never the options or a drawn card.
function waitingText(ctx, d) {
  know(ctx);
  const pend = (ctx.view && ctx.view.pending) || {};
  const params = { player: ctx.name(d.player) };
  if (d.kind === "saga") {
    if (!pend.opponents || !pend.opponents.length) return t("rn.wait.generic", params);
    params.other = ctx.name(pend.opponents[0]);
  }
  return t(has("rn.wait." + d.kind) ? "rn.wait." + d.kind : "rn.wait.generic", params);
}

// ---------------------------------------------------------------------- inspector
function inspect(ctx, key) {
  know(ctx);
  if (key === "back") return h("p.muted", null, t("table.face_down"));
  if (key.startsWith("god:")) {
    const g = key.slice(4);
    return h("div.detail", null, h("div.detail-card.god-card", null, h("strong", null, godName(g)), h("div.muted", null, t("rn.god_card"))), h("p", null, godText(g)));
  }
  if (key.startsWith("outpost:")) {
    const c = key.slice(8);
    const o = ctx.view.outposts.find((x) => x.colour === c);
    return h("div.detail", null, h("div.detail-card.outpost-card.o-" + c, null, h("strong", null, outpostName(c, o && o.name)), h("div.muted", null, colourName(c), o ? ` · ${t("rn.outpost_points", { n: o.points })}` : "")),
      h("p", null, outpostText(c)),
      o ? h("p.muted", null, o.controller !== null && o.controller !== undefined ? t("rn.controlled_by", { player: ctx.name(o.controller) }) : t("rn.uncontrolled")) : null);
  }
  if (!has("rn.card." + key)) return null;
  return h("div.detail", null, h("div.detail-row", null, ncard(key), h("div", null, h("strong", null, cardName(key)), h("p", null, cardText(key)))));
}

// ---------------------------------------------------------------------- log
function logLine(ctx, e) {
  know(ctx);
  const P = (s) => ctx.name(s);
  const C = (s) => cardName(s);
  const A = (s) => cardName(s, "acc");
  const L = (text, cls) => ({ text, seat: e.player, cls });
  switch (e.kind) {
    case "setup": return { text: t("rn.log.setup", { outposts: list(e.outposts.map(colourName)), player: P(e.first_player) }), cls: "head" };
    case "hand": return L(t("rn.log.hand", { cards: list(e.hand.map(C)) }));
    case "round": return { text: t("rn.log.round", { round: t("rn.round." + e.name) }), cls: "turn" };
    case "deploy": return L(t("rn.log.deploy", { card: A(e.card) }));
    case "deployed": return L(t("rn.log.deployed", { player: P(e.player), n: e.count }));
    case "first-player": return L(e.recipient === e.player ? t("rn.log.first-player_keep", { player: P(e.player) }) : t("rn.log.first-player", { player: P(e.player), other: P(e.recipient) }));
    case "sax": return L(e.card ? t("rn.log.sax", { player: P(e.player), card: A(e.card), end: t("rn." + e.end) }) : t("rn.log.sax_skip", { player: P(e.player) }));
    case "withdraw": return L(e.glory_lost ? t("rn.log.withdraw_glory", { player: P(e.player), n: e.glory_lost }) : t("rn.log.withdraw", { player: P(e.player) }));
    case "flip": return L(t("rn.log.flip", { player: P(e.player), card: A(e.card) }));
    case "reinforce": return L(t("rn.log.reinforce", { player: P(e.player), card: A(e.card), end: t("rn." + e.end) }), "key");
    case "inspire": return L(t("rn.log.inspire", { player: P(e.player) }));
    case "promote": return L(t("rn.log.promote", { player: P(e.player) }));
    case "invoke": return L(t("rn.log.invoke", { player: P(e.player), god: godAcc(e.god) }), "key");
    case "pass": return L(e.group ? t("rn.log.pass", { player: P(e.player), group: groupName(e.group), cards: list(e.cards.map(C)) }) : t("rn.log.pass_plain", { player: P(e.player) }), "key");
    case "loki": return L(t("rn.log.loki", { player: P(e.player) }));
    case "freya": return L(t("rn.log.freya", { player: P(e.player), end: t("rn." + e.end) }));
    case "saga": return L(t("rn.log.saga", { player: P(e.player), other: P(e.opponent), card: A(e.card) }));
    case "hel": return L(t("rn.log.hel", { player: P(e.player), card: A(e.card) }));
    case "odin": return L(t("rn.log.odin", { player: P(e.player), n: e.vp }));
    case "thor": return L(t("rn.log.thor", { player: P(e.player), card: A(e.card) }));
    case "tyr": return L(t("rn.log.tyr", { player: P(e.player), n: e.count }));
    case "nornir": return L(t("rn.log.nornir", { player: P(e.player), n: e.glory }));
    case "draw": return L(t("rn.log.draw", { cards: list(e.cards.map(C)) }));
    case "resolution": {
      const parts = Object.entries(e.outposts).map(([c, o]) => (o.controller !== null && o.controller !== undefined
        ? t("rn.log.outpost_to", { outpost: colourName(c), player: P(o.controller) })
        : t("rn.log.outpost_free", { outpost: colourName(c) })));
      return { text: t("rn.log.resolution", { round: t("rn.round." + ROUNDS[e.round - 1]), summary: parts.join(", ") }), cls: "head" };
    }
    case "game-end": return { text: t("rn.log.game-end", { player: P(e.winner), how: has("rn.decided." + e.decided_by) ? t("rn.decided." + e.decided_by) : e.decided_by }), cls: "head", seat: e.winner };
    default: return L(`${e.player !== undefined ? P(e.player) + ": " : ""}${e.kind.replace(/[_-]/g, " ")}`);
  }
}

// ---------------------------------------------------------------------- end screen
function endScreen(ctx) {
  know(ctx);
  const v = ctx.view;
  const res = v.result || {};
  const n = v.players;
  const names = Array.from({ length: n }, (_, p) => ctx.name(p));
  const reps = v.resolutions || [];
  const perRound = ROUNDS.map((_, r) => (reps[r] ? reps[r].vp : Array(n).fill(0)));
  const totals = v.seats.map((s) => s.vp);
  const odin = totals.map((tv, p) => tv - perRound.reduce((a, r) => a + r[p], 0));
  const cumulative = names.map((_, p) => { let acc = 0; return perRound.map((r) => (acc += r[p])); });
  const winner = res.winner;
  const rows = [
    ...ROUNDS.map((r, i) => [t("rn.end.vp_round", { round: t("rn.round." + r) }), perRound[i], "vp_" + r, t("rn.round." + r)]),
    [t("rn.end.odin"), odin, "odin", t("rn.end.odin")],
    [t("rn.end.total"), totals, "total", t("rn.end_short.total")],
    [t("rn.end.glory"), v.seats.map((s) => s.glory), "glory", t("rn.end_short.glory")],
    [t("rn.end.hand"), v.seats.map((s) => s.hand_size), "hand", t("rn.end_short.hand")],
  ];
  return h("div.end-body", null,
    h("p.winner", null, t("end.winner", { player: names[winner] }), " ",
      res.decided_by ? h("small.muted", null, t("end.decided_by", { how: has("rn.decided." + res.decided_by) ? t("rn.decided." + res.decided_by) : res.decided_by })) : null),
    h("div.end-grid", null,
      h("section", null, h("h2", null, t("end.scorepad")),
        scorepadTable({  // every column fits on a phone (scorepad.js)
          columns: names.map((nm, p) => ({ name: nm, color: seatColor(ctx, p), win: p === winner })),
          rows: rows.map(([label, vals, cls, short]) => ({ key: cls, label, short, values: vals })),
        })),
      h("section", null, h("h2", null, t("end.chart")),
        lineChart(names, cumulative.map((c, p) => [0, ...c.slice(0, -1), totals[p]]), ["", ...ROUNDS.map((r) => t("rn.round." + r))], names.map((_, p) => seatColor(ctx, p))))),
    reps.length ? h("section.final-hands", null, reps.map((rep, i) => resolutionPanel(ctx, rep, i === reps.length - 1))) : null);
}

function isInterrupt() { return false; }

export default {
  board, statusLine, targets, optionLabel, promptText, promptCard, kindText, waitingText, isInterrupt, inspect, logLine, endScreen, seatColor,
};
