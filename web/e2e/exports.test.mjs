// @ts-check
// A table's export downloaded in the browser: a player of a finished hand
// downloads it from the table page and from the hand's replay page (the
// page fetches it with the bearer token and saves it through an object
// URL); the file is the export the API gives; dropped on /verify, it
// verifies. A spectator is offered no download. Screenshots at phone and
// desktop size.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { DESKTOP, openPage, PHONE, playHand, screenshot, serverAndBrowser, TEST_LIMIT, WAIT } from "./helpers.mjs";

/** @typedef {import("playwright-core").Page} Page */

const env = serverAndBrowser();

/**
 * The export as the API gives it to token, as text.
 * @param {string} tableID
 * @param {string} token
 */
async function apiExport(tableID, token) {
  const res = await fetch(`${env.server.url}/v1/tables/${tableID}/export`, { headers: { Authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  return res.text();
}

/**
 * The export's lines, the head line's export time left out (two exports
 * of one log differ only there).
 * @param {string} text
 */
function comparable(text) {
  return text.trimEnd().split("\n").map((l) => {
    const o = /** @type {Record<string, unknown>} */ (JSON.parse(l));
    delete o.exported_at;
    return o;
  });
}

/**
 * Clicks the page's download button and returns the file it saved.
 * @param {Page} page
 */
async function download(page) {
  const button = page.getByRole("button", { name: /Download the table's export|下载牌桌导出/ });
  const [file] = await Promise.all([page.waitForEvent("download"), button.click()]);
  const where = await file.path();
  return { name: file.suggestedFilename(), text: await readFile(where, "utf8") };
}

/**
 * Drops a file on the verify page's drop zone, as a drag and drop does.
 * @param {Page} page
 * @param {string} name
 * @param {string} text
 */
async function drop(page, name, text) {
  const dt = await page.evaluateHandle(([n, t]) => {
    const d = new DataTransfer();
    d.items.add(new File([t ?? ""], n ?? "x.jsonl", { type: "application/x-ndjson" }));
    return d;
  }, [name, text]);
  await page.dispatchEvent("#verify-drop", "dragover", { dataTransfer: dt });
  await page.dispatchEvent("#verify-drop", "drop", { dataTransfer: dt });
}

test("a player downloads the export from the table and replay pages, and it verifies", { timeout: TEST_LIMIT }, async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium");
  const base = env.server.url;
  const { tableID, handID, players } = await playHand(base);
  const [east] = players;
  assert.ok(east);

  // From the table page.
  const a = await openPage(browser, base, DESKTOP, { locale: "en-US", player: east, path: `/tables/${tableID}` });
  await a.page.waitForFunction(() => document.querySelector("section.table-page")?.getAttribute("data-ready") === "true");
  const fromTable = await download(a.page);
  assert.equal(fromTable.name, `table-${tableID}.jsonl`);
  await a.page.locator(".export-status", { hasText: `Saved table-${tableID}.jsonl` }).waitFor();
  assert.deepEqual(comparable(fromTable.text), comparable(await apiExport(tableID, east.token)), "the file is the API's export");
  assert.ok(comparable(fromTable.text).some((l) => l.type === "HandSettled"), "it holds the settled hand");
  await screenshot(a.page, "exports-table-desktop");

  // From the replay page.
  const b = await openPage(browser, base, PHONE, { locale: "zh-CN", player: east, path: `/hands/${handID}` });
  await b.page.locator('#replay-verdict[data-verified="true"]').waitFor({ timeout: WAIT });
  const fromReplay = await download(b.page);
  assert.equal(fromReplay.name, `table-${tableID}.jsonl`);
  assert.deepEqual(comparable(fromReplay.text), comparable(fromTable.text));
  await b.page.locator(".export-status", { hasText: `已保存 table-${tableID}.jsonl` }).waitFor();
  await screenshot(b.page, "exports-replay-phone");

  // The verify page says how to get one, and the downloaded file verifies.
  for (const [p, shot, how] of /** @type {const} */ ([[a.page, "exports-verify-desktop", "Download the table's export"], [b.page, "exports-verify-phone", "下载牌桌导出"]])) {
    await p.goto(`${base}/verify`);
    await p.locator(".verify-how li", { hasText: how }).waitFor();
    assert.match((await p.locator(".verify-how").textContent()) ?? "", /paiju verify/);
    await drop(p, fromTable.name, fromTable.text);
    await p.locator('#verify-result[data-verified="true"]').waitFor({ timeout: WAIT });
    await screenshot(p, shot);
  }

  // A spectator is offered no download.
  const c = await openPage(browser, base, PHONE, { locale: "en-US", path: `/tables/${tableID}` });
  await c.page.waitForFunction(() => document.querySelector("section.table-page")?.getAttribute("data-ready") === "true");
  await c.page.locator('.table-extras[data-loaded="true"]').waitFor({ state: "attached" });
  assert.equal(await c.page.locator(".export-download").count(), 0, "no export button for a spectator");

  for (const p of [a, b, c]) {
    assert.deepEqual(p.problems(), []);
    await p.context.close();
  }
});
