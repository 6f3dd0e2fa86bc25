// HTTP helpers and the seat tokens kept in this browser.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
    this.code = this.body.error || "http_error";
  }
}

export async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = "Bearer " + token;
  let r;
  try {
    r = await fetch(path, { method, headers, body: body !== undefined ? JSON.stringify(body) : undefined });
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

// Seats this browser holds: {gameId: {token, seat, name}}.
const KEY = "redtable.seats";
function allSeats() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch (e) { return {}; }
}
export function seatFor(gameId) {
  const fromUrl = new URLSearchParams(location.hash.split("?")[1] || "").get("token");
  if (fromUrl) return { token: fromUrl, seat: null };
  return allSeats()[gameId] || null;
}
export function saveSeat(gameId, info) {
  const s = allSeats();
  s[gameId] = info;
  localStorage.setItem(KEY, JSON.stringify(s));
}
export function seatsHeld() { return allSeats(); }

export function playerName() { return localStorage.getItem("redtable.name") || ""; }
export function setPlayerName(n) { if (n) localStorage.setItem("redtable.name", n); }

let galleries = {};
export async function cardData(game) {
  if (!galleries[game]) {
    galleries[game] = get(`/api/web/cards/${game}`).catch(() => null);
  }
  return galleries[game];
}
