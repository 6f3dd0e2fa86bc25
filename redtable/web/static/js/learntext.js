// The long texts of the learning pages (rules summaries, the guided games), kept apart from the
// shared catalogs in i18n/learn/{en,uk,pl}.json and loaded only by the pages that show them.
//
// A text may hold, besides {name} (a value from `vars`):
//   {p:word:var}  the plural phrase "w.word" for the number vars[var] ("5 cards", "5 карт")
//   {c:slug}, {l:loc}, {bonus:loc}, {o:colour}  names the page resolves (`refs`): a card's name,
//                 a location, its bonus, an Outpost — in the page's language
// Paragraphs are separated by "\n"; lines starting with "- " form a list.
import { h, icon } from "./dom.js";
import { currentLang } from "./i18n.js";

const loading = {}; // lang -> promise of its catalog
const dicts = {};   // lang -> the loaded catalog
const plurals = {};

function load(lang) {
  if (!loading[lang]) {
    loading[lang] = fetch(`/i18n/learn/${lang}.json`, { cache: "no-cache" })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`/i18n/learn/${lang}.json: HTTP ${r.status}`))))
      .then((d) => { dicts[lang] = d; return d; })
      .catch((e) => { delete loading[lang]; throw e; });
  }
  return loading[lang];
}

// The texts of English (the fallback) and of the page's language, loaded once each.
export async function loadLearnText() {
  await Promise.all([load("en"), load(currentLang())]);
}

function pluralForm(n) {
  const lang = currentLang();
  if (!plurals[lang]) plurals[lang] = new Intl.PluralRules(lang);
  return plurals[lang].select(Number(n));
}

function raw(key) {
  const mine = dicts[currentLang()];
  if (mine && key in mine) return mine[key];
  return dicts.en ? dicts.en[key] : undefined;
}

export function hasLearn(key) { return raw(key) !== undefined; }

// The text of `key` with its placeholders filled (see the top of this file).
const missing = new Set();
window.__learnMissing = () => [...missing];  // for tests: keys asked for but in no catalog

export function lt(key, vars = {}, refs = {}) {
  let v = raw(key);
  if (v === undefined) { missing.add(key); return key; }
  if (typeof v === "object") v = v[pluralForm(vars.n)] ?? v.other;
  return fill(v, vars, refs);
}

function fill(text, vars, refs) {
  return text.replace(/\{([a-z]+):([\w-]+)(?::([\w-]+))?\}|\{(\w+)\}/g, (m, kind, a, b, name) => {
    if (name !== undefined) return vars[name] !== undefined && vars[name] !== null ? String(vars[name]) : m;
    if (kind === "p") {
      const n = vars[b];
      if (n === undefined) return m;
      return lt("w." + a, { n });
    }
    const fn = refs[kind];
    return fn ? String(fn(a)) : m;
  });
}

// A line with its "ⓘ" drawn as the info mark the cards carry (the glyph is missing from many fonts).
function inline(text) {
  const parts = text.split("ⓘ");
  return parts.flatMap((p, i) => (i ? [icon("info", "i"), p] : [p]));
}

// `key`'s text as DOM: paragraphs, and "- " lines gathered into lists.
export function ltBlocks(key, vars = {}, refs = {}) {
  const out = [];
  let list = null;
  for (const line of lt(key, vars, refs).split("\n")) {
    if (line.startsWith("- ")) {
      if (!list) { list = h("ul.learn-list"); out.push(list); }
      list.append(h("li", null, inline(line.slice(2))));
    } else {
      list = null;
      if (line.trim()) out.push(h("p", null, inline(line)));
    }
  }
  return out;
}

// The numbers the texts quote, read from the rules data the server built from the engine.
export function ruleVars(rules) {
  if (!rules) return {};
  if (rules.game === "red-rising") {
    const s = rules.scoring;
    return {
      hand_size: rules.setup.hand_size, neutral: rules.setup.neutral_influence_2p, influence_tokens: rules.setup.influence_tokens,
      threshold: rules.end.threshold, fleet_max: rules.end.fleet_max, helium_vp: s.helium_vp, sovereign_vp: s.sovereign_vp,
      infl_a: s.influence_vp[0], infl_b: s.influence_vp[1], infl_c: s.influence_vp[2], hand_limit: s.hand_limit,
      excess: String(s.excess_card_vp).replace("-", "−"), fleet_top: rules.fleet_vp[rules.fleet_vp.length - 1],
      fleet_at_threshold: rules.fleet_vp[rules.end.threshold],
    };
  }
  const p = rules.points;
  const st = rules.setup;
  const deploy = rules.phases.find((x) => x.phase === "deploy");
  return {
    vp1: rules.rounds[0].outpost_vp, vp2: rules.rounds[1].outpost_vp, vp3: rules.rounds[2].outpost_vp,
    raider: p.raider, hero: p.hero, jarl_bonus: p.jarl_bonus, champion_bonus: p.champion_bonus, glory: p.glory,
    frankenland: p.frankenland_draw, party_size: deploy.party_size, outpost_points: st.outpost_points_default,
    starting_jarls: st.starting_jarls, starting_glory: st.starting_glory, hand_deal: st.hand_deal,
    jarls_removed_2: st.jarls_removed["2"], jarls_removed_3: st.jarls_removed["3"],
    spring_cards: rules.rounds[0].muster ? rules.rounds[0].muster.cards : 0,
  };
}

// Name resolvers for {c:..}, {l:..}, {bonus:..}, {o:..} from the rules data.
export function ruleRefs(rules, t) {
  const cards = {};
  const locs = {};
  const outposts = {};
  if (rules && rules.cards) for (const c of rules.cards) cards[c.card] = c.name;
  if (rules && rules.locations) for (const l of rules.locations) locs[l.location] = l;
  if (rules && rules.outposts) for (const o of rules.outposts) outposts[o.colour] = o.name;
  return {
    c: (slug) => cards[slug] || slug,
    l: (loc) => t("rr.location." + loc),
    bonus: (loc) => (locs[loc] ? locs[loc].bonus : loc),
    o: (colour) => outposts[colour] || colour,
  };
}

// The rules data of `game` in the page's language (one fetch per title and language).
const rulesCache = {};
export function rulesData(game, get) {
  const key = `${game}:${currentLang()}`;
  if (!rulesCache[key]) {
    rulesCache[key] = get(`/api/web/rules/${encodeURIComponent(game)}?lang=${encodeURIComponent(currentLang())}`)
      .catch((e) => { delete rulesCache[key]; throw e; });
  }
  return rulesCache[key];
}

// The learning pages' stylesheet (css/learn.css), added to the page once; resolves when loaded.
let styles = null;
export function ensureLearnStyles() {
  if (!styles) {
    const link = h("link#learn-css", { rel: "stylesheet", href: "/css/learn.css" });
    styles = new Promise((resolve) => {
      link.addEventListener("load", resolve);
      link.addEventListener("error", resolve);  // unstyled beats blank
    });
    document.head.append(link);
  }
  return styles;
}
