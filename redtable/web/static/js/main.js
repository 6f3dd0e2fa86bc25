// Boot, the top bar, the language switch and the hash router.
import { h, clear, toast } from "./dom.js";
import { initI18n, t, setLang, currentLang, languages, onLangChange } from "./i18n.js";
import { loadSession, currentUser, onAccountChange, logOut } from "./account.js";
import { watch, myGamesLink } from "./mygames.js";
import { applyTheme, themeSwitch } from "./theme.js";
import { refreshSite, modRole, onRoleChange } from "./moderation.js";
import { startApp, online, offlinePage } from "./appupdate.js";
import { popup } from "./friends.js";

applyTheme();  // before the first paint of the page's own content

let current = null; // the mounted page: {destroy(), relabel?()}

const routes = [
  [/^#?\/?$/, () => import("./lobby.js").then((m) => m.mountLobby)],
  [/^#\/game\/([^/?]+)/, () => import("./table.js").then((m) => m.mountGame)],
  [/^#\/replay\/([^/?]+)/, () => import("./table.js").then((m) => m.mountReplay)],
  [/^#\/review\/([^/?]+)/, () => import("./review.js").then((m) => m.mountReview)],
  [/^#\/calc/, () => import("./calc.js").then((m) => m.mountCalc)],
  [/^#\/learn\/?$/, () => import("./learn.js").then((m) => m.mountLearnHub)],
  [/^#\/learn\/([^/?]+)\/([^/?]+)/, () => import("./learn.js").then((m) => m.mountTutorialGame)],
  [/^#\/learn\/([^/?]+)/, () => import("./learn.js").then((m) => m.mountTutorialStart)],
  [/^#\/rules\/([^/?]+)/, () => import("./rules.js").then((m) => m.mountRules)],
  [/^#\/(login|register)/, () => import("./account.js").then((m) => m.mountAccount)],
  [/^#\/players\/([^/?]+)/, () => import("./players.js").then((m) => m.mountProfile)],
  [/^#\/leaderboard\/([^/?]+)/, () => import("./players.js").then((m) => m.mountLeaderboard)],
  [/^#\/my-games/, () => import("./mygames.js").then((m) => m.mountMyGames)],
  [/^#\/moderation(?:\/([a-z]+))?/, () => import("./moderation.js").then((m) => m.mountModeration)],
  [/^#\/account\/?$/, () => import("./accountpage.js").then((m) => m.mountSettings)],
  [/^#\/forgot\/?$/, () => import("./accountpage.js").then((m) => m.mountForgot)],
  [/^#\/reset\/([^/?]+)/, () => import("./accountpage.js").then((m) => m.mountReset)],
  [/^#\/verify-email\/([^/?]+)/, () => import("./accountpage.js").then((m) => m.mountVerify)],
  [/^#\/unsubscribe\/([^/?]+)/, () => import("./noticeprefs.js").then((m) => m.mountUnsubscribe)],
];
// Pages that work offline (the service worker keeps their files and data): the others need the server.
const OFFLINE_OK = /^#\/(calc|learn\/?$|rules\/)/;

function renderTopbar() {
  const bar = document.getElementById("topbar");
  clear(bar);
  const hash = location.hash || "#/";
  const here = (p) => (hash === p || (p === "#/" && (hash === "" || hash === "#/")) ? "page" : null);
  bar.append(
    h("a.brand", { href: "#/", "aria-label": "redtable" },
      h("span.brand-mark", { "aria-hidden": "true" }, h("i"), h("i")),
      h("span.brand-name", null, "red", h("b", null, "table"))),
    h("nav.mainnav", { "aria-label": t("nav.main") },
      h("a", { href: "#/", "aria-current": here("#/") }, t("nav.lobby")),
      myGamesLink(hash),
      h("a", { href: "#/calc", "aria-current": here("#/calc") }, t("nav.calc")),
      h("a.nav-learn", { href: "#/learn", "aria-current": /^#\/(learn|rules)(\/|$)/.test(hash) ? "page" : null }, t("nav.learn")),
      h("a.nav-board", { href: "#/leaderboard/red-rising", "aria-current": /^#\/leaderboard\//.test(hash) ? "page" : null }, t("nav.leaderboard")),
      modRole() ? h("a.nav-mod", { href: "#/moderation", "aria-current": /^#\/moderation/.test(hash) ? "page" : null }, t("nav.moderation")) : null),
    accountNav(hash),
    h("div.langs", { role: "group", "aria-label": t("nav.language") },
      languages().map((l) => h("button.lang", {
        type: "button", lang: l, "aria-pressed": String(l === currentLang()), "data-lang": l,
        title: l.toUpperCase(), onclick: () => setLang(l),
      }, l.toUpperCase()))),
    themeSwitch(),
  );
  document.getElementById("skip-link").textContent = t("nav.skip");
}

// The account's name (its profile) and a log-out button, or a log-in link (account.js).
function accountNav(hash) {
  const user = currentUser();
  if (!user) {
    return h("div.account-nav", null, h("a.login-link", { href: "#/login", "aria-current": /^#\/(login|register)/.test(hash) ? "page" : null }, t("account.log_in")));
  }
  return h("div.account-nav", null,
    h("a.account-name", { href: `#/players/${encodeURIComponent(user)}`, title: t("account.my_profile") }, user),
    h("button.btn.ghost.small.topbar-logout", { type: "button", onclick: logOut }, t("account.log_out")));
}

let routing = 0; // which route() call is the newest: a page still loading when the hash changes again is not mounted

async function route() {
  const mine = ++routing;
  const app = document.getElementById("app");
  if (current && current.destroy) current.destroy();
  current = null;
  renderTopbar();
  refreshSite();  // the banner, and what a moderator did to this account (moderation.js)
  // Invite links are /join/<game>#<invite>: the server answers the path with this page, and
  // the invite stays in the #fragment, which a browser never sends to any server.
  const join = location.pathname.match(/^\/join\/([^/]+)\/?$/);
  if (join && !online()) {
    clear(app).append(offlinePage());
    return;
  }
  if (join) {
    const m = await import("./lobby.js");
    if (mine !== routing) return;
    const invite = decodeURIComponent(location.hash.replace(/^#/, ""));
    current = m.mountJoin(app, decodeURIComponent(join[1]), invite);
    return;
  }
  const hash = location.hash || "#/";
  if (!online() && !OFFLINE_OK.test(hash)) {  // a table, the lobby, my games: say so instead of failing
    clear(app).append(offlinePage());
    return;
  }
  for (const [re, loader] of routes) {
    const m = hash.match(re);
    if (m) {
      const mount = await loader();
      if (mine !== routing) return;
      clear(app);
      current = mount(app, ...m.slice(1).map(decodeURIComponent));
      return;
    }
  }
  clear(app).append(h("section.panel.notfound", null, h("h1", null, t("err.not_found")), h("a.btn", { href: "#/" }, t("nav.lobby"))));
}

async function boot() {
  await initI18n();
  await loadSession();
  watch.start();  // my turn in any game: the top bar's count, the tab title, a notice (mygames.js)
  onAccountChange(() => watch.poll());
  popup.start();  // a friend's invitation, on every page but the lobby, which lists it (friends.js)
  onAccountChange(() => popup.poll());
  window.addEventListener("hashchange", () => popup.relabel());
  onAccountChange(() => { renderTopbar(); refreshSite(); if (current && current.relabel) current.relabel(); });
  onRoleChange(() => renderTopbar());
  onLangChange(() => {
    renderTopbar();
    popup.relabel();
    if (current && current.relabel) current.relabel();
    else route();
  });
  window.addEventListener("hashchange", route);
  startApp();  // the service worker, the update offer, the offline strip (appupdate.js)
  let wasOnline = online();
  const reroute = () => {  // a page that needed the connection comes back with it (and says so when it goes)
    const now = online();
    const hash = location.hash || "#/";
    if (now && !wasOnline) loadSession().then(() => watch.poll());
    if (now !== wasOnline && (!OFFLINE_OK.test(hash) || location.pathname.startsWith("/join/"))) route();
    wasOnline = now;
  };
  window.addEventListener("online", reroute);
  window.addEventListener("offline", reroute);
  window.addEventListener("unhandledrejection", (e) => {
    e.preventDefault();
    const msg = (e.reason && e.reason.message) || String(e.reason);
    toast(t("err.generic", { message: msg }), "error");
  });
  await route();
}

boot();
