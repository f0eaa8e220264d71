// @ts-check
// Private rooms in the browser: the owner opens a private table from the
// lobby and sees its room code and share link (copied to the clipboard); the
// lobby does not list it; a friend following the link is seated; a visitor
// with a wrong code, and one opening the table's page without a code, see
// the room code form with a clear message in their language and are seated
// once they type the right code; a fourth joins by code from the lobby; a
// guesser is locked out and told how long to wait.
// Screenshots at phone and desktop size.

import assert from "node:assert/strict";
import { test } from "node:test";
import { callAPI, DESKTOP, openPage, PHONE, screenshot, serverAndBrowser, TEST_LIMIT, WAIT } from "./helpers.mjs";

/** @typedef {import("playwright-core").Page} Page */

// A player's budget of wrong codes refills at its own size a minute, so
// whether a guesser is refused depends on how fast it guesses: twelve
// guesses are refused by the last one if they take under 60 * (12 - n) / n
// seconds in all, for a budget of n. At the default of ten that is 12 s, 1.1 s
// a guess, which a loaded machine does not keep (a CI run saw the twelfth
// guess still heard). At two it is 300 s, 25 s a guess, and two still lets
// the third visitor below mistype once and then sit down.
const ROOM_FAILURES_PER_MINUTE = 2;

const env = serverAndBrowser({ args: ["--quota-room-failures-per-minute", String(ROOM_FAILURES_PER_MINUTE)] });

/**
 * The page's problems, less the failed requests this test makes on purpose
 * (a refused room code is a 403 or 404 the browser reports on its console).
 * @param {() => string[]} problems
 */
function unexpected(problems) {
  return problems().filter((p) => !/status of (403|404)/.test(p));
}

/**
 * Waits until the table page shows the caller seated and up to date; its seat.
 * @param {Page} page
 * @param {string} tableID
 */
async function seated(page, tableID) {
  await page.waitForURL(new RegExp(`/tables/${tableID}$`));
  await page.waitForFunction(() => {
    const e = document.querySelector("section.table-page");
    return e instanceof HTMLElement && e.dataset.ready === "true" && e.dataset.seat !== undefined && e.dataset.seat !== "";
  }, undefined, { timeout: WAIT });
  return page.locator("section.table-page").getAttribute("data-seat");
}

test("a private table: code and link, joined by link, by form and from the lobby", { timeout: TEST_LIMIT }, async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium");
  const base = env.server.url;

  // The owner opens a private 4-seat table.
  const owner = await openPage(browser, base, DESKTOP, { locale: "zh-CN" });
  await owner.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  await owner.page.locator("ul.listings[data-loaded]").waitFor();
  await owner.page.selectOption("#create-game", "shengji");
  await owner.page.selectOption("#create-variant", "ningyang");
  await owner.page.selectOption("form.create select[name=turn_seconds]", "0");
  await owner.page.selectOption("form.create select[name=bots]", "0");
  await owner.page.getByLabel("私人牌桌（只能用房间号加入）").check();
  await owner.page.locator("form.create button[type=submit]").click();
  await owner.page.waitForURL(/\/tables\/[^/]+$/);
  const tableID = new URL(owner.page.url()).pathname.split("/").at(-1) ?? "";
  assert.equal(await seated(owner.page, tableID), "0");
  const codeEl = owner.page.locator(".room-share .room-code");
  await codeEl.waitFor();
  const code = (await codeEl.textContent()) ?? "";
  assert.match(code, /^[0-9]{6}$/, "the owner sees a six-digit room code");
  const link = await owner.page.locator(".room-share input.room-link").inputValue();
  assert.equal(link, `${base}/join#${code}`, "the share link carries the code in its fragment");
  await owner.page.getByRole("button", { name: "复制链接" }).click();
  await owner.page.locator(".room-share .copy-said", { hasText: "已复制" }).waitFor();
  assert.equal(await owner.page.evaluate(() => navigator.clipboard.readText()), link, "the link is on the clipboard");
  await screenshot(owner.page, "rooms-owner-desktop");

  // The lobby does not list it.
  const lister = await openPage(browser, base, PHONE, { locale: "en-US" });
  await lister.page.locator("ul.listings[data-loaded]").waitFor();
  assert.equal(await lister.page.locator(`li[data-table-id="${tableID}"]`).count(), 0, "a private table is not listed");
  await screenshot(lister.page, "rooms-lobby-phone");

  // A friend follows the link and is seated; the code leaves the address bar.
  const friend = await openPage(browser, base, PHONE, { locale: "en-US", path: `/join#${code}` });
  assert.equal(await seated(friend.page, tableID), "1");
  assert.ok(!friend.page.url().includes(code), "the code is no longer in the address bar");
  assert.ok(!(await friend.page.evaluate(() => history.length > 0 && location.hash)), "no fragment left");
  await friend.page.locator(".room-share .room-code", { hasText: code }).waitFor();
  await screenshot(friend.page, "rooms-friend-phone");

  // A wrong code: the form, a clear message in Chinese, then the right code seats.
  const wrong = code === "000000" ? "000001" : "000000";
  const third = await openPage(browser, base, PHONE, { locale: "zh-CN", path: `/join#${wrong}` });
  const form = third.page.locator("form.room-form");
  const msg = form.locator(".room-message.error");
  await msg.waitFor();
  assert.equal(await msg.getAttribute("data-code"), "room_not_found");
  assert.match((await msg.textContent()) ?? "", /没有开着的牌桌用这个房间号/);
  assert.equal(await form.locator("input.room-code-input").getAttribute("aria-invalid"), "true");
  await screenshot(third.page, "rooms-wrong-code-phone");
  // Not six digits: told before any request.
  await form.locator("input.room-code-input").fill("12ab");
  await form.locator("button[type=submit]").click();
  await form.locator(".room-message", { hasText: "房间号是六位数字" }).waitFor();
  await form.locator("input.room-code-input").fill(code);
  await form.locator("button[type=submit]").click();
  assert.equal(await seated(third.page, tableID), "2");

  // The table's own address without the code: the page says it is private and asks for the code.
  const fourth = await openPage(browser, base, DESKTOP, { locale: "en-US", path: `/tables/${tableID}` });
  const asked = fourth.page.locator(".table-extras form.room-form");
  await asked.locator(".room-message.error").waitFor();
  const said = (await asked.locator(".room-message").textContent()) ?? "";
  assert.match(said, /This table is private: it takes its room code to join/);
  assert.doesNotMatch(said, /Room-Code header|room_code_required/);
  await fourth.page.locator("section.table-page > .status", { hasText: "This table is private" }).waitFor();
  assert.doesNotMatch((await fourth.page.locator("section.table-page > .status").textContent()) ?? "", /Room-Code header/);
  await screenshot(fourth.page, "rooms-visitor-desktop");

  // The fourth joins by code from the lobby instead.
  await fourth.page.getByRole("navigation").getByRole("link", { name: "Lobby" }).click();
  const lobbyForm = fourth.page.locator(".lobby form.room-form");
  await lobbyForm.getByLabel("Room code").fill(code);
  await lobbyForm.getByRole("button", { name: "Sit down" }).click();
  assert.equal(await seated(fourth.page, tableID), "3");
  await screenshot(fourth.page, "rooms-seated-desktop");

  // Guessing: past the wrong codes a minute allowed, the form says how long to wait.
  const guesser = await openPage(browser, base, PHONE, { locale: "zh-CN" });
  const guess = guesser.page.locator(".lobby form.room-form");
  /** @type {string | null} */
  let refusal = null;
  let heard = 0;
  for (let i = 0; i < 12 && refusal !== "room_attempts_limited"; i++) {
    const wrongCode = String(100000 + i);
    await guess.locator("input.room-code-input").fill(wrongCode === code ? "999999" : wrongCode);
    await guess.locator("button[type=submit]").click();
    await guess.locator(".room-message[data-code]").waitFor();
    refusal = await guess.locator(".room-message").getAttribute("data-code");
    if (refusal === "room_not_found") heard++;
  }
  assert.equal(refusal, "room_attempts_limited", "the guesser is locked out");
  assert.ok(heard >= ROOM_FAILURES_PER_MINUTE, `the whole budget is heard first (${heard} wrong codes)`);
  assert.match((await guess.locator(".room-message").textContent()) ?? "", /房间号输错太多次了，请 [0-9]+ 秒后再试。/);
  await screenshot(guesser.page, "rooms-locked-out-phone");
  assert.deepEqual(guesser.problems().filter((p) => !/status of (404|429)/.test(p)), []);
  await guesser.context.close();

  // The server agrees: four players at the table, the hand dealt.
  const view = /** @type {{seats: {player_id?: string | null}[], room_code?: string}} */ (
    await callAPI(base, "GET", `/v1/tables/${tableID}`, (await owner.page.evaluate(() => JSON.parse(localStorage.getItem("paiju.player") ?? "{}").token)))
  );
  const ids = await Promise.all([owner, friend, third, fourth].map((p) => p.page.getAttribute("#player", "data-player-id")));
  assert.deepEqual(view.seats.map((s) => s.player_id), ids, "each browser holds the seat it was shown");
  assert.equal(view.room_code, code);

  for (const p of [owner, lister, friend]) assert.deepEqual(p.problems(), []);
  for (const p of [third, fourth]) assert.deepEqual(unexpected(p.problems), []);
  for (const p of [owner, lister, friend, third, fourth]) await p.context.close();
});
