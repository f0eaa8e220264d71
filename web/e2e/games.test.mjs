// @ts-check
// Every game's table page, opened from the lobby with bots in the other
// seats: the caller's cards are drawn as the view holds them, the seats
// and the legal actions show, at phone and desktop sizes.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { DESKTOP, PHONE, launch, openPage, screenshot, startServer } from "./helpers.mjs";

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

const games = [
  { game: "doudizhu", variant: "hubei", seats: 3 },
  { game: "shengji", variant: "ningyang", seats: 4 },
  { game: "niuniu", variant: "classic", seats: 4 },
  { game: "shuangkou", variant: "baibian", seats: 4 },
  { game: "dadun", variant: "lean", seats: 4 },
];

for (const g of games) {
  test(`a ${g.game} ${g.variant} table renders the caller's cards`, { timeout: 120_000 }, async (t) => {
    if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
    const phone = g.game === "shengji" || g.game === "niuniu";
    const { page, context, problems } = await openPage(browser, server.url, phone ? PHONE : DESKTOP, { locale: "zh-CN" });
    await page.selectOption("#create-game", g.game);
    await page.selectOption("#create-variant", g.variant);
    await page.selectOption("form.create select[name=turn_seconds]", "0");
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
    await page.locator(".my-hand .card").first().waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => document.querySelector("section.table-page")?.getAttribute("data-ready") === "true");
    // The cards shown are the view's hand, in its order, one element per copy.
    const { shown, view } = await page.evaluate(async (id) => {
      const token = JSON.parse(localStorage.getItem("paiju.player") ?? "{}").token;
      const v = await (await fetch(`/v1/tables/${id}`, { headers: { Authorization: `Bearer ${token}` } })).json();
      const shown = [...document.querySelectorAll(".my-hand .card")].map((e) => e.getAttribute("data-card"));
      return { shown, view: { hand: v.hand, version: v.version } };
    }, id);
    const version = Number(await page.locator("section.table-page").getAttribute("data-version"));
    if (version === view.version) assert.deepEqual(shown, view.hand);
    assert.ok(shown.length > 0);
    await screenshot(page, `table-${g.game}-${phone ? "phone" : "desktop"}`);
    assert.deepEqual(problems(), []);
    await context.close();
  });
}
