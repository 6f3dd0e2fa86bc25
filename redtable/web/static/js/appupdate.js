// The installable app: the service worker (/sw.js) is registered here; a new version of the
// app is offered ("A new version is ready: Reload") and taken only when the person says so:
// the waiting worker then takes over and the page reloads whole, so no page ever runs files
// of two versions. Offline, a strip says so (tables need the connection; the rules, the
// calculator's cards and the tutorial's words are kept in this browser).
import { h } from "./dom.js";
import { t, onLangChange } from "./i18n.js";

let bar = null;       // the "new version" offer, while one waits
let strip = null;     // the offline strip
let reloading = false;

export function online() { return navigator.onLine !== false; }

function offerUpdate(reg) {
  if (!reg.waiting || bar) return;
  bar = h("div.app-update", { role: "status", "aria-live": "polite" });
  const label = () => {
    bar.replaceChildren(
      h("span", null, t("app.update_ready")),
      h("button.btn.small.primary.app-update-reload", { type: "button", onclick: () => takeUpdate(reg) }, t("app.update_reload")),
      h("button.btn.small.ghost.app-update-later", { type: "button", onclick: () => { bar.remove(); bar = null; } }, t("app.update_later")));
  };
  label();
  onLangChange(() => { if (bar) label(); });
  document.body.appendChild(bar);
}

function takeUpdate(reg) {
  if (!reg.waiting) { location.reload(); return; }
  reg.waiting.postMessage({ type: "skip-waiting" });  // the page reloads when the new worker controls it
}

function showOffline() {
  const off = !online();
  document.documentElement.classList.toggle("offline", off);
  if (off && !strip) {
    strip = h("div.offline-strip", { role: "status", "aria-live": "polite" }, t("app.offline_strip"));
    document.body.prepend(strip);
  } else if (!off && strip) {
    strip.remove();
    strip = null;
  }
}

export function startApp() {
  showOffline();
  window.addEventListener("online", showOffline);
  window.addEventListener("offline", showOffline);
  onLangChange(() => { if (strip) strip.textContent = t("app.offline_strip"); });
  if (!("serviceWorker" in navigator)) return;
  const hadController = !!navigator.serviceWorker.controller;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // the first install takes a page that had no worker: nothing to reload; an update reloads
    if (!hadController || reloading) return;
    reloading = true;
    location.reload();
  });
  navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" }).then((reg) => {
    window.__swRegistration = reg;
    offerUpdate(reg);
    reg.addEventListener("updatefound", () => {
      const next = reg.installing;
      if (!next) return;
      next.addEventListener("statechange", () => {
        if (next.state === "installed" && navigator.serviceWorker.controller) offerUpdate(reg);
      });
    });
    // a page kept open for days still hears of a new version
    setInterval(() => { if (online()) reg.update().catch(() => {}); }, 30 * 60 * 1000);
  }).catch(() => { /* no worker (a private window may refuse): the app works online as before */ });
}

// The page shown instead of a table (or the lobby, my games...) while offline.
export function offlinePage() {
  return h("section.panel.offline-page", null,
    h("h1", null, t("app.offline_title")),
    h("p", null, t("app.offline_table")),
    h("ul.offline-links", null,
      h("li", null, h("a", { href: "#/rules/red-rising" }, t("app.offline_rules", { title: t("title.red-rising") }))),
      h("li", null, h("a", { href: "#/rules/red-north" }, t("app.offline_rules", { title: t("title.red-north") }))),
      h("li", null, h("a", { href: "#/calc" }, t("nav.calc"))),
      h("li", null, h("a", { href: "#/learn" }, t("nav.learn")))));
}
