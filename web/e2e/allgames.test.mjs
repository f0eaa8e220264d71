// @ts-check
// Every game and variant played to the end of a hand by clicking: one
// browser sits at seat 0 of a table opened from the lobby with bots in the
// other seats and plays only through the page's controls, like a person
// who always takes the first thing offered: a card-less action (bid, draw,
// grab, pass, ...) when no card may be picked, else the cards the page
// marks as pickable, one at a time, until a button for exactly the
// selection (play, declare, bury, call, arrange, ...) is enabled. It stops
// when the hand's settlement shows.

import assert from "node:assert/strict";
import { test } from "node:test";
import { DESKTOP, openPage, PHONE, screenshot, serverAndBrowser, TEST_LIMIT, WAIT } from "./helpers.mjs";

/** @typedef {import("playwright-core").Page} Page */

const env = serverAndBrowser();

/**
 * Every variant; `phone` marks the one per game whose table is also shot
 * at phone size; `mid` what the public area shows mid-hand; `avoid` the
 * card-less actions the player takes last (打盾: not going alone, so that
 * the friend is played for).
 */
const variants = [
  { game: "doudizhu", variant: "classic", seats: 3, phone: false , mid: ".public .facts", avoid: [] },
  { game: "doudizhu", variant: "hubei", seats: 3, phone: true , mid: ".public .facts", avoid: [] },
  { game: "doudizhu", variant: "fourplayer", seats: 4, phone: false , mid: ".public .facts", avoid: [] },
  { game: "shengji", variant: "ningyang", seats: 4, phone: true , mid: ".public .sides li", avoid: [] },
  { game: "shengji", variant: "guafeng", seats: 4, phone: false , mid: ".public .sides li", avoid: [] },
  { game: "shengji", variant: "qiangbao", seats: 4, phone: false , mid: ".public .sides li", avoid: [] },
  { game: "niuniu", variant: "classic", seats: 4, phone: true , mid: "", avoid: [] },
  { game: "dadun", variant: "lean", seats: 4, phone: true , mid: ".public .dadun-facts li", avoid: ["alone"] },
  { game: "shuangkou", variant: "classic", seats: 4, phone: false , mid: ".public .shuangkou-facts li", avoid: [] },
  { game: "shuangkou", variant: "baibian", seats: 4, phone: true , mid: ".public .shuangkou-facts li", avoid: [] },
];

const ROOT = "section.table-page";

/** @param {Page} page */
async function ready(page) {
  await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute("data-ready") === "true", ROOT, { timeout: WAIT });
}

/**
 * A label key shown as itself means the language lacks it.
 * @param {Page} page
 */
async function assertLabelled(page) {
  const text = (await page.locator(ROOT).innerText()) ?? "";
  const missing = text.match(/\b(?:table|action|shengji|dadun|shuangkou|niuniu|doudizhu|combo|outcome|suit)\.[A-Za-z_.]+/g);
  assert.equal(missing, null, `labels missing: ${missing}`);
}

/** @param {Page} page */
async function version(page) {
  return Number(await page.locator(ROOT).getAttribute("data-version"));
}

/** @param {Page} page */
async function settled(page) {
  return (await page.locator(".settlement[data-hand]").count()) > 0;
}

/**
 * Waits for the table to move on from version v (or the hand to end); a
 * quiet second is fine too, the loop then looks again.
 * @param {Page} page
 * @param {number} v
 */
async function moved(page, v) {
  await page
    .waitForFunction(
      ([sel, v]) => {
        const root = document.querySelector(String(sel));
        return !!document.querySelector(".settlement[data-hand]") || (root?.getAttribute("data-ready") === "true" && Number(root.getAttribute("data-version")) !== v);
      },
      [ROOT, v],
      { timeout: 1_000 },
    )
    .catch(() => undefined);
}

/**
 * Clicks what the page offered a moment ago and answers its data-action
 * ("" for a card), or null when the offer is gone. The page re-renders
 * whenever the table moves (the bots play over the stream), so the button
 * may be replaced by the time the click lands; a person then looks again,
 * and so does the caller.
 * @param {import("playwright-core").Locator} target
 * @returns {Promise<string | null>}
 */
async function take(target) {
  try {
    const what = (await target.getAttribute("data-action", { timeout: 3_000 })) ?? "";
    await target.click({ timeout: 3_000 });
    return what;
  } catch (e) {
    if (e instanceof Error && e.name === "TimeoutError") return null;
    throw e;
  }
}

/**
 * Takes one step a person would: returns what it did, or "" when the page
 * offers the caller nothing now. A card-less action named in avoid is
 * taken only when nothing else is offered.
 * @param {Page} page
 * @param {string[]} avoid
 * @returns {Promise<string>}
 */
async function step(page, avoid) {
  // A button for exactly the selection: post it.
  const exact = page.locator(".actions button.primary:not([disabled])");
  if (await exact.count()) {
    const what = await take(exact.first());
    if (what === null) return "";
    await ready(page);
    return what;
  }
  // 牛牛: once arranged, wait for the reveal (arranging again only replaces the arrangement).
  const arranged = (await page.locator(".arrangement > *").count()) > 0;
  // A card the page lets the caller pick toward an action with cards.
  const cardKinds = await page.locator(".actions button.primary").count();
  const card = page.locator(".my-hand button.card:not([disabled]):not([aria-pressed=true])");
  if (cardKinds > 0 && !arranged && (await card.count())) {
    if ((await take(card.first())) === null) return "";
    await ready(page);
    return "pick";
  }
  // A card-less action: the first offered.
  const plainSel = ".actions button:not(.primary):not(.secondary):not(.auto):not([disabled])";
  const preferred = page.locator(plainSel + avoid.map((a) => `:not([data-action="${a}"])`).join(""));
  const plain = (await preferred.count()) ? preferred : page.locator(plainSel);
  if (await plain.count()) {
    const what = await take(plain.first());
    if (what === null) return "";
    await ready(page);
    return what;
  }
  return "";
}

const only = process.env.ALLGAMES_ONLY;
for (const g of variants.filter((x) => !only || `${x.game}-${x.variant}` === only)) {
  test(`${g.game} ${g.variant}: a whole hand played by clicking`, { timeout: TEST_LIMIT }, async (t) => {
    const browser = env.browser;
    if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
    const { page, context, problems } = await openPage(browser, env.server.url, DESKTOP, { locale: g.phone ? "zh-CN" : "en-US" });
    await page.selectOption("#create-game", g.game);
    await page.selectOption("#create-variant", g.variant);
    await page.selectOption("form.create select[name=turn_seconds]", "0");
    await page.selectOption("form.create select[name=bots]", String(g.seats - 1));
    await page.locator("form.create button[type=submit]").click();
    await page.waitForURL(/\/tables\/[^/]+$/);
    await page.waitForFunction((n) => document.querySelectorAll(".seats .seat").length === n, g.seats);
    await ready(page);
    assert.equal(await page.locator(ROOT).getAttribute("data-seat"), "0");

    /** @type {Record<string, number>} */
    const did = {};
    let shot = false;
    for (let i = 0; i < 3000 && !(await settled(page)); i++) {
      const v = await version(page);
      const what = await step(page, g.avoid);
      if (process.env.ALLGAMES_TRACE) console.error(g.game, g.variant, i, v, what);
      if (what === "bury" || (what === "pick" && (await page.locator(ROOT).getAttribute("data-phase")) === "burying")) {
        // The kitty is shown to the one who buries it.
        assert.ok((await page.locator(".public .kitty .card").count()) > 0, "the kitty shown to its burier");
      }
      if (what) {
        did[what] = (did[what] ?? 0) + 1;
        const err = (await page.locator(".status.error").count()) ? await page.locator(".status.error").textContent() : "";
        if (what === "draw" && err?.includes("wrong_phase") && err.includes("every card is drawn")) {
          // 升级's draw deals a round to every seat and any seat may take
          // it (shengji.md): a bot may draw the last round between the
          // page's offer and the click, and the server then refuses the
          // caller's draw. A person sees the same message and plays on.
          did.drawTaken = (did.drawTaken ?? 0) + 1;
          await moved(page, v);
          continue;
        }
        assert.ok(!err, `after ${what}: ${err}`);
      } else {
        await moved(page, v);
      }
      // Mid-hand: some cards played on the table.
      if (!shot && (did.play ?? 0) >= 2 && (await page.locator(".public .play").count())) {
        shot = true;
        await assertLabelled(page);
        if (g.mid) assert.ok((await page.locator(g.mid).count()) > 0, `${g.mid} shown mid-hand`);
        await screenshot(page, `allgames-${g.game}-${g.variant}-desktop`);
        if (g.phone) {
          await page.setViewportSize(PHONE);
          await screenshot(page, `allgames-${g.game}-${g.variant}-phone`);
          await page.setViewportSize(DESKTOP);
        }
      }
    }
    assert.ok(await settled(page), `hand 1 did not settle; did ${JSON.stringify(did)}`);
    await page.locator(".settlement .deltas tbody tr").first().waitFor();
    if (!shot) {
      // 牛牛 has no plays: the reveal is its hand.
      await screenshot(page, `allgames-${g.game}-${g.variant}-desktop`);
      if (g.phone) {
        await page.setViewportSize(PHONE);
        await screenshot(page, `allgames-${g.game}-${g.variant}-phone`);
      }
    }
    await assertLabelled(page);
    // How the hand ended, in words, beyond the deltas.
    if (g.game !== "doudizhu") assert.ok((await page.locator(".settlement .result li").count()) > 0, "the result in words");
    if (g.game === "shengji") assert.ok((await page.locator(".settlement .kitty .card").count()) > 0, "the kitty shown at the end");
    if (g.game === "dadun") assert.match((await page.locator(".settlement .result").textContent()) ?? "", /朋友|打独|friend|alone/);
    t.diagnostic(`${g.game} ${g.variant}: ${JSON.stringify(did)}`);
    // The bots play the moment they may, and in a deal where every seat
    // may declare (升级) one can move the table between a click and the
    // /legal it asks: the server refuses the stale selection (422
    // selection_not_legal) and the page takes the card back. The browser
    // logs the refusal; it is not the page's fault.
    const stale = /status of 422 .*\/legal\?(.*&)?selected=/;
    // A draw a bot took first (did.drawTaken, above) is a 409 wrong_phase
    // the browser logs too: one for each, and no other.
    const drawTaken = /status of 409 .*\/actions\b/;
    assert.equal(problems().filter((p) => drawTaken.test(p)).length, did.drawTaken ?? 0, "a 409 for each draw a bot took first");
    assert.deepEqual(
      problems().filter((p) => !stale.test(p) && !drawTaken.test(p)),
      [],
    );
    await context.close();
  });
}
