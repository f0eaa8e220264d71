// @ts-check
// The replay and verify pages in a real browser: a 斗地主 hand played to its
// end (the browser's player at seat 0, handed to the bot, two server bots),
// its replay page stepped by keyboard and buttons and marked verified, its
// export dropped on /verify and marked verified, and tampered copies of it
// marked not verified at the right event: one whose changed deal was
// re-hashed with the whole chain after it (only the re-dealt seed can catch
// it) and one with a changed hash. Screenshots at phone and desktop size.

import assert from "node:assert/strict";
import { test } from "node:test";
import { DESKTOP, openPage, PHONE, screenshot, serverAndBrowser, WAIT } from "./helpers.mjs";
import { eventHash } from "../static/js/verify/chain.js";

const env = serverAndBrowser();

/**
 * One API call with the player's token; the decoded JSON (or text).
 * @param {string} token
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 */
async function api(token, method, path, body) {
  const res = await fetch(env.server.url + path, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: () => /** @type {Record<string, unknown>} */ (JSON.parse(text)) };
}

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Plays one 斗地主 hand with the browser's player at seat 0 (handed to the
 * bot as soon as the deal runs) and two server bots; returns the table id
 * and the hand id once the hand's record is served.
 * @param {string} token
 */
async function playHand(token) {
  const opened = await api(token, "POST", "/v1/tables", { game: "doudizhu", variant: "classic", stake: 1, bots: 2, max_hands: 1 });
  assert.equal(opened.status, 201, opened.text);
  const id = String(opened.json().id);
  const joined = await api(token, "POST", `/v1/tables/${id}/join`, {});
  assert.equal(joined.status, 200, joined.text);
  let delegated = false;
  // Bounded by time, not by looks: how many looks the bot's hand takes depends on the machine's speed.
  for (const deadline = Date.now() + WAIT; Date.now() < deadline; ) {
    if (!delegated) {
      const r = await api(token, "POST", `/v1/tables/${id}/actions`, { type: "delegate" });
      delegated = r.status === 200;
    }
    const hands = await api(token, "GET", `/v1/tables/${id}/hands`);
    if (hands.status === 200) {
      const list = /** @type {{hand_id: string}[]} */ (hands.json().hands);
      if (list.length > 0 && list[0]) return { id, handID: list[0].hand_id };
    }
    await sleep(100);
  }
  throw new Error(`the hand at table ${id} did not end`);
}

/**
 * The export with event line i's data changed by change, and the chain
 * rewritten after it: each later prev_hash and hash, and the head line.
 * @param {string} text
 * @param {number} i 0-based line
 * @param {(data: Record<string, unknown>) => void} change
 */
async function forge(text, i, change) {
  const lines = text.trimEnd().split("\n").map((l) => /** @type {Record<string, unknown>} */ (JSON.parse(l)));
  const ev = lines[i];
  assert.ok(ev);
  const data = /** @type {Record<string, unknown>} */ (ev.data);
  change(data);
  // JSON.stringify writes the compact form Go stores (no < > & in card data).
  /** @type {string[]} */
  const raw = lines.map((l) => JSON.stringify(l.data));
  for (let j = i; j < lines.length; j++) {
    const l = lines[j];
    if (!l || !("version" in l)) continue;
    const p = lines[j - 1];
    if (p && Number(l.position) === Number(p.position) + 1) l.prev_hash = p.hash;
    l.hash = await eventHash(String(l.prev_hash), String(l.stream), String(l.version), String(l.type), raw[j] ?? "");
  }
  const head = lines.at(-1);
  const lastEvent = lines.at(-2);
  if (head && lastEvent && "chain_head" in head) {
    const ch = /** @type {{position: number, hash: string}} */ (head.chain_head);
    if (ch.position === Number(lastEvent.position)) ch.hash = String(lastEvent.hash);
  }
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

/**
 * Drops a file on the verify page's drop zone, as a drag and drop does.
 * @param {import("playwright-core").Page} page
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

/**
 * Waits for the verdict and returns its attributes.
 * @param {import("playwright-core").Page} page
 * @param {string} sel
 */
async function verdict(page, sel) {
  const el = page.locator(`${sel}[data-verified="true"], ${sel}[data-verified="false"]`);
  await el.waitFor({ timeout: WAIT });
  return {
    verified: await el.getAttribute("data-verified"),
    event: await el.getAttribute("data-fault-event"),
    check: await el.getAttribute("data-fault-check"),
    text: await el.innerText(),
  };
}

test("a finished hand's replay and export verify; tampered exports do not, at the right event", async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium");
  const { page, context, problems } = await openPage(browser, env.server.url, DESKTOP, { locale: "en-US" });
  const token = await page.evaluate(() => {
    const raw = localStorage.getItem("paiju.player");
    return raw ? String(JSON.parse(raw).token) : "";
  });
  assert.ok(token, "the browser's player has a token");
  const { id, handID } = await playHand(token);

  // The replay: verified, stepped by keys and buttons.
  await page.goto(`${env.server.url}/hands/${handID}`);
  const replay = await verdict(page, "#replay-verdict");
  assert.equal(replay.verified, "true", replay.text);
  assert.match(replay.text, /the table's export verifies/i, "the replay ties the hand to the table's hash-chained log");
  const step = page.locator("#replay-position");
  const dealtAt = Number(await step.getAttribute("data-step"));
  assert.ok(dealtAt >= 1, "the replay opens on the deal");
  assert.equal(await page.locator(".replay-seat").count(), 3);
  assert.equal(await page.locator('.replay-seat[data-seat="0"] > .cards .card').count(), 17, "seat 0 holds 17 cards as dealt");
  await page.keyboard.press("End");
  const total = Number(await step.getAttribute("data-step"));
  assert.ok(total > dealtAt + 3, `${total} steps`);
  assert.match(await page.locator("#replay-event").innerText(), /Settled/);
  await page.keyboard.press("Home");
  assert.equal(await step.getAttribute("data-step"), "0");
  await page.keyboard.press("ArrowRight");
  assert.equal(await step.getAttribute("data-step"), "1");
  await page.locator("#replay-last").click();
  await page.locator("#replay-prev").click();
  assert.equal(await step.getAttribute("data-step"), String(total - 1));
  // Mid-hand: find a step after a play, where a hand has fewer cards.
  await page.keyboard.press("Home");
  for (let i = 0; i < total; i++) {
    await page.keyboard.press("ArrowRight");
    if ((await page.locator("#replay-event").getAttribute("data-type")) === "CardsPlayed") break;
  }
  const counts = await page.locator(".replay-seat > .cards .card").count();
  assert.ok(counts < 54, `${counts} cards shown after a play`);
  await screenshot(page, "replay-desktop");

  // The export, checked in the browser with no server call.
  const exported = await api(token, "GET", `/v1/tables/${id}/export`);
  assert.equal(exported.status, 200, exported.text);
  const text = exported.text;
  await page.goto(`${env.server.url}/verify`);
  /** @type {string[]} */
  const calls = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname.startsWith("/v1/")) calls.push(r.url());
  });
  await page.setInputFiles("#verify-file", { name: "table.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(text) });
  const good = await verdict(page, "#verify-result");
  assert.equal(good.verified, "true", good.text);
  await screenshot(page, "verify-ok-desktop");

  // A card of the deal changed, the chain rewritten after it.
  const lines = text.trimEnd().split("\n");
  const dealtLine = lines.findIndex((l) => JSON.parse(l).type === "HandDealt");
  assert.ok(dealtLine > 0);
  const forged = await forge(text, dealtLine, (d) => {
    const hands = /** @type {string[][]} */ (d.hands);
    const other = hands[1]?.find((c) => c !== hands[0]?.[0]);
    if (hands[0] && other) hands[0][0] = other;
  });
  await drop(page, "forged.jsonl", forged);
  const bad = await page.locator('#verify-result[data-verified="false"]');
  await bad.waitFor();
  assert.equal(await bad.getAttribute("data-fault-event"), String(dealtLine + 1));
  assert.equal(await bad.getAttribute("data-fault-check"), "deal");
  await screenshot(page, "verify-tampered-desktop");

  // A hash changed in place.
  const hashed = [...lines];
  hashed[4] = (hashed[4] ?? "").replace(/"hash":"(.)/, (_, c) => `"hash":"${c === "0" ? "1" : "0"}`);
  await page.setInputFiles("#verify-file", { name: "hash.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(hashed.join("\n") + "\n") });
  await page.locator('#verify-result[data-verified="false"][data-fault-event="5"][data-fault-check="hash"]').waitFor();
  assert.deepEqual(calls, [], "the verify page called the server");

  // Phone size: the same pages.
  const phone = await openPage(browser, env.server.url, PHONE, { locale: "zh-CN" });
  await phone.page.evaluate((p) => localStorage.setItem("paiju.player", p), await page.evaluate(() => localStorage.getItem("paiju.player") ?? ""));
  await phone.page.goto(`${env.server.url}/hands/${handID}`);
  assert.equal((await verdict(phone.page, "#replay-verdict")).verified, "true");
  await screenshot(phone.page, "replay-phone");
  await phone.page.goto(`${env.server.url}/verify`);
  await phone.page.setInputFiles("#verify-file", { name: "forged.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(forged) });
  assert.equal((await verdict(phone.page, "#verify-result")).verified, "false");
  await screenshot(phone.page, "verify-tampered-phone");
  await phone.page.setInputFiles("#verify-file", { name: "table.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(text) });
  await phone.page.locator('#verify-result[data-verified="true"]').waitFor();
  await screenshot(phone.page, "verify-ok-phone");

  assert.deepEqual(problems(), []);
  assert.deepEqual(phone.problems(), []);
  await phone.context.close();
  await context.close();
});
