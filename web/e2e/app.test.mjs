// @ts-check
// The app loads in both languages, registers its player once, routes
// between pages without reloading, and makes no request off its origin.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { DESKTOP, launch, openPage, startServer } from "./helpers.mjs";

/** @type {import("./helpers.mjs").Server} */
let server;
/** @type {import("playwright-core").Browser | null} */
let browser;

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("the app starts, registers once and routes", async (t) => {
  if (!browser) return t.skip("no chromium");
  const { page, context, problems } = await openPage(browser, server.url, DESKTOP, { locale: "en-US" });
  assert.equal(await page.getAttribute("html", "lang"), "en");
  const id = await page.getAttribute("#player", "data-player-id");
  assert.ok(id, "a player id");
  await page.getByRole("link", { name: "Leaderboards" }).click();
  await page.waitForURL(/\/leaderboards$/);
  await page.locator("main h1").waitFor();
  await page.reload();
  await page.locator("#player[data-player-id]").waitFor();
  assert.equal(await page.getAttribute("#player", "data-player-id"), id, "the stored player is kept across reloads");
  assert.deepEqual(problems(), []);
  await context.close();
});

test("Chinese labels when the browser prefers Chinese", async (t) => {
  if (!browser) return t.skip("no chromium");
  const { page, context, problems } = await openPage(browser, server.url, DESKTOP, { locale: "zh-CN" });
  assert.equal(await page.getAttribute("html", "lang"), "zh-CN");
  await page.getByRole("link", { name: "排行榜" }).waitFor();
  assert.deepEqual(problems(), []);
  await context.close();
});
