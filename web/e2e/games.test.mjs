// @ts-check
// Every game's table page, opened from the lobby with bots in the other
// seats: the caller's cards are drawn as the view holds them, the seats
// and the legal actions show, at phone and desktop sizes.

import assert from "node:assert/strict";
import { test } from "node:test";
import { callAPI, DESKTOP, openPage, PHONE, screenshot, serverAndBrowser, TEST_LIMIT, WAIT } from "./helpers.mjs";

const env = serverAndBrowser();

const games = [
  { game: "doudizhu", variant: "hubei", seats: 3 },
  { game: "shengji", variant: "ningyang", seats: 4 },
  { game: "niuniu", variant: "classic", seats: 4 },
  { game: "shuangkou", variant: "baibian", seats: 4 },
  { game: "dadun", variant: "lean", seats: 4 },
];

for (const g of games) {
  test(`a ${g.game} ${g.variant} table renders the caller's cards`, { timeout: TEST_LIMIT }, async (t) => {
    const browser = env.browser;
    if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
    const phone = g.game === "shengji" || g.game === "niuniu";
    const { page, context, problems } = await openPage(browser, env.server.url, phone ? PHONE : DESKTOP, { locale: "zh-CN" });
    await page.selectOption("#create-game", g.game);
    await page.selectOption("#create-variant", g.variant);
    // One table runs a turn clock, to see it count down; the others have none.
    const clocked = g.game === "doudizhu";
    await page.selectOption("form.create select[name=turn_seconds]", clocked ? "300" : "0");
    await page.selectOption("form.create select[name=bots]", String(g.seats - 1));
    await page.locator("form.create button[type=submit]").click();
    await page.waitForURL(/\/tables\/[^/]+$/);
    const id = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
    await page.waitForFunction((n) => document.querySelectorAll(".seats .seat").length === n, g.seats);

    // 升级 deals by drawing: draw a few cards first.
    if (g.game === "shengji") {
      for (let i = 0; i < 40 && (await page.locator(".my-hand .card").count()) < 5; i++) {
        const draw = page.locator('.actions button[data-action="draw"]');
        if (await draw.count()) {
          const v = Number(await page.locator("section.table-page").getAttribute("data-version"));
          await draw.click();
          await page.waitForFunction((v) => Number(document.querySelector("section.table-page")?.getAttribute("data-version")) > v, v);
        } else {
          await page.waitForTimeout(100);
        }
      }
    }
    await page.locator(".my-hand .card").first().waitFor({ timeout: WAIT });
    await page.waitForFunction(() => document.querySelector("section.table-page")?.getAttribute("data-ready") === "true");
    // The cards shown are the view's hand, in its order, one element per
    // copy. The page and a view fetched beside it are compared only at one
    // version: the page's cards and version are read together, after the
    // fetch, in one task (the page draws a version in one task), and again
    // while the bots still move the table on.
    /** @type {{shown: (string | null)[], drawn: number, ready: boolean, view: {hand: string[], version: number}} | undefined} */
    let seen;
    for (let i = 0; i < 100; i++) {
      seen = await page.evaluate(async (id) => {
        const token = JSON.parse(localStorage.getItem("paiju.player") ?? "{}").token;
        const v = await (await fetch(`/v1/tables/${id}`, { headers: { Authorization: `Bearer ${token}` } })).json();
        const section = document.querySelector("section.table-page");
        return {
          shown: [...document.querySelectorAll(".my-hand .card")].map((e) => e.getAttribute("data-card")),
          drawn: Number(section?.getAttribute("data-version")),
          ready: section?.getAttribute("data-ready") === "true",
          view: { hand: v.hand, version: v.version },
        };
      }, id);
      if (seen.ready && seen.drawn === seen.view.version) break;
      await page.waitForTimeout(100);
    }
    assert.ok(seen && seen.ready && seen.drawn === seen.view.version, `the page never drew the view's version: ${JSON.stringify(seen)}`);
    assert.deepEqual(seen.shown, seen.view.hand);
    assert.ok(seen.shown.length > 0);
    await screenshot(page, `table-${g.game}-${phone ? "phone" : "desktop"}`);

    if (clocked) {
      // The seat on turn shows the time it has left, counting down from the view's deadline.
      const clock = page.locator('.seat[data-turn="true"] .clock[role="timer"]');
      await clock.waitFor({ timeout: WAIT });
      const secs = Number((await clock.textContent())?.match(/\d+/)?.[0]);
      assert.ok(secs > 0 && secs <= 300, `clock shows ${secs}s of 300`);
    }
    if (g.game === "niuniu") {
      // Arrange by picking cards: three that make a bull, then Arrange; the
      // hand then shows them apart from the other two. Without a bull, 没牛.
      for (let i = 0; i < 3; i++) {
        const card = page.locator(".my-hand .cards > button.card:not([disabled]):not(.selected)").first();
        if (!(await card.count())) break;
        await card.click();
        await page.waitForFunction(() => document.querySelector("section.table-page")?.getAttribute("data-ready") === "true");
      }
      const arrange = page.locator('.actions button[data-action="arrange"]:not([disabled])');
      if (await arrange.count()) {
        const picked = await page.locator(".my-hand .cards > button.card.selected").evaluateAll((es) => es.map((e) => e.getAttribute("data-card")));
        await arrange.first().click();
        // The bots have arranged already, so the hand is revealed at once:
        // the reveal shows each seat's bull apart from its other two cards.
        const three = page.locator(".arrangement .niuniu-three, .public .reveal .niuniu-three");
        await three.first().waitFor({ timeout: WAIT });
        const shownThrees = await three.evaluateAll((es) => es.map((e) => [...e.querySelectorAll(".card")].map((c) => c.getAttribute("data-card"))));
        assert.ok(shownThrees.some((t) => t.length === 3 && t.every((c) => picked.includes(c))), `the bull ${picked} shown apart: ${JSON.stringify(shownThrees)}`);
        await screenshot(page, "table-niuniu-arranged-phone");
      } else {
        await page.locator('.actions button[data-action="no_bull"]').click();
        await page.locator(".arrangement .niuniu, .public .reveal .niuniu").first().waitFor({ timeout: WAIT });
        await screenshot(page, "table-niuniu-arranged-phone");
      }
    }
    if (g.game === "dadun") {
      // 托管: the toggle hands the seat to the bot and takes it back.
      const toggle = page.locator("button.toggle.delegate");
      await toggle.waitFor({ timeout: WAIT });
      assert.equal(await toggle.getAttribute("aria-pressed"), "false");
      await toggle.click();
      await page.waitForFunction(() => document.querySelector("button.toggle.delegate")?.getAttribute("aria-pressed") === "true", undefined, { timeout: WAIT });
      assert.match((await page.locator(".seat.me .meta").textContent()) ?? "", /托管/);
      await page.locator("button.toggle.delegate").click();
      // Taken back: the toggle says so, or, when the bot played the hand
      // out meanwhile, the table waits for the player's 继续 between hands
      // (the toggle is the play's) with the seat no longer delegated.
      await page.waitForFunction(
        () => {
          const toggle = document.querySelector("button.toggle.delegate");
          return toggle
            ? toggle.getAttribute("aria-pressed") === "false"
            : [...document.querySelectorAll('button[data-action="continue"]')].some((b) => b instanceof HTMLButtonElement && !b.disabled && b.checkVisibility());
        },
        undefined,
        { timeout: WAIT },
      );
      const player = await page.evaluate(() => JSON.parse(localStorage.getItem("paiju.player") ?? "{}"));
      /** @type {{seats: {seat: number, delegated: boolean}[], seat: number | null}} */
      const v = await callAPI(env.server.url, "GET", `/v1/tables/${id}`, player.token);
      assert.equal(v.seats.find((s) => s.seat === v.seat)?.delegated, false, "the seat is the player's again");
    }
    assert.deepEqual(problems(), []);
    await context.close();
  });
}
