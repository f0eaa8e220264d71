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
// PAIJU_BIN names the paiju binary (default bin/paiju, which make builds);
// PAIJU_CHROMIUM the browser (default /usr/bin/chromium).

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
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
    const timer = setTimeout(() => reject(new Error(`paiju serve did not start listening in 60s:\n${logs}`)), 60_000);
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
 * @param {{locale?: string, path?: string}} [opts] locale (default "zh-CN"), first path (default "/")
 * @returns {Promise<OpenedPage>}
 */
export async function openPage(browser, base, viewport = DESKTOP, opts = {}) {
  const locale = opts.locale ?? "zh-CN";
  const context = await browser.newContext({ viewport, locale, extraHTTPHeaders: { "Accept-Language": locale } });
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
    if (msg.type() === "error") problems.push(`console error: ${msg.text()}`);
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
