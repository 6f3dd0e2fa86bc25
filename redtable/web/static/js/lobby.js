// The lobby: create a game (seats for people or bots), invite links, open/running/finished games.
import { h, clear, toast, copyText, icon } from "./dom.js";
import { t, ago } from "./i18n.js";
import { get, post, saveSeat, seatsHeld, playerName, setPlayerName } from "./api.js";

const SPEEDS = { instant: 0, normal: 0.7, slow: 1.6 };

export function mountLobby(root) {
  let titles = null;
  let tab = "active";
  let games = [];
  let created = null; // the answer of POST /api/games plus our own seat
  const form = {
    game: "red-rising",
    seats: [
      { type: "human", name: playerName(), bot: "random" },
      { type: "bot", name: "", bot: "heuristic" },
      { type: "bot", name: "", bot: "heuristic" },
    ],
    options: { "red-rising": { multiplayer_variant: false }, "red-north": { outpost_points: 1 } },
    undo: true,
    speed: "normal",
  };
  let busy = false;
  let timer = null;

  const page = h("div.lobby");
  root.append(page);

  function titleInfo(name) { return (titles || []).find((x) => x.name === name); }

  function clampSeats() {
    const ti = titleInfo(form.game);
    if (!ti) return;
    while (form.seats.length < ti.min_players) form.seats.push({ type: "bot", name: "", bot: "heuristic" });
    if (form.seats.length > ti.max_players) form.seats.length = ti.max_players;
  }

  function render() {
    clear(page);
    page.append(h("div.lobby-grid", null, created ? renderCreated() : renderForm(), renderGames()));
  }

  function renderForm() {
    const ti = titleInfo(form.game);
    const bots = ti ? ti.bots : ["random"];
    return h("section.panel.newgame", { "aria-labelledby": "new-h" },
      h("h1#new-h", null, t("lobby.new")),
      h("fieldset.titles", null, h("legend", null, t("lobby.choose_title")),
        (titles || []).map((x) => h("label.title-tile." + x.name, { "data-title": x.name },
          h("input", { type: "radio", name: "title", value: x.name, checked: form.game === x.name,
            onchange: () => { form.game = x.name; clampSeats(); render(); } }),
          h("span.title-art", { "aria-hidden": "true" }),
          h("span.title-name", null, t("title." + x.name)),
          h("span.title-players", null, t("title.players", { min: x.min_players, max: x.max_players })),
          h("span.title-blurb", null, t("title." + x.name + ".blurb"))))),
      h("fieldset.seats", null, h("legend", null, t("lobby.seats")),
        h("ol.seat-list", null, form.seats.map((s, i) => h("li.seat-row", { "data-seat": i },
          h("span.seat-no", null, i + 1),
          h("div.seg", { role: "group", "aria-label": t("lobby.seat", { n: i + 1 }) },
            ["human", "bot"].map((ty) => h("button", {
              type: "button", "aria-pressed": String(s.type === ty), "data-type": ty,
              onclick: () => { s.type = ty; render(); },
            }, ty === "human" ? t("lobby.person") : [icon("bot"), " ", t("lobby.bot")]))),
          s.type === "human"
            ? h("input.seat-name", { type: "text", maxlength: 40, "aria-label": t("lobby.name"), placeholder: t("lobby.name_placeholder"),
              value: s.name || "", oninput: (e) => { s.name = e.target.value; if (i === firstHuman()) setPlayerName(s.name); } })
            : h("select.seat-bot", { "aria-label": t("lobby.strength"), onchange: (e) => { s.bot = e.target.value; } },
              bots.map((b) => h("option", { value: b, selected: s.bot === b }, t("bot." + b)))),
          i === firstHuman() ? h("span.badge.you", null, t("seat.you")) : h("span.badge.placeholder"),
          h("button.icon-btn.remove", {
            type: "button", "aria-label": t("lobby.remove_seat", { n: i + 1 }), title: t("lobby.remove_seat", { n: i + 1 }),
            disabled: ti && form.seats.length <= ti.min_players,
            onclick: () => { form.seats.splice(i, 1); render(); },
          }, "×")))),
        h("button.btn.ghost.add-seat", {
          type: "button", disabled: ti && form.seats.length >= ti.max_players,
          onclick: () => { form.seats.push({ type: "bot", name: "", bot: "heuristic" }); render(); },
        }, "+ ", t("lobby.add_seat"))),
      h("fieldset.options", null, h("legend", null, t("lobby.options")),
        form.game === "red-rising"
          ? h("label.check", null, h("input", { type: "checkbox", name: "multiplayer_variant",
            checked: form.options["red-rising"].multiplayer_variant,
            onchange: (e) => { form.options["red-rising"].multiplayer_variant = e.target.checked; } }), t("opt.multiplayer_variant"))
          : h("label.inline", null, t("opt.outpost_points"), " ",
            h("input.num", { type: "number", min: 0, max: 9, name: "outpost_points", value: form.options["red-north"].outpost_points,
              onchange: (e) => { form.options["red-north"].outpost_points = Math.max(0, Math.min(9, parseInt(e.target.value || "1", 10))); } })),
        h("label.check", null, h("input", { type: "checkbox", name: "undo", checked: form.undo,
          onchange: (e) => { form.undo = e.target.checked; } }), t("lobby.undo")),
        h("label.inline", null, t("lobby.bot_speed"), " ",
          h("select", { name: "speed", onchange: (e) => { form.speed = e.target.value; } },
            Object.keys(SPEEDS).map((k) => h("option", { value: k, selected: form.speed === k }, t("lobby.speed." + k)))))),
      h("div.actions", null,
        h("button.btn.primary.create", { type: "button", disabled: busy, onclick: create }, busy ? t("lobby.creating") : t("lobby.create"))));
  }

  function firstHuman() { return form.seats.findIndex((s) => s.type === "human"); }

  async function create() {
    busy = true;
    render();
    const body = {
      game: form.game,
      seats: form.seats.map((s) => (s.type === "human"
        ? { type: "human", name: (s.name || "").trim() || null }
        : { type: "bot", bot: s.bot })),
      options: form.options[form.game],
      undo: form.undo,
      bot_delay: SPEEDS[form.speed] ?? 0,
    };
    try {
      const g = await post("/api/games", body);
      const mine = g.seats.find((s) => s.type === "human");
      let joined = null;
      if (mine) {
        joined = await post(`/api/games/${g.game_id}/join`, { invite: mine.invite, name: mine.name || playerName() || null });
        saveSeat(g.game_id, { token: joined.token, seat: joined.seat, name: joined.name });
      }
      created = { ...g, mySeat: mine ? mine.seat : null };
      if (!g.seats.some((s) => s.type === "human" && s.seat !== created.mySeat)) {
        location.hash = `#/game/${g.game_id}`;
        return;
      }
    } catch (e) {
      toast(t("err.generic", { message: e.message }), "error");
    } finally {
      busy = false;
    }
    render();
    loadGames();
  }

  function renderCreated() {
    const g = created;
    const others = g.seats.filter((s) => s.type === "human" && s.seat !== g.mySeat);
    return h("section.panel.created", { "aria-labelledby": "created-h" },
      h("h1#created-h", null, t("lobby.created"), " — ", t("title." + g.game)),
      h("p.muted", null, t("lobby.invites_help")),
      h("ul.invites", null, others.map((s) => {
        const url = location.origin + s.invite_url;
        return h("li.invite", { "data-seat": s.seat },
          h("span.seat-no", null, s.seat + 1),
          h("input.invite-url", { type: "text", readonly: true, value: url, "aria-label": t("lobby.seat", { n: s.seat + 1 }), onfocus: (e) => e.target.select() }),
          h("button.btn.small.copy", {
            type: "button", onclick: async (e) => {
              const ok = await copyText(url);
              e.target.closest("button").textContent = ok ? t("lobby.copied") : t("lobby.copy");
            },
          }, icon("copy"), " ", t("lobby.copy")));
      })),
      h("div.actions", null,
        h("a.btn.primary.enter", { href: `#/game/${g.game_id}` }, t("lobby.enter")),
        h("button.btn.ghost", { type: "button", onclick: () => { created = null; render(); } }, t("lobby.new"))));
  }

  function seatLabel(s) {
    if (s.type === "bot") return t("seat.bot", { n: s.seat + 1, bot: t("bot." + (s.bot || "random")) });
    return s.name || t("seat.n", { n: s.seat + 1 });
  }

  function renderGames() {
    const held = seatsHeld();
    const list = games.filter((g) => g.status === tab);
    return h("section.panel.games", { "aria-labelledby": "games-h" },
      h("div.panel-head", null,
        h("h2#games-h", null, t("lobby.games")),
        h("button.btn.ghost.small.refresh", { type: "button", onclick: loadGames }, t("lobby.refresh"))),
      h("div.tabs", { role: "tablist" },
        ["active", "finished"].map((k) => h("button.tab", {
          type: "button", role: "tab", "aria-selected": String(tab === k), "data-tab": k,
          onclick: () => { tab = k; render(); },
        }, t("lobby.tab." + k)))),
      list.length === 0 ? h("p.empty", null, t("lobby.no_games")) :
        h("ul.game-list", null, list.map((g) => {
          const mine = held[g.id];
          const open = g.seats.filter((s) => !s.joined).length;
          return h("li.game-row", { "data-game": g.id },
            h("div.game-title." + g.game, null, h("span.dot", { "aria-hidden": "true" }), t("title." + g.game)),
            h("div.game-seats", null, g.seats.map((s) => h("span.chip" + (s.joined ? "" : ".open"), null,
              s.type === "bot" ? icon("bot") : null, s.joined ? seatLabel(s) : t("lobby.open_seat")))),
            h("div.game-meta.muted", null,
              g.status === "finished" ? t("lobby.finished") : (open ? t("lobby.waiting_join") : t("lobby.in_progress")),
              " · ", t("lobby.steps", { n: g.steps }), " · ", ago(g.created_at)),
            h("div.game-actions", null,
              g.status === "active" && mine ? h("a.btn.small.primary.resume", { href: `#/game/${g.id}` }, t("lobby.resume")) : null,
              g.status === "active" ? h("a.btn.small.watch", { href: `#/game/${g.id}?watch=1` }, icon("eye"), " ", t("lobby.watch")) : null,
              g.status === "finished" ? h("a.btn.small.replay", { href: `#/replay/${g.id}` }, t("lobby.replay")) : null));
        })));
  }

  async function loadGames() {
    try {
      games = await get("/api/games?limit=60");
    } catch (e) {
      games = [];
    }
    render();
  }

  async function start() {
    try {
      titles = await get("/api/titles");
    } catch (e) {
      titles = [{ name: "red-rising", min_players: 2, max_players: 6, bots: ["random"] },
        { name: "red-north", min_players: 2, max_players: 4, bots: ["random"] }];
      toast(t("err.network"), "error");
    }
    clampSeats();
    render();
    loadGames();
    timer = setInterval(() => { if (!document.hidden && !created) loadGames(); }, 8000);
  }
  start();
  return { destroy() { clearInterval(timer); }, relabel: render };
}

export function mountJoin(root, gameId, invite) {
  const page = h("div.join");
  clear(root).append(page);
  let info = null;
  let error = null;
  let name = playerName();

  function render() {
    clear(page);
    if (error) {
      page.append(h("section.panel.narrow", null, h("h1", null, t("join.title")),
        h("p.error", null, t("join.failed", { message: error })), h("a.btn", { href: "/#/" }, t("nav.lobby"))));
      return;
    }
    const seatNo = info ? info.seat + 1 : "…";
    page.append(h("section.panel.narrow", { "aria-labelledby": "join-h" },
      h("h1#join-h", null, t("join.title")),
      h("p", null, t("join.text", { n: seatNo, title: info ? t("title." + info.game) : "" })),
      h("label.field", null, h("span", null, t("join.name")),
        h("input#join-name", { type: "text", maxlength: 40, value: name, oninput: (e) => { name = e.target.value; } })),
      h("div.actions", null, h("button.btn.primary.join-btn", { type: "button", onclick: join }, t("join.button")))));
  }

  async function join() {
    try {
      const r = await post(`/api/games/${gameId}/join`, { invite, name: name.trim() || null });
      setPlayerName(name.trim());
      saveSeat(gameId, { token: r.token, seat: r.seat, name: r.name });
      history.replaceState(null, "", `/#/game/${gameId}`);
      window.dispatchEvent(new HashChangeEvent("hashchange"));
    } catch (e) {
      error = e.message;
      render();
    }
  }

  (async () => {
    try {
      const g = await get(`/api/games/${gameId}?events=false`);
      // Which seat is this invite for? The join answer tells; until then show the game title.
      info = { game: g.game, seat: g.seats.find((s) => s.type === "human" && !s.joined)?.seat ?? 0 };
    } catch (e) {
      error = e.message;
    }
    render();
  })();
  render();
  return { relabel: render };
}
