// @ts-check
// Between hands (wait_between_hands, which the lobby's open form asks
// for): a player at a table with bots plays hand 1 by clicking; then the
// page shows the hand's result — every seat's cards left, the settlement
// in words with each seat's delta — and 继续, and the server deals hand 2
// only once the player has pressed it. At 牛牛 the reveal of hand 1 is
// cleared from the page once hand 2 is dealt. Screenshots of the result
// at phone and desktop size go to artifacts/.

import assert from "node:assert/strict";
import { test } from "node:test";
import { callAPI, DESKTOP, lowContrast, openPage, PHONE, screenshot, serverAndBrowser, TEST_LIMIT, WAIT } from "./helpers.mjs";

/** @typedef {import("playwright-core").Page} Page */
/** @typedef {import("../../clients/typescript/src/schema").components["schemas"]} Schemas */

const env = serverAndBrowser();

const ROOT = "section.table-page";
const RESULT = "section.hand-result";

/** @param {Page} page */
async function ready(page) {
  await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute("data-ready") === "true", ROOT, { timeout: WAIT });
}

/**
 * Opens a table of game/variant from the lobby's form, without a turn
 * clock, bots in every other seat; returns its id.
 * @param {Page} page
 * @param {string} game
 * @param {string} variant
 * @param {number} bots
 */
async function openWithBots(page, game, variant, bots) {
  await page.selectOption("#create-game", game);
  await page.selectOption("#create-variant", variant);
  await page.selectOption("form.create select[name=turn_seconds]", "0");
  await page.selectOption("form.create select[name=bots]", String(bots));
  await page.locator("form.create button[type=submit]").click();
  await page.waitForURL(/\/tables\/[^/]+$/);
  await ready(page);
  return decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
}

/**
 * The table as the page's player sees it, over the API.
 * @param {Page} page
 * @param {string} id
 * @returns {Promise<Schemas["Table"]>}
 */
async function viewOf(page, id) {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem("paiju.player") ?? "{}").token);
  return callAPI(env.server.url, "GET", `/v1/tables/${encodeURIComponent(id)}`, token);
}

/**
 * Waits until the page shows another version than v, or the result.
 * @param {Page} page
 * @param {number} v
 */
async function moved(page, v) {
  await page.waitForFunction(
    ([root, result, v]) => {
      const e = document.querySelector(String(root));
      const r = document.querySelector(String(result));
      return (r instanceof HTMLElement && !r.hidden) || (e?.getAttribute("data-ready") === "true" && Number(e.getAttribute("data-version")) !== v);
    },
    [ROOT, RESULT, v],
    { timeout: WAIT },
  );
}

/** @param {Page} page */
async function resultShown(page) {
  return page.locator(RESULT).evaluate((e) => !(/** @type {HTMLElement} */ (e).hidden));
}

/**
 * Plays the running 斗地主 hand by clicking until the result shows: the
 * player passes whenever it may (不叫, 不出) and leads its lowest card.
 * @param {Page} page
 */
async function playDoudizhu(page) {
  for (let i = 0; i < 400; i++) {
    if (await resultShown(page)) return;
    await ready(page);
    const root = page.locator(ROOT);
    const v = Number(await root.getAttribute("data-version"));
    const mine = (await root.getAttribute("data-seat")) === (await root.getAttribute("data-turn"));
    if (!mine) {
      await moved(page, v);
      continue;
    }
    const pass = page.locator('.actions button[data-action="pass"]:not([disabled])');
    if (await pass.count()) {
      await pass.click();
    } else {
      await page.locator(".my-hand button.card:not([disabled])").first().click();
      await ready(page);
      await page.locator('.actions button[data-action="play"]:not([disabled])').first().click();
    }
    await moved(page, v);
  }
  assert.fail("hand 1 did not end in 400 steps");
}

test("斗地主: the result of the hand, then the next deal only after 继续", { timeout: TEST_LIMIT }, async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
  const { page, context, problems } = await openPage(browser, env.server.url, DESKTOP, { locale: "zh-CN" });
  const id = await openWithBots(page, "doudizhu", "classic", 2);
  let v = await viewOf(page, id);
  assert.equal(v.wait_between_hands, true, "the open form asks for wait_between_hands");
  await playDoudizhu(page);

  // The result: hand 1, every seat's cards left, the winner's none.
  const result = page.locator(`${RESULT}[data-hand="1"]`);
  await result.waitFor();
  assert.match((await result.locator("h2").textContent()) ?? "", /第 1 手结果/);
  await page.waitForFunction((sel) => document.querySelectorAll(`${sel} .remaining li`).length === 3, RESULT, { timeout: WAIT });
  const left = await result.locator(".remaining li").evaluateAll((lis) => lis.map((li) => li.querySelectorAll(".card").length));
  v = await viewOf(page, id);
  const settled = v.last_settlement;
  assert.ok(settled && settled.hand === 1, "hand 1 settled");
  assert.ok(left.includes(0), `the winner has no card left: ${left}`);
  assert.ok(left.some((n) => n > 0), `the losers' cards are shown: ${left}`);
  assert.match((await result.locator(".remaining").textContent()) ?? "", /（无）/);
  // The settlement in words and every seat's delta, as the server settled it.
  assert.ok(((await page.locator(".settlement .result").textContent()) ?? "").includes("倍"), "the multiplier in words");
  const deltas = await page.locator('.settlement[data-hand="1"] .deltas tbody td:nth-child(2)').allTextContents();
  assert.deepEqual(deltas.map(Number), settled.deltas);
  const shown = await result.locator(".remaining .delta").allTextContents();
  assert.deepEqual(shown, settled.deltas.map((d) => `得分 ${d > 0 ? "+" : ""}${d}`), "each seat's delta beside its cards");

  // Nothing is dealt while the player has not pressed 继续: the bots are ready, the player is not.
  assert.equal(v.hand_number, 1);
  assert.equal(v.between_hands, true);
  assert.deepEqual(v.seats.map((s) => s.ready), [false, true, true]);
  assert.match((await result.locator(".ready-list").textContent()) ?? "", /等待/);
  const cont = result.locator('button[data-action="continue"]');
  assert.equal(await cont.textContent(), "继续");
  assert.equal(await cont.isEnabled(), true);
  assert.equal(await page.locator('.actions button[data-action="continue"]').count(), 0, "继续 is the result's, not the action bar's");
  await screenshot(page, "between-doudizhu-desktop");
  assert.deepEqual(await lowContrast(page), [], "text contrast of the result (desktop)");
  await page.setViewportSize(PHONE);
  await screenshot(page, "between-doudizhu-phone");
  assert.deepEqual(await lowContrast(page), [], "text contrast of the result (phone)");
  await page.setViewportSize(DESKTOP);

  await cont.click();
  await page.waitForFunction((sel) => document.querySelector(sel)?.hasAttribute("hidden"), RESULT, { timeout: WAIT });
  await page.waitForFunction(() => document.querySelector("section.table-page h1")?.textContent?.includes("2"), undefined, { timeout: WAIT });
  v = await viewOf(page, id);
  assert.equal(v.hand_number, 2, "继续 dealt hand 2");
  assert.equal(v.between_hands, false);
  await page.waitForFunction(() => document.querySelectorAll(".my-hand .card").length >= 17, undefined, { timeout: WAIT });
  assert.deepEqual(problems(), []);
  await context.close();
});

test("牛牛: the reveal of the hand before is cleared once the next hand is dealt", { timeout: TEST_LIMIT }, async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
  const { page, context, problems } = await openPage(browser, env.server.url, PHONE, { locale: "en-US" });
  await openWithBots(page, "niuniu", "classic", 3);
  await page.locator('.actions button[data-action="no_bull"]').click();
  const result = page.locator(`${RESULT}[data-hand="1"]`);
  await result.waitFor({ timeout: WAIT });
  await page.locator(".public ul.reveal li").first().waitFor();
  assert.equal(await page.locator(".public ul.reveal li").count(), 4, "every seat's hand revealed");
  await page.waitForFunction((sel) => document.querySelectorAll(`${sel} .remaining li .card`).length === 20, RESULT, { timeout: WAIT });
  assert.match((await result.locator("h2").textContent()) ?? "", /Hand 1: result/);
  await screenshot(page, "between-niuniu-phone");
  await page.setViewportSize(DESKTOP);
  await screenshot(page, "between-niuniu-desktop");

  await result.locator('button[data-action="continue"]').click();
  await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute("data-phase") === "arranging" && document.querySelector(sel)?.getAttribute("data-ready") === "true", ROOT, { timeout: WAIT });
  assert.equal(await page.locator(".public ul.reveal").count(), 0, "hand 1's reveal still shown in hand 2");
  assert.equal(await page.locator(RESULT).evaluate((e) => /** @type {HTMLElement} */ (e).hidden), true);
  assert.deepEqual(problems(), []);
  await context.close();
});
