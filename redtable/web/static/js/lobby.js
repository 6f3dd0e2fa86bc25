// The lobby: create a game (seats for people or bots), invite links, open/running/finished games;
// the join page of an invite link (/join/<game>#<invite>).
import { h, clear, toast, copyText, icon } from "./dom.js";
import { t, ago, has, list } from "./i18n.js";
import {
  get, post, saveSeat, seatFor, seatsHeld, playerName, setPlayerName, creatorKey, saveCreatorKey, saveInvite, NAME_MAX,
} from "./api.js";
import { currentUser, accountForm } from "./account.js";
import { FindPanel, tableFields, tableBody } from "./tables.js";
import { FriendsPanel } from "./friends.js";
import { clockLabel } from "./clockview.js";

const SPEEDS = { instant: 0, normal: 0.7, slow: 1.6 };
const FALLBACK_BOTS = ["random", "heuristic", "ismcts:0.2s", "ismcts:1s", "expert:1s"];

export function botLabel(b) { return has("bot." + b) ? t("bot." + b) : String(b); }

// A bot seat's short name wherever it names a player ("Bot 2 · Expert"); the long label stays in the form's picker.
export function botSeatName(seat, b) {
  const kind = has("bot.short." + b) ? t("bot.short." + b) : botLabel(b);
  return t("seat.bot_short", { n: seat + 1, bot: kind });
}

// A read-only link with a copy button (invite links).
export function inviteField(url, label) {
  const input = h("input.invite-url", { type: "text", readonly: true, value: url, "aria-label": label, onfocus: (e) => e.target.select() });
  const btn = h("button.btn.small.copy", {
    type: "button", onclick: async () => {
      const ok = await copyText(url);
      clear(btn).append(icon("copy"), " ", ok ? t("lobby.copied") : t("lobby.copy"));
    },
  }, icon("copy"), " ", t("lobby.copy"));
  return h("div.invite-field", null, input, btn);
}

// The creator (this browser kept the game's creator_key) replaces the invite of a seat nobody took.
async function reissue(gameId, seat) {
  const key = creatorKey(gameId);
  const r = await post(`/api/games/${encodeURIComponent(gameId)}/seats/${seat}/invite`, undefined, key);
  return location.origin + r.invite_url;
}

function seedMarker() {
  return h("span.badge.seed-chosen", { title: t("game.seed_chosen_help") }, t("game.seed_chosen"));
}

export function mountLobby(root) {
  let titles = null;
  let tab = "active";
  let games = [];
  let formError = null;
  const fresh = {}; // "gameId:seat" -> a re-issued invite link shown in the games list
  const form = {
    game: "red-rising",
    seats: [
      { type: "human", name: playerName(), bot: "heuristic" },
      { type: "bot", name: "", bot: "heuristic" },
      { type: "bot", name: "", bot: "heuristic" },
    ],
    options: { "red-rising": { multiplayer_variant: false }, "red-north": { outpost_points: 1 } },
    undo: true,
    rated: false, // only while logged in: no undo, no seed (the server refuses them)
    speed: "normal",
    seed: "",
  };
  let busy = false;
  let timer = null;

  const page = h("div.lobby");
  root.append(page);
  const find = new FindPanel(() => titles);  // quick play and the open tables (tables.js)
  const friends = new FriendsPanel().start();  // friends' tables and games, invitations (friends.js)

  function titleInfo(name) { return (titles || []).find((x) => x.name === name); }
  function botsOf(ti) { return ti && Array.isArray(ti.bots) && ti.bots.length ? ti.bots : FALLBACK_BOTS; }
  function humans() { return form.seats.filter((s) => s.type === "human").length; }

  function clampSeats() {
    const ti = titleInfo(form.game);
    if (!ti) return;
    while (form.seats.length < ti.min_players) form.seats.push({ type: "bot", name: "", bot: "heuristic" });
    if (form.seats.length > ti.max_players) form.seats.length = ti.max_players;
  }

  function render() {
    clear(page);
    page.append(h("p.muted.lobby-learn", null, t("lobby.learn"), " ",
      h("a.btn.small.learn-link", { href: "#/learn" }, t("lobby.learn_link"))),
      h("div.lobby-grid", null, renderForm(), h("div.lobby-side", null, friends.el, find.el, renderGames())));
  }

  function renderForm() {
    const ti = titleInfo(form.game);
    const bots = botsOf(ti);
    for (const s of form.seats) if (!bots.includes(s.bot)) s.bot = bots.includes("heuristic") ? "heuristic" : bots[0];
    const rated = form.rated && !!currentUser();
    const seedAllowed = humans() <= 1 && !rated;
    return h("section.panel.newgame", { "aria-labelledby": "new-h" },
      h("h1#new-h", null, t("lobby.new")),
      h("fieldset.titles", null, h("legend", null, t("lobby.choose_title")),
        (titles || []).map((x) => h("label.title-tile." + x.name, { "data-title": x.name },
          h("input", { type: "radio", name: "title", value: x.name, checked: form.game === x.name,
            onchange: () => { form.game = x.name; clampSeats(); render(); } }),
          h("span.title-art", { "aria-hidden": "true" }),
          h("span.title-name", null, t("title." + x.name)),
          h("span.title-players", null, t("title.players", { min: x.min_players, max: x.max_players, n: x.max_players })),
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
            ? h("input.seat-name", { type: "text", maxlength: NAME_MAX, autocomplete: "nickname", "aria-label": t("lobby.name"), placeholder: t("lobby.name_placeholder"),
              value: s.name || "", oninput: (e) => { s.name = e.target.value; if (i === firstHuman()) setPlayerName(s.name); } })
            : h("select.seat-bot", { "aria-label": t("lobby.strength"), onchange: (e) => { s.bot = e.target.value; } },
              bots.map((b) => h("option", { value: b, selected: s.bot === b }, botLabel(b)))),
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
        h("label.check", null, h("input", { type: "checkbox", name: "undo", checked: form.undo && !rated, disabled: rated,
          onchange: (e) => { form.undo = e.target.checked; } }), t("lobby.undo")),
        currentUser() ? h("label.check.rated-check", null, h("input", { type: "checkbox", name: "rated", checked: rated,
          "aria-describedby": "rated-help", onchange: (e) => { form.rated = e.target.checked; render(); } }),
          h("span", null, t("lobby.rated"), h("small#rated-help.muted.block", null, t("lobby.rated_help")))) : null,
        tableFields(form, render),  // open seats, a clock (tables.js)
        h("label.inline", null, t("lobby.bot_speed"), " ",
          h("select", { name: "speed", onchange: (e) => { form.speed = e.target.value; } },
            Object.keys(SPEEDS).map((k) => h("option", { value: k, selected: form.speed === k }, t("lobby.speed." + k))))),
        h("div.seed-field", null,
          h("label.inline", null, t("lobby.seed"), " ",
            h("input.num.seed", { type: "text", inputmode: "numeric", pattern: "[0-9]*", maxlength: 16, name: "seed",
              placeholder: t("lobby.seed_placeholder"), value: seedAllowed ? form.seed : "", disabled: !seedAllowed,
              "aria-describedby": "seed-help", oninput: (e) => { form.seed = e.target.value.replace(/\D/g, ""); } })),
          h("p#seed-help.muted.small", null, seedAllowed ? t("lobby.seed_help") : t(rated ? "lobby.seed_rated" : "lobby.seed_disabled")))),
      formError ? h("p.error.form-error", { role: "alert" }, formError) : null,
      h("div.actions", null,
        h("button.btn.primary.create", { type: "button", disabled: busy, onclick: create }, busy ? t("lobby.creating") : t("lobby.create"))));
  }

  function firstHuman() { return form.seats.findIndex((s) => s.type === "human"); }

  async function create() {
    busy = true;
    formError = null;
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
    const rated = form.rated && !!currentUser();
    if (rated) { body.rated = true; body.undo = false; }
    Object.assign(body, tableBody(form));
    const seed = form.seed === "" ? null : Number(form.seed);
    if (seed !== null && humans() <= 1 && !rated && Number.isSafeInteger(seed)) body.seed = seed;
    try {
      const g = await post("/api/games", body);
      saveCreatorKey(g.game_id, g.creator_key);
      const mine = g.seats.find((s) => s.type === "human");
      // the other seats' links, shown in the table's waiting room until everyone came (waitroom.js)
      for (const s of g.seats) if (s.invite && s !== mine) saveInvite(g.game_id, s.seat, location.origin + s.invite_url);
      if (mine) {
        const joined = await post(`/api/games/${g.game_id}/join`, { invite: mine.invite, name: mine.name || null });
        saveSeat(g.game_id, { token: joined.token, seat: joined.seat, name: joined.name });
      }
      location.hash = `#/game/${g.game_id}`;
      return;
    } catch (e) {
      formError = e.message;
      toast(e.message, "error", 6000);
    } finally {
      busy = false;
    }
    render();
  }

  function seatLabel(s) {
    if (s.type === "bot") return botSeatName(s.seat, s.bot || "random");
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
          const canReissue = g.status === "active" && creatorKey(g.id);
          const reissuable = canReissue ? g.seats.filter((s) => s.type === "human" && !s.joined) : [];
          return h("li.game-row", { "data-game": g.id },
            h("div.game-title." + g.game, null, h("span.dot", { "aria-hidden": "true" }), t("title." + g.game),
              g.seed_chosen_by_creator ? seedMarker() : null,
              g.rated ? h("span.badge.rated", null, t("players.rated")) : null),
            h("div.game-seats", null, g.seats.map((s) => h("span.chip" + (s.joined ? "" : ".open"), null,
              s.type === "bot" ? icon("bot") : null, s.joined ? seatLabel(s) : t("lobby.open_seat")))),
            h("div.game-meta.muted", null,
              g.status === "finished" ? t("lobby.finished") : (open ? t("lobby.waiting_join") : t("lobby.in_progress")),
              " · ", t("lobby.steps", { n: g.steps }), " · ", ago(g.created_at)),
            reissuable.length ? h("div.reissue", null, reissuable.map((s) => {
              const url = fresh[`${g.id}:${s.seat}`];
              return h("div.reissue-seat", { "data-seat": s.seat },
                h("button.btn.small.ghost.new-invite", {
                  type: "button", title: t("lobby.new_invite_help"), onclick: async (e) => {
                    e.currentTarget.disabled = true;
                    try {
                      fresh[`${g.id}:${s.seat}`] = await reissue(g.id, s.seat);
                      saveInvite(g.id, s.seat, fresh[`${g.id}:${s.seat}`]);
                    } catch (err) {
                      toast(err.message, "error", 6000);
                    }
                    render();
                  },
                }, t("lobby.new_invite_seat", { n: s.seat + 1 })),
                url ? inviteField(url, t("lobby.seat", { n: s.seat + 1 })) : null);
            })) : null,
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
      if (e.status === 429) toast(e.message, "error");
      else games = [];
    }
    render();
  }

  async function start() {
    try {
      titles = await get("/api/titles");
    } catch (e) {
      titles = [{ name: "red-rising", min_players: 2, max_players: 6, bots: FALLBACK_BOTS },
        { name: "red-north", min_players: 2, max_players: 4, bots: FALLBACK_BOTS }];
      toast(e.status === 429 ? e.message : t("err.network"), "error");
    }
    clampSeats();
    render();
    loadGames();
    timer = setInterval(() => { if (!document.hidden && !pageBusy()) loadGames(); }, 8000);
  }
  // no refresh under the reader's hands (a focused field, a link being copied)
  function pageBusy() {
    const a = document.activeElement;
    return a && page.contains(a) && (a.tagName === "INPUT" || a.tagName === "SELECT");
  }
  start();
  return { destroy() { clearInterval(timer); find.destroy(); friends.destroy(); }, relabel() { find.render(); friends.load(); render(); } };
}

// ---------------------------------------------------------------------- the join page
export function mountJoin(root, gameId, invite) {
  const page = h("div.join");
  clear(root).append(page);
  let info = null;
  let error = invite ? null : t("join.no_invite");
  let nameError = null;
  let busy = false;
  let name = playerName().slice(0, NAME_MAX);
  const held = seatFor(gameId);

  function render() {
    clear(page);
    if (error) {
      page.append(h("section.panel.narrow.join-failed", null, h("h1", null, t("join.title")),
        h("p.error", null, t("join.failed", { message: error })),
        held ? h("p", null, h("a.btn.primary.open-held", { href: `/#/game/${encodeURIComponent(gameId)}` }, t("join.open"))) : null,
        h("a.btn", { href: "/#/" }, t("nav.lobby"))));
      return;
    }
    page.append(h("section.panel.narrow", { "aria-labelledby": "join-h" },
      h("h1#join-h", null, t("join.title")),
      info ? h("p.join-invited", null, info.host && info.host.name
        ? t("join.invited_by", { host: info.host.name, title: t("title." + info.game) })
        : t("join.invited", { title: t("title." + info.game) })) : h("p", null, t("join.text", { title: "" })),
      info ? gameFacts(info) : null,
      info && info.seed_chosen_by_creator ? h("p", null, seedMarker()) : null,
      info && info.rated ? h("p.rated-note", null, h("span.badge.rated", null, t("players.rated")), " ",
        t(currentUser() ? "join.rated" : "join.rated_login")) : null,
      needsLogin() ? accountForm("login", () => render()).el : null,
      held ? h("p.muted.small.join-held", null, t("join.already"), " ",
        h("a.open-held", { href: `/#/game/${encodeURIComponent(gameId)}` }, t("join.open"))) : null,
      needsLogin() ? null : h("label.field", null, h("span", null, t("join.name")),
        h("input#join-name", { type: "text", maxlength: NAME_MAX, autocomplete: "nickname", value: name,
          "aria-invalid": nameError ? "true" : null, "aria-describedby": nameError ? "join-name-error" : null,
          oninput: (e) => { name = e.target.value; } })),
      nameError ? h("p#join-name-error.error.join-error", { role: "alert" }, nameError) : null,
      needsLogin() ? null : h("div.actions", null, h("button.btn.primary.join-btn", { type: "button", disabled: busy, onclick: join }, t("join.button")))));
  }

  // The game and its options, and who is at the table (the invite's own seat is the empty one it names).
  function gameFacts(g) {
    const bots = g.seats.filter((x) => x.type === "bot");
    const speed = g.speed === "realtime" || g.speed === "turn" ? t("join.speed." + g.speed, { clock: clockLabel(g.clock) }) : t("join.speed.none");
    const facts = [
      t("join.players", { n: g.players }),
      speed,
      g.rated ? t("join.rated_yes") : t("join.unrated"),
      bots.length ? t("join.bots", { n: bots.length, bots: list(bots.map((x) => botSeatName(x.seat, x.bot || "random"))) }) : t("join.no_bots"),
      g.undo ? t("info.undo_on") : t("info.undo_off"),
    ];
    if (g.game === "red-rising" && g.options && g.options.multiplayer_variant) facts.push(t("opt.multiplayer_variant"));
    return h("div.join-facts", null,
      h("h2.small-head", null, t("join.game")),
      h("ul.join-options", null, facts.map((f) => h("li", null, f))),
      h("h2.small-head", null, t("join.seats")),
      h("ul.join-seats", null, g.seats.map((x) => h("li.join-seat" + (x.joined ? ".joined" : ".open"), { "data-seat": x.seat },
        x.type === "bot" ? icon("bot") : null,
        h("span", null, x.type === "bot" ? botSeatName(x.seat, x.bot || "random") : x.joined ? (x.name || t("seat.n", { n: x.seat + 1 })) : t("seat.n", { n: x.seat + 1 })),
        g.host && g.host.seat === x.seat && x.joined ? h("span.badge.host", null, t("wait.host")) : null,
        x.type === "human" && !x.joined ? h("span.muted.small", null, " · ", t("lobby.open_seat")) : null))));
  }

  // a rated game's seat is taken by a logged-in account only (the server refuses a guest)
  function needsLogin() { return !!(info && info.rated && !currentUser()); }

  async function join() {
    busy = true;
    nameError = null;
    render();
    const wanted = name.trim() || null;
    const path = `/api/games/${encodeURIComponent(gameId)}/join`;
    try {
      let r;
      try {
        r = await post(path, { invite, name: wanted });
      } catch (e) {
        if (e.code !== "game_started") throw e;
        // the game has begun: a seat's name no longer changes; take the seat under its name
        r = await post(path, { invite, name: null });
        toast(t("join.name_kept", { name: r.name || t("seat.n", { n: r.seat + 1 }) }), "info", 6000);
      }
      if (wanted) setPlayerName(wanted);
      saveSeat(gameId, { token: r.token, seat: r.seat, name: r.name });
      // the invite leaves the address bar (and the history) once used
      history.replaceState(null, "", `/#/game/${encodeURIComponent(gameId)}`);
      window.dispatchEvent(new HashChangeEvent("hashchange"));
      return;
    } catch (e) {
      if (e.code === "bad_name") nameError = e.message;  // already says why, in the page's language
      else if (e.status === 429) nameError = e.message;
      else error = e.message;
    }
    busy = false;
    render();
    const field = page.querySelector("#join-name");
    if (nameError && field) field.focus();
  }

  (async () => {
    if (error) return;
    try {
      info = await get(`/api/games/${encodeURIComponent(gameId)}?events=false`);
    } catch (e) {
      error = e.message;
    }
    render();
  })();
  render();
  return { relabel: render };
}
