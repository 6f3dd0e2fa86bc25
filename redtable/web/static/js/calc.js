// The score calculator for a physical Red Rising game: hands, locations, tokens -> the scorepad.
import { h, clear, toast } from "./dom.js";
import { t, list, has, currentLang } from "./i18n.js";
import { post, cardData } from "./api.js";
import { scoreChart } from "./chart.js";

const LOCS = ["jupiter", "mars", "luna", "institute"];
const ROWS = ["cards", "fleet", "helium", "sovereignty", "influence", "excess_cards", "total"];
const KEY = "redtable.calc";
// In a 2-player game the rulebook always puts 3 Influence of a neutral house on the Institute
// (Setup; Scoring: Influence), and no card moves them: the calculator starts there.
const NEUTRAL_2P = 3;
const FORM_VERSION = 2;  // forms kept by older pages had the neutral Influence at 0

// How close two names are, 0..1: twice the characters of their common blocks over both
// lengths (the longest common block, then the same on each side of it, as the command line's
// difflib-based suggestions measure), so "darow" is 0.91 from "darrow".
export function similarity(a, b) {
  if (!a.length && !b.length) return 1;
  const matched = (x, y) => {
    if (!x.length || !y.length) return 0;
    let best = 0, bi = 0, bj = 0;
    const prev = new Array(y.length + 1).fill(0);
    for (let i = 1; i <= x.length; i++) {
      let diag = 0;
      for (let j = 1; j <= y.length; j++) {
        const keep = prev[j];
        prev[j] = x[i - 1] === y[j - 1] ? diag + 1 : 0;
        if (prev[j] > best) { best = prev[j]; bi = i - best; bj = j - best; }
        diag = keep;
      }
    }
    if (!best) return 0;
    return best + matched(x.slice(0, bi), y.slice(0, bj)) + matched(x.slice(bi + best), y.slice(bj + best));
  };
  return (2 * matched(a, b)) / (a.length + b.length);
}

// Cards whose name (in the page's language or as printed) is close to a typed text that
// matches no name: the best first, at most n, none below the command line's cutoff (0.5).
export function closeCards(cards, q, localName, n = 5) {
  const low = q.trim().toLowerCase();
  if (low.length < 3) return [];
  return cards
    .map((c) => ({ c, score: Math.max(similarity(low, c.name.toLowerCase()), similarity(low, localName(c.card).toLowerCase())) }))
    .filter((x) => x.score >= 0.5)
    .sort((a, b) => b.score - a.score || a.c.name.localeCompare(b.c.name))
    .slice(0, n)
    .map((x) => x.c);
}

function blankPlayer(i) {
  return { name: "", hand: [], fleet: 0, helium: 0, influence: 0, extra: 0 };
}

function blank() {
  return {
    players: [blankPlayer(0), blankPlayer(1)], sovereign: -1,
    locations: { jupiter: [], mars: [], luna: [], institute: [] }, banished: [], neutral: NEUTRAL_2P, v: FORM_VERSION,
  };
}

export function mountCalc(root) {
  let gallery = null;
  let by = {};
  let state = load();
  let result = null;
  let error = null;
  const page = h("div.calc");
  root.append(page);

  function load() {
    try {
      const s = JSON.parse(sessionStorage.getItem(KEY) || "null");
      if (s && Array.isArray(s.players)) {
        if (s.v !== FORM_VERSION) { s.neutral = NEUTRAL_2P; s.v = FORM_VERSION; }
        return s;
      }
    } catch (e) { /* a fresh form */ }
    return blank();
  }
  function save() { sessionStorage.setItem(KEY, JSON.stringify(state)); }

  const name = (slug) => (has("rr.cardname." + slug) && currentLang() !== "en" ? t("rr.cardname." + slug) : by[slug] ? by[slug].name : slug);

  function used() {
    const u = new Set();
    for (const p of state.players) for (const c of p.hand) u.add(c.card);
    for (const l of LOCS) for (const c of state.locations[l]) u.add(c);
    for (const c of state.banished) u.add(c);
    return u;
  }

  // A searchable card picker: type, arrow keys, Enter picks the highlighted card.
  function picker(label, onPick, id) {
    const listId = "sg-" + id;
    const input = h("input.card-search", {
      type: "text", role: "combobox", "aria-expanded": "false", "aria-controls": listId, "aria-autocomplete": "list",
      placeholder: t("calc.card_search"), "aria-label": label, "data-picker": id, autocomplete: "off",
    });
    const ul = h("ul.suggest-list", { id: listId, role: "listbox", hidden: true });
    const hint = h("p.suggest-hint.muted.small", { id: listId + "-hint", "aria-live": "polite", hidden: true });
    let items = [];
    let sel = 0;
    function show() {
      const q = input.value.trim().toLowerCase();
      const u = used();
      items = q ? gallery.cards.filter((c) => c.name.toLowerCase().includes(q) || name(c.card).toLowerCase().includes(q)).slice(0, 12) : [];
      items.sort((a, b) => (u.has(a.card) - u.has(b.card)) || (a.name.toLowerCase().startsWith(q) ? -1 : 0) - (b.name.toLowerCase().startsWith(q) ? -1 : 0));
      // no name holds the text: a typo? offer the closest names ("Darow" -> Darrow)
      const fuzzy = q && !items.length ? closeCards(gallery.cards, q, name) : [];
      if (fuzzy.length) items = fuzzy;
      hint.hidden = !q || (items.length && !fuzzy.length);
      hint.textContent = fuzzy.length ? t("calc.did_you_mean") : q && !items.length ? t("calc.no_match", { name: input.value.trim() }) : "";
      sel = Math.max(0, items.findIndex((c) => !u.has(c.card)));
      clear(ul);
      items.forEach((c, i) => ul.append(h("li" + (u.has(c.card) ? ".used" : ""), {
        role: "option", id: `${listId}-${i}`, "aria-selected": String(i === sel), "data-card": c.card,
        onmousedown: (e) => { e.preventDefault(); pick(i); },
      }, h("i.sw-dot.c-" + c.color), h("b", null, c.value), name(c.card), u.has(c.card) ? h("small.muted", null, " — ", t("calc.used")) : null)));
      ul.hidden = !items.length;
      ul.classList.toggle("fuzzy", fuzzy.length > 0);
      input.setAttribute("aria-expanded", String(!ul.hidden));
      if (items.length) input.setAttribute("aria-activedescendant", `${listId}-${sel}`);
    }
    function pick(i) {
      const c = items[i];
      if (!c || used().has(c.card)) return;
      input.value = "";
      ul.hidden = true;
      hint.hidden = true;
      onPick(c.card);
    }
    input.addEventListener("input", show);
    input.addEventListener("blur", () => setTimeout(() => { ul.hidden = true; hint.hidden = true; input.setAttribute("aria-expanded", "false"); }, 100));
    input.addEventListener("keydown", (e) => {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        if (!items.length) return;
        sel = (sel + (e.key === "ArrowDown" ? 1 : items.length - 1)) % items.length;
        [...ul.children].forEach((li, i) => li.setAttribute("aria-selected", String(i === sel)));
        input.setAttribute("aria-activedescendant", `${listId}-${sel}`);
      } else if (e.key === "Enter") {
        e.preventDefault();
        pick(sel);
      } else if (e.key === "Escape") {
        ul.hidden = true;
      }
    });
    input.setAttribute("aria-describedby", hint.id);
    return h("div.suggest", null, input, hint, ul);
  }

  function chip(slug, onRemove, extra) {
    const e = by[slug] || { color: "gray", value: "?" };
    return h("span.picked-card", { "data-card": slug },
      h("span.rcard.mini.c-" + e.color, null, h("span.rc-top", null, h("span.rc-val", null, e.value), h("span.rc-name", null, name(slug)))),
      extra || null,
      h("button.x", { type: "button", "aria-label": t("calc.remove_card", { card: name(slug) }), onclick: onRemove }, "×"));
  }

  function num(label, value, min, max, on, cls) {
    return h("label", null, label, h("input." + (cls || "n"), {
      type: "number", min, max, value, inputmode: "numeric",
      onchange: (e) => { let v = parseInt(e.target.value || "0", 10); if (Number.isNaN(v)) v = 0; v = Math.max(min, max !== undefined ? Math.min(max, v) : v); e.target.value = v; on(v); save(); },
    }));
  }

  function playerBox(p, i) {
    return h("section.calc-player", { "data-player": i, "aria-label": t("calc.player", { n: i + 1 }) },
      h("div.panel-head", null,
        h("input.pname", { type: "text", maxlength: 40, value: p.name, placeholder: t("calc.player", { n: i + 1 }), "aria-label": t("lobby.name"),
          oninput: (e) => { p.name = e.target.value; save(); } }),
        state.players.length > 2 ? h("button.btn.small.ghost", { type: "button", onclick: () => { state.players.splice(i, 1); if (state.sovereign === i) state.sovereign = -1; else if (state.sovereign > i) state.sovereign--; save(); render(); } }, t("calc.remove_player")) : null),
      h("div.picker", null,
        h("span.muted.small", null, t("calc.hand"), ` (${p.hand.length})`),
        h("div.picked", null, p.hand.map((c, j) => chip(c.card, () => { p.hand.splice(j, 1); save(); render(); }, choiceSelect(c)))),
        picker(t("calc.hand") + " — " + t("calc.player", { n: i + 1 }), (slug) => { p.hand.push({ card: slug }); save(); render(`[data-picker="hand${i}"]`); }, "hand" + i)),
      h("div.row", null,
        num(t("calc.fleet"), p.fleet, 0, 10, (v) => { p.fleet = v; }, "fleet"),
        num(t("calc.helium"), p.helium, 0, undefined, (v) => { p.helium = v; }, "helium")),
      h("div.row", null,
        num(t("calc.influence"), p.influence, 0, 10, (v) => { p.influence = v; }, "influence"),
        h("label.check", null, h("input.sov", { type: "radio", name: "sovereign", checked: state.sovereign === i, onchange: () => { state.sovereign = i; save(); } }), t("calc.sovereign"))),
      num(t("calc.extra"), p.extra || 0, 0, undefined, (v) => { p.extra = v; }, "extra"));
  }

  // Gray: count as which extra colour; Orange: as which character ("best" lets the scorer choose).
  function choiceSelect(c) {
    const e = by[c.card];
    if (!e) return null;
    if (e.color === "gray") {
      return h("select", { "aria-label": t("calc.as_color"), title: t("calc.as_color"), onchange: (ev) => { c.as_color = ev.target.value || undefined; save(); } },
        h("option", { value: "" }, t("calc.best")),
        gallery.colors.filter((x) => x !== "gray").map((x) => h("option", { value: x, selected: c.as_color === x }, t("rr.color." + x))));
    }
    if (e.color === "orange") {
      return h("select", { "aria-label": t("calc.as_name"), title: t("calc.as_name"), onchange: (ev) => { c.as_name = ev.target.value || undefined; save(); } },
        h("option", { value: "" }, t("calc.best")),
        [...gallery.cards].sort((a, b) => a.name.localeCompare(b.name)).map((x) => h("option", { value: x.name, selected: c.as_name === x.name }, name(x.card))));
    }
    return null;
  }

  function locBox(key, label, arr) {
    return h("section.calc-player", { "data-loc": key },
      h("span.muted.small", null, label, ` (${arr.length})`),
      h("div.picked", null, arr.map((c, j) => chip(c, () => { arr.splice(j, 1); save(); render(); }))),
      picker(label, (slug) => { arr.push(slug); save(); render(`[data-picker="${key}"]`); }, key));
  }

  function body() {
    const out = {
      players: state.players.map((p, i) => ({
        name: p.name.trim() || t("calc.player", { n: i + 1 }),
        hand: p.hand.map((c) => {
          const nm = by[c.card] ? by[c.card].name : c.card;
          if (c.as_color || c.as_name) return { card: nm, ...(c.as_color ? { as_color: c.as_color } : {}), ...(c.as_name ? { as_name: c.as_name } : {}) };
          return nm;
        }),
        fleet: p.fleet, helium: p.helium, influence: p.influence, sovereign: state.sovereign === i,
        ...(p.extra ? { extra_points: p.extra } : {}),
      })),
      locations: Object.fromEntries(LOCS.map((l) => [l, state.locations[l].map((c) => (by[c] ? by[c].name : c))])),
      banished: state.banished.map((c) => (by[c] ? by[c].name : c)),
      // the neutral house plays only in a 2-player game (the scorer refuses it otherwise)
      ...(state.players.length === 2 ? { neutral_influence: state.neutral } : {}),
    };
    return out;
  }

  function fromJson(data) {
    const slugOf = (x) => {
      const s = String(typeof x === "object" ? x.card : x).trim().toLowerCase();
      const c = gallery.cards.find((c2) => c2.card === s || c2.name.toLowerCase() === s);
      if (!c) throw new Error(String(typeof x === "object" ? x.card : x));
      return c.card;
    };
    const s = blank();
    s.players = (data.players || []).map((p) => ({
      name: p.name || "", fleet: p.fleet || 0, helium: p.helium || 0, influence: p.influence || 0, extra: p.extra_points || 0,
      hand: (p.hand || []).map((c) => ({ card: slugOf(c), as_color: c.as_color, as_name: c.as_name })),
    }));
    s.sovereign = (data.players || []).findIndex((p) => p.sovereign);
    for (const l of LOCS) s.locations[l] = ((data.locations || {})[l] || []).map(slugOf);
    s.banished = (data.banished || []).map(slugOf);
    s.neutral = data.neutral_influence ?? NEUTRAL_2P;
    return s;
  }

  async function score() {
    if (navigator.onLine === false) {  // the cards and the entries work offline; the scoring is the server's
      result = null;
      error = t("app.offline_score");
      render();
      return;
    }
    try {
      result = await post("/api/web/score/red-rising", body());
      error = null;
    } catch (e) {
      result = null;
      error = e.message;
    }
    render();
    const r = page.querySelector(".calc-result");
    if (r) r.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  function resultBox() {
    if (error) return h("section.panel.calc-result", { role: "alert" }, h("p.error", null, t("calc.error", { message: error })));
    if (!result) return h("div.calc-result");
    const names = result.players.map((p) => p.name);
    const notes = result.players.map((p) => [
      ...Object.entries(p.choice_slugs.as_color || {}).map(([c, col]) => t("end.as_color", { card: name(c), color: t("rr.color." + col) })),
      ...Object.entries(p.choice_slugs.as_name || {}).map(([c, n]) => t("end.as_name", { card: name(c), name: name(n) })),
    ]);
    return h("section.panel.calc-result", { "aria-live": "polite" },
      h("h2", null, t("calc.result")),
      h("p.winner", null, result.winners.length === 1 ? t("end.winner", { player: names[result.winners[0]] }) : t("end.winners", { players: list(result.winners.map((w) => names[w])) })),
      h("div.end-grid", null,
        h("div.table-scroll", null, h("table.scorepad", null,
          h("thead", null, h("tr", null, h("th", { scope: "col" }, t("end.player")), names.map((n, i) => h("th" + (result.winners.includes(i) ? ".win" : ""), { scope: "col" }, n)))),
          h("tbody", null, ROWS.map((r) => h("tr.row-" + r, null, h("th", { scope: "row" }, t("rr.row." + r)),
            result.players.map((p, i) => h("td" + (r === "total" && result.winners.includes(i) ? ".win" : ""), { "data-row": r, "data-player": i }, p[r]))))))),
        scoreChart(names, result.players.map((p) => ROWS.slice(0, -1).map((r) => p[r])), ROWS.slice(0, -1).map((r) => t("rr.row." + r)))),
      notes.some((n) => n.length) ? h("div", null, h("h3", null, t("end.choices")),
        h("ul", null, notes.map((n, i) => (n.length ? h("li", null, h("strong", null, names[i]), ": ", n.join("; ")) : null)))) : null,
      h("details", null, h("summary", null, t("end.final_hands")),
        h("ul", null, result.players.map((p) => h("li", null, h("strong", null, p.name), ": ",
          Object.entries(p.card_points).map(([c, v]) => `${c} ${v}`).join(", "))))));
  }

  function render(focusSel) {
    clear(page);
    if (!gallery) { page.append(h("p.loading", null, "…")); return; }
    const jsonArea = h("textarea.json", { "aria-label": t("calc.json"), spellcheck: "false" });
    jsonArea.value = JSON.stringify(body(), null, 1);
    page.append(
      h("section.panel", null,
        h("h1", null, t("calc.title")),
        h("p.muted", null, t("calc.intro"))),
      h("section", { "aria-label": t("calc.players") },
        h("div.panel-head", null, h("h2", null, t("calc.players")),
          state.players.length < 6 ? h("button.btn.small.add-player", { type: "button", onclick: () => { state.players.push(blankPlayer(state.players.length)); save(); render(); } }, "+ ", t("calc.add_player")) : null),
        h("div.calc-players", null, state.players.map(playerBox))),
      h("section", null, h("h2", null, t("calc.locations")),
        h("div.calc-locs", null,
          LOCS.map((l) => locBox(l, t("rr.location." + l), state.locations[l])),
          locBox("banished", t("calc.banished"), state.banished),
          h("section.calc-player", null,
            state.players.length === 2 ? num(t("calc.neutral"), state.neutral, 0, 10, (v) => { state.neutral = v; }, "neutral") : null,
            h("label.check", null, h("input", { type: "radio", name: "sovereign", checked: state.sovereign < 0, onchange: () => { state.sovereign = -1; save(); } }), t("calc.sovereign"), ": ", t("calc.nobody"))))),
      h("div.actions", null,
        h("button.btn.primary.score-btn", { type: "button", onclick: score }, t("calc.score")),
        h("button.btn.ghost", { type: "button", onclick: () => { state = blank(); result = null; error = null; save(); render(); } }, t("calc.clear"))),
      resultBox(),
      h("details.panel", null, h("summary", null, t("calc.json")), jsonArea,
        h("div.actions", null, h("button.btn.small.load-json", {
          type: "button", onclick: () => {
            try { state = fromJson(JSON.parse(jsonArea.value)); save(); result = null; render(); }
            catch (e) { toast(t("calc.error", { message: e.message }), "error"); }
          },
        }, t("calc.load_json")))));
    if (focusSel) { const el = page.querySelector(focusSel); if (el) el.focus(); }
  }

  (async () => {
    gallery = await cardData("red-rising");
    if (!gallery) { clear(page).append(h("p.error", null, t("err.network"))); return; }
    by = Object.fromEntries(gallery.cards.map((c) => [c.card, c]));
    render();
  })();
  render();
  return { relabel: () => render() };
}
