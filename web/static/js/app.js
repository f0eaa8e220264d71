// @ts-check
// The app's entry point: the player, the router and the page contract.
//
// Router contract. Each page is a module js/pages/<name>.js exporting
//
//   export function render(root, params, ctx) { ...; return cleanup }
//   // root: HTMLElement, emptied before each render, the page's to fill
//   // params: Record<string, string>, the route's :names (decoded)
//   // ctx: AppContext (below)
//   // returns void, or a function called when the user navigates away
//   // (close an EventSource, stop a timer).
//
// Routes (the Go side answers index.html at the same paths, web.IsAppPath):
//   /                       pages/lobby.js
//   /tables/:id             pages/table.js
//   /hands/:handID          pages/replay.js
//   /verify                 pages/verify.js
//   /leaderboards           pages/leaderboards.js
//   /leaderboards/:game     pages/leaderboards.js
//   /join                   pages/join.js (a private table's share link: /join#<room code>)
//   /me                     pages/account.js
//   /tournaments            pages/tournaments.js
//   /tournaments/:id        pages/tournament.js
// Anything else shows "no such page". Links inside the app are plain
// <a href="/..."> elements: the router catches their clicks.

import { Api, ApiError } from "./api.js";
import { lang, t } from "./i18n.js";
import { problemText } from "./problems.js";

/**
 * @typedef {Object} Player
 * @property {string} id
 * @property {string} name
 * @property {string} token
 */

/**
 * @typedef {Object} AppContext
 * @property {Api} api the API client, carrying the player's token
 * @property {(key: string, vars?: Record<string, string | number>) => string} t a label in the user's language
 * @property {"zh" | "en"} lang
 * @property {Player} player the browser's player (registered on the first visit)
 * @property {(path: string) => void} navigate go to another page of the app
 * @property {(err: unknown) => string} describe an error as the user reads it (a problem's code and detail)
 * @property {(p: Player) => void} setPlayer keep p as the browser's player (its name changed): stored, shown in the header
 */

/**
 * @typedef {Object} PageModule
 * @property {(root: HTMLElement, params: Record<string, string>, ctx: AppContext) => void | (() => void)} render
 */

/** @typedef {{pattern: RegExp, names: string[], load: () => Promise<PageModule>}} Route */

/** @type {Route[]} */
const routes = [
  { pattern: /^\/$/, names: [], load: () => import("./pages/lobby.js") },
  { pattern: /^\/tables\/([^/]+)$/, names: ["id"], load: () => import("./pages/table.js") },
  { pattern: /^\/hands\/([^/]+)$/, names: ["handID"], load: () => import("./pages/replay.js") },
  { pattern: /^\/verify$/, names: [], load: () => import("./pages/verify.js") },
  { pattern: /^\/leaderboards(?:\/([^/]+))?$/, names: ["game"], load: () => import("./pages/leaderboards.js") },
  { pattern: /^\/join$/, names: [], load: () => import("./pages/join.js") },
  { pattern: /^\/me$/, names: [], load: () => import("./pages/account.js") },
  { pattern: /^\/tournaments$/, names: [], load: () => import("./pages/tournaments.js") },
  { pattern: /^\/tournaments\/([^/]+)$/, names: ["id"], load: () => import("./pages/tournament.js") },
];

/**
 * The route of path and its params; null when no page has that path.
 * @param {string} path
 * @returns {{route: Route, params: Record<string, string>} | null}
 */
export function match(path) {
  for (const route of routes) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    /** @type {Record<string, string>} */
    const params = {};
    route.names.forEach((n, i) => {
      const v = m[i + 1];
      if (v !== undefined) params[n] = decodeURIComponent(v);
    });
    return { route, params };
  }
  return null;
}

const STORAGE_KEY = "paiju.player";

/**
 * An error as the user reads it: a problem this app tells in the user's
 * language (problems.js), else its code and the server's detail.
 * @param {unknown} err
 * @returns {string}
 */
export function describe(err) {
  const told = problemText(err);
  if (told !== null) return `${t("error.prefix")}: ${told}`;
  if (err instanceof ApiError) return `${t("error.prefix")}: ${err.code} — ${err.detail}`;
  if (err instanceof Error) return `${t("error.prefix")}: ${err.message}`;
  return `${t("error.prefix")}: ${String(err)}`;
}

/** @returns {Player | null} */
function storedPlayer() {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    /** @type {unknown} */
    const p = JSON.parse(raw);
    if (typeof p === "object" && p !== null && "id" in p && "name" in p && "token" in p &&
      typeof p.id === "string" && typeof p.name === "string" && typeof p.token === "string") {
      return { id: p.id, name: p.name, token: p.token };
    }
  } catch {
    // unreadable: register again
  }
  return null;
}

/**
 * The browser's player: the stored one if the server still knows its
 * token, else a new registration. lost names the stored player whose
 * token was refused (revoked or expired), to tell the user. Without a
 * network (the installed app opened offline), the stored player as it is,
 * or none: the verify page and the replay of a hand opened before need no
 * server.
 * @returns {Promise<{player: Player, lost?: string}>}
 */
async function ensurePlayer() {
  const known = storedPlayer();
  /** @type {string | undefined} */
  let lost;
  if (known) {
    try {
      await new Api(known.token).me();
      return { player: known };
    } catch (err) {
      if (err instanceof ApiError && err.status === 0) return { player: known };
      if (!(err instanceof ApiError) || err.status !== 401) throw err;
      lost = known.name;
    }
  }
  if (!navigator.onLine) return { player: { id: "", name: "", token: "" } };
  const created = await registerFreeName();
  const p = { id: created.id, name: created.name, token: created.token };
  storePlayer(p);
  return lost === undefined ? { player: p } : { player: p, lost };
}

/**
 * Tells, under the header, that the stored player's token no longer works
 * and this browser plays as a new player now, with the way back.
 * @param {string} name the player whose token was refused
 */
function tellLost(name) {
  const p = document.createElement("p");
  p.className = "notice signed-out";
  p.setAttribute("role", "status");
  p.append(t("player.lost", { name }) + " ");
  const a = document.createElement("a");
  a.href = "/me";
  a.textContent = t("player.lostLink");
  p.append(a);
  document.querySelector("header.top")?.after(p);
}

/**
 * Keeps p as the browser's player, replacing the one stored: the account
 * page's sign-in with a token checked against GET /v1/me, and a rename.
 * @param {Player} p
 */
export function storePlayer(p) {
  localStorage.setItem(STORAGE_KEY, JSON.stringify({ id: p.id, name: p.name, token: p.token }));
}

/**
 * Registers under a default name with a random number; names are unique,
 * so a number someone holds already is drawn again.
 */
async function registerFreeName() {
  for (let tries = 1; ; tries++) {
    const suffix = String(Math.floor(100000 + Math.random() * 900000));
    try {
      return await new Api().register(t("player.defaultName", { n: suffix }));
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== "name_taken" || tries >= 5) throw err;
    }
  }
}

/** @param {string} id @returns {HTMLElement} */
function byID(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`index.html lacks #${id}`);
  return el;
}

async function start() {
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  document.title = t("app.title");
  for (const el of document.querySelectorAll("[data-i18n]")) {
    if (el instanceof HTMLElement && el.dataset.i18n) el.textContent = t(el.dataset.i18n);
  }
  for (const el of document.querySelectorAll("[data-i18n-label]")) {
    if (el instanceof HTMLElement && el.dataset.i18nLabel) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  const root = byID("app");
  const who = byID("player");
  who.textContent = t("player.registering");
  let player;
  try {
    const got = await ensurePlayer();
    player = got.player;
    if (got.lost !== undefined) tellLost(got.lost);
  } catch (err) {
    root.textContent = describe(err);
    return;
  }
  who.textContent = player.id ? t("player.you", { name: player.name }) : t("player.offline");
  who.dataset.playerId = player.id;

  /** @type {void | (() => void)} */
  let cleanup;
  let generation = 0;
  /** @type {AppContext} */
  const ctx = {
    api: new Api(player.token),
    t,
    lang,
    player,
    navigate(path) {
      if (path !== location.pathname + location.search) history.pushState(null, "", path);
      void show();
    },
    describe,
    setPlayer(p) {
      storePlayer(p);
      Object.assign(player, p);
      ctx.api.token = p.token;
      who.textContent = t("player.you", { name: p.name });
      who.dataset.playerId = p.id;
    },
  };

  async function show() {
    const gen = ++generation;
    if (cleanup) {
      try {
        cleanup();
      } catch (err) {
        console.warn("page cleanup", err);
      }
      cleanup = undefined;
    }
    root.replaceChildren();
    const found = match(location.pathname);
    if (!found) {
      const p = document.createElement("p");
      p.textContent = t("error.notFound");
      root.append(p);
      return;
    }
    const mod = await found.route.load();
    if (gen !== generation) return;
    root.replaceChildren();
    cleanup = mod.render(root, found.params, ctx);
    const h = root.querySelector("h1");
    if (h) document.title = `${h.textContent} · ${t("app.title")}`;
  }

  document.addEventListener("click", (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = e.target instanceof Element ? e.target.closest("a") : null;
    if (!a || a.target || a.hasAttribute("download")) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || !match(url.pathname)) return;
    e.preventDefault();
    ctx.navigate(url.pathname + url.search);
  });
  window.addEventListener("popstate", () => void show());
  await show();
}

/**
 * Installs the service worker (js/sw.js, answered at /sw.js): the app
 * installs on a phone's home screen, and the replay and verify pages open
 * offline. A browser without one, or a refusal, leaves the app as it is.
 */
function installWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((err) => console.warn("service worker", err));
}

installWorker();
void start();
