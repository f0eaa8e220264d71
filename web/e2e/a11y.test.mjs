// @ts-check
// People, not only tests, use the app: every visible text keeps a contrast
// of at least 4.5:1 (3:1 for large text) against its background, on the
// lobby, a table, the leaderboards, the account page, the room code form
// and the tournaments, at both sizes; the keyboard reaches every control in
// order and the focused one shows an outline.

import assert from "node:assert/strict";
import { test } from "node:test";
import { DESKTOP, lowContrast, openPage, PHONE, serverAndBrowser, TEST_LIMIT, WAIT } from "./helpers.mjs";

/** @typedef {import("playwright-core").Page} Page */

const env = serverAndBrowser();

test("text contrast on every page at both sizes", { timeout: TEST_LIMIT }, async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
  for (const viewport of [DESKTOP, PHONE]) {
    const { page, context, problems } = await openPage(browser, env.server.url, viewport, { locale: "zh-CN" });
    await page.locator("ul.listings[data-loaded]").waitFor();
    // The open form's house rules shown, a refusal among them.
    await page.locator("form.create details.options summary").click();
    await page.evaluate(() => {
      const e = document.querySelector("form.create .opt-error");
      if (e) e.textContent = "invalid_option";
    });
    assert.deepEqual(await lowContrast(page), [], "lobby");
    // A table with bots, so that seats, plays and the hand all show.
    await page.selectOption("#create-game", "doudizhu");
    await page.selectOption("#create-variant", "classic");
    await page.selectOption("form.create select[name=turn_seconds]", "300");
    await page.selectOption("form.create select[name=bots]", "2");
    await page.locator("form.create button[type=submit]").click();
    await page.waitForURL(/\/tables\/[^/]+$/);
    await page.locator(".my-hand .card").first().waitFor();
    await page.waitForFunction(() => document.querySelector("section.table-page")?.getAttribute("data-ready") === "true");
    assert.deepEqual(await lowContrast(page), [], "table");
    await page.goto(`${env.server.url}/leaderboards/doudizhu`);
    await page.locator(".leaderboards[data-loaded]").waitFor();
    assert.deepEqual(await lowContrast(page), [], "leaderboards");
    await page.goto(`${env.server.url}/me`);
    await page.locator("ul.token-list[data-loaded]").waitFor();
    await page.locator("button.show-token").click();
    assert.deepEqual(await lowContrast(page), [], "account");
    await page.goto(`${env.server.url}/join`);
    await page.locator("form.room-form .room-message.error").waitFor();
    assert.deepEqual(await lowContrast(page), [], "join by room code");
    // The tournaments, a format disabled (升级 plays duplicate only), and
    // a tournament opened from there.
    await page.goto(`${env.server.url}/tournaments`);
    await page.locator(".tournament-list ul.listings[data-loaded]").waitFor();
    await page.selectOption("#tour-kind", "shengji/ningyang");
    assert.deepEqual(await lowContrast(page), [], "tournaments");
    await page.locator("form.open-tournament button[type=submit]").click();
    await page.locator(".tournament[data-loaded]").waitFor();
    assert.deepEqual(await lowContrast(page), [], "a tournament");
    assert.deepEqual(problems(), []);
    await context.close();
  }
});

test("the keyboard reaches the lobby's controls, with a visible focus", async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
  const { page, context, problems } = await openPage(browser, env.server.url, DESKTOP, { locale: "en-US" });
  await page.locator("ul.listings[data-loaded]").waitFor();
  /** @type {string[]} */
  const reached = [];
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press("Tab");
    const f = await page.evaluate(() => {
      const e = document.activeElement;
      if (!(e instanceof HTMLElement) || e === document.body) return null;
      const s = getComputedStyle(e);
      return { what: `${e.tagName}:${e.getAttribute("name") ?? e.textContent?.trim()}`, outline: s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2 };
    });
    if (!f) continue;
    assert.ok(f.outline, `${f.what} shows no focus outline`);
    reached.push(f.what);
  }
  for (const want of ["A:Skip to content", "A:Lobby", "A:Leaderboards", "SELECT:game", "SELECT:variant", "BUTTON:Play now", "INPUT:stake", "SUMMARY:House rules (defaults)", "BUTTON:Open and sit down", "BUTTON:Refresh"]) {
    assert.ok(reached.includes(want), `Tab never reaches ${want}: ${reached.join(", ")}`);
  }
  assert.ok(reached.indexOf("BUTTON:Play now") < reached.indexOf("BUTTON:Open and sit down"), "tab order follows the page");
  assert.deepEqual(problems(), []);
  await context.close();
});

test("a card is picked and played with the keyboard alone", { timeout: TEST_LIMIT }, async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
  const { page, context, problems } = await openPage(browser, env.server.url, PHONE, { locale: "en-US" });
  await page.selectOption("#create-game", "doudizhu");
  await page.selectOption("#create-variant", "classic");
  await page.selectOption("form.create select[name=turn_seconds]", "0");
  await page.selectOption("form.create select[name=bots]", "2");
  await page.locator("form.create button[type=submit]").click();
  await page.waitForURL(/\/tables\/[^/]+$/);
  const root = page.locator("section.table-page");
  /**
   * Waits until it is this player's turn, the page up to date, or until a
   * hand's result asks the player to continue: the bots may end a hand in
   * which the player only passed (the deal is the server's, new each run).
   * @returns {Promise<"turn" | "result">}
   */
  const myTurn = async () => {
    const h = await page.waitForFunction(() => {
      const e = document.querySelector("section.table-page");
      if (!(e instanceof HTMLElement) || e.dataset.ready !== "true") return false;
      if (document.querySelector('section.hand-result:not([hidden]) button[data-action="continue"]:not([hidden]):not([disabled])')) return "result";
      return e.dataset.seat !== "" && e.dataset.seat === e.dataset.turn ? "turn" : false;
    }, undefined, { timeout: WAIT });
    return /** @type {"turn" | "result"} */ (await h.jsonValue());
  };
  /**
   * Presses Tab until an enabled button of the action is focused.
   * @param {string} action
   */
  const tabTo = async (action) => {
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate((a) => document.activeElement?.getAttribute("data-action") === a, action)) return true;
    }
    return false;
  };
  let played = false;
  let hands = 1;
  for (let turn = 0; turn < 200 && !played; turn++) {
    if ((await myTurn()) === "result") {
      // The next deal, by keyboard too.
      const hand = await page.locator("section.hand-result").getAttribute("data-hand");
      await page.locator('section.hand-result button[data-action="continue"]').focus();
      await page.keyboard.press("Enter");
      await page.waitForFunction((n) => document.querySelector("section.hand-result")?.getAttribute("data-hand") !== n || document.querySelector("section.hand-result")?.hasAttribute("hidden"), hand, { timeout: WAIT });
      hands++;
      continue;
    }
    const version = Number(await root.getAttribute("data-version"));
    const phase = await root.getAttribute("data-phase");
    await page.locator(".my-hand button.card").first().focus();
    if (phase === "bidding") {
      assert.ok(await tabTo("bid"), "Tab reaches a bid");
      await page.keyboard.press("Enter");
    } else {
      const before = await page.locator(".my-hand button.card").count();
      const card = page.locator(".my-hand button.card:not([disabled])").first();
      if (await card.count()) {
        await card.focus();
        await page.keyboard.press("Space");
        await page.waitForFunction(() => document.querySelector("section.table-page")?.getAttribute("data-ready") === "true");
        if (await page.locator('.actions button[data-action="play"]:not([disabled])').count()) {
          assert.ok(await tabTo("play"), "Tab reaches Play");
          await page.keyboard.press("Enter");
          await page.waitForFunction((n) => document.querySelectorAll(".my-hand button.card").length === n - 1, before, { timeout: WAIT });
          played = true;
          continue;
        }
        await page.keyboard.press("Space"); // unpick it
        await page.waitForFunction(() => document.querySelector("section.table-page")?.getAttribute("data-ready") === "true");
      }
      await page.locator(".my-hand button.card").first().focus();
      assert.ok(await tabTo("pass"), "Tab reaches Pass");
      await page.keyboard.press("Enter");
    }
    await page.waitForFunction((v) => Number(document.querySelector("section.table-page")?.getAttribute("data-version")) > v, version, { timeout: WAIT });
  }
  assert.ok(played, `a card was played by keyboard (in ${hands} hands)`);
  assert.deepEqual(problems(), []);
  await context.close();
});
