// Translations: JSON dictionaries per language (static/i18n/*.json), English as the fallback.

const LANGS = ["en", "uk", "pl"];
const dicts = {};
let lang = "en";
const listeners = new Set();
export const missing = new Set();

export function languages() { return LANGS; }
export function currentLang() { return lang; }

function pickInitial() {
  const saved = localStorage.getItem("redtable.lang");
  if (saved && LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const short = (l || "").slice(0, 2).toLowerCase();
    if (LANGS.includes(short)) return short;
  }
  return "en";
}

async function load(l) {
  if (!dicts[l]) {
    const r = await fetch(`/i18n/${l}.json`, { cache: "no-cache" });
    dicts[l] = await r.json();
  }
  return dicts[l];
}

export async function initI18n() {
  await load("en");
  await setLang(pickInitial(), false);
}

export async function setLang(l, notify = true) {
  if (!LANGS.includes(l)) l = "en";
  await load(l);
  lang = l;
  localStorage.setItem("redtable.lang", l);
  document.documentElement.lang = l;
  if (notify) for (const fn of listeners) fn(l);
}

export function onLangChange(fn) { listeners.add(fn); return () => listeners.delete(fn); }

const plurals = {};
function pluralForm(n) {
  if (!plurals[lang]) plurals[lang] = new Intl.PluralRules(lang);
  return plurals[lang].select(n);
}

export function has(key) {
  return key in (dicts[lang] || {}) || key in dicts.en;
}

export function t(key, params) {
  let v = dicts[lang] && dicts[lang][key];
  if (v === undefined) {
    if (lang !== "en" && dicts.en && key in dicts.en) missing.add(lang + ":" + key);
    v = dicts.en ? dicts.en[key] : undefined;
  }
  if (v === undefined) {
    missing.add("en:" + key);
    return key;
  }
  if (typeof v === "object") {
    const n = params && (params.n ?? params.count);
    v = v[pluralForm(Number(n))] ?? v.other ?? Object.values(v)[0];
  }
  if (params) {
    v = v.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined && params[k] !== null ? String(params[k]) : m));
  }
  return v;
}

// "a, b and c" in the current language.
export function list(items) {
  try {
    return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(items.map(String));
  } catch (e) {
    return items.join(", ");
  }
}

export function ago(ts) {
  const s = Math.max(0, Date.now() / 1000 - ts);
  if (s < 60) return t("time.just_now");
  if (s < 3600) return t("time.minutes", { n: Math.floor(s / 60) });
  if (s < 86400) return t("time.hours", { n: Math.floor(s / 3600) });
  return t("time.days", { n: Math.floor(s / 86400) });
}

// For tests: keys used but missing in the current language.
window.__i18nMissing = () => [...missing];
