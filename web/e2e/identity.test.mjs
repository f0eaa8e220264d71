// @ts-check
// The account page (/me): the browser's token shown only on request and
// copied; signing in with it in a fresh browser context makes that context
// the same player; renaming (and a name someone holds refused in words);
// issuing a token for another device (its secret shown once), listing and
// revoking it, and the revoked token refused at sign-in with a clear
// message, and a browser that had signed in with it told so when it opens
// the app again. A hand's replay opened by someone who did not sit at the table
// says only its players may replay it, with no failed verdict.
// Screenshots at phone and desktop size.

import assert from "node:assert/strict";
import { test } from "node:test";
import { callAPI, DESKTOP, openPage, PHONE, playHand, screenshot, serverAndBrowser, TEST_LIMIT } from "./helpers.mjs";

/** @typedef {import("playwright-core").Page} Page */

const env = serverAndBrowser();

/** @param {Page} page @returns {Promise<{id: string, name: string, token: string}>} */
function stored(page) {
  return page.evaluate(() => JSON.parse(localStorage.getItem("paiju.player") ?? "{}"));
}

/**
 * Records every console message of page, to check that no secret is logged.
 * @param {Page} page
 */
function consoleOf(page) {
  /** @type {string[]} */
  const said = [];
  page.on("console", (m) => said.push(m.text()));
  return said;
}

test("show, copy and move the token; rename; issue, list and revoke", { timeout: TEST_LIMIT }, async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium");
  const base = env.server.url;

  const a = await openPage(browser, base, DESKTOP, { locale: "zh-CN" });
  const aSaid = consoleOf(a.page);
  await a.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  const me = await stored(a.page);
  await a.page.getByRole("navigation").getByRole("link", { name: "我的账号" }).click();
  await a.page.waitForURL(/\/me$/);
  await a.page.locator("ul.token-list[data-loaded]").waitFor();
  assert.equal(await a.page.locator("code.player-id").textContent(), me.id);
  assert.equal(await a.page.locator("li.token").count(), 1, "one token: the registration's");
  assert.equal(await a.page.locator("li.token").getAttribute("data-state"), "current");
  assert.equal(await a.page.locator("li.token button.revoke").count(), 0, "the browser's own token is not offered for revoking");

  // The token is in the page only once asked for.
  assert.ok(!(await a.page.content()).includes(me.token), "the token is not shown unasked");
  const show = a.page.getByRole("button", { name: "显示令牌" });
  assert.equal(await show.getAttribute("aria-expanded"), "false");
  await show.click();
  assert.equal(await a.page.locator("input.token-value").inputValue(), me.token);
  await a.page.getByRole("button", { name: "复制令牌" }).click();
  await a.page.locator(".copy-said", { hasText: "已复制" }).waitFor();
  assert.equal(await a.page.evaluate(() => navigator.clipboard.readText()), me.token, "the token is on the clipboard");
  await screenshot(a.page, "identity-token-desktop");
  await a.page.getByRole("button", { name: "隐藏令牌" }).click();
  assert.equal(await a.page.locator("input.token-value").count(), 0, "hidden again, out of the page");

  // Rename: a name someone holds is refused in words, a free one is taken.
  const suffix = String(Date.now() % 100000);
  await callAPI(base, "POST", "/v1/players", undefined, { name: `张三${suffix}` });
  const name = a.page.locator("form.rename input[name=name]");
  await name.fill(`张三${suffix}`);
  await a.page.getByRole("button", { name: "改名" }).click();
  await a.page.locator("form.rename .status.error", { hasText: "这个名字已经有人用了" }).waitFor();
  assert.equal(await name.getAttribute("aria-invalid"), "true");
  await name.fill(`老王${suffix}`);
  await a.page.getByRole("button", { name: "改名" }).click();
  await a.page.locator("form.rename .status", { hasText: `已改名为 老王${suffix}` }).waitFor();
  assert.equal(await a.page.locator("#player").textContent(), `你是 老王${suffix}`, "the header shows the new name");
  assert.equal((await stored(a.page)).name, `老王${suffix}`);
  assert.equal((/** @type {{name: string}} */ (await callAPI(base, "GET", "/v1/me", me.token))).name, `老王${suffix}`);

  // A fresh browser signs in with the token: the same player.
  const b = await openPage(browser, base, PHONE, { locale: "en-US", path: "/me" });
  const bSaid = consoleOf(b.page);
  const bWas = await b.page.getAttribute("#player", "data-player-id");
  assert.notEqual(bWas, me.id, "a fresh browser starts as a player of its own");
  await b.page.locator("form.sign-in").getByLabel("Token").fill(me.token);
  await b.page.getByRole("button", { name: "Sign in" }).click();
  await b.page.locator("#player", { hasText: `You are 老王${suffix}` }).waitFor();
  assert.equal(await b.page.getAttribute("#player", "data-player-id"), me.id, "signed in as the same player");
  assert.equal((await stored(b.page)).token, me.token);
  await b.page.locator("section.account > .status, .account > .status", { hasText: `Signed in as 老王${suffix}` }).waitFor();
  await b.page.reload();
  await b.page.locator("#player[data-player-id]").waitFor();
  assert.equal(await b.page.getAttribute("#player", "data-player-id"), me.id, "kept across reloads");
  await screenshot(b.page, "identity-signed-in-phone");

  // A token for another device: shown once, listed, revoked.
  await a.page.locator("form.issue-token").getByLabel("设备名称（如：手机）").fill("手机");
  await a.page.getByRole("button", { name: "生成令牌" }).click();
  const secret = await a.page.locator("input.issued-token").inputValue();
  assert.ok(secret.length > 20 && secret !== me.token, "a new secret");
  const phone = a.page.locator("li.token", { hasText: "手机" });
  await phone.waitFor();
  assert.equal(await phone.getAttribute("data-state"), "live");
  await screenshot(a.page, "identity-issued-desktop");
  // The phone signs in with it while it works.
  const d = await openPage(browser, base, PHONE, { locale: "en-US", path: "/me" });
  await d.page.locator("form.sign-in").getByLabel("Token").fill(secret);
  await d.page.getByRole("button", { name: "Sign in" }).click();
  await d.page.locator(`#player[data-player-id="${me.id}"]`).waitFor();
  await phone.getByRole("button", { name: "吊销令牌 手机" }).click();
  await a.page.locator('li.token[data-state="revoked"]', { hasText: "手机" }).waitFor();
  await a.page.locator("section.account-tokens .status", { hasText: "令牌 手机 已吊销" }).waitFor();

  // The phone, opened again, is told its token no longer works (and plays as a new player).
  await d.page.reload();
  const lost = d.page.locator("p.signed-out");
  await lost.waitFor();
  assert.match((await lost.textContent()) ?? "", new RegExp(`The token of 老王${suffix} no longer works`));
  assert.notEqual(await d.page.getAttribute("#player", "data-player-id"), me.id);
  assert.equal(await lost.getByRole("link", { name: "Sign in with another token" }).getAttribute("href"), "/me");
  await screenshot(d.page, "identity-signed-out-phone");

  // The revoked token is refused with a clear message; the browser keeps its player.
  const c = await openPage(browser, base, PHONE, { locale: "zh-CN", path: "/me" });
  const cWas = await c.page.getAttribute("#player", "data-player-id");
  await c.page.locator("form.sign-in").getByLabel("令牌").fill(secret);
  await c.page.getByRole("button", { name: "登录" }).click();
  const refused = c.page.locator("form.sign-in .status.error");
  await refused.waitFor();
  assert.equal(await refused.getAttribute("data-code"), "unauthorized");
  assert.match((await refused.textContent()) ?? "", /登录失败：这个令牌不能用：它不存在、已被吊销或已过期。/);
  assert.equal(await c.page.getAttribute("#player", "data-player-id"), cWas, "a refused token changes nothing");
  await screenshot(c.page, "identity-refused-phone");

  // No secret reached a console.
  for (const said of [aSaid, bSaid]) assert.ok(!said.some((m) => m.includes(me.token) || m.includes(secret)), "a token was logged");
  assert.deepEqual(a.problems().filter((p) => !/status of 409 .*\/v1\/me\)$/.test(p)), [], "only the refused rename failed");
  assert.deepEqual(b.problems(), []);
  for (const p of [c, d]) assert.deepEqual(p.problems().filter((p) => !/status of 401/.test(p)), []);
  for (const p of [a, b, c, d]) await p.context.close();
});

test("a replay the viewer may not read says so, with no failed verdict", { timeout: TEST_LIMIT }, async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium");
  const base = env.server.url;
  const { handID } = await playHand(base);
  for (const [viewport, locale, want, shot] of /** @type {const} */ ([
    [PHONE, "zh-CN", "只有这张牌桌的玩家才能回放这一手牌。", "identity-replay-denied-phone"],
    [DESKTOP, "en-US", "Only the table's players can replay this hand.", "identity-replay-denied-desktop"],
  ])) {
    const v = await openPage(browser, base, viewport, { locale, path: `/hands/${handID}` });
    const notice = v.page.locator("main p.notice");
    await notice.waitFor();
    assert.equal(await notice.textContent(), want);
    assert.equal(await notice.getAttribute("data-code"), "history_not_seated");
    assert.equal(await v.page.locator("[data-verified]").count(), 0, "no verdict: nothing was checked");
    const text = (await v.page.locator("main").textContent()) ?? "";
    assert.doesNotMatch(text, /未通过验证|Not verified|✗/);
    await screenshot(v.page, shot);
    assert.deepEqual(v.problems().filter((p) => !/status of 403/.test(p)), []);
    await v.context.close();
  }
});
