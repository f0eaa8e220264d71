// @ts-check
// What every browser test needs: a real paiju server on a free port with
// its own data directory, the machine's chromium driven by playwright-core,
// pages that record requests leaving the origin and console errors, and
// screenshots written to web/e2e/artifacts/ (git-ignored).
//
//   import { startServer, launch, openPage, screenshot, PHONE, DESKTOP } from "./helpers.mjs";
//   const server = await startServer();          // { url, dataDir, logs(), stop() }
//   const browser = await launch();              // null: no chromium (test skips)
//   const { page, context, problems } = await openPage(browser, server.url, DESKTOP);
//   ...; assert.deepEqual(problems(), []);       // foreign requests, console errors
//   await screenshot(page, "lobby-desktop");
//
//   const { tableID, handID, players } = await playHand(server.url);  // a finished hand, over the API
//   await openPage(browser, server.url, PHONE, { player: players[0], path: `/hands/${handID}` });
//
// PAIJU_BIN names the paiju binary (default bin/paiju, which make builds);
// PAIJU_CHROMIUM the browser (default /usr/bin/chromium).

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, before } from "node:test";
import { chromium } from "playwright-core";

/** @typedef {import("playwright-core").Browser} Browser */
/** @typedef {import("playwright-core").BrowserContext} BrowserContext */
/** @typedef {import("playwright-core").Page} Page */

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository's root. */
export const repoRoot = path.resolve(here, "..", "..");
/** Where screenshots go. */
export const artifacts = path.join(here, "artifacts");

/** Viewports: a phone and a desktop. */
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

// The browser tests' time limits only tell a hang from a slow run: no test
// passes or fails by how fast it goes. They sit far above the slowest run
// seen, a test file among three at once beside the Go test passes on two
// cores (make test), where a step that takes a second alone took fifteen.

/** How long a test waits for one thing (a page state, a download, a server) before calling it a hang. */
export const WAIT = 180_000;
/** How long one test may run in all before node --test calls it a hang. */
export const TEST_LIMIT = 1_200_000;

/**
 * @typedef {Object} Server
 * @property {string} url "http://127.0.0.1:port"
 * @property {string} dataDir
 * @property {() => string} logs everything the server wrote to stderr
 * @property {() => Promise<void>} stop ends it (SIGTERM, then SIGKILL) and removes its data
 */

/**
 * Starts `paiju serve` on a free port with a temporary data directory.
 * Registration and rate quotas are lifted so that many browser contexts
 * may register from one address.
 * @param {{args?: string[], env?: Record<string, string>}} [opts] extra serve flags
 * @returns {Promise<Server>}
 */
export async function startServer(opts = {}) {
  const bin = process.env.PAIJU_BIN ?? path.join(repoRoot, "bin", "paiju");
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run make web-test (or go build -o bin/paiju .)`);
  const dataDir = mkdtempSync(path.join(tmpdir(), "paiju-web-"));
  const args = [
    "serve", "--addr", "127.0.0.1:0", "--data", dataDir, "--rate-limit", "0", "--drain", "0",
    "--quota-registrations-per-minute", "-1", "--quota-tables-per-hour", "-1", "--bot-delay", "0",
    ...(opts.args ?? []),
  ];
  const child = spawn(bin, args, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...(opts.env ?? {}) } });
  let logs = "";
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`paiju serve did not start listening in ${WAIT / 1000}s:\n${logs}`)), WAIT);
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      logs += chunk;
      const m = /msg="paiju serving" addr=(\S+)/.exec(logs);
      if (m) {
        clearTimeout(timer);
        resolve(`http://${m[1]}`);
      }
    });
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`paiju serve exited (${JSON.stringify(how)}) before listening:\n${logs}`));
    });
  });
  return {
    url,
    dataDir,
    logs: () => logs,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(killer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The chromium to drive: PAIJU_CHROMIUM, or Debian's. */
export function chromiumPath() {
  return process.env.PAIJU_CHROMIUM ?? "/usr/bin/chromium";
}

/**
 * Launches headless chromium; null when there is none (a test then skips,
 * unless CI is set: then it throws).
 * @returns {Promise<Browser | null>}
 */
export async function launch() {
  const exe = chromiumPath();
  if (!existsSync(exe)) {
    if (process.env.CI || process.env.PAIJU_REQUIRE_CHROMIUM) throw new Error(`no chromium at ${exe} (set PAIJU_CHROMIUM)`);
    return null;
  }
  return chromium.launch({
    executablePath: exe,
    headless: true,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
    ],
  });
}

/**
 * @typedef {Object} OpenedPage
 * @property {BrowserContext} context a fresh context: its own localStorage, so its own player
 * @property {Page} page
 * @property {() => string[]} problems requests to other origins and console errors so far
 */

/**
 * Opens a page of the app in a new browser context, watching every request
 * and the console.
 * @param {Browser} browser
 * @param {string} base the server's URL
 * @param {{width: number, height: number}} [viewport]
 * @param {{locale?: string, path?: string, player?: Player, bypassCSP?: boolean, routes?: boolean}} [opts] locale (default "zh-CN"), first path (default "/"),
 *   player: sign the browser in as this player (e.g. one of playHand's) instead of registering a new one,
 *   bypassCSP: let the test inject a script of its own (axe-core, with page.addScriptTag), which the app's policy refuses,
 *   routes: the test answers requests itself (page.route). The app's service worker is then blocked, as
 *   Playwright's documentation asks of such tests: its routing does not see requests a service worker
 *   intercepts, and the app's worker claims the page at a moment of its own (once it is active)
 * @returns {Promise<OpenedPage>}
 */
export async function openPage(browser, base, viewport = DESKTOP, opts = {}) {
  const locale = opts.locale ?? "zh-CN";
  const context = await browser.newContext({
    viewport,
    locale,
    extraHTTPHeaders: { "Accept-Language": locale },
    bypassCSP: !!opts.bypassCSP,
    serviceWorkers: opts.routes ? "block" : "allow",
  });
  if (opts.player) {
    // The app keeps its player in localStorage under "paiju.player" (js/app.js).
    const stored = JSON.stringify(opts.player);
    await context.addInitScript((p) => localStorage.setItem("paiju.player", p), stored);
  }
  // Playwright's own default (30 s a wait, a navigation) would be a
  // time limit of its own: every wait that names none gets WAIT.
  context.setDefaultTimeout(WAIT);
  const page = await context.newPage();
  const origin = new URL(base).origin;
  /** @type {string[]} */
  const problems = [];
  page.on("request", (req) => {
    const u = req.url();
    if (u.startsWith("data:") || u.startsWith("blob:")) return;
    if (new URL(u).origin !== origin) problems.push(`request left the origin: ${u}`);
  });
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    // A failed request's message names its status only: say which request.
    const at = msg.text().startsWith("Failed to load resource") ? ` (${msg.location().url})` : "";
    problems.push(`console error: ${msg.text()}${at}`);
  });
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  await page.goto(base + (opts.path ?? "/"));
  await page.locator("#player[data-player-id]").waitFor();
  return { context, page, problems: () => [...problems] };
}

/**
 * Writes a full-page screenshot to artifacts/<name>.png.
 * @param {Page} page
 * @param {string} name
 * @returns {Promise<string>} the file written
 */
export async function screenshot(page, name) {
  mkdirSync(artifacts, { recursive: true });
  const file = path.join(artifacts, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * @typedef {Object} Player
 * @property {string} id
 * @property {string} name
 * @property {string} token
 */

/** @typedef {import("../../clients/typescript/src/schema").components["schemas"]} Schemas */
/** @typedef {import("../../clients/typescript/src/schema").components["responses"]["Command"]["content"]["application/json"]} CommandResult */

/**
 * Calls the API from the test (not the browser); T is the answer's type.
 * @template T
 * @param {string} base
 * @param {string} method
 * @param {string} path
 * @param {string} [token]
 * @param {unknown} [body]
 * @returns {Promise<T>}
 */
export async function callAPI(base, method, path, token, body) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return /** @type {T} */ (text ? JSON.parse(text) : null);
}

/**
 * Plays one whole hand of 斗地主 classic over the API (no browser): three
 * players register, sit, the first bidder bids 3, and each seat on turn
 * plays the lowest single it can (or passes) until the hand settles. For
 * tests that need a finished hand: the replay page, an export to verify.
 * @param {string} base the server's URL
 * @returns {Promise<{tableID: string, handID: string, players: Player[]}>} players in seat order
 */
export async function playHand(base) {
  /** @type {Player[]} */
  const registered = [];
  for (const name of ["东", "南", "西"]) {
    /** @type {Schemas["CreatedPlayer"]} */
    const p = await callAPI(base, "POST", "/v1/players", undefined, { name });
    registered.push({ id: p.id, name: p.name, token: p.token });
  }
  const [first] = registered;
  if (!first) throw new Error("no player");
  /** @type {Schemas["Table"]} */
  const table = await callAPI(base, "POST", "/v1/tables", first.token, { game: "doudizhu", variant: "classic", clock: { turn_seconds: 0 } });
  const id = table.id;
  /** @type {Player[]} */
  const bySeat = [];
  for (const p of registered) {
    /** @type {CommandResult} */
    const r = await callAPI(base, "POST", `/v1/tables/${id}/join`, p.token, {});
    const seat = r.table?.seat;
    if (seat === null || seat === undefined) throw new Error(`${p.name} got no seat at ${id}`);
    bySeat[seat] = p;
  }
  for (let step = 0; step < 300; step++) {
    /** @type {Schemas["Table"]} */
    const v = await callAPI(base, "GET", `/v1/tables/${id}`, first.token);
    if (v.last_settlement && v.last_settlement.hand === 1) {
      return { tableID: id, handID: `${id}-1`, players: bySeat };
    }
    if (v.turn === null) throw new Error(`hand 1 of ${id} waits for no seat: ${JSON.stringify(v)}`);
    const p = bySeat[v.turn];
    if (!p) throw new Error(`no player at seat ${v.turn}`);
    /** @type {Schemas["LegalActions"]} */
    const legal = await callAPI(base, "GET", `/v1/tables/${id}/legal`, p.token);
    const actions = legal.actions;
    let action = actions.find((a) => a.type === "bid" && a.bid === 3);
    const card = legal.extend[0];
    if (!action && card) {
      /** @type {Schemas["LegalActions"]} */
      const narrowed = await callAPI(base, "GET", `/v1/tables/${id}/legal?selected=${encodeURIComponent(card)}`, p.token);
      action = narrowed.actions.find((a) => a.type === "play" && a.cards.length === 1);
    }
    action ??= actions.find((a) => a.type === "pass");
    if (!action) throw new Error(`seat ${v.turn} has no bid, single or pass: ${JSON.stringify(actions)}`);
    await callAPI(base, "POST", `/v1/tables/${id}/actions`, p.token, action);
  }
  throw new Error(`hand 1 of ${id} did not end in 300 actions`);
}

/**
 * Starts a server and the browser before a test file's tests and stops both
 * after them. The browser is null where there is none to drive (launch).
 * @param {{args?: string[], env?: Record<string, string>}} [opts] for startServer
 */
export function serverAndBrowser(opts = {}) {
  /** @type {Server | undefined} */
  let server;
  /** @type {import("playwright-core").Browser | null} */
  let browser = null;
  before(async () => {
    server = await startServer(opts);
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
  return {
    get server() {
      if (!server) throw new Error("the server has not started: use it inside a test");
      return server;
    },
    get browser() {
      return browser;
    },
  };
}

/** axe-core's engine, from the pinned npm package (never a CDN). */
export const axePath = path.join(here, "node_modules", "axe-core", "axe.min.js");

/**
 * Runs axe-core on the page as it is and returns its serious and critical
 * violations, one line each (rule, impact, help, the first elements). The
 * page must come from a context opened with bypassCSP (the app's policy
 * refuses an injected script). Every rule axe runs by default counts
 * (WCAG 2.x A and AA, and its best practices).
 * @param {Page} page
 * @returns {Promise<string[]>}
 */
export async function axeViolations(page) {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    const axe = /** @type {typeof import("axe-core")} */ (Reflect.get(window, "axe"));
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 4).map((n) => `${n.target.join(" ")}${n.failureSummary ? ` [${n.failureSummary.replace(/\s+/g, " ").slice(0, 160)}]` : ""}`).join("; ")}`);
  });
}

/**
 * The texts on the page whose contrast falls short (WCAG 2.2, 1.4.3).
 * Disabled controls are exempt, as WCAG has them.
 * @param {import("playwright-core").Page} page
 * @returns {Promise<string[]>}
 */
export function lowContrast(page) {
  return page.evaluate(() => {
    /** @param {string} c @returns {number[]} */
    const rgba = (c) => (c.match(/[\d.]+/g) ?? []).map(Number);
    /** @param {number[]} rgb */
    const lum = (rgb) => {
      const [r, g, b] = rgb.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
    };
    /** @param {Element} e @returns {number[] | null} */
    const background = (e) => {
      for (let n = /** @type {Element | null} */ (e); n; n = n.parentElement) {
        const s = getComputedStyle(n);
        if (s.backgroundImage !== "none") return null; // a pattern (a card's back): no text is drawn on one
        const c = rgba(s.backgroundColor);
        if (c.length >= 3 && (c.length === 3 || (c[3] ?? 1) > 0)) return c;
      }
      return [255, 255, 255];
    };
    /** @type {string[]} */
    const bad = [];
    for (const e of document.querySelectorAll("body *")) {
      if (!(e instanceof HTMLElement)) continue;
      const own = [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? "").trim() !== "");
      if (!own || e.closest("[disabled]") || e.getClientRects().length === 0) continue;
      const s = getComputedStyle(e);
      if (s.visibility === "hidden" || Number(s.opacity) === 0) continue;
      const bg = background(e);
      if (!bg) continue;
      const fg = rgba(s.color);
      const [l1, l2] = [lum(fg), lum(bg)].sort((a, b) => b - a);
      const ratio = ((l1 ?? 0) + 0.05) / ((l2 ?? 0) + 0.05);
      const size = parseFloat(s.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5)) bad.push(`${e.tagName}.${e.className} "${e.textContent?.trim().slice(0, 30)}": ${ratio.toFixed(2)}`);
    }
    return bad;
  });
}
