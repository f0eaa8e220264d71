// @ts-check
// The service worker, so that the app installs on a phone's home screen
// and its replay and verify pages open offline. The server answers it at
// /sw.js (scope /), this file with one line in front that sets
// self.PAIJU_PRECACHE: every file of the app and a version that changes
// with any of them (web.go), so a new binary installs a new worker.
//
// What it keeps:
//   - the app itself (index.html and every file under /static/), fetched
//     at install; online, each request still goes to the server first
//     (which revalidates by ETag), the copy answering only when the network
//     does not;
//   - the answers the replay page needs for a hand: GET /v1/hands/{id} and
//     GET /v1/tables/{id}/export, the last 30 fetched, so that a hand opened
//     online replays and verifies offline;
//   - nothing else of the API: the lobby, tables, legal actions, streams,
//     players and leaderboards are never stored, and no answer marked
//     Cache-Control: no-store is.
// The verify page needs no server at all: an export saved on the device
// is checked in the browser.

/**
 * @typedef {Event & {waitUntil(p: Promise<unknown>): void}} WaitEvent
 * @typedef {WaitEvent & {request: Request, respondWith(r: Promise<Response>): void}} WorkerFetchEvent
 * @typedef {{
 *   addEventListener: ((type: "install" | "activate", fn: (e: WaitEvent) => void) => void) & ((type: "fetch", fn: (e: WorkerFetchEvent) => void) => void),
 *   skipWaiting(): Promise<void>,
 *   clients: {claim(): Promise<void>},
 *   location: Location,
 * }} WorkerScope
 */

const worker = /** @type {WorkerScope} */ (/** @type {unknown} */ (self));
const precache = /** @type {{version: string, files: string[]}} */ (Reflect.get(self, "PAIJU_PRECACHE") ?? { version: "none", files: [] });

const SHELL = `paiju-app-${precache.version}`;
const HANDS = "paiju-hands";
const HANDS_KEPT = 30;

/** The API answers the replay page reads: a hand's record and its table's export. */
const REPLAYED = [/^\/v1\/hands\/[^/]+$/, /^\/v1\/tables\/[^/]+\/export$/];

worker.addEventListener("install", (e) => {
  e.waitUntil(
    caches
      .open(SHELL)
      .then((c) => c.addAll(precache.files))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener("activate", (e) => {
  e.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("paiju-app-") && n !== SHELL).map((n) => caches.delete(n))))
      .then(() => worker.clients.claim()),
  );
});

/**
 * Whether an answer may be kept: a whole 200 that the server did not mark
 * no-store.
 * @param {Response} res
 */
function keepable(res) {
  return res.status === 200 && !/\bno-store\b/i.test(res.headers.get("Cache-Control") ?? "");
}

/**
 * The network's answer, or the app's copy when the network fails.
 * @param {Request} req
 * @param {string} key the copy to answer with (a page of the app is index.html, kept as "/")
 */
async function appFile(req, key) {
  try {
    return await fetch(req);
  } catch (err) {
    const kept = await caches.match(key, { cacheName: SHELL });
    if (kept) return kept;
    throw err;
  }
}

/**
 * A hand's record or export: from the network, a copy kept (by path, the
 * query left out); the copy when the network fails.
 * @param {Request} req
 * @param {string} key
 */
async function replayed(req, key) {
  const cache = await caches.open(HANDS);
  try {
    const res = await fetch(req);
    if (keepable(res)) {
      await cache.delete(key);
      await cache.put(key, res.clone());
      const keys = await cache.keys();
      await Promise.all(keys.slice(0, Math.max(0, keys.length - HANDS_KEPT)).map((k) => cache.delete(k)));
    }
    return res;
  } catch (err) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw err;
  }
}

worker.addEventListener("fetch", (e) => {
  const req = e.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== worker.location.origin) return;
  const path = url.pathname;
  if (path.startsWith("/v1/")) {
    if (REPLAYED.some((r) => r.test(path))) e.respondWith(replayed(req, url.origin + path));
    return; // any other API answer: the network only
  }
  if (req.mode === "navigate") {
    e.respondWith(appFile(req, "/"));
    return;
  }
  if (path.startsWith("/static/")) e.respondWith(appFile(req, path));
});
