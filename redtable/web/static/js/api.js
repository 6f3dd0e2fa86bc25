// HTTP helpers and the secrets kept in this browser (seat tokens, creator keys).
// Secrets never go in a URL: a seat token travels only in the Authorization header (and,
// over a WebSocket, in the first message); an invite lives in a link's #fragment.
import { t, has, currentLang } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, body) {
    super(errorText(body, status));
    this.status = status;
    this.body = body || {};
    this.code = this.body.error || "http_error";
  }
}

// What to tell a person about a refusal (an HTTP body or a WebSocket error message), in the
// page's language: every code the server sends has its words (i18n key "err.<code>", with
// the body's parameters: a retry delay, a limit, a seat, the reason of a refused name);
// only a code this page does not know shows the server's English message.
export function errorParams(body, status) {
  body = body || {};
  // message: the server's detail (a field path and what it must be) where the words are generic
  const p = { status: status ?? "", request_id: body.request_id || "—", message: String(body.message || "").slice(0, 300) };
  p.n = Math.max(1, Math.ceil(Number(body.retry_after) || 5));
  if (typeof body.limit === "number") { p.limit = body.limit; if (body.error === "too_large") p.n = body.limit; }
  if (typeof body.max === "number") p.max = body.max;
  if (typeof body.min === "number") p.min = body.min;
  if (typeof body.option === "string") p.option = body.option;
  if (Number.isInteger(body.seat)) p.n = body.seat + 1;  // seats are shown from 1
  if (Number.isInteger(body.steps)) p.n = body.steps;
  if (["muted", "suspended", "banned"].includes(body.error)) {  // a moderator's sanction: until when, and why
    p.until = typeof body.until === "number" ? t("mod.until", { when: new Date(body.until * 1000).toLocaleString() }) : t("mod.until_lifted");
    p.reason = String(body.reason || "—").slice(0, 500);
  }
  return p;
}

// The i18n key for a refusal: a more precise variant when the body says more ("err.bad_name.length").
export function errorKey(body, status) {
  body = body || {};
  let code = body.error;
  if (!code && status === 429) code = "rate_limited";
  if (!code) return null;
  const variants = [];
  if (code === "bad_name" && body.reason) variants.push(`err.bad_name.${body.reason}`);
  if (code === "invalid_options" && typeof body.option === "string") variants.push("err.invalid_options.option");
  if (code === "malformed" && Number.isInteger(body.seat)) variants.push("err.malformed.seat");
  if (["bad_username", "not_ratable", "bad_password"].includes(code) && body.reason) variants.push(`err.${code}.${body.reason}`);
  variants.push("err." + code);
  return variants.find((k) => has(k)) || null;
}

export function errorText(body, status) {
  body = body || {};
  const key = errorKey(body, status);
  if (key) return t(key, errorParams(body, status));
  if (body.message) return String(body.message);
  return status ? t("err.http_error", { status }) : t("err.network");
}

// The logged-in session's CSRF token (account.js sets it from GET /api/session): every write
// sends it, since the session cookie goes with every request and another site could send that.
let csrf = null;
export function setCsrf(value) { csrf = value || null; }

export async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = "Bearer " + token;
  if (csrf && method !== "GET" && method !== "HEAD") headers["X-CSRF-Token"] = csrf;
  let r;
  try {
    r = await fetch(path, { method, headers, body: body !== undefined ? JSON.stringify(body) : undefined, cache: "no-store" });
  } catch (e) {
    throw new ApiError(0, { error: "network", message: String(e) });
  }
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) throw new ApiError(r.status, data);
  return data;
}

export const get = (path, token) => api("GET", path, undefined, token);
export const post = (path, body, token) => api("POST", path, body, token);
export const del = (path, token) => api("DELETE", path, undefined, token);

// ---------------------------------------------------------------------- kept in this browser
function readMap(key) {
  try {
    const v = JSON.parse(localStorage.getItem(key) || "{}");
    return v && typeof v === "object" ? v : {};
  } catch (e) { return {}; }
}
function writeMap(key, map) {
  try { localStorage.setItem(key, JSON.stringify(map)); } catch (e) { /* private mode: kept for this page only */ }
}

// Seats this browser holds: {gameId: {token, seat, name}} (each device has its own token).
const SEATS = "redtable.seats";
export function seatFor(gameId) { return readMap(SEATS)[gameId] || null; }
export function saveSeat(gameId, info) {
  const s = readMap(SEATS);
  s[gameId] = info;
  writeMap(SEATS, s);
}
export function forgetSeat(gameId) {
  const s = readMap(SEATS);
  delete s[gameId];
  writeMap(SEATS, s);
}
export function seatsHeld() { return readMap(SEATS); }

// Games this browser created: {gameId: creator_key} (re-issues the invite of a seat nobody took).
const CREATED = "redtable.created";
export function creatorKey(gameId) { return readMap(CREATED)[gameId] || null; }
export function saveCreatorKey(gameId, key) {
  const c = readMap(CREATED);
  c[gameId] = key;
  writeMap(CREATED, c);
}

// Invite links of the games this browser created: {gameId: {seat: url}} (the waiting room shows
// them to copy or share; a link re-issued there replaces its seat's).
const INVITES = "redtable.invites";
export function invitesFor(gameId) { return readMap(INVITES)[gameId] || {}; }
export function saveInvite(gameId, seat, url) {
  const all = readMap(INVITES);
  all[gameId] = { ...(all[gameId] || {}), [seat]: url };
  writeMap(INVITES, all);
}

export function playerName() { return localStorage.getItem("redtable.name") || ""; }
export function setPlayerName(n) { if (n) localStorage.setItem("redtable.name", n); }

// The name rule the server applies (1-24 printable characters, no word a bot is shown by).
export const NAME_MAX = 24;

// Card names and rules texts come in the page's language (rendered by the server from the
// same encoding the engine runs), one fetch per title and language.
let galleries = {};
export async function cardData(game) {
  const lang = currentLang();
  const key = `${game}:${lang}`;
  if (!galleries[key]) {
    galleries[key] = get(`/api/web/cards/${game}?lang=${encodeURIComponent(lang)}`).catch(() => null);
  }
  return galleries[key];
}
