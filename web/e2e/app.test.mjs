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
  // Links route inside the page: no reload (the marker survives).
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  await page.getByRole("navigation").getByRole("link", { name: "Leaderboards" }).click();
  await page.waitForURL(/\/leaderboards$/);
  await page.locator(".leaderboards[data-loaded]").waitFor();
  assert.equal(await page.evaluate(() => "sameDocument" in window), true, "the link was followed without a reload");
  await page.goBack();
  await page.locator("ul.listings[data-loaded]").waitFor();
  assert.equal((await page.request.get(server.url + "/no/such/page")).status(), 404);
  await page.goto(server.url + "/verify");
  await page.locator("#player[data-player-id]").waitFor();
  assert.equal(await page.getAttribute("#player", "data-player-id"), id, "the stored player is kept across reloads");
  assert.deepEqual(problems(), []);
  await context.close();
});

test("Chinese labels when the browser prefers Chinese", async (t) => {
  if (!browser) return t.skip("no chromium");
  const { page, context, problems } = await openPage(browser, server.url, DESKTOP, { locale: "zh-CN" });
  assert.equal(await page.getAttribute("html", "lang"), "zh-CN");
  await page.getByRole("navigation").getByRole("link", { name: "排行榜" }).waitFor();
  await page.locator("ul.listings[data-loaded]").waitFor();
  assert.equal(await page.locator("main h1").textContent(), "大厅");
  assert.deepEqual(problems(), []);
  await context.close();
});
