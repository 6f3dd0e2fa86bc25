// Learning to play: the hub (#/learn), and a guided first game per title (#/learn/<game>, which
// deals it, then #/learn/<game>/<id>, which plays it).
//
// A guided game is a real game on the real server: one person against one bot, dealt from the
// seed of the title's script (static/learn/<game>.json; a seed is allowed where one person
// plays). Bots are seeded from the game's seed and step (server/live.py), so for the lesson's
// moves the bot answers the same way every time and the script stays true. The table is
// table.js's own (mountGame); this module adds the coach: a card that explains each step and why,
// a glow on the step's target, and a check of every click on a choice. A choice other than the
// lesson's is held back: the player goes back to the lesson, or plays it and goes on without
// the guide. The script is data:
//   {"id", "at": step, "kind": decision kind, "option": action, "target": CSS selector}  a move
//   {"id", "target"?, "from"?: step, "reveal"?: selector}                                  a text to read
//     ("from": shown once the game has reached that step; "reveal": what to click to unfold a
//     target the screen folds away, as the log on a phone)
//   {"id", "final": true}                                                                 the end of the guided part
// Texts are "tut.<rr|rn>.<id>.title|body" in i18n/learn/*.json.
import { h, clear, icon } from "./dom.js";
import { t } from "./i18n.js";
import { get, post, saveSeat, seatFor, saveCreatorKey, playerName } from "./api.js";
import { ensureLearnStyles, loadLearnText, lt, ltBlocks, ruleRefs, ruleVars, rulesData } from "./learntext.js";
import { mountGame } from "./table.js";
import { currentUser } from "./account.js";

export const TITLES = ["red-rising", "red-north"];
const SHORT = { "red-rising": "rr", "red-north": "rn" };
const STORE = "redtable.learn";

// ---------------------------------------------------------------------- what this browser keeps
// {game: {id, acked: [step ids read], mode: "guided" | "free" | "done", collapsed}}
function readStore() {
  try {
    const v = JSON.parse(localStorage.getItem(STORE) || "{}");
    return v && typeof v === "object" ? v : {};
  } catch (e) { return {}; }
}
function saved(game) { return readStore()[game] || null; }
function save(game, value) {
  const all = readStore();
  if (value === null) delete all[game];
  else all[game] = value;
  try { localStorage.setItem(STORE, JSON.stringify(all)); } catch (e) { /* private mode: this page only */ }
}
function update(game, patch) {
  const cur = saved(game);
  if (cur) save(game, { ...cur, ...patch });
}

const scripts = {};
export function loadScript(game) {
  if (!scripts[game]) {
    scripts[game] = fetch(`/learn/${game}.json`, { cache: "no-cache" })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`/learn/${game}.json: HTTP ${r.status}`))))
      .catch((e) => { delete scripts[game]; throw e; });
  }
  return scripts[game];
}

// The saved guided game of `game` if it is still being played here (its seat is held), else null.
async function activeGame(game) {
  const s = saved(game);
  if (!s || !s.id || !seatFor(s.id)) return null;
  try {
    const info = await get(`/api/games/${encodeURIComponent(s.id)}?events=false`);
    return (info.status === "active" || info.status === "waiting") && info.game === game ? s : null;
  } catch (e) {
    return null;
  }
}

// ---------------------------------------------------------------------- the hub
export function mountLearnHub(root) {
  const page = h("div.learn-hub");
  root.append(page);
  let active = {};
  let destroyed = false;

  function render() {
    clear(page).append(
      h("header", null, h("h1", null, lt("hub.title")), h("p.muted", null, lt("hub.intro"))),
      h("div.learn-titles", null, TITLES.map((g) => h("section.panel.learn-title." + g, { "data-title": g, "aria-labelledby": `learn-${g}-h` },
        h(`h2#learn-${g}-h`, null, t("title." + g)),
        h("p.muted", null, t("title." + g + ".blurb")),
        h("p", null, lt("hub.what." + g)),
        h("p.muted.small", null, lt("hub.time")),
        h("div.actions", null,
          h("a.btn.primary.first-game", { href: `#/learn/${g}` }, icon("play"), " ", active[g] ? lt("hub.continue") : lt("hub.first_game")),
          h("a.btn.rules-link", { href: `#/rules/${g}` }, lt("hub.rules")),
          active[g] ? h("button.btn.ghost.restart", {
            type: "button", onclick: () => { save(g, null); location.hash = `#/learn/${g}`; },
          }, lt("hub.restart")) : null)))));
  }

  (async () => {
    await Promise.all([ensureLearnStyles(), loadLearnText()]);
    if (destroyed) return;
    render();
    const found = await Promise.all(TITLES.map((g) => activeGame(g)));
    if (destroyed) return;
    active = Object.fromEntries(TITLES.map((g, i) => [g, found[i]]));
    render();
  })();
  return {
    destroy() { destroyed = true; },
    relabel() { loadLearnText().then(() => { if (!destroyed) render(); }); },
  };
}

// ---------------------------------------------------------------------- dealing a guided game
export function mountTutorialStart(root, game) {
  const page = h("section.panel.narrow.learn-start", { "aria-live": "polite" });
  root.append(page);
  let destroyed = false;

  async function start() {
    await Promise.all([ensureLearnStyles(), loadLearnText()]);
    if (destroyed) return;
    if (!TITLES.includes(game)) {
      clear(page).append(h("p.error", null, lt("start.unknown")), h("a.btn", { href: "#/learn" }, t("nav.learn")));
      return;
    }
    clear(page).append(h("p.prompt-wait", null, h("span.spinner", { "aria-hidden": "true" }), lt("start.creating")));
    try {
      const kept = await activeGame(game);
      const id = kept ? kept.id : await deal(game);
      if (destroyed) return;
      // the address of the game replaces the dealing page (Back goes to where the player was)
      history.replaceState(null, "", `#/learn/${game}/${encodeURIComponent(id)}`);
      window.dispatchEvent(new HashChangeEvent("hashchange"));
    } catch (e) {
      if (destroyed) return;
      clear(page).append(h("p.error", null, lt("start.failed", { message: e.message })),
        h("div.actions", null, h("button.btn.primary", { type: "button", onclick: start }, lt("start.retry")),
          h("a.btn", { href: "#/learn" }, t("nav.learn"))));
    }
  }
  start();
  return { destroy() { destroyed = true; }, relabel() { /* short-lived: it moves on by itself */ } };
}

async function deal(game) {
  const script = await loadScript(game);
  const body = (name) => ({
    game, seed: script.seed, options: script.options, undo: true, bot_delay: script.bot_delay, tutorial: true,
    seats: [{ type: "human", name }, { type: "bot", bot: script.bot }],
  });
  // the lesson's seat is named as the player is (the remembered name, else the account's)
  const name = (playerName() || currentUser() || "").trim().slice(0, 24) || null;
  let g;
  try {
    g = await post("/api/games", body(name));
  } catch (e) {
    if (e.code !== "bad_name" || !name) throw e;
    g = await post("/api/games", body(null));  // a remembered name the server refuses: play unnamed
  }
  saveCreatorKey(g.game_id, g.creator_key);
  const mine = g.seats.find((s) => s.type === "human");
  const joined = await post(`/api/games/${encodeURIComponent(g.game_id)}/join`, { invite: mine.invite, name: null });
  saveSeat(g.game_id, { token: joined.token, seat: joined.seat, name: joined.name });
  save(game, { id: g.game_id, acked: [], mode: "guided", collapsed: false });
  return g.game_id;
}

// ---------------------------------------------------------------------- the guided game
export function mountTutorialGame(root, game, gameId) {
  const wrap = h("div.tutorial", { "data-title": game });
  const tableRoot = h("div.tutorial-table");
  const coach = h("aside.coach", { "aria-label": "guide", hidden: true, tabindex: "-1" });
  const said = h("p.sr.coach-said", { "aria-live": "polite" });  // a new step is read out once, not at every re-render
  wrap.append(tableRoot, coach, said);
  root.append(wrap);

  let script = null;
  let rules = null;
  let handle = null;
  let ctx = null;
  let shellEl = null;
  let destroyed = false;
  let deviation = null;    // {action, chosen, expected}: a click held back
  let current = null;      // {step, kind}: what the coach shows
  let scrolledFor = null;  // the step whose target was last brought into view
  let revealed = null;     // the step whose folded target was opened
  const confirmed = new Set();  // the steps (at) of the lesson's moves this page saw sent as scripted
  let checkedUpTo = 0;     // the log has been compared with the script up to this step
  let offPath = false;     // a move of the log is not the script's (made in another tab, say)
  let checking = false;
  let shownKey = "";       // what the coach shows (kind and step), to tell a new step from a re-render
  if (!saved(game) || saved(game).id !== gameId) save(game, { id: gameId, acked: [], mode: "guided", collapsed: false });
  const state = () => saved(game) || { id: gameId, acked: [], mode: "guided", collapsed: false };

  // -------------------------------------------------------------- where the lesson stands
  function decisionSteps() { return script.steps.filter((s) => s.at !== undefined); }

  function mineNow() {
    const d = ctx && ctx.decision;
    return !!(d && d.options && !d.auto && ctx.isMe(d.player));
  }

  function snapStep() { return handle && handle.session.snap ? handle.session.snap.step : 0; }

  // The next decision the lesson expects of the player, if the game is still on the lesson's path.
  function nextDecision() {
    const step = snapStep();
    return decisionSteps().find((s) => s.at >= step) || null;
  }

  function onScript() {
    const step = snapStep();
    const next = nextDecision();
    const d = ctx.decision;
    if (!next) return true;  // past the last scripted move: nothing left to check
    if (mineNow()) return next.at === step && d.kind === next.kind && d.options.includes(next.option);
    return next.at !== step;  // the lesson expects the player here, but someone else decides
  }

  // The lesson's moves already made must be the script's: those this page did not send itself are
  // read back from the game's log (the seat's own actions), once, when the game passes them.
  function checkPast() {
    const step = snapStep();
    if (step < checkedUpTo) {  // an undo took moves back: those made again are checked again
      checkedUpTo = step;
      for (const at of [...confirmed]) if (at >= step) confirmed.delete(at);
    }
    if (checking || offPath || state().mode !== "guided" || step <= checkedUpTo) return;
    const unseen = decisionSteps().filter((s) => s.at < step && s.at >= checkedUpTo && !confirmed.has(s.at));
    if (!unseen.length) { checkedUpTo = step; return; }
    const held = seatFor(gameId);
    checking = true;
    get(`/api/games/${encodeURIComponent(gameId)}/log`, held && held.token).then((log) => {
      for (const s of decisionSteps()) {
        const entry = log.log[s.at];
        if (!entry) break;
        if (entry.seat !== ctx.me || entry.action !== s.option) offPath = true;
      }
      checkedUpTo = Math.max(checkedUpTo, log.steps);
    }).catch(() => { /* unreadable now: checked again at the next step */ }).finally(() => {
      checking = false;
      if (!destroyed) renderCoach();
    });
  }

  function compute() {
    const st = state();
    if (!ctx) return { kind: "loading" };
    if (st.mode === "done") return { kind: "hidden" };
    if (st.mode === "free") return { kind: "freed" };
    if (ctx.me === null || ctx.me === undefined || offPath) return { kind: "offscript" };
    if (ctx.status === "finished" && nextDecision()) return { kind: "offscript" };
    if (!onScript()) return { kind: "offscript" };
    const step = snapStep();
    const acked = new Set(st.acked || []);
    const steps = script.steps;
    for (let i = 0; i < steps.length; i++) {
      const s = steps[i];
      if (s.at !== undefined) {
        if (s.at < step) continue;
        return { step: s, index: i, kind: mineNow() && s.at === step ? "decision" : "wait" };
      }
      // a text to read: done once read, or once a later move has been made
      const later = steps.slice(i + 1).find((x) => x.at !== undefined);
      if (acked.has(s.id) || (later && later.at < step)) continue;
      if (s.from !== undefined && step < s.from) return { step: s, index: i, kind: "wait" };
      return { step: s, index: i, kind: s.final ? "final" : "info" };
    }
    return { kind: "hidden" };
  }

  // -------------------------------------------------------------- the coach card
  // names as the rules page and the board show them (both from the engine's tables, in the page's language)
  function refs() { return ruleRefs(rules, t); }
  function text(key) {
    return lt(`tut.${SHORT[game]}.${key}`, ruleVars(rules), refs());
  }
  function blocks(key) {
    return ltBlocks(`tut.${SHORT[game]}.${key}`, ruleVars(rules), refs());
  }

  // the name the lesson's seat plays under (the one the player gave, else their account's), or null
  function playerSeatName() {
    const seat = ctx && ctx.seats && ctx.me !== null && ctx.me !== undefined ? ctx.seats[ctx.me] : null;
    return seat && seat.type === "human" && seat.name ? seat.name : null;
  }

  function optionLabel(action) {
    try {
      return ctx.renderer.optionLabel(ctx, ctx.decision, action);
    } catch (e) {
      return action;
    }
  }

  function targets(step) {
    if (!step || !step.target || !shellEl) return [];
    return [...document.querySelectorAll(step.target)].filter((el) => !el.closest(".coach"));
  }

  function renderCoach() {
    if (destroyed) return;
    const keep = coach.querySelector(".coach-body");
    const scroll = keep ? keep.scrollTop : 0;
    const a = document.activeElement;
    const focused = a && coach.contains(a) ? [...a.classList].find((c) => c.startsWith("coach-")) : null;
    current = compute();
    const st = state();
    const k = current.kind;
    const key = `${deviation ? "deviation:" : ""}${k}:${current.step ? current.step.id : ""}`;
    const same = key === shownKey;
    shownKey = key;
    clear(coach);
    coach.className = "coach kind-" + k + (st.collapsed && k !== "loading" ? " collapsed" : "") + (deviation ? " deviation" : "")
      + (current.step && !current.step.target ? " no-target" : "");
    coach.hidden = k === "hidden" || k === "loading";
    coach.dataset.kind = deviation ? "deviation" : k;
    coach.dataset.step = current.step ? current.step.id : k;
    coach.setAttribute("aria-label", lt("coach.label"));
    document.body.classList.toggle("coached", !deviation && k === "decision");
    if (coach.hidden) { mark(); return; }

    const guided = ["info", "decision", "wait"].includes(k) || !!deviation;
    const total = script.steps.length;
    const n = current.index !== undefined ? current.index + 1 : null;
    const head = h("div.coach-head", null,
      h("span.coach-label", null, icon("info"), " ", lt("coach.label")),
      h("span.coach-progress", null, n ? lt("coach.step", { n, total }) : ""),
      h("button.coach-toggle", {
        type: "button", "aria-expanded": String(!st.collapsed), title: st.collapsed ? lt("coach.show") : lt("coach.hide"),
        "aria-label": st.collapsed ? lt("coach.show") : lt("coach.hide"),
        onclick: () => { update(game, { collapsed: !state().collapsed }); renderCoach(); },
      }, st.collapsed ? "+" : "–"),
      guided ? h("button.coach-toggle.coach-leave", {
        type: "button", title: lt("coach.leave"), "aria-label": lt("coach.leave"), onclick: () => setMode("free"),
      }, "×") : null);
    const bar = n ? h("div.coach-bar", { "aria-hidden": "true" }, h("i", { style: { width: `${Math.round((100 * n) / total)}%` } })) : null;
    const body = h("div.coach-body");
    const actions = h("div.coach-actions");
    const rulesLink = () => h("a.btn.small.coach-rules", { href: `#/rules/${game}` }, lt("coach.rules"));

    if (deviation) {
      body.append(h("h2", null, lt("coach.deviation.title")),
        h("p", null, lt("coach.deviation.body", { chosen: deviation.chosen, expected: deviation.expected })));
      actions.append(
        h("button.btn.primary.coach-back", { type: "button", onclick: backOnTrack }, lt("coach.deviation.back")),
        h("button.btn.coach-free", { type: "button", onclick: playFreely }, lt("coach.deviation.free")));
    } else if (k === "info" || k === "decision" || k === "final") {
      const s = current.step;
      body.append(h("h2", null, text(s.id + ".title")));
      // the guide calls the player by the name they play under (the sentences need no vocative)
      const name = playerSeatName();
      if (name && (current.index === 0 || k === "final")) body.append(h("p.coach-name", null, lt(k === "final" ? "coach.bye" : "coach.hello", { name })));
      body.append(...blocks(s.id + ".body"));
      if (k === "decision") {
        body.append(h("p.coach-do", null, h("span.pulse", { "aria-hidden": "true" }), lt("coach.do")));
        if (targets(s).some((el) => el.dataset.opener)) body.append(h("p.coach-menu.muted", null, lt("coach.menu", { option: optionLabel(s.option) })));
      } else if (k === "info") {
        actions.append(h("button.btn.primary.coach-next", { type: "button", onclick: () => ack(s.id) }, lt("coach.next")));
      } else {
        actions.append(h("button.btn.primary.coach-close", { type: "button", onclick: () => setMode("done") }, lt("coach.close")), rulesLink());
      }
    } else if (k === "wait") {
      const s = current.step;
      const d = ctx.decision;
      const who = ctx.name(d ? d.player : 1 - ctx.me);  // the other seat: the lesson is one person against one bot
      body.append(h("h2", null, text(s.id + ".title")),
        h("p.coach-wait", null, h("span.spinner", { "aria-hidden": "true" }), lt("coach.wait", { player: who })));
    } else if (k === "offscript") {
      body.append(h("h2", null, lt("coach.offscript.title")), h("p", null, lt("coach.offscript.body")));
      actions.append(h("button.btn.primary.coach-close", { type: "button", onclick: () => setMode("done") }, lt("coach.close")), rulesLink());
    } else if (k === "freed") {
      body.append(h("h2", null, lt("coach.freed.title")), h("p", null, lt("coach.freed.body")));
      actions.append(h("button.btn.primary.coach-close", { type: "button", onclick: () => setMode("done") }, lt("coach.close")), rulesLink());
    }
    coach.append(...[head, bar, body, actions.children.length ? actions : null].filter(Boolean));
    if (same) body.scrollTop = scroll;  // a re-render of the same step keeps the reader's place (and the focus)
    if (focused) { const again = coach.querySelector("." + focused); if (again) again.focus({ preventScroll: true }); }
    if (!same) said.textContent = [...body.querySelectorAll("h2, .coach-do, .coach-wait")].map((e) => e.textContent).join(" ");
    mark();
  }

  // the glow on the step's target (and the menu item, once its menu is open)
  function mark() {
    for (const el of document.querySelectorAll(".coach-target")) el.classList.remove("coach-target");
    if (!current || deviation || !["decision", "info", "final"].includes(current.kind)) return;
    const s = current.step;
    let els = targets(s);
    if (s.reveal && els.length && !els.some((el) => el.getClientRects().length)) {
      // the target is folded away on this screen (the log on a phone): open it once
      const opener = document.querySelector(s.reveal);
      if (opener && opener.getClientRects().length && revealed !== s.id) { revealed = s.id; opener.click(); els = targets(s); }
    }
    for (const el of els) el.classList.add("coach-target");
    if (current.kind === "decision") {
      for (const el of document.querySelectorAll(`.menu [data-action="${CSS.escape(s.option)}"]`)) el.classList.add("coach-target");
    }
    if (els.length && scrolledFor !== s.id) {
      scrolledFor = s.id;
      bringIntoView(els.find((el) => el.getClientRects().length) || els[0]);
    }
  }

  // Scroll the target into the part of the screen nothing covers: the top bar, the coach card
  // (a sheet at the top on narrow screens) and the hand stuck to the bottom on phones; a hand
  // that scrolls sideways is scrolled to the card too.
  function bringIntoView(el) {
    if (!el.getClientRects().length) return;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if ((ox === "auto" || ox === "scroll") && a.scrollWidth > a.clientWidth + 1) {
        const ar = a.getBoundingClientRect();
        const er = el.getBoundingClientRect();
        a.scrollLeft += er.left + er.width / 2 - (ar.left + ar.width / 2);
        break;
      }
    }
    const r = el.getBoundingClientRect();
    let top = 0;
    let bottom = window.innerHeight;
    const covers = [document.getElementById("topbar"), coach.hidden ? null : coach, document.querySelector(".rr-hand, .rn-hand")];
    for (const c of covers) {
      if (!c || c.contains(el) || !["sticky", "fixed"].includes(getComputedStyle(c).position)) continue;
      const cr = c.getBoundingClientRect();
      if (!cr.height || cr.left >= r.right || cr.right <= r.left) continue;
      if (cr.top < window.innerHeight / 3) top = Math.max(top, cr.bottom);
      else bottom = Math.min(bottom, cr.top);
    }
    if (r.top >= top && r.bottom <= bottom) return;
    const room = bottom - top;
    const want = r.height <= room ? top + (room - r.height) / 2 : top + 8;
    window.scrollBy({ top: r.top - want, behavior: "auto" });
  }

  function ack(id) {
    const st = state();
    update(game, { acked: [...new Set([...(st.acked || []), id])] });
    scrolledFor = null;
    renderCoach();
    const next = coach.querySelector(".coach-next, .coach-close");
    if (next) next.focus({ preventScroll: true });
  }

  function setMode(mode) {
    deviation = null;
    update(game, { mode });
    renderCoach();
  }

  function backOnTrack() {
    deviation = null;
    scrolledFor = null;
    renderCoach();
    const el = document.querySelector(".coach-target");
    if (el && el.getAttribute("tabindex") !== null) el.focus({ preventScroll: true });
  }

  function playFreely() {
    const action = deviation && deviation.action;
    setMode("free");
    if (action && handle) handle.session.decide(action);
  }

  // -------------------------------------------------------------- every click on a choice is checked
  function expected() {
    if (!current || deviation || state().mode !== "guided") return null;
    if (current.kind !== "decision" && !(current.kind === "info" && mineNow())) return null;
    const next = nextDecision();
    return next && next.at === snapStep() && mineNow() ? next.option : null;
  }

  function onClick(e) {
    const want = expected();
    if (!want) return;
    const el = e.target.closest("[data-action]");
    if (!el || el.closest(".coach") || !(tableRoot.contains(el) || el.closest(".menu"))) return;
    const action = el.dataset.action;
    if (action === want) {
      confirmed.add(snapStep());
      // reading ahead is fine: a text shown before this move counts as read
      if (current.kind === "info") ack(current.step.id);
      return;
    }
    e.preventDefault();
    e.stopImmediatePropagation();
    for (const m of document.querySelectorAll(".menu")) { if (m._cleanup) m._cleanup(); m.remove(); }
    deviation = { action, chosen: optionLabel(action), expected: optionLabel(want) };
    renderCoach();
    coach.querySelector(".coach-back").focus({ preventScroll: true });
    if (coach.getBoundingClientRect().bottom > window.innerHeight || coach.getBoundingClientRect().top < 0) coach.scrollIntoView({ block: "nearest" });
  }
  document.addEventListener("click", onClick, true);

  // a menu opened on the target: its item for the lesson's option glows too
  const observer = new MutationObserver(() => { if (current && current.kind === "decision") mark(); });
  observer.observe(document.body, { childList: true });

  // -------------------------------------------------------------- start
  async function boot() {
    try {
      [script, rules] = await Promise.all([loadScript(game), rulesData(game, get), ensureLearnStyles(), loadLearnText()]);
    } catch (e) {
      coach.hidden = false;
      clear(coach).append(h("div.coach-body", null, h("p.error", null, lt("start.failed", { message: e.message }))));
      return;
    }
    if (destroyed) return;
    handle = mountGame(tableRoot, gameId, {
      rendered(c, shell) {
        ctx = c;
        shellEl = shell;
        const side = shell.querySelector(".side");
        if (side && coach.parentNode !== side) side.prepend(coach);  // wide screens: atop the side column; narrow: a sheet (learn.css)
        checkPast();
        renderCoach();
      },
    });
  }
  boot();

  return {
    destroy() {
      destroyed = true;
      document.removeEventListener("click", onClick, true);
      observer.disconnect();
      document.body.classList.remove("coached");
      if (handle) handle.destroy();
      coach.remove();
      wrap.remove();
    },
    async relabel() {
      await loadLearnText();
      try { rules = await rulesData(game, get); } catch (e) { /* keep the old language's numbers */ }
      if (handle) handle.relabel();
      renderCoach();
    },
  };
}
