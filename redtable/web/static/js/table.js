// The game table shell shared by both titles: live session, decisions by clicking, prompt,
// card inspector, log, undo, end screen; and the replay scrubber for finished games.
import { h, clear, toast, icon, copyText, onLongPress, sheet, isTouch } from "./dom.js";
import { t, list, has, currentLang } from "./i18n.js";
import { get, post, seatFor, forgetSeat, cardData, errorText } from "./api.js";
import { Session } from "./session.js";
import { inviteField, botSeatName } from "./lobby.js";
import { fitWords, fitWordsOnResize } from "./fitwords.js";
import { LogFollower } from "./logfollow.js";
import { TurnSignals } from "./chime.js";
import { ScorePanel } from "./scorepanel.js";
import { Scrubber, stepFromHash } from "./replaybar.js";
import { ChatPanel } from "./chat.js";
import { liveNotice, reportButton } from "./moderation.js";
import { TableStrip, forfeitEnd } from "./clockview.js";
import { ReadyPrompt } from "./readyview.js";
import { TurnStory, storyFor } from "./turnstory.js";
import { BoardHighlight } from "./highlight.js";
import { TableSounds } from "./sounds.js";
import { ReplayTurns } from "./replayturns.js";
import { WaitingRoom } from "./waitroom.js";
import { RematchBox } from "./rematch.js";
import { Toolbar } from "./toolbar.js";
import { playersSection } from "./friends.js";
import { HintButton, loadHints, hintBadge, hintNote } from "./hint.js";

async function rendererFor(game) {
  if (game === "red-north") return (await import("./rn.js")).default;
  return (await import("./rr.js")).default;
}

const SEAT_COLORS = ["#e05a47", "#4f9de0", "#e6b83c", "#61b86a", "#b07ce0", "#3fc1c9"];

// ---------------------------------------------------------------------- the context renderers read
function makeCtx(base) {
  const ctx = {
    ...base,
    name(seat) {
      if (seat === null || seat === undefined || seat < 0) return "—";
      const s = (ctx.seats || [])[seat];
      if (!s) return t("seat.n", { n: seat + 1 });
      if (s.type === "bot") return s.name || botSeatName(seat, s.bot || "random");
      return s.name || t("seat.n", { n: seat + 1 });
    },
    color(seat) { return ctx.renderer.seatColor ? ctx.renderer.seatColor(ctx, seat) : SEAT_COLORS[seat % SEAT_COLORS.length]; },
    // (a seat a bot took over when its time ran out is no longer this person's to play)
    isMe(seat) { return ctx.me !== null && ctx.me !== undefined && seat === ctx.me && !(ctx.seats && ctx.seats[seat] && ctx.seats[seat].type === "bot"); },
    seatColors: SEAT_COLORS,
  };
  return ctx;
}

// ---------------------------------------------------------------------- choices on the board
function markChoices(boardEl, promptEl, ctx, decide) {
  const d = ctx.decision;
  // an "auto" decision (a block window with nothing to block with) is answered by the server
  if (!d || !d.options || d.auto || !ctx.isMe(d.player) || ctx.readOnly) return [];
  const map = ctx.renderer.targets(ctx, d);
  for (const [key, opts] of map.board) {
    const els = boardEl.querySelectorAll(`[data-target="${CSS.escape(key)}"]`);
    for (const el of els) {
      el.classList.add("choice");
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      if (opts.length === 1) {
        el.dataset.action = opts[0];
        nameTarget(el, ctx.renderer.optionLabel(ctx, d, opts[0]));
      } else {
        el.dataset.opener = JSON.stringify(opts);
        el.setAttribute("aria-haspopup", "menu");
      }
    }
  }
  for (const el of boardEl.querySelectorAll(".choice")) quietInside(el);
  return map.prompt;
}

// A target takes the tap wherever it lands inside it: the links and buttons it holds (a
// house's text, a pile's "+N cards") go inert while it is a target (no focus, no clicks:
// the click falls through to the target; a long press or the corner info mark reads it).
function quietInside(el) {
  for (const inner of el.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex]")) {
    if (inner.classList.contains("choice") || inner.querySelector(".choice")) continue;
    inner.inert = true;
  }
  if (el.dataset.card && !el.querySelector(":scope > .card-info")) {
    el.append(h("span.card-info", { "data-info": el.dataset.card, "aria-hidden": "true" }, icon("info")));
  }
}

// The option names a target only where it shows no text of its own: a visible name that the
// accessible name does not contain confuses speech input ("click Jupiter" must work).
function nameTarget(el, label) {
  if (!el.textContent.trim()) el.setAttribute("aria-label", label);
  else el.removeAttribute("aria-label");
}

function optionButton(ctx, d, opt, extra) {
  const r = ctx.renderer;
  const card = r.optionCard ? r.optionCard(ctx, d, opt) : null;
  if (card) {
    card.classList.add("choice");
    card.dataset.action = opt;
    card.setAttribute("tabindex", "0");
    card.setAttribute("role", "button");
    nameTarget(card, r.optionLabel(ctx, d, opt));
    card.dataset.key = "opt:" + opt;
    return card;
  }
  return h("button.btn.opt" + (extra || ""), { type: "button", "data-action": opt, "data-key": "opt:" + opt }, r.optionLabel(ctx, d, opt));
}

function promptBlock(ctx, items) {
  const d = ctx.decision;
  const wrap = h("div.prompt-options");
  for (const item of items) {
    if (item.options.length === 1 && !item.label) wrap.append(optionButton(ctx, d, item.options[0], item.cls));
    else {
      const opener = item.card || h("button.btn.opt", { type: "button" }, item.label);
      opener.classList.add("choice");
      opener.dataset.opener = JSON.stringify(item.options);
      opener.dataset.key = "opts:" + item.options.join("|");
      opener.setAttribute("tabindex", "0");
      opener.setAttribute("role", "button");
      opener.setAttribute("aria-haspopup", "menu");
      wrap.append(opener);
    }
  }
  return wrap;
}

// A small menu next to an element whose target offers several options.
function openMenu(anchor, ctx, opts, decide) {
  closeMenu();
  const d = ctx.decision;
  const menu = h("div.menu", { role: "menu" },
    opts.map((o) => h("button.menu-item", {
      type: "button", role: "menuitem", "data-action": o,
      onclick: (e) => { e.stopPropagation(); closeMenu(); decide(o); },
    }, ctx.renderer.optionLabel(ctx, d, o))),
    h("button.menu-item.cancel", { type: "button", role: "menuitem", onclick: (e) => { e.stopPropagation(); closeMenu(); anchor.focus(); } }, t("table.cancel")));
  document.body.appendChild(menu);
  const r = anchor.getBoundingClientRect();
  const mw = Math.min(300, window.innerWidth - 16);
  menu.style.minWidth = Math.min(220, mw) + "px";
  menu.style.maxWidth = mw + "px";
  let left = Math.min(window.innerWidth - mw - 8, Math.max(8, r.left));
  let top = r.bottom + 6;
  menu.style.left = left + "px";
  menu.style.top = top + window.scrollY + "px";
  const mh = menu.getBoundingClientRect().height;
  if (top + mh > window.innerHeight - 8 && r.top - mh - 6 > 8) menu.style.top = r.top - mh - 6 + window.scrollY + "px";
  menu.querySelector("button").focus();
  menu.addEventListener("keydown", (e) => {
    const items = [...menu.querySelectorAll("button")];
    const i = items.indexOf(document.activeElement);
    if (e.key === "Escape") { closeMenu(); anchor.focus(); }
    else if (e.key === "ArrowDown") { e.preventDefault(); items[(i + 1) % items.length].focus(); }
    else if (e.key === "ArrowUp") { e.preventDefault(); items[(i - 1 + items.length) % items.length].focus(); }
  });
  setTimeout(() => document.addEventListener("pointerdown", outside, true), 0);
  function outside(e) {
    if (!menu.contains(e.target)) closeMenu();
  }
  menu._cleanup = () => document.removeEventListener("pointerdown", outside, true);
}

function closeMenu() {
  for (const m of document.querySelectorAll(".menu")) {
    if (m._cleanup) m._cleanup();
    m.remove();
  }
}

// ---------------------------------------------------------------------- the shell
function buildShell(root, mode) {
  const shell = h("div.table-shell." + mode,
    null,
    h("div.statusbar", null,
      h("div.status-left", null, h("h1.game-name"),
        h("span.badge.seed-chosen", { hidden: true, title: t("game.seed_chosen_help") }, t("game.seed_chosen")),
        h("span.round-info"),
        h("span.conn", { role: "status", "aria-live": "polite" })),  // (beside the turn: the toolbar's row keeps its room for controls)
      h("div.status-right", null,
        h("button.btn.small.undo", { type: "button", hidden: true, title: t("table.undo_title") }, icon("undo"), h("span", null, t("table.undo"))),
        h("button.btn.small.results", { type: "button", hidden: true }, icon("trophy"), h("span", null, t("table.show_results"))),
        mode === "live" ? h("button.btn.small.ghost.share", { type: "button", title: t("table.copy_link") }, icon("eye"), h("span", null, t("table.copy_link"))) : null,
        h("button.btn.small.ghost.info", { type: "button", title: t("info.title"), "aria-haspopup": "dialog" }, icon("info"), h("span", null, t("info.title"))),
        h("button.btn.small.logtoggle", { type: "button", "aria-expanded": "false" }, icon("log"), h("span", null, t("table.show_log"))),
        h("a.btn.small.ghost.leave", { href: "#/", title: t("table.leave") }, icon("leave"), h("span", null, t("table.leave"))))),
    h("div.notice", { role: "status", hidden: true }),
    h("div.table-main", null,
      h("div.board-wrap", null, h("div.board", { "aria-label": t("table.board") }, h("p.loading", null, t("table.loading")))),
      h("aside.side", null,
        h("section.prompt", { "aria-live": "polite" }),
        h("section.inspector", { "aria-label": t("table.inspector"), tabindex: "0" }, h("p.muted", null, inspectorHint())),
        h("section.chat", { hidden: true }),  // the table chat (chat.js)
        h("section.log", { "aria-label": t("table.log") },
          h("h2", null, t("table.log")),
          h("ol.log-lines", { "data-scroll": "log", tabindex: "0", "aria-label": t("table.log") })))));
  clear(root).append(shell);
  fitWordsOnResize();
  const q = (s) => shell.querySelector(s);
  // one row of controls with their words, the rest in its "More" menu (toolbar.js)
  const tools = new Toolbar(q(".statusbar"), q(".status-right"));
  // the log follows its newest line unless the reader scrolled it up, and the card shown above
  // it is given the room the log can spare (logfollow.js)
  const follow = new LogFollower(q(".log-lines"), q(".log"), q(".inspector"));
  q(".logtoggle").addEventListener("click", () => {
    const open = shell.classList.toggle("log-open");
    q(".logtoggle").setAttribute("aria-expanded", String(open));
  });
  return { shell, q, follow, tools };
}

function wireBoard(els, getCtx, decide) {
  const { shell } = els;
  // Clicking a choice decides; a target with several options opens a menu. A target takes
  // the click wherever it lands inside it (only its corner info mark reads it instead); a
  // card that is not a target shows its full text (in the inspector, or a sheet where the
  // inspector is not shown: phones, touch).
  shell.addEventListener("click", (e) => {
    const ctx = getCtx();
    if (!ctx || e.target.closest(".menu")) return;
    const info = e.target.closest("[data-info]");
    if (info && shell.contains(info)) { e.preventDefault(); e.stopPropagation(); readCard(els, ctx, info.dataset.info); return; }
    const el = e.target.closest("[data-action],[data-opener]");
    if (el && shell.contains(el)) {
      e.preventDefault();
      if (el.dataset.action !== undefined) decide(el.dataset.action);
      else openMenu(el, ctx, JSON.parse(el.dataset.opener), decide);
      return;
    }
    const ins = e.target.closest("[data-inspect]");
    if (ins && shell.contains(ins)) { readCard(els, ctx, ins.dataset.inspect); return; }
    const card = e.target.closest("[data-card]");
    if (card && shell.contains(card) && !e.target.closest("a, button, input, select, summary, label")) {
      readCard(els, ctx, card.dataset.card);
    }
  });
  onLongPress(shell, "[data-card], [data-info]", (el) => {
    const ctx = getCtx();
    if (ctx) readCard(els, ctx, el.dataset.info || el.dataset.card, true);
  });
  shell.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    const el = e.target.closest("[role=button][data-action],[role=button][data-opener]");
    if (el && el.tagName !== "BUTTON") { e.preventDefault(); el.click(); }
  });
  const showCard = (e) => {
    const el = e.target.closest("[data-card]");
    const ctx = getCtx();
    if (el && ctx && shell.contains(el)) inspect(els, ctx, el.dataset.card, false);
  };
  shell.addEventListener("mouseover", showCard);
  shell.addEventListener("focusin", showCard);
}

function inspect(els, ctx, key, pinned) {
  const box = els.q(".inspector");
  const body = ctx.renderer.inspect(ctx, key);
  if (!body) return;
  clear(box).append(h("h2", null, t("table.inspector")), body);
  if (pinned && window.innerWidth < 900) box.scrollIntoView({ block: "nearest", behavior: "smooth" });
}

// What the empty inspector says: point at a card (a mouse), or tap or hold one (touch).
function inspectorHint() {
  return isTouch() ? t("table.inspector_empty_touch") : t("table.inspector_empty");
}

// A card's (house's, location's, God's) full text, one tap away: the inspector where it is
// shown, otherwise (phones, narrow windows) or on a long press, a sheet over the table.
function readCard(els, ctx, key, held) {
  const box = els.q(".inspector");
  if (!held && box.getClientRects().length) { inspect(els, ctx, key, true); return; }
  const body = ctx.renderer.inspect(ctx, key);
  if (body) sheet(body, { label: t("table.inspector"), closeLabel: t("info.close") });
}

// When a decision arrives and none of its targets on the board is in sight (under the sticky
// prompt, above the docked hand), scroll the first one into the middle of what is free.
function revealTargets(shell) {
  const targets = [...shell.querySelectorAll(".board .choice")].filter((el) => el.getClientRects().length);
  if (!targets.length) return;
  const sticky = [document.getElementById("topbar"), shell.querySelector(".prompt"), shell.querySelector(".rr-hand, .rn-hand")]
    .filter((el) => el && ["sticky", "fixed"].includes(getComputedStyle(el).position));
  const band = (target) => {
    let top = 0;
    let bottom = window.innerHeight;
    for (const el of sticky) {
      if (el.contains(target)) continue;
      const r = el.getBoundingClientRect();
      if (r.bottom <= 0 || r.top >= window.innerHeight) continue;
      if (r.top < window.innerHeight / 3) top = Math.max(top, r.bottom);
      else bottom = Math.min(bottom, r.top);
    }
    return [top, bottom];
  };
  const inSight = (el) => {
    const [top, bottom] = band(el);
    const r = el.getBoundingClientRect();
    // (half of a tall target, up to 100 px: a sliver above the docked hand is not in sight)
    return Math.min(r.bottom, bottom) - Math.max(r.top, top) >= Math.min(r.height, Math.max(24, Math.min(100, r.height / 2)));
  };
  if (targets.some(inSight)) return;
  const el = targets[0];
  const [top, bottom] = band(el);
  const r = el.getBoundingClientRect();
  window.scrollBy({ top: r.top - top - Math.max(8, (bottom - top - r.height) / 2), behavior: "instant" });
}

// The top bar is sticky on wide screens only: the sticky prompt goes under it.
function trackTopbar() {
  const bar = document.getElementById("topbar");
  if (!bar) return;
  const set = () => document.documentElement.style.setProperty("--topbar-h",
    (getComputedStyle(bar).position === "sticky" ? bar.offsetHeight : 0) + "px");
  set();
  if (bar._tracked) return;
  bar._tracked = true;
  if (window.ResizeObserver) new ResizeObserver(set).observe(bar);
  window.addEventListener("resize", set);
}

function renderLog(els, ctx, events, from, highlightFrom) {
  const ol = els.q(".log-lines");
  const kept = ol.scrollTop;
  if (from === 0) clear(ol);
  let added = 0;
  const frag = document.createDocumentFragment();
  for (let i = from; i < events.length; i++) {
    const line = ctx.renderer.logLine(ctx, events[i]);
    if (!line) continue;
    const now = highlightFrom !== undefined && i >= highlightFrom;
    const li = h("li.logline" + (line.cls ? "." + line.cls : "") + (events[i].to ? ".private" : "") + (now ? ".now" : ""), null,
      line.seat !== undefined && line.seat !== null ? h("span.seat-dot", { style: { background: ctx.color(line.seat) }, "aria-hidden": "true" }) : null,
      h("span.text", null, line.text),
      events[i].to ? h("span.private-tag", { title: t("table.private") }, icon("eye", t("table.private"))) : null);
    frag.append(li);
    added += 1;
  }
  ol.append(frag);
  // keep the log bounded in the DOM (the reader's place stays put)
  let removed = 0;
  while (ol.children.length > 600) { removed += ol.firstChild.offsetHeight || 0; ol.removeChild(ol.firstChild); }
  const first = ol.querySelector(".now");
  if (first) { els.follow.pin(); ol.scrollTop = Math.max(0, first.offsetTop - ol.offsetTop - 40); return; }
  if (from === 0 && !els.follow.following) ol.scrollTop = kept;  // a full re-render keeps the place
  els.follow.trimmed(removed);
  els.follow.appended(from === 0 ? 0 : added);
}

function relabelShell(els) {
  const q = els.q;
  q(".undo span").textContent = t("table.undo");
  q(".undo").title = t("table.undo_title");
  q(".results span").textContent = t("table.show_results");
  q(".logtoggle span").textContent = t("table.show_log");
  q(".leave span").textContent = t("table.leave");
  q(".leave").title = t("table.leave");
  if (q(".share")) { q(".share span").textContent = t("table.copy_link"); q(".share").title = t("table.copy_link"); }
  q(".log h2").textContent = t("table.log");
  q(".info span").textContent = t("info.title");
  q(".info").title = t("info.title");
  q(".seed-chosen").textContent = t("game.seed_chosen");
  q(".seed-chosen").title = t("game.seed_chosen_help");
  els.tools.relabel();
  // the card shown was in the old language: show none until the next one is picked
  clear(q(".inspector")).append(h("p.muted", null, inspectorHint()));
}

// ---------------------------------------------------------------------- game info (and devices)
// info: the game's public facts (a snapshot or GET /api/games/ID); token: this device's seat token or null.
function infoDialog(info, gameId, token) {
  const overlay = h("div.overlay", { role: "dialog", "aria-modal": "true", "aria-labelledby": "info-h" });
  const close = () => { overlay.remove(); };
  const opts = info.options || {};
  const row = (label, ...value) => [h("dt", null, label), h("dd", null, ...value)];
  const optionLines = [];
  if (info.game === "red-rising") {
    optionLines.push(opts.multiplayer_variant ? t("opt.multiplayer_variant") : null);
    optionLines.push(opts.block_windows ? t("info.block_windows") : null);
  } else if (opts.outpost_points !== undefined) {
    optionLines.push(`${t("opt.outpost_points")}: ${opts.outpost_points}`);
  }
  optionLines.push(info.undo ? t("info.undo_on") : t("info.undo_off"));
  const devices = token ? devicesSection(gameId, token) : null;
  const card = h("div.dialog.info-card", null,
    h("div.dialog-head", null, h("h1#info-h", null, icon("info"), " ", t("info.title")),
      h("button.icon-btn.close-info", { type: "button", "aria-label": t("info.close"), title: t("info.close"), onclick: close }, "×")),
    h("dl.info-list", null,
      row(t("info.game"), t("title." + info.game), " · ", h("code", null, gameId)),
      row(t("info.options"), h("ul.plain", null, optionLines.filter(Boolean).map((l) => h("li", null, l)))),
      row(t("info.deal"), info.seed_chosen_by_creator
        ? h("span.badge.seed-chosen", { title: t("game.seed_chosen_help") }, t("game.seed_chosen"))
        : t("info.deal_random")),
      info.seed_commitment ? row(t("info.commitment"), h("code.hash", null, info.seed_commitment),
        h("p.muted.small", null, t("info.commitment_help"))) : []),
    playersSection(gameId),  // follow or block a player of the table (friends.js)
    devices);
  overlay.append(card);
  overlay.addEventListener("keydown", (e) => { if (e.key === "Escape") close(); });
  overlay.addEventListener("click", (e) => { if (e.target === overlay) close(); });
  return overlay;
}

function devicesSection(gameId, token) {
  const box = h("section.devices", { "aria-labelledby": "devices-h" });
  const result = h("div.devices-result", { role: "status" });
  const btn = h("button.btn.small.sign-out-others", { type: "button", onclick: run }, t("devices.button"));
  box.append(h("h2#devices-h", null, t("devices.title")), h("p.muted.small", null, t("devices.help")),
    h("div.actions", null, btn), result);
  async function run() {
    btn.disabled = true;
    clear(result);
    try {
      const r = await post(`/api/games/${encodeURIComponent(gameId)}/sign-out-others`, undefined, token);
      const url = location.origin + r.invite_url;
      result.append(h("p", null, t("devices.done", { n: r.signed_out || 0 })),
        h("p.muted.small", null, t("devices.new_link")),
        inviteField(url, t("devices.new_link")));
    } catch (e) {
      result.append(h("p.error", null, e.message));
    } finally {
      btn.disabled = false;
    }
  }
  return box;
}

// ---------------------------------------------------------------------- fair deal (end screen)
const verified = new Map(); // gameId -> "verified" | "mismatch" | "unavailable"

async function sha256Hex(text) {
  const buf = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// The record reveals the seed and salt; sha256("<seed>:<salt>") must be the commitment published at creation.
async function verifyDeal(gameId, commitment) {
  if (!(window.crypto && crypto.subtle)) return "unavailable";
  const r = await fetch(`/api/games/${encodeURIComponent(gameId)}/record`, { cache: "no-store" });
  const text = await r.text();
  if (!r.ok) {
    let body = null;
    try { body = JSON.parse(text); } catch (e) { body = null; }
    throw new Error(errorText(body, r.status));
  }
  // the seed may exceed 2^53: read its digits from the text, not through a JS number
  const m = text.match(/"seed"\s*:\s*(\d+)/);
  const rec = JSON.parse(text);
  if (!m || typeof rec.salt !== "string") return "unavailable";
  const digest = await sha256Hex(`${m[1]}:${rec.salt}`);
  return digest === String(commitment).toLowerCase() && digest === String(rec.seed_commitment).toLowerCase() ? "verified" : "mismatch";
}

function fairness(ctx) {
  const c = ctx.commitment;
  if (!c) return null;
  const status = h("span.verify-status", { role: "status" });
  const show = (v) => {
    clear(status).append(v === "verified" ? h("span.ok", null, "✓ ", t("fair.verified"))
      : v === "mismatch" ? h("span.error", null, "✗ ", t("fair.mismatch")) : h("span.muted", null, t("fair.unavailable")));
  };
  const btn = h("button.btn.small.ghost.verify", {
    type: "button", onclick: async () => {
      btn.disabled = true;
      clear(status).append(t("fair.verifying"));
      try {
        const v = await verifyDeal(ctx.gameId, c);
        verified.set(ctx.gameId, v);
        show(v);
        btn.hidden = true;
      } catch (e) {
        clear(status).append(h("span.error", null, e.message));
        btn.disabled = false;
      }
    },
  }, t("fair.verify"));
  const box = h("div.fairness.small", null,
    ctx.seedChosen ? h("span.badge.seed-chosen", { title: t("game.seed_chosen_help") }, t("game.seed_chosen")) : null,
    h("span.muted", null, t("fair.commitment"), " ", h("code.hash", { title: c }, c.slice(0, 12) + "…")),
    h("a.record-link", { href: `/api/games/${encodeURIComponent(ctx.gameId)}/record`, target: "_blank", rel: "noopener" }, t("fair.record")),
    btn, status);
  if (verified.has(ctx.gameId)) { show(verified.get(ctx.gameId)); btn.hidden = true; }
  return box;
}

// ---------------------------------------------------------------------- end screen
// extra: the live table's "play again" (rematch.js): under the result, or at the top when this seat is asked
function endScreen(ctx, onClose, extra) {
  const r = ctx.renderer;
  const overlay = h("div.overlay", { role: "dialog", "aria-modal": "true", "aria-labelledby": "end-h" });
  const card = h("div.endcard",
    null,
    h("h1#end-h", { tabindex: "-1" }, icon("trophy"), " ", t("end.title")),
    forfeitEnd(ctx) || r.endScreen(ctx),  // (a game a forfeit ended was not played out: clockview.js says why)
    fairness(ctx),
    ctx.gameId ? playersSection(ctx.gameId) : null,  // follow or block the players (friends.js)
    h("div.actions", null,
      h("button.btn.close-end", { type: "button", onclick: () => { overlay.remove(); onClose && onClose(); } }, t("end.view_board")),
      ctx.readOnly ? null : h("a.btn", { href: `#/replay/${ctx.gameId}` }, t("end.replay")),
      h("a.btn.review-link", { href: `#/review/${encodeURIComponent(ctx.gameId)}?seat=${ctx.me ?? 0}` }, t("review.open")),
      h("a.btn.primary", { href: "#/" }, t("end.lobby"))));
  overlay.append(card);
  if (extra) extra.place(card);
  overlay.addEventListener("keydown", (e) => { if (e.key === "Escape") { overlay.remove(); onClose && onClose(); } });
  return overlay;
}

// ---------------------------------------------------------------------- live game
// hooks.rendered(ctx, shell): called after every render (the tutorial's coach marks read the table through it)
export function mountGame(root, gameId, hooks = {}) {
  const watch = /[?&]watch=1/.test(location.hash);
  const held = watch ? null : seatFor(gameId);
  const els = buildShell(root, "live");
  const { q, shell } = els;
  let renderer = null;
  let cards = null;
  let final = null;
  let ctx = null;
  let logCount = 0;
  let dirty = false;
  let endShown = false;
  let destroyed = false;
  let story = null;  // the title's turn accounts (turnstory.js)
  let flashEvents = [];  // other seats' events not yet shown on the board
  const hl = new BoardHighlight();
  const sounds = new TableSounds();

  // refusals that end the connection are told once, when the socket closes (ended)
  const ENDING = new Set(["bad_token", "unknown_game", "signed_out", "token_in_url", "auth_required"]);
  const session = new Session(gameId, held && held.token, {
    state: (msg) => { logCount = 0; sounds.heard(null, msg.status, false); moved(); schedule(); },
    update: (msg) => {  // another seat's events are shown on the board (highlight.js) and may sound (sounds.js)
      if (msg.by !== session.snap.seat) flashEvents.push(...(msg.events || []));
      sounds.heard(msg.events, msg.status, true);
      moved();
      schedule();
    },
    presence: () => schedule(),
    chat: (msg) => (msg.type === "chat" || msg.type === "chat_removed" ? chat.message(msg) : chat.history(msg)),
    modNotice: (msg) => liveNotice(msg),  // a moderator acted on this account (moderation.js)
    status: (s) => showStatus(s),
    rematch: (msg) => {  // a rematch offered, accepted, declined or lapsed: the end screen shows it (rematch.js)
      playAgain.set(msg.rematch, true);
      if (playAgain.asked() && !document.querySelector(".overlay .rematch")) showEnd(true);
    },
    notice: (msg) => {  // in the page's language when the code is known, else the server's words
      const known = msg.code && has("notice." + msg.code);
      const text = known ? t("notice." + msg.code, { player: ctx ? ctx.name(msg.seat) : t("seat.n", { n: (msg.seat ?? 0) + 1 }) }) : msg.message;
      if (text) toast(String(text), "info", 6000);
    },
    error: (msg) => {
      turn();
      schedule();
      if (msg.error === "stale_version" || ENDING.has(msg.error)) return;
      if (chat.refused(msg)) return;  // said under the chat's form
      toast(errorText(msg), "error");
    },
    ended: (why, msg) => {
      if ((why === "signed_out" || why === "bad_token") && session.token) {
        // this device's token was revoked (signed out from another device) or is unknown here: watch instead
        forgetSeat(gameId);
        session.token = null;
        notice(why === "signed_out" ? t("table.signed_out") : t("table.seat_lost"));
        setTimeout(() => { session.attempt = 0; session.connect(); }, 50);
      } else if (why === "unknown_game") {
        clear(q(".board")).append(h("p.error", null, t("err.unknown_game")), h("a.btn", { href: "#/" }, t("nav.lobby")));
      } else {
        toast(errorText(msg), "error");
      }
    },
  });

  function notice(text) {
    const box = q(".notice");
    clear(box).append(h("p.banner.warn", null, text));
    box.hidden = false;
  }
  window.__session = session;

  function showStatus(s) {
    const el = q(".conn");
    el.className = "conn " + s;
    el.textContent = { open: t("table.connected"), connecting: t("table.connecting"), reconnecting: t("table.reconnecting"), failed: t("table.offline") }[s] || s;
    shell.classList.toggle("disconnected", s !== "open");
  }

  function schedule() {
    if (dirty || destroyed) return;
    dirty = true;
    requestAnimationFrame(() => { dirty = false; render(); });
  }

  function decide(action) {
    if (!session.decide(action)) return;
    shell.classList.add("busy");
    closeMenu();
    turn();
  }

  wireBoard(els, () => ctx, decide);
  // your turn outside the page (tab title, chime) and the running score (chime.js, scorepanel.js)
  const signals = new TurnSignals();
  const panel = new ScorePanel({ shell, gameId, getCtx: () => ctx, getToken: () => session.token,
    getVersion: () => (session.snap ? session.snap.version : -1) });
  q(".info").before(signals.button, panel.button);
  // each seat's clock, "waiting for players", why a table closed (clockview.js)
  const strip = new TableStrip();
  q(".notice").before(strip.el);
  const readyPrompt = new ReadyPrompt(gameId, () => session.token);  // a rated open table's "ready" (readyview.js)
  // until every seat is taken: who came, the invite links, the creator's bots (waitroom.js)
  const waitroom = new WaitingRoom(gameId);
  q(".table-main").before(waitroom.el);
  // "play again" on the end screen: a rematch, or a new game with the same options (rematch.js)
  const playAgain = new RematchBox({ gameId, getToken: () => session.token, getCtx: () => ctx, getSnap: () => session.snap });
  // the table chat (chat.js): above the log beside the board, a drawer on a phone
  const chat = new ChatPanel({ section: q(".chat"), shell, gameId, mode: "live", getCtx: () => ctx,
    getToken: () => session.token, send: (m) => session.send(m) });
  q(".logtoggle").before(chat.button);
  q(".leave").before(reportButton({ kind: "table", game_id: gameId }, t("report.title.table")));  // (moderation.js)
  let chatNames = "";
  // each other seat's turn in a line, "since your last turn" (turnstory.js)
  const told = new TurnStory(q(".side"));
  const hint = new HintButton(gameId, () => session.token, () => schedule());  // practice games: the expert's hint (hint.js)
  // Straight from the messages, not from render(): a hidden tab gets no animation frames.
  function turn() {
    const s = session.snap;
    if (!s || destroyed) return;
    const d = s.decision;
    const mine = !!d && s.seat !== null && s.seat !== undefined && d.player === s.seat && !d.auto && s.status !== "finished"
      && !(s.seats && s.seats[s.seat] && s.seats[s.seat].type === "bot");
    signals.update(mine, !!session.pending, `${t("title." + s.game)} — redtable`);
  }
  function moved() { turn(); panel.changed(); }
  trackTopbar();
  let revealed = null;  // the version whose targets were last brought into sight
  q(".undo").addEventListener("click", () => { if (session.undo()) shell.classList.add("busy"); });
  q(".results").addEventListener("click", () => showEnd(true));
  q(".info").addEventListener("click", () => {
    if (!session.snap) return;
    for (const o of document.querySelectorAll(".overlay")) o.remove();
    const ov = infoDialog(session.snap, gameId, session.snap.seat !== null ? session.token : null);
    document.body.append(ov);
    ov.querySelector(".close-info").focus();
  });
  q(".share").addEventListener("click", async () => {
    const ok = await copyText(`${location.origin}/#/game/${gameId}?watch=1`);
    toast(ok ? t("lobby.copied") : `${location.origin}/#/game/${gameId}?watch=1`);
  });

  function showEnd(force) {
    if (!ctx || ctx.status !== "finished") return;
    if (endShown && !force) return;
    endShown = true;
    for (const o of document.querySelectorAll(".overlay")) o.remove();
    playAgain.render();
    const ov = endScreen(ctx, () => q(".results").focus(), playAgain);
    document.body.append(ov);
    // the dialog opens at its top (the winner, the scorepad): the focus goes to its title, no scrolling
    fitWords(ov);
    ov.querySelector("#end-h").focus({ preventScroll: true });
    ov.scrollTop = 0;
  }

  async function render() {
    const snap = session.snap;
    if (!snap) return;
    if (!renderer) {
      renderer = await rendererFor(snap.game);
      story = await storyFor(snap.game);
      shell.classList.add(snap.game);
    }
    if (!cards || (cards.lang && cards.lang !== currentLang())) cards = await cardData(snap.game);  // the page's language
    if (snap.status === "finished" && !final) {  // (a game ended by a forfeit was not played out: no final hands)
      final = snap.result && snap.result.reason === "timeout" ? {} : await get(`/api/web/games/${gameId}/final`).catch(() => ({}));
    }
    ctx = makeCtx({
      renderer, cards, final, gameId, game: snap.game, view: snap.view, decision: snap.decision, me: snap.seat,
      seats: snap.seats, status: snap.status, result: snap.result, step: snap.step, events: session.events, readOnly: false,
      commitment: snap.seed_commitment, seedChosen: !!snap.seed_chosen_by_creator && !snap.tutorial,  // (a lesson's deal is the guide's)
    });
    q(".seed-chosen").hidden = !snap.seed_chosen_by_creator || !!snap.tutorial;
    strip.update(snap, (i) => ctx.name(i), (i) => ctx.color(i));
    readyPrompt.update(snap);
    waitroom.update(snap, (i) => ctx.name(i), (i) => ctx.color(i));
    shell.classList.toggle("waiting", !waitroom.el.hidden);  // (the strip's own banner gives way to it)
    shell.classList.toggle("busy", !!session.pending);
    q(".game-name").textContent = t("title." + snap.game);
    q(".round-info").textContent = renderer.statusLine(ctx);
    const undo = q(".undo");
    undo.hidden = !snap.undo || snap.seat === null;
    undo.disabled = !snap.can_undo;
    q(".results").hidden = snap.status !== "finished";
    shell.classList.toggle("finished", snap.status === "finished");
    const board = q(".board");
    const built = renderer.board(ctx);
    // keep the keyboard focus on the same element across re-renders (board and prompt)
    const active = document.activeElement;
    const key = active && shell.contains(active) ? active.dataset.key : null;
    const before = hl.capture(board);
    clear(board).append(built);
    hl.mark(board, before, flashEvents.splice(0));
    const promptItems = markChoices(board, q(".prompt"), ctx, decide);
    renderPrompt(promptItems);
    q(".prompt").dataset.version = snap.version;  // which snapshot the prompt shows (tests, debugging)
    told.update(ctx, story, session.events);  // (before the targets are brought into sight: it takes room)
    if (key) {
      const again = shell.querySelector(`[data-key="${CSS.escape(key)}"]`);
      if (again) again.focus({ preventScroll: true });
    }
    const mine = ctx.decision && ctx.isMe(ctx.decision.player) && !ctx.decision.auto;
    if (mine && revealed !== snap.version) { revealed = snap.version; revealTargets(shell); }
    if (logCount > session.events.length) logCount = 0;
    renderLog(els, ctx, session.events, logCount);
    logCount = session.events.length;
    signals.button.hidden = snap.seat === null || snap.seat === undefined;
    turn();
    panel.sync();
    if (snap.status === "finished") { playAgain.load(); showEnd(false); }
    const names = JSON.stringify(snap.seats.map((s) => s.name));
    if (names !== chatNames) { chatNames = names; chat.render(true); }
    if (snap.status === "finished") chat.gameOver();
    fitWords(shell);  // no name breaks inside a word (fitwords.js)
    if (hooks.rendered) hooks.rendered(ctx, shell);
  }

  function renderPrompt(items) {
    const box = q(".prompt");
    clear(box);
    const d = ctx.decision;
    box.classList.remove("mine", "urgent");
    if (ctx.status === "finished" || ctx.status === "abandoned") {  // (abandoned: the strip says why)
      box.append(h("p.prompt-text", null, t("table.game_over")));
      return;
    }
    if (!d) return;
    if (ctx.isMe(d.player) && d.auto) {
      // a block window this seat cannot use: the server declines it after a person's wait; nothing to do
      box.append(h("p.prompt-wait.prompt-auto", null, h("span.spinner", { "aria-hidden": "true" }), t("table.window_wait")),
        h("p.muted.small.auto-note", null, t("table.window_auto")));
      return;
    }
    if (ctx.isMe(d.player)) {
      box.classList.add("mine");
      if (ctx.renderer.isInterrupt && ctx.renderer.isInterrupt(ctx, d)) box.classList.add("urgent");
      box.append(h("p.prompt-title", null, t("table.your_turn")),
        h("p.prompt-text", null, ctx.renderer.promptText(ctx, d)));
      const src = ctx.renderer.promptCard && ctx.renderer.promptCard(ctx, d);
      if (src) box.append(src);
      if (items.length) box.append(promptBlock(ctx, items));
      hint.place(box, ctx, session.snap);
      // a card offered in the decision reads its whole text from its corner mark (a tap on a phone), as on the board
      for (const el of box.querySelectorAll(".prompt-options .choice[data-card]")) quietInside(el);
    } else {
      const what = ctx.renderer.waitingText ? ctx.renderer.waitingText(ctx, d) : t("table.waiting_kind", { player: ctx.name(d.player), what: ctx.renderer.kindText(ctx, d) });
      const bot = ctx.seats && ctx.seats[d.player] && ctx.seats[d.player].type === "bot";  // a bot: say who is thinking
      box.append(h("p.prompt-wait" + (bot ? ".bot-thinking" : ""), null, h("span.spinner", { "aria-hidden": "true" }),
        h("span.seat-dot", { style: { background: ctx.color(d.player) }, "aria-hidden": "true" }),
        bot ? [h("span.who", null, t("story.thinking", { player: ctx.name(d.player) })), h("span.bot-what.small", null, what)] : what));
      if (ctx.me === null || ctx.me === undefined) box.append(h("p.muted.small", null, icon("eye"), " ", t("table.spectating")));
    }
  }

  session.connect();
  return {
    session,
    destroy() {
      destroyed = true;
      session.close();
      signals.destroy();
      panel.destroy();
      strip.destroy();
      readyPrompt.destroy();
      chat.destroy();
      els.follow.destroy();
      els.tools.destroy();
      hl.destroy();
      told.destroy();
      closeMenu();
      for (const o of document.querySelectorAll(".overlay")) o.remove();
      if (window.__session === session) window.__session = null;
    },
    relabel() {
      relabelShell(els);
      showStatus(session.status);
      signals.label();
      panel.relabel();
      strip.relabel();
      readyPrompt.relabel();
      waitroom.relabel();
      playAgain.el.setAttribute("aria-label", t("rematch.title"));
      chat.relabel();
      els.follow.relabel();
      told.relabel();
      logCount = 0;
      const wasShown = document.querySelector(".overlay");
      if (wasShown) { wasShown.remove(); endShown = false; }
      render();
    },
  };
}

// ---------------------------------------------------------------------- replay
export function mountReplay(root, gameId) {
  const held = seatFor(gameId);
  let token = held && held.token;
  const els = buildShell(root, "replay");
  const { q, shell } = els;
  q(".undo").remove();
  q(".conn").remove();
  let renderer = null;
  let cards = null;
  let info = null;
  let steps = 0;
  let step = 0;
  let timer = null;
  let ctx = null;
  let turns = null;  // the steps by turn, "my turns", every hand at the end (replayturns.js)
  const cache = new Map();
  const gid = encodeURIComponent(gameId);

  // built once: the focus stays on its controls across steps (replaybar.js)
  const bar = new Scrubber({ go: (n) => { stop(); go(n); }, toggle });
  shell.querySelector(".table-main").before(bar.el);
  wireBoard(els, () => ctx, () => {});
  // the chat as it was at the step shown (both channels once the game is over)
  const chat = new ChatPanel({ section: q(".chat"), shell, gameId, mode: "replay", getCtx: () => ctx, getToken: () => token });
  q(".logtoggle").before(chat.button);
  trackTopbar();
  q(".info").addEventListener("click", () => {
    if (!info) return;
    const ov = infoDialog(info, gameId, null);
    document.body.append(ov);
    ov.querySelector(".close-info").focus();
  });

  async function fetchStep(n) {
    if (!cache.has(n)) cache.set(n, get(`/api/games/${gid}/replay/${n}`, token));
    return cache.get(n);
  }

  let shown = 0;  // the latest go(): an older answer that arrives late is not drawn
  async function go(n) {
    step = Math.max(0, Math.min(steps, n));
    const mine = ++shown;
    renderBar();
    // the link names the step shown (a reload or a shared link opens it); no hashchange, no re-mount
    history.replaceState(history.state, "", `#/replay/${encodeURIComponent(gameId)}?step=${step}`);
    const data = await fetchStep(step);
    if (mine !== shown) return;
    fetchStep(Math.min(steps, step + 1));
    ctx = makeCtx({
      renderer, cards, final: null, gameId, game: info.game, view: data.view, decision: data.decision, me: data.seat,
      seats: info.seats, status: step === steps ? info.status : "active", result: step === steps ? info.result : null,
      step, events: data.events, readOnly: true, commitment: info.seed_commitment, seedChosen: !!info.seed_chosen_by_creator && !info.tutorial,
    });
    q(".game-name").textContent = `${t("replay.title")} — ${t("title." + info.game)}`;
    if (hints.length) q(".game-name").append(" ", hintBadge(hints));
    q(".round-info").textContent = renderer.statusLine(ctx);
    clear(q(".board")).append(renderer.board(ctx));
    const box = clear(q(".prompt"));
    box.append(h("p.prompt-title", null, step === 0 ? t("replay.setup") : t("replay.by", { player: ctx.name(data.by) })));
    if (turns && step > 0) {
      const said = turns.account(ctx, step, data.by, data.events);
      box.append(h("p.muted.small.replay-turn-no", null, t("replay.turn", { n: turns.turnNumber(step), total: turns.turns.length })));
      if (said) box.append(h("p.step-story", null, h("span.seat-dot", { style: { background: ctx.color(turns.byTurn ? (turns.turnAt(step) || {}).seat : data.by) }, "aria-hidden": "true" }), said));
    }
    if (turns && data.hands) q(".board").append(turns.hands(ctx, data.hands));
    const hinted = hintNote(hints, step, ctx.name);
    if (hinted) box.append(hinted);
    if (step === steps && info.status === "finished") {
      box.append(h("button.btn.small", { type: "button", onclick: () => { document.body.append(endScreen(ctx)); } }, icon("trophy"), " ", t("table.show_results")),
        " ", h("a.btn.small.review-link", { href: `#/review/${gid}?seat=${data.seat ?? 0}` }, t("review.open")));
    }
    // The log shows every event up to this step.
    chat.setStep(step);
    renderLog(els, ctx, allEvents.slice(0, marks[step] ?? allEvents.length), 0, step > 0 ? marks[step - 1] : undefined);
    fitWords(shell);
  }

  let marks = [];
  async function loadLog() {
    const lg = await get(`/api/games/${gid}/log`, token);
    const evs = [...lg.setup];
    marks = [evs.length];
    for (const s of lg.log) { evs.push(...s.events); marks.push(evs.length); }
    allEvents = evs;
    turns = new ReplayTurns(await storyFor(info.game), evs, marks, steps, lg.seat);
    bar.el.append(turns.el);
    turns.onMode = () => { if (ctx) go(step); };
    bar.stepper = (dir, from) => turns.stepFrom(from, dir);
    const mine = (dir) => { const s = turns.mineFrom(step, dir); if (s !== null) { stop(); go(s); } };
    turns.myPrev.addEventListener("click", () => mine(-1));
    turns.myNext.addEventListener("click", () => mine(1));
  }
  let allEvents = [];
  let hints = [];  // where the expert's hints were used (hint.js)

  function renderBar() {
    bar.set(step, steps, !!timer, !!info && info.status !== "finished");
    if (turns) {
      turns.myPrev.setAttribute("aria-disabled", String(turns.mineFrom(step, -1) === null));
      turns.myNext.setAttribute("aria-disabled", String(turns.mineFrom(step, 1) === null));
    }
  }

  function toggle() {
    if (timer) { stop(); renderBar(); return; }
    if (step >= steps) go(0);
    timer = setInterval(() => { if (step >= steps) { stop(); renderBar(); } else { go(step + 1); } }, 700);
    renderBar();
  }
  function stop() { if (timer) { clearInterval(timer); timer = null; } }

  (async () => {
    try {
      try {
        info = await get(`/api/games/${gid}?events=false`, token);
      } catch (e) {
        if (e.code !== "bad_token" || !token) throw e;
        forgetSeat(gameId); // a token signed out from another device: read as a spectator
        token = null;
        info = await get(`/api/games/${gid}?events=false`);
      }
      renderer = await rendererFor(info.game);
      cards = await cardData(info.game);
      shell.classList.add(info.game);
      q(".seed-chosen").hidden = !info.seed_chosen_by_creator || !!info.tutorial;
      steps = info.step;
      hints = await loadHints(gameId, token);
      await loadLog();
      await chat.load().catch(() => {});  // a replay without its chat is still a replay
      // a replay opens at the setup, unless its link asks for a step (?step=12, ?step=end)
      await go(stepFromHash(location.hash, steps) ?? 0);
    } catch (e) {
      clear(q(".board")).append(h("p.error", null, e.message));
    }
  })();
  return {
    destroy() { stop(); chat.destroy(); bar.destroy(); els.follow.destroy(); els.tools.destroy(); closeMenu(); for (const o of document.querySelectorAll(".overlay")) o.remove(); },
    relabel() { relabelShell(els); chat.relabel(); bar.relabel(); if (turns) turns.relabel(); if (info) go(step); },
  };
}

export { SEAT_COLORS };
