// A player's profile (#/players/<name>: ratings with their history as a chart, games played and
// won per title and player count, recent games with replay links) and a title's leaderboard
// (#/leaderboard/<title>: people and bot presets by rating, the bots marked).
import { h, clear, toast } from "./dom.js";
import { t, ago, has } from "./i18n.js";
import { get } from "./api.js";
import { lineChart } from "./chart.js";
import { currentUser, logOut } from "./account.js";
import { reportButton } from "./moderation.js";
import { relationButtons } from "./friends.js";

const TITLES = ["red-rising", "red-north"];
const COLORS = { "red-rising": "#d8453a", "red-north": "#4b8fe0" };
const CHART_POINTS = 30; // the newest games in a chart
const PAGE = 25;

// A rating as people read it: the ordinal (mu - 3 sigma) with one decimal.
export function ratingText(r) { return (Math.round(r.ordinal * 10) / 10).toFixed(1); }

// The mark of a provisional rating (high sigma: too few games to say), wherever a rating is shown.
export function provisionalMark(r) {
  return r && r.provisional ? h("span.badge.provisional", { title: t("players.provisional_help") }, t("players.provisional")) : null;
}

function botLabel(b) { return has("bot." + b) ? t("bot." + b) : String(b); }

function titleTabs(current, href) {
  return h("nav.tabs.title-tabs", { "aria-label": t("players.titles") },
    TITLES.map((x) => h("a.tab", { href: href(x), "aria-current": x === current ? "page" : null, "data-title": x }, t("title." + x))));
}

// ---------------------------------------------------------------------- the profile
export function mountProfile(root, username) {
  const page = h("div.profile");
  root.append(page);
  let data = null;
  let error = null;

  function ratingCard(title) {
    const r = data.ratings[title];
    return h("div.rating-card." + title, { "data-title": title },
      h("span.rating-title", null, t("title." + title)),
      r ? h("b.rating-value", { title: t("players.ordinal_help") }, ratingText(r), " ", provisionalMark(r)) : h("b.rating-value.none", null, "—"),
      r ? h("span.muted.small.rating-detail", null, t("players.mu_sigma", { mu: r.mu.toFixed(1), sigma: r.sigma.toFixed(1) }), " · ",
        t("players.rated_games", { n: r.games })) : h("span.muted.small", null, t("players.unrated")));
  }

  // the rating against bot presets (games with a bot at the table), beside the presets' fixed ones
  function botPanel() {
    const titles = TITLES.filter((x) => (data.bot_ratings || {})[x]);
    if (!titles.length) return null;
    return h("section.panel.bot-ratings", { "aria-labelledby": "botr-h" },
      h("h2#botr-h", null, t("players.vs_bots")),
      h("p.muted.small", null, t("players.vs_bots_help")),
      titles.map((title) => {
        const mine = data.bot_ratings[title];
        const rows = [{ me: true, name: data.username, r: mine },
          ...Object.entries((data.presets || {})[title] || {}).map(([b, r]) => ({ me: false, name: botLabel(b), r }))];
        rows.sort((a, b) => b.r.ordinal - a.r.ordinal);
        return h("div.table-scroll", { "data-title": title }, h("table.board-table.vs-bots", null,
          h("caption", null, t("title." + title)),
          h("thead", null, h("tr", null, ["player", "rating", "games"].map((k) => h("th", { scope: "col", class: k }, t("players.col." + k))))),
          h("tbody", null, rows.map((x) => h("tr" + (x.me ? ".me" : ".bot"), null,
            h("td.who", null, x.me ? h("b", null, x.name) : [h("span.bot-name", null, x.name), " ", h("span.badge.bot", { title: t("players.bot_help") }, t("players.bot"))]),
            h("td.num.rating", { title: t("players.ordinal_help") }, ratingText(x.r), " ", x.me ? provisionalMark(x.r) : null),
            h("td.num.games", null, x.r.games))))));
      }));
  }

  function chart(title) {
    const hist = (data.history[title] || []).slice(-CHART_POINTS);
    if (!hist.length) return null;
    const values = [Math.round(hist[0].ordinal_before * 10) / 10, ...hist.map((p) => Math.round(p.ordinal * 10) / 10)];
    const first = (data.history[title].length - hist.length);
    const xs = values.map((_, i) => String(first + i));
    return h("section.panel.rating-chart", { "data-title": title, "aria-label": t("players.history", { title: t("title." + title) }) },
      h("h2", null, t("players.history", { title: t("title." + title) })),
      lineChart([t("title." + title)], [values], xs, [COLORS[title]], { min: Math.min(0, ...values) }),
      h("p.muted.small", null, t("players.chart_help")));
  }

  function render() {
    clear(page);
    if (error) {
      page.append(h("section.panel.narrow", null, h("h1", null, t("players.not_found")), h("p.error", null, error),
        h("a.btn", { href: "#/" }, t("nav.lobby"))));
      return;
    }
    if (!data) { page.append(h("p.muted", null, t("players.loading"))); return; }
    const mine = currentUser() && currentUser().toLowerCase() === data.username.toLowerCase();
    page.append(
      h("section.panel.profile-head", null,
        h("h1.profile-name", null, data.username),
        h("p.muted", null, t("players.member_since", { when: new Date(data.created_at * 1000).toLocaleDateString() })),
        h("div.rating-cards", null, TITLES.map(ratingCard)),
        mine ? h("div.actions", null, h("button.btn.ghost.small.logout", { type: "button", onclick: logOut }, t("account.log_out")))
          : h("div.actions", null, relationButtons(data.username),  // follow, block (friends.js)
            reportButton({ kind: "player", username: data.username }, t("report.title.player"), data.username))),
      ...TITLES.map(chart).filter(Boolean),
      ...[botPanel()].filter(Boolean),
      h("div.profile-grid", null, statsPanel(), recentPanel()));
  }

  function statsPanel() {
    return h("section.panel.stats", { "aria-labelledby": "stats-h" },
      h("h2#stats-h", null, t("players.stats")),
      data.stats.length === 0 ? h("p.empty", null, t("players.no_games")) :
        h("table.stats-table", null,
          h("thead", null, h("tr", null, ["title", "players", "played", "won"].map((k) => h("th", { scope: "col" }, t("players.col." + k))))),
          h("tbody", null, data.stats.map((s) => h("tr", { "data-title": s.game, "data-players": s.players },
            h("td", null, t("title." + s.game)), h("td.num", null, s.players), h("td.num.played", null, s.played), h("td.num.won", null, s.won))))));
  }

  function recentPanel() {
    return h("section.panel.recent", { "aria-labelledby": "recent-h" },
      h("h2#recent-h", null, t("players.recent")),
      data.recent.length === 0 ? h("p.empty", null, t("players.no_games")) :
        h("ul.recent-list", null, data.recent.map((g) => h("li.recent-game", { "data-game": g.game_id },
          h("span.game-title." + g.game, null, h("span.dot", { "aria-hidden": "true" }), t("title." + g.game)),
          h("span.muted.small", null, t("title.players", { min: g.players, max: g.players, n: g.players }), " · ", ago(g.created_at)),
          g.rated ? h("span.badge.rated", null, t("players.rated")) : null,
          g.status === "finished"
            ? h("span.badge.outcome" + (g.won ? ".won" : ""), null, t(g.won ? "players.won" : "players.lost"))
            : h("span.badge", null, t("lobby.in_progress")),
          h("a.btn.small" + (g.status === "finished" ? ".replay" : ".resume"), { href: g.url.replace(/^\//, "") },
            t(g.status === "finished" ? "lobby.replay" : "players.open"))))));
  }

  (async () => {
    try {
      data = await get(`/api/players/${encodeURIComponent(username)}`);
    } catch (e) {
      error = e.message;
      if (e.status === 429) toast(e.message, "error");
    }
    render();
  })();
  render();
  return { relabel: render };
}

// ---------------------------------------------------------------------- the leaderboard
export function mountLeaderboard(root, title) {
  const page = h("div.leaderboard");
  root.append(page);
  const m = location.hash.match(/[?&]page=(\d+)/);
  const pageNo = Math.max(1, m ? parseInt(m[1], 10) : 1);
  let data = null;
  let error = null;

  function row(p) {
    const me = currentUser() && p.username && currentUser().toLowerCase() === p.username.toLowerCase();
    return h("tr" + (p.is_bot ? ".bot" : "") + (me ? ".me" : ""), { "data-rank": p.rank },
      h("td.num.rank", null, p.rank),
      h("td.who", null, p.is_bot
        ? [h("span.bot-name", null, botLabel(p.bot)), " ", h("span.badge.bot", { title: t("players.bot_help") }, t("players.bot"))]
        : h("a.player-link", { href: `#/players/${encodeURIComponent(p.username)}` }, p.username)),
      h("td.num.rating", { title: t("players.ordinal_help") }, ratingText(p), p.is_bot ? null : [" ", provisionalMark(p)]),
      h("td.num.muted.mu", null, p.mu.toFixed(1), " ± ", p.sigma.toFixed(1)),
      h("td.num.games", null, p.games));
  }

  function render() {
    clear(page);
    const head = h("div.panel-head", null, h("h1", null, t("players.leaderboard", { title: t("title." + title) })));
    const panel = h("section.panel.board", { "aria-labelledby": "board-h" }, head, titleTabs(title, (x) => `#/leaderboard/${x}`));
    head.firstChild.id = "board-h";
    page.append(panel);
    if (error) { panel.append(h("p.error", null, error)); return; }
    if (!data) { panel.append(h("p.muted", null, t("players.loading"))); return; }
    panel.append(h("p.muted.small", null, t("players.board_help")),
      data.players.length === 0 ? h("p.empty", null, t("players.no_ratings")) :
        h("div.table-scroll", null, h("table.board-table", null,
          h("thead", null, h("tr", null, ["rank", "player", "rating", "mu", "games"].map((k) => h("th", { scope: "col", class: k }, t("players.col." + k))))),
          h("tbody", null, data.players.map(row)))));
    const pages = Math.max(1, Math.ceil(data.total / PAGE));
    if (pages > 1) {
      panel.append(h("nav.pager", { "aria-label": t("players.pages") },
        pageNo > 1 ? h("a.btn.small.prev", { href: `#/leaderboard/${title}?page=${pageNo - 1}` }, "‹ ", t("players.prev")) : null,
        h("span.muted", null, t("players.page", { n: pageNo, of: pages })),
        pageNo < pages ? h("a.btn.small.next", { href: `#/leaderboard/${title}?page=${pageNo + 1}` }, t("players.next"), " ›") : null));
    }
  }

  (async () => {
    try {
      data = await get(`/api/leaderboard/${encodeURIComponent(title)}?limit=${PAGE}&offset=${(pageNo - 1) * PAGE}`);
    } catch (e) {
      error = e.message;
    }
    render();
  })();
  render();
  return { relabel: render };
}
