// @ts-check
// The installed app: Chromium finds the manifest and the service worker
// and reports nothing that stops the app being installed; once a hand's
// replay has been opened online, the network cut, the replay opens again
// and verifies, and the verify page checks a saved export and replays its
// hand from the file; the worker kept
// only the app's files and that hand's record and export, no other answer
// of the API.

import assert from "node:assert/strict";
import { test } from "node:test";
import { DESKTOP, openPage, PHONE, playHand, screenshot, serverAndBrowser, TEST_LIMIT, WAIT } from "./helpers.mjs";

/** @typedef {import("playwright-core").Page} Page */

const env = serverAndBrowser();

/**
 * Waits for the replay's verdict and returns it.
 * @param {Page} page
 */
async function replayVerdict(page) {
  const v = page.locator('#replay-verdict[data-verified="true"], #replay-verdict[data-verified="false"]');
  await v.waitFor({ timeout: WAIT });
  return { verified: await v.getAttribute("data-verified"), text: await v.innerText() };
}

test("installable, and the replay and verify pages work offline", { timeout: TEST_LIMIT }, async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
  const base = env.server.url;
  const { tableID, handID, players } = await playHand(base);
  const me = players[0];
  if (!me) throw new Error("no player");
  const exported = await fetch(`${base}/v1/tables/${tableID}/export`, { headers: { Authorization: `Bearer ${me.token}` } });
  assert.equal(exported.status, 200);
  const exportText = await exported.text();

  for (const [size, viewport] of /** @type {const} */ ([["phone", PHONE], ["desktop", DESKTOP]])) {
    const { page, context, problems } = await openPage(browser, base, viewport, { locale: "zh-CN", player: me, path: `/hands/${handID}` });
    // The worker installs and takes the page; the replay is opened again
    // through it, as a person opens a hand before leaving the network.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: WAIT });
    await page.reload();
    assert.equal((await replayVerdict(page)).verified, "true");

    // What Chromium says of the app as an installable one.
    const cdp = await context.newCDPSession(page);
    const manifest = /** @type {{url: string, errors: {message: string}[], parsed?: {name?: string, start_url?: string}}} */ (await cdp.send("Page.getAppManifest"));
    assert.equal(new URL(manifest.url).pathname, "/static/manifest.webmanifest");
    assert.deepEqual(manifest.errors, [], "manifest errors");
    const install = /** @type {{installabilityErrors: {errorId: string}[]}} */ (await cdp.send("Page.getInstallabilityErrors"));
    // A test's browser context is an incognito one, which Chromium never
    // installs from; any other reason would be the app's.
    const reasons = install.installabilityErrors.map((e) => e.errorId).filter((id) => id !== "in-incognito");
    assert.deepEqual(reasons, [], "installability errors");
    await cdp.detach();
    assert.deepEqual(problems(), [], "online");

    await context.setOffline(true);
    // The replay, from the worker's copies: the app, the hand, the export.
    await page.goto(`${base}/hands/${handID}`);
    const offline = await replayVerdict(page);
    assert.equal(offline.verified, "true", offline.text);
    assert.match(offline.text, /牌桌导出已验证/, "the export, kept, verifies offline too");
    assert.equal(await page.locator(".replay-seat").count(), 3);
    await screenshot(page, `offline-replay-${size}`);

    // The verify page checks a saved export with no server.
    await page.goto(`${base}/verify`);
    await page.setInputFiles("#verify-file", { name: "export.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(exportText) });
    const v = page.locator('#verify-result[data-verified="true"], #verify-result[data-verified="false"]');
    await v.waitFor({ timeout: WAIT });
    assert.equal(await v.getAttribute("data-verified"), "true", await v.innerText());
    // And its hand replays from the file alone.
    await page.locator('.export-hands button[data-hand="1"]').click();
    const fromFile = await replayVerdict(page);
    assert.equal(fromFile.verified, "true", fromFile.text);
    assert.equal(await page.locator(".export-replay .replay-seat").count(), 3);
    await page.keyboard.press("End");
    assert.equal(await page.locator("#replay-event").getAttribute("data-type"), "HandSettled");
    await screenshot(page, `offline-verify-${size}`);

    // Another answer of the API is not there: the lobby's tables were
    // never kept.
    const lobby = await page.evaluate(async () => {
      try {
        const r = await fetch("/v1/tables");
        return `answered ${r.status}`;
      } catch {
        return "failed";
      }
    });
    assert.equal(lobby, "failed", "an API answer the replay does not need came from a cache");
    // What the worker keeps: the app's files, and of the API the hand's
    // record and its table's export only.
    const kept = await page.evaluate(async () => {
      /** @type {string[]} */
      const out = [];
      for (const name of await caches.keys()) {
        const c = await caches.open(name);
        for (const r of await c.keys()) out.push(new URL(r.url).pathname);
      }
      return out;
    });
    const api = kept.filter((p) => p.startsWith("/v1/")).sort();
    assert.deepEqual(api, [`/v1/hands/${handID}`, `/v1/tables/${tableID}/export`], `API answers kept: ${api}`);
    assert.ok(kept.includes("/static/js/pages/verify.js") && kept.includes("/"), "the app's files are kept");
    // Offline, the only console errors are the requests the network refused.
    const others = problems().filter((p) => !/ERR_INTERNET_DISCONNECTED/.test(p));
    assert.deepEqual(others, [], "offline");
    await context.setOffline(false);
    await context.close();
  }
});
