// @ts-check
// The card elements of js/cards.js in the browser, for every game's
// cards: suits with their colours, both jokers, a card held twice (two
// decks), 升级 trumps marked, a 牛牛 arrangement (three cards, then two),
// face-down cards; and selection by click, Space and Enter.

import assert from "node:assert/strict";
import { test } from "node:test";
import { DESKTOP, openPage, serverAndBrowser } from "./helpers.mjs";

const env = serverAndBrowser();

test("every kind of card renders as an accessible element", async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
  const { page, context, problems } = await openPage(browser, env.server.url, DESKTOP, { locale: "zh-CN" });
  const got = await page.evaluate(async () => {
    const url = "/static/js/cards.js"; // the browser's module, as the app loads it
    const cards = /** @type {typeof import("../static/js/cards.js")} */ (await import(url));
    // A container of the test's own beside the app's #app: the app goes on
    // rendering its page there (the lobby's answers may land after this),
    // which would replace cards drawn inside it.
    const main = document.createElement("section");
    main.id = "cards-under-test";
    document.body.append(main);
    // Two decks: S10 twice; both jokers; a trump set as the 升级 view gives it.
    const trumps = cards.trumpSet([["RJ"], ["BJ"], ["S7"], ["H7", "C7", "D7"], ["SA"]]);
    const hand = cards.renderHand(["S10", "S10", "HA", "D2", "C7", "H7", "SA", "BJ", "RJ"], { selectable: true, trumps });
    hand.el.id = "hand";
    const nn = cards.renderNiuniu(["H3", "S7", "DK", "C10", "SQ"], ["H3", "S7", "C10"]);
    nn.id = "niuniu";
    const backs = cards.renderBacks(3, "x");
    backs.id = "backs";
    main.append(hand.el, nn, backs);
    const describe = (/** @type {Element} */ e) => ({
      card: e.getAttribute("data-card"),
      tag: e.tagName,
      label: e.getAttribute("aria-label"),
      trump: e.classList.contains("trump"),
      color: getComputedStyle(e).color,
    });
    return {
      hand: [...document.querySelectorAll("#hand .card")].map(describe),
      three: [...document.querySelectorAll("#niuniu .niuniu-three .card")].map((e) => e.getAttribute("data-card")),
      two: [...document.querySelectorAll("#niuniu .niuniu-two .card")].map((e) => e.getAttribute("data-card")),
      backs: [...document.querySelectorAll("#backs .card")].map(describe),
      parsed: ["S10", "RJ", "BJ", "X1", "S1", "H10"].map((n) => cards.parseCard(n)),
    };
  });
  assert.deepEqual(got.hand.map((c) => c.card), ["S10", "S10", "HA", "D2", "C7", "H7", "SA", "BJ", "RJ"], "each copy of a card is its own element");
  for (const c of got.hand) assert.equal(c.tag, "BUTTON", `${c.card} is a button`);
  assert.deepEqual(got.hand.filter((c) => c.trump).map((c) => c.card), ["C7", "H7", "SA", "BJ", "RJ"], "trumps marked");
  const byCard = Object.fromEntries(got.hand.map((c) => [c.card, c]));
  assert.equal(byCard.HA?.label, "红桃 A");
  assert.equal(byCard.BJ?.label, "小王，主牌");
  assert.equal(byCard.RJ?.label, "大王，主牌");
  assert.equal(byCard.HA?.color, byCard.D2?.color, "hearts and diamonds share the red");
  assert.notEqual(byCard.HA?.color, byCard.S10?.color, "red suits differ from black ones");
  assert.notEqual(byCard.BJ?.color, byCard.RJ?.color, "the big joker is red, the small black");
  assert.deepEqual(got.three, ["H3", "S7", "C10"]);
  assert.deepEqual(got.two, ["DK", "SQ"]);
  assert.deepEqual(got.backs.map((b) => b.card), ["back", "back", "back"]);
  assert.equal(got.backs[0]?.label, "牌背");
  assert.deepEqual(got.parsed.map((p) => p && [p.suit, p.rank, p.joker]), [["S", "10", null], [null, "RJ", "big"], [null, "BJ", "small"], null, null, ["H", "10", null]]);

  // Click, Space and Enter select; the second S10 stays unselected.
  const first = page.locator('#hand [data-card="S10"]').first();
  await first.click();
  await page.locator('#hand [data-card="HA"]').focus();
  await page.keyboard.press("Space");
  await page.locator('#hand [data-card="RJ"]').focus();
  await page.keyboard.press("Enter");
  const pressed = await page.locator('#hand .card[aria-pressed="true"]').evaluateAll((es) => es.map((e) => e.getAttribute("data-card")));
  assert.deepEqual(pressed, ["S10", "HA", "RJ"]);
  await page.keyboard.press("Enter");
  assert.equal(await page.locator('#hand [data-card="RJ"]').getAttribute("aria-pressed"), "false", "Enter again unselects");
  assert.deepEqual(problems(), []);
  await context.close();
});
