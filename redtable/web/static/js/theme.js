// Light or dark: the system's choice (`prefers-color-scheme`) until the person picks one with
// the top bar's switch; the pick is remembered in this browser (localStorage). The page's
// colours are CSS variables (app.css) that `<html data-theme="light">` sets anew.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "redtable.theme";
const query = window.matchMedia ? window.matchMedia("(prefers-color-scheme: light)") : null;

function saved() {
  try {
    const v = localStorage.getItem(KEY);
    return v === "light" || v === "dark" ? v : null;
  } catch (e) {
    return null;
  }
}

export function currentTheme() { return saved() || (query && query.matches ? "light" : "dark"); }

export function applyTheme() {
  const theme = currentTheme();
  document.documentElement.dataset.theme = theme;
  // both theme-color tags (one per system scheme, as the manifest's page starts) follow the pick
  for (const meta of document.querySelectorAll('meta[name="theme-color"]')) meta.content = theme === "light" ? "#f4f1ea" : "#14121a";
  for (const b of document.querySelectorAll(".theme-switch")) label(b);
}

export function setTheme(theme) {
  try { localStorage.setItem(KEY, theme); } catch (e) { /* private mode: for this page only */ }
  applyTheme();
  if (!saved()) document.documentElement.dataset.theme = theme;
}

// The top bar's switch names the theme it turns to ("Light" on the dark page).
function label(b) {
  const other = currentTheme() === "light" ? "dark" : "light";
  b.textContent = t("theme." + other);
  b.title = t("theme.switch");
  b.dataset.to = other;
}

export function themeSwitch() {
  const b = h("button.btn.small.ghost.theme-switch", { type: "button", onclick: () => setTheme(b.dataset.to) });
  label(b);
  return b;
}

if (query && query.addEventListener) query.addEventListener("change", () => { if (!saved()) applyTheme(); });
