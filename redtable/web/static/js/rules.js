// The rules pages, #/rules/red-rising and #/rules/red-north: the rules in short (the page's own
// words, i18n/learn/*.json), then what the engine itself holds (GET /api/web/rules/{game}?lang=):
// Red Rising's houses, locations, Rising die, Fleet Track, scoring and the 112 cards with a caste
// filter and a text search; Red North's rounds, phases and actions, card types, Gods and Outposts.
// The filter lives in the address (#/rules/red-rising?color=red&q=helium) so it can be shared.
import { h, clear, icon } from "./dom.js";
import { t } from "./i18n.js";
import { get } from "./api.js";
import { ensureLearnStyles, loadLearnText, lt, ltBlocks, ruleRefs, ruleVars, rulesData } from "./learntext.js";

export const GAMES = ["red-rising", "red-north"];
const SUMMARY = {
  "red-rising": ["goal", "setup", "turn", "sovereign", "words", "end"],
  "red-north": ["goal", "setup", "points", "end"],
};
const LOC_ICON = { jupiter: "fleet", mars: "helium", luna: "crown", institute: "influence" };
const CARD_TEXTS = [["deploy", "rr.deploy_ability", "play"], ["end_game_bonus", "rr.end_game_bonus", "star"],
  ["end_of_game", "rr.end_of_game", "hourglass"], ["block", "rr.block", "shield"]];

// Lower case without accents, so "zloty" finds "złoty"'s neighbours and "DARROW" finds Darrow.
export function fold(s) {
  return String(s || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

function readFilter() {
  const q = (location.hash.split("?")[1] || "");
  const p = new URLSearchParams(q);
  return { color: p.get("color") || "", q: p.get("q") || "" };
}

export function mountRules(root, game) {
  const page = h("div.rules-page", { "data-game": game });
  root.append(page);
  let data = null;
  let error = null;
  let destroyed = false;
  const filter = readFilter();

  if (!GAMES.includes(game)) {
    page.append(h("section.panel.notfound", null, h("h1", null, t("err.not_found")), h("a.btn", { href: "#/learn" }, t("nav.learn"))));
    return {};
  }

  async function load() {
    try {
      await Promise.all([ensureLearnStyles(), loadLearnText()]);
      // a language switch keeps the page as it is until the new language's data is in
      if (!data && !destroyed) clear(page).append(h("p.loading", null, lt("rules.loading")));
      data = await rulesData(game, get);
      error = null;
    } catch (e) {
      error = e.message || String(e);
    }
    if (!destroyed) render();
  }

  function render() {
    clear(page);
    if (error) {
      page.append(h("section.panel.narrow", null, h("p.error", null, lt("rules.failed", { message: error })),
        h("button.btn", { type: "button", onclick: load }, lt("start.retry"))));
      return;
    }
    const vars = ruleVars(data);
    const refs = ruleRefs(data, t);
    const sections = game === "red-rising" ? redRisingSections(data, vars) : redNorthSections(data, vars);
    const all = [["summary", lt("rules.summary"), summary(game, vars, refs)], ...sections];
    const other = GAMES.find((g) => g !== game);
    page.append(
      h("header.rules-head.panel", null,
        h("h1", null, lt("rules.title", { title: t("title." + game) })),
        h("p.muted", null, lt("rules.from_engine")),
        h("div.actions", null,
          h("a.btn.primary.play-first", { href: `#/learn/${game}` }, icon("play"), " ", lt("rules.play_first")),
          h("a.btn.other-rules", { href: `#/rules/${other}` }, lt("rules.other", { title: t("title." + other) })))),
      h("nav.rules-toc", { "aria-label": lt("rules.toc") },
        all.map(([id, title]) => h("button.toc-link", {
          type: "button", "data-section": id,
          onclick: () => {
            const target = page.querySelector(`#rules-${id}`);
            target.scrollIntoView({ block: "start" });
            target.querySelector("h2").focus({ preventScroll: true });
          },
        }, title))),
      ...all.map(([id, title, body]) => h(`section#rules-${id}.panel.rules-sec`, { "aria-labelledby": `rules-${id}-h` },
        h(`h2#rules-${id}-h`, { tabindex: "-1" }, title), body)));
    if (game === "red-rising") applyFilter();
  }

  // -------------------------------------------------------------------- summary (our words)
  function summary(g, vars, refs) {
    const short = g === "red-rising" ? "rr" : "rn";
    return h("div.sum-grid", null, SUMMARY[g].map((k) => h("article.sum-item", { "data-sum": k },
      h("h3", null, lt(`sum.${short}.${k}.title`, vars, refs)), ltBlocks(`sum.${short}.${k}.body`, vars, refs))));
  }

  // -------------------------------------------------------------------- Red Rising
  function redRisingSections(d, vars) {
    return [
      ["houses", lt("rules.rr.houses"), [h("p.muted", null, lt("rules.rr.houses_intro")),
        h("div.tile-grid", null, d.houses.map((x) => h("article.tile.house-tile.house-" + x.house, { "data-house": x.house },
          h("h3", null, t("rr.house_full." + x.house)), h("p", null, x.text))))]],
      ["locations", lt("rules.rr.locations"), [h("p.muted", null, lt("rules.rr.locations_intro")),
        h("div.tile-grid.four", null, d.locations.map((x) => h("article.tile.loc-tile.loc-" + x.location, { "data-location": x.location },
          h("h3", null, icon(LOC_ICON[x.location]), " ", x.name), h("p", null, x.bonus),
          x.triggers_house ? h("p.muted.small", null, lt("rules.rr.luna_house")) : null)))]],
      ["die", lt("rules.rr.die"), [h("p.muted", null, lt("rules.rr.die_intro")),
        h("ul.die-faces", null, d.die.map((x) => h("li", { "data-face": x.face }, icon("die"), h("span", null, x.text))))]],
      ["fleet", lt("rules.rr.fleet"), h("ol.fleet-cells", { start: 0 },
        h("li.legend", { "aria-hidden": "true" }, h("span", null, lt("rules.rr.fleet_space")), h("b", null, lt("rules.rr.fleet_points"))),
        d.fleet_vp.map((p, i) => h("li" + (i >= vars.threshold ? ".hot" : ""), { "data-space": i },
          h("span", null, h("span.sr", null, lt("rules.rr.fleet_space"), " "), i),
          h("b", null, h("span.sr", null, lt("rules.rr.fleet_points"), " "), p))))],
      ["scoring", lt("rules.rr.scoring"), h("table.score-table.stack", null, h("tbody", null,
        d.scoring.rows.map((r) => h("tr", { "data-row": r }, h("th", { scope: "row" }, t("rr.row." + r)), h("td", null, lt("rules.rr.score." + r, vars))))))],
      ["cards", lt("rules.rr.cards", { n: d.cards.length }), cardsSection(d)],
    ];
  }

  function cardsSection(d) {
    const total = d.cards.length;
    const chip = (color, label, n) => h("button.chip-filter" + (color ? ".c-" + color : ""), {
      type: "button", "data-color": color, "aria-pressed": String(filter.color === color),
      onclick: () => { filter.color = filter.color === color && color ? "" : color; applyFilter(true); },
    }, color ? h("i.sw", { "aria-hidden": "true" }) : null, label, h("span.n", null, n));
    const search = h("input.card-search", {
      type: "search", value: filter.q, placeholder: lt("rules.search_placeholder"), "aria-label": lt("rules.search"),
      autocomplete: "off", spellcheck: "false",
      oninput: (e) => { filter.q = e.target.value; applyFilter(true); },
    });
    return [
      h("p.muted", null, lt("rules.rr.cards_intro")),
      h("div.card-tools", null,
        h("div.chips", { role: "group", "aria-label": lt("rules.filter") },
          chip("", lt("rules.filter.all"), total), d.colors.map((c) => chip(c.color, c.name, c.count))),
        h("div.search-row", null, h("label.search-label", null, search),
          h("button.btn.small.ghost.clear-filter", { type: "button", onclick: () => { filter.color = ""; filter.q = ""; search.value = ""; applyFilter(true); } }, lt("rules.clear")))),
      h("p.card-count", { role: "status", "aria-live": "polite" }),
      h("p.card-none.muted", { hidden: true }, lt("rules.none")),
      h("div.card-grid", null, d.cards.map((c) => ruleCard(c))),
    ];
  }

  function ruleCard(c) {
    const el = h("article.rcard.rules-card.c-" + c.color, { "data-card": c.card, "data-color": c.color },
      h("div.rc-top", null, h("span.rc-val", null, c.value), h("span.rc-name", null, c.name), h("span.rc-col", null, c.caste)),
      h("div.rc-body", null, CARD_TEXTS.map(([field, label, ic]) => (c[field]
        ? h("p.rc-ab." + (field === "end_game_bonus" ? "bonus" : field === "end_of_game" ? "eog" : field), null,
          icon(ic), h("b", null, t(label), ": "), c[field]) : null))));
    el._search = fold([c.name, c.card.replace(/-/g, " "), c.caste, ...CARD_TEXTS.map(([f]) => c[f] || "")].join(" \u0001 "));
    return el;
  }

  function applyFilter(fromUser) {
    const grid = page.querySelector(".card-grid");
    if (!grid) return;
    const words = fold(filter.q).split(/\s+/).filter(Boolean);
    let n = 0;
    for (const el of grid.children) {
      const show = (!filter.color || el.dataset.color === filter.color) && words.every((w) => el._search.includes(w));
      el.hidden = !show;
      if (show) n += 1;
    }
    for (const b of page.querySelectorAll(".chip-filter")) b.setAttribute("aria-pressed", String(b.dataset.color === filter.color));
    page.querySelector(".card-count").textContent = lt("rules.count", { n, total: grid.children.length });
    page.querySelector(".card-none").hidden = n > 0;
    if (fromUser) {
      const q = new URLSearchParams();
      if (filter.color) q.set("color", filter.color);
      if (filter.q) q.set("q", filter.q);
      const s = q.toString();
      history.replaceState(null, "", `#/rules/${game}${s ? "?" + s : ""}`);  // no hashchange: the page stays
    }
  }

  // -------------------------------------------------------------------- Red North
  function redNorthSections(d, vars) {
    const deploy = d.phases.find((p) => p.phase === "deploy");
    const actions = d.phases.find((p) => p.phase === "actions");
    const res = d.phases.find((p) => p.phase === "resolution");
    const colourName = Object.fromEntries(d.colours.map((c) => [c.colour, c.name]));
    return [
      ["rounds", lt("rules.rn.rounds"), h("div.table-scroll", null, h("table.score-table.rounds-table", null,
        h("thead", null, h("tr", null, h("th", { scope: "col" }, lt("rules.rn.round")), h("th", { scope: "col" }, lt("rules.rn.outpost_vp")),
          h("th", { scope: "col" }, lt("rules.rn.muster")))),
        h("tbody", null, d.rounds.map((r) => h("tr", { "data-round": r.round_name },
          h("th", { scope: "row" }, `${r.round}. ${r.name}`), h("td", null, lt("rules.rn.vp", { n: r.outpost_vp })),
          h("td", null, r.muster ? lt(r.muster.top === "hero" ? "rules.rn.muster_hero" : "rules.rn.muster_god", { n: r.muster.cards })
            : lt("rules.rn.muster_none"))))))) ],
      ["phases", lt("rules.rn.phases"), h("ol.phase-list", null,
        h("li", { "data-phase": "deploy" }, h("h3", null, deploy.name), ltBlocks("rules.rn.phase.deploy", vars)),
        h("li", { "data-phase": "actions" }, h("h3", null, actions.name), h("p", null, lt("rules.rn.phase.actions")),
          h("dl.action-list", null, actions.actions.map((a) => [h("dt", { "data-action-name": a.action }, a.name),
            h("dd", null, a.text, a.when ? h("span.muted.small.when", null, " (", lt("rules.rn.when." + a.when), ")") : null)]))),
        h("li", { "data-phase": "resolution" }, h("h3", null, res.name),
          h("ol.res-steps", null, res.steps.map((s) => h("li", { "data-step": s }, lt("rules.rn.res." + s, vars))))))],
      ["kinds", lt("rules.rn.kinds"), h("div.tile-grid.kinds", null, d.kinds.map((k) => h("article.tile.kind-tile.k-" + (k.colour || "jarl"), { "data-kind": k.card },
        h("h3", null, k.name),
        h("p.kind-facts", null, h("span", null, lt("rules.rn.raid_points"), ": ", h("b", null, k.type === "jarl" ? `+${vars.jarl_bonus}` : k.points)),
          h("span", null, lt("rules.rn.copies"), ": ", h("b", null, k.copies))),
        h("p", null, k.text))))],
      ["gods", lt("rules.rn.gods"), [h("p.muted", null, lt("rules.rn.gods_intro")),
        h("div.tile-grid", null, d.gods.map((g) => h("article.tile.god-tile", { "data-god": g.god }, h("h3", null, g.name), h("p", null, g.text))))]],
      ["outposts", lt("rules.rn.outposts"), [h("p.muted", null, lt("rules.rn.outposts_intro", vars)),
        h("div.tile-grid", null, d.outposts.map((o) => h("article.tile.outpost-tile.o-" + o.colour, { "data-outpost": o.colour },
          h("h3", null, o.name, h("small.muted", null, " · ", colourName[o.colour])), h("p", null, o.text))))]],
    ];
  }

  load();
  return {
    destroy() { destroyed = true; },
    relabel() { load(); },
  };
}
