// redtable's service worker: the app shell offline, and the updates offered, never half-loaded.
//
// The server (redtable/web/appshell.py) fills in VERSION (a hash of every file of the web UI)
// and the lists below; a new version is a new worker script, which the browser installs
// beside the running one: it waits until the page says "reload" (skip-waiting), so a page
// is always served by one version's files, all of them from one cache.
//
// Only what these lists name is ever stored: the web UI's own files (SHELL) and the public
// rules and card texts (DATA, the same for everyone). No other /api/ answer is ever cached:
// a game, a seat's view, a session, an account stay with the network.
const VERSION = "__VERSION__";
const SHELL = __SHELL__;
const DATA = __DATA__;
const CACHE = "redtable-" + VERSION;
const PREFIX = "redtable-";

const shellSet = new Set(SHELL);
const dataSet = new Set(DATA);

self.addEventListener("install", (event) => {
  // every file or none: a failed download leaves the old version in charge
  // (past the HTTP cache: a file kept from the old version must not slip into the new one)
  event.waitUntil(caches.open(CACHE).then((cache) =>
    cache.addAll([...SHELL, ...DATA].map((url) => new Request(url, { cache: "reload" })))));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  const msg = event.data || {};
  if (msg.type === "skip-waiting") self.skipWaiting();
  else if (msg.type === "version" && event.source) event.source.postMessage({ type: "version", version: VERSION });
});

function isPage(url) {
  return url.pathname === "/" || url.pathname === "/index.html" || /^\/join\/[^/]+\/?$/.test(url.pathname);
}

async function fromShell(request, key) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(key);
  return hit || fetch(request);
}

// The public rules and card texts: the network first (a newer server may word them better),
// this version's copy when offline.
async function publicData(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const answer = await fetch(request);
    if (answer.ok) await cache.put(key, answer.clone());
    return answer;
  } catch (e) {
    const hit = await cache.match(key);
    if (hit) return hit;
    throw e;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.headers.has("Authorization")) return;  // a seat's or a key's request: never stored
  if (request.mode === "navigate") {
    if (isPage(url)) event.respondWith(fromShell(request, "/index.html"));
    return;
  }
  const key = url.pathname + url.search;
  if (dataSet.has(key)) event.respondWith(publicData(request, key));
  else if (!url.search && shellSet.has(url.pathname)) event.respondWith(fromShell(request, url.pathname));
  // anything else (every other /api/ answer, /docs, /metrics) goes to the network untouched
});

// Web Push (server/push.py): a turn-based game waits on you. The payload names the game and
// whose turn it is, never a card; a click opens (or focuses) that table.
self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  const title = typeof data.title === "string" ? data.title.slice(0, 120) : "redtable";
  event.waitUntil(self.registration.showNotification(title, {
    body: typeof data.body === "string" ? data.body.slice(0, 240) : "",
    tag: data.game_id ? "game-" + data.game_id : "redtable",
    icon: "/icons/icon-192.png",
    data: { url: typeof data.url === "string" && data.url.startsWith("/#/") ? data.url : "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data && event.notification.data.url || "/", self.location.origin).href;
  event.waitUntil((async () => {
    for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
      if (client.url === url && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(url);
  })());
});
