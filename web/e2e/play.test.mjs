// @ts-check
// Three players in three browser contexts open, join and play a whole hand
// of 斗地主 classic by clicking: bids on the bid buttons, plays by picking
// cards and then Play (or Pass), until the settlement shows; then the
// settlement's replay link is followed. Screenshots of the lobby, the table
// (phone and desktop) and the leaderboards go to artifacts/. No page may
// request anything off its origin or log a console error.

import assert from "node:assert/strict";
import { test } from "node:test";
import { DESKTOP, openPage, PHONE, screenshot, serverAndBrowser, TEST_LIMIT, WAIT } from "./helpers.mjs";

/** @typedef {import("playwright-core").Page} Page */

const env = serverAndBrowser();

/**
 * The table page's state as its root element tells it.
 * @param {Page} page
 */
async function tableState(page) {
  return page.locator("section.table-page").evaluate((e) => {
    const d = /** @type {HTMLElement} */ (e).dataset;
    return { seat: d.seat ?? "", turn: d.turn ?? "", phase: d.phase ?? "", version: Number(d.version ?? 0), ready: d.ready === "true" };
  });
}

/**
 * Waits until the page shows a table version above `after`, fully loaded.
 * @param {Page} page
 * @param {number} after
 */
async function waitVersion(page, after) {
  await page.waitForFunction(
    (v) => {
      const e = document.querySelector("section.table-page");
      return e instanceof HTMLElement && e.dataset.ready === "true" && Number(e.dataset.version) > v;
    },
    after,
    { timeout: WAIT },
  );
}

/** @param {Page} page */
async function waitReady(page) {
  await page.waitForFunction(() => {
    const e = document.querySelector("section.table-page");
    return e instanceof HTMLElement && e.dataset.ready === "true";
  }, undefined, { timeout: WAIT });
}

/**
 * The page whose player is on turn, once it shows it; null when the hand
 * has ended meanwhile.
 * @param {Page[]} pages
 * @param {Page} watch a page that shows the settlement when the hand ends
 * @returns {Promise<{page: Page, version: number, phase: string} | null>}
 */
async function onTurn(pages, watch) {
  const deadline = Date.now() + WAIT;
  for (;;) {
    for (const page of pages) {
      const s = await tableState(page);
      if (s.ready && s.seat !== "" && s.seat === s.turn) return { page, version: s.version, phase: s.phase };
    }
    if (await watch.locator('section.settlement[data-hand="1"]').count()) return null;
    assert.ok(Date.now() < deadline, "no page shows its player on turn");
    await new Promise((r) => setTimeout(r, 100));
  }
}

test("three players play a whole hand of 斗地主 by clicking", { timeout: TEST_LIMIT }, async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
  const a = await openPage(browser, env.server.url, DESKTOP, { locale: "zh-CN" });
  const b = await openPage(browser, env.server.url, PHONE, { locale: "en-US" });
  const c = await openPage(browser, env.server.url, DESKTOP, { locale: "en-GB" });
  const players = [a, b, c];

  // A opens a table without a turn clock, so that a slow machine never times a seat out.
  await a.page.locator("ul.listings[data-loaded]").waitFor();
  await screenshot(a.page, "lobby-desktop");
  await screenshot(b.page, "lobby-phone");
  await a.page.selectOption("#create-game", "doudizhu");
  await a.page.selectOption("#create-variant", "classic");
  await a.page.selectOption("form.create select[name=turn_seconds]", "0");
  await a.page.locator("form.create button[type=submit]").click();
  await a.page.waitForURL(/\/tables\/[^/]+$/);
  const tableID = decodeURIComponent(new URL(a.page.url()).pathname.split("/").pop() ?? "");
  assert.ok(tableID, "the table's id in the URL");
  await waitReady(a.page);

  // B and C find it in the lobby and join.
  for (const p of [b, c]) {
    const join = p.page.locator(`li.listing[data-table-id="${tableID}"] button`);
    await join.waitFor({ timeout: WAIT });
    await join.click();
    await p.page.waitForURL(new RegExp(`/tables/${tableID}$`));
    await waitReady(p.page);
  }

  // A fourth browser watches: it sees the seats and the plays, no cards of anyone.
  const watcher = await openPage(browser, env.server.url, PHONE, { locale: "zh-CN", path: `/tables/${tableID}` });
  await waitReady(watcher.page);

  // The hand is dealt once the third seat fills: every page shows 17 cards.
  for (const p of players) {
    await p.page.waitForFunction(() => document.querySelectorAll(".my-hand button.card").length === 17, undefined, { timeout: WAIT });
  }
  await screenshot(b.page, "table-phone");
  await screenshot(a.page, "table-desktop");

  let actions = 0;
  let played = 0;
  let shotMidHand = false;
  for (;;) {
    if (await a.page.locator('section.settlement[data-hand="1"]').count()) break;
    assert.ok(actions < 200, `the hand has not ended after ${actions} actions`);
    // The player on turn, as its own page shows it once up to date.
    const actor = await onTurn(players.map((p) => p.page), a.page);
    if (!actor) break;
    const { page, version, phase } = actor;
    if (phase === "bidding") {
      // The highest bid ends the bidding at once.
      const bids = page.locator('.actions button[data-action="bid"]');
      await bids.last().click();
    } else {
      assert.equal(phase, "playing");
      const pass = page.locator('.actions button[data-action="pass"]');
      // Pick the lowest card that takes part in a legal play, then Play if
      // it alone is one; a follower that cannot beat the play passes.
      const card = page.locator(".my-hand button.card:not([disabled])").first();
      let done = false;
      if (await card.count()) {
        await card.click();
        await waitReady(page);
        const play = page.locator('.actions button[data-action="play"]:not([disabled])');
        if (await play.count()) {
          await play.first().click();
          played++;
          done = true;
        } else {
          await page.locator('.actions button[data-action="clear"]').click(); // clear the selection
          await waitReady(page);
        }
      }
      if (!done) {
        assert.ok(await pass.count(), "a player on lead always has a play");
        await pass.click();
      }
    }
    actions++;
    await waitVersion(page, version);
    if (!shotMidHand && played >= 4) {
      shotMidHand = true;
      await screenshot(b.page, "table-playing-phone");
      await screenshot(a.page, "table-playing-desktop");
    }
  }
  assert.ok(played > 0, "cards were played");

  // Every page shows the settlement of hand 1, with a replay link.
  for (const p of players) {
    const link = p.page.locator('section.settlement[data-hand="1"] a.replay-link');
    await link.waitFor({ timeout: WAIT });
    assert.match(await link.getAttribute("href") ?? "", new RegExp(`^/hands/${tableID}-1\\?min_position=[1-9][0-9]*$`));
    const deltas = await p.page.locator('section.settlement[data-hand="1"] .deltas tbody td:nth-child(2)').allTextContents();
    assert.equal(deltas.length, 3);
    assert.equal(deltas.reduce((s, d) => s + Number(d), 0), 0, `the settlement balances: ${deltas}`);
  }
  // The watcher followed the hand live to its settlement, seeing no hand.
  await watcher.page.locator('section.settlement[data-hand="1"]').waitFor({ timeout: WAIT });
  assert.equal(await watcher.page.locator(".my-hand .card").count(), 0, "a watcher holds no cards");
  assert.equal(await watcher.page.locator(".seats .seat").count(), 3);
  assert.equal(await watcher.page.locator("section.table-page").getAttribute("data-seat"), "");
  assert.deepEqual(watcher.problems(), []);
  await watcher.context.close();
  await screenshot(a.page, "table-settled-desktop");
  await screenshot(b.page, "table-settled-phone");

  await a.page.locator('section.settlement[data-hand="1"] a.replay-link').click();
  await a.page.waitForURL(new RegExp(`/hands/${tableID}-1\\?min_position=[0-9]+$`));
  await a.page.locator("main h1").waitFor();
  // The hand just played by clicking replays verified in the browser: its
  // seed matches its commitment, the shuffle deals the same cards, and the
  // table's export checks out.
  const verdict = a.page.locator('#replay-verdict[data-verified="true"], #replay-verdict[data-verified="false"]');
  await verdict.waitFor({ timeout: WAIT });
  assert.equal(await verdict.getAttribute("data-verified"), "true", `replay verdict: ${await verdict.innerText()}`);
  await screenshot(a.page, "replay-played-desktop");

  // The leaderboards, at both sizes.
  for (const [p, name] of /** @type {const} */ ([[c, "leaderboards-desktop"], [b, "leaderboards-phone"]])) {
    await p.page.goto(`${env.server.url}/leaderboards/doudizhu`);
    await p.page.locator(".leaderboards[data-loaded]").waitFor();
    await screenshot(p.page, name);
  }

  for (const p of players) assert.deepEqual(p.problems(), []);
  for (const p of players) await p.context.close();
});
