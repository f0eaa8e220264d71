// @ts-check
// The app loads in both languages, registers its player once, routes
// between pages without reloading, and makes no request off its origin.

import assert from "node:assert/strict";
import { test } from "node:test";
import { DESKTOP, openPage, serverAndBrowser, WAIT } from "./helpers.mjs";

const env = serverAndBrowser();

test("the app starts, registers once and routes", async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium");
  const { page, context, problems } = await openPage(browser, env.server.url, DESKTOP, { locale: "en-US" });
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
  assert.equal((await page.request.get(env.server.url + "/no/such/page")).status(), 404);
  await page.goto(env.server.url + "/verify");
  await page.locator("#player[data-player-id]").waitFor();
  assert.equal(await page.getAttribute("#player", "data-player-id"), id, "the stored player is kept across reloads");
  assert.deepEqual(problems(), []);
  await context.close();
});

test("Chinese labels when the browser prefers Chinese", async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium");
  const { page, context, problems } = await openPage(browser, env.server.url, DESKTOP, { locale: "zh-CN" });
  assert.equal(await page.getAttribute("html", "lang"), "zh-CN");
  await page.getByRole("navigation").getByRole("link", { name: "排行榜" }).waitFor();
  await page.locator("ul.listings[data-loaded]").waitFor();
  assert.equal(await page.locator("main h1").textContent(), "大厅");
  assert.deepEqual(problems(), []);
  await context.close();
});

test("quick play seats two browsers at one table", async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium");
  const one = await openPage(browser, env.server.url, DESKTOP, { locale: "en-US" });
  const two = await openPage(browser, env.server.url, DESKTOP, { locale: "zh-CN" });
  /** @type {string[]} */
  const tables = [];
  for (const p of [one, two]) {
    await p.page.selectOption("#quick-game", "shuangkou");
    await p.page.selectOption("#quick-variant", "classic");
    await p.page.locator("form.quick button[type=submit]").click();
    await p.page.waitForURL(/\/tables\/[^/]+$/);
    await p.page.waitForFunction(() => document.querySelector("section.table-page")?.getAttribute("data-ready") === "true");
    tables.push(new URL(p.page.url()).pathname);
  }
  assert.equal(tables[0], tables[1], "the second quick play joins the first one's table");
  assert.notEqual(await one.page.locator("section.table-page").getAttribute("data-seat"), await two.page.locator("section.table-page").getAttribute("data-seat"));
  // The first sees the second arrive without reloading (the live stream).
  await one.page.waitForFunction(() => [...document.querySelectorAll(".seats .seat .name")].filter((e) => /玩家/.test(e.textContent ?? "")).length === 1, undefined, { timeout: WAIT });
  assert.deepEqual(one.problems(), []);
  assert.deepEqual(two.problems(), []);
  await one.context.close();
  await two.context.close();
});
