// @ts-check
// The requests the table page makes while its player plays. One browser
// sits at seat 0 of a 斗地主 table and plays its turns by clicking, two
// players over the API play the others, and every request the page sends
// is recorded with the version its answer names. The page opens its stream with
// ?legal=true; a turn the stream brought the legal actions of must cost no
// GET /legal without a selection. When the stream brings none (a server
// that ignores the parameter, or no stream at all) the page asks /legal
// for every turn it shows.

import assert from "node:assert/strict";
import { test } from "node:test";
import { callAPI, DESKTOP, openPage, serverAndBrowser, TEST_LIMIT, WAIT } from "./helpers.mjs";

/** @typedef {import("playwright-core").Page} Page */
/** @typedef {import("./helpers.mjs").Player} Player */
/** @typedef {import("../../clients/typescript/src/schema").components["schemas"]} Schemas */
/** @typedef {import("../../clients/typescript/src/schema").components["responses"]["Command"]["content"]["application/json"]} CommandResult */

const env = serverAndBrowser();

const ROOT = "section.table-page";

/**
 * @typedef {Object} Recorded
 * @property {{version: number, selected: boolean}[]} legal every /legal answer: its version, and whether it was asked with a selection
 * @property {string[]} streams the URLs of the table's stream requests
 * @property {number} views GET of the table's view
 * @property {number} posts POST of an action
 * @property {string[]} unread /legal answers whose body could not be read
 */

/**
 * Records the page's requests to table tableID's API.
 * @param {Page} page
 * @param {() => string} tableID the table's id, once known
 * @returns {Recorded}
 */
function record(page, tableID) {
  /** @type {Recorded} */
  const r = { legal: [], streams: [], views: 0, posts: 0, unread: [] };
  page.on("request", (req) => {
    const u = new URL(req.url());
    // The page may open its stream before the test has read the table's
    // id from its URL: a table's stream is recorded by its path alone
    // (the page shows one table).
    if (/^\/v1\/tables\/[^/]+\/stream$/.test(u.pathname)) r.streams.push(req.url());
    const id = tableID();
    if (!id) return;
    const base = `/v1/tables/${id}`;
    if (u.pathname === base && req.method() === "GET") r.views++;
    if (u.pathname === base + "/actions" && req.method() === "POST") r.posts++;
  });
  page.on("response", async (res) => {
    const id = tableID();
    const u = new URL(res.url());
    if (!id || u.pathname !== `/v1/tables/${id}/legal` || res.status() !== 200) return;
    try {
      /** @type {{version: number}} */
      const body = await res.json();
      r.legal.push({ version: body.version, selected: u.searchParams.has("selected") });
    } catch (err) {
      // An answer still arriving when the test closes its page cannot be
      // read; any other is a fault.
      r.unread.push(String(err));
    }
  });
  return r;
}

/**
 * The page's state as its root element tells it.
 * @param {Page} page
 */
async function state(page) {
  return page.locator(ROOT).evaluate((e) => {
    const d = /** @type {HTMLElement} */ (e).dataset;
    return { seat: d.seat ?? "", turn: d.turn ?? "", phase: d.phase ?? "", version: Number(d.version ?? 0), ready: d.ready === "true" };
  });
}

/** @param {Page} page */
async function ready(page) {
  await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute("data-ready") === "true", ROOT, { timeout: WAIT });
}

/**
 * Waits until the page, fully loaded, shows version v.
 * @param {Page} page
 * @param {number} v
 */
async function shows(page, v) {
  await page.waitForFunction(
    ([sel, v]) => {
      const d = document.querySelector(String(sel));
      return d instanceof HTMLElement && d.dataset.ready === "true" && Number(d.dataset.version) === Number(v);
    },
    [ROOT, v],
    { timeout: WAIT },
  );
}

/** How many tables play() has played, for names unique on the server. */
let plays = 0;

/**
 * Opens a 斗地主 classic table from the lobby without a turn clock; two
 * players sit down over the API. Then plays until seat 0 has had `turns`
 * turns or the hand ends, one move at a time and each only once the page
 * shows the table as the move leaves it, so that every answer the page
 * gets names the version it asked at: seat 0 by clicking (the highest
 * bid, then the lowest card that is a play alone, picked then Play, else
 * Pass after clearing the selection), the others over the API (pass when
 * they may, else the lowest single). Answers the versions at which the
 * page showed its player on turn, and how many moves all seats made.
 * @param {Page} page
 * @param {string} base the server's URL
 * @param {(id: string) => void} opened told the table's id
 * @param {number} turns
 */
async function play(page, base, opened, turns) {
  await page.selectOption("#create-game", "doudizhu");
  await page.selectOption("#create-variant", "classic");
  await page.selectOption("form.create select[name=turn_seconds]", "0");
  await page.locator("form.create button[type=submit]").click();
  await page.waitForURL(/\/tables\/[^/]+$/);
  const id = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
  opened(id);
  await ready(page);
  assert.equal((await state(page)).seat, "0");
  /** @type {Player[]} */
  const bySeat = [];
  // Names are unique on a server, and this file's tests share one.
  const round = (plays += 1);
  for (const name of [`南${round}`, `西${round}`]) {
    /** @type {Schemas["CreatedPlayer"]} */
    const p = await callAPI(base, "POST", "/v1/players", undefined, { name });
    /** @type {CommandResult} */
    const r = await callAPI(base, "POST", `/v1/tables/${id}/join`, p.token, {});
    const seat = r.table?.seat;
    if (seat === null || seat === undefined) throw new Error(`${name} got no seat`);
    bySeat[seat] = { id: p.id, name: p.name, token: p.token };
  }
  const watcher = bySeat[1];
  if (!watcher) throw new Error("no player at seat 1");
  /** @type {number[]} */
  const onTurn = [];
  let moves = 0;
  for (; onTurn.length < turns; moves++) {
    assert.ok(moves < 200, "the hand has not ended after 200 moves");
    /** @type {Schemas["Table"]} */
    const v = await callAPI(base, "GET", `/v1/tables/${id}`, watcher.token);
    if (v.last_settlement) break;
    await shows(page, v.version);
    if (v.turn === 0) {
      assert.equal((await state(page)).turn, "0");
      onTurn.push(v.version);
      await clickMove(page, v.version);
      continue;
    }
    const p = v.turn === null ? undefined : bySeat[v.turn];
    if (!p) throw new Error(`no player on turn at ${JSON.stringify(v)}`);
    /** @type {Schemas["LegalActions"]} */
    const legal = await callAPI(base, "GET", `/v1/tables/${id}/legal`, p.token);
    /** @type {Schemas["Action"] | undefined} */
    let action = legal.actions.find((a) => a.type === "pass");
    const card = legal.extend[0];
    if (!action && card) {
      /** @type {Schemas["LegalActions"]} */
      const narrowed = await callAPI(base, "GET", `/v1/tables/${id}/legal?selected=${encodeURIComponent(card)}`, p.token);
      action = narrowed.actions.find((a) => a.type === "play" && a.cards.length === 1);
    }
    action ??= legal.actions[0];
    if (!action) throw new Error(`seat ${v.turn} has nothing to do: ${JSON.stringify(legal)}`);
    await callAPI(base, "POST", `/v1/tables/${id}/actions`, p.token, action);
  }
  return { onTurn, moves };
}

/**
 * Seat 0's move by clicking, at version v; waits until the page shows
 * the table past it.
 * @param {Page} page
 * @param {number} v
 */
async function clickMove(page, v) {
  const { phase } = await state(page);
  if (phase === "bidding") {
    await page.locator('.actions button[data-action="bid"]').last().click();
  } else {
    assert.equal(phase, "playing");
    let done = false;
    const card = page.locator(".my-hand button.card:not([disabled])").first();
    if (await card.count()) {
      await card.click();
      await ready(page);
      const playBtn = page.locator('.actions button[data-action="play"]:not([disabled])');
      if (await playBtn.count()) {
        await playBtn.first().click();
        done = true;
      } else {
        await page.locator('.actions button[data-action="clear"]').click(); // clear the selection
        await ready(page);
      }
    }
    if (!done) await page.locator('.actions button[data-action="pass"]').click();
  }
  await page.waitForFunction(
    ([sel, v]) => {
      const d = document.querySelector(String(sel));
      return !!document.querySelector(".settlement[data-hand]") || (d instanceof HTMLElement && d.dataset.ready === "true" && Number(d.dataset.version) > Number(v));
    },
    [ROOT, v],
    { timeout: WAIT },
  );
}

/**
 * The requests recorded, in a line.
 * @param {Recorded} rec
 * @param {number[]} onTurn
 * @param {number} moves
 */
function counts(rec, onTurn, moves) {
  const plain = rec.legal.filter((l) => !l.selected).length;
  return `${moves} moves, ${onTurn.length} of them the page's: ${rec.posts} posts, ${rec.views} views, ${plain} GET /legal without a selection, ${rec.legal.length - plain} with one`;
}

test("the table page takes its legal actions from the stream", { timeout: TEST_LIMIT }, async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
  const { page, context, problems } = await openPage(browser, env.server.url, DESKTOP, { locale: "en-US" });
  let tableID = "";
  const rec = record(page, () => tableID);
  const { onTurn, moves } = await play(page, env.server.url, (id) => (tableID = id), 8);
  t.diagnostic(counts(rec, onTurn, moves));
  assert.deepEqual(rec.unread, []);
  assert.ok(onTurn.length >= 4, `seat 0 was on turn ${onTurn.length} times`);
  // The page asked /legal without a selection for no turn but the one it
  // may have shown before its stream opened.
  const first = onTurn[0];
  const asked = rec.legal.filter((l) => !l.selected && onTurn.includes(l.version) && l.version !== first).map((l) => l.version);
  assert.deepEqual(asked, [], `GET /legal for turns the stream brought: versions ${asked} (turns at ${onTurn})`);
  assert.ok(rec.streams.length > 0 && rec.streams.every((u) => new URL(u).searchParams.get("legal") === "true"), `streams: ${rec.streams}`);
  // A selection is still narrowed by /legal.
  assert.ok(rec.legal.some((l) => l.selected), "a selection asks /legal");
  assert.deepEqual(problems(), []);
  await context.close();
});

test("without legal messages on its stream the page asks /legal", { timeout: TEST_LIMIT }, async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
  const { page, context, problems } = await openPage(browser, env.server.url, DESKTOP, { locale: "en-US", routes: true });
  let tableID = "";
  const rec = record(page, () => tableID);
  // A server that does not know the parameter: the stream carries the
  // events and turns, no legal actions.
  await page.route(/\/v1\/tables\/[^/]+\/stream\?/, (route) => {
    const u = new URL(route.request().url());
    u.searchParams.delete("legal");
    return route.continue({ url: u.toString() });
  });
  const { onTurn, moves } = await play(page, env.server.url, (id) => (tableID = id), 5);
  t.diagnostic(counts(rec, onTurn, moves));
  assert.deepEqual(rec.unread, []);
  assert.ok(onTurn.length >= 4, `seat 0 was on turn ${onTurn.length} times`);
  assert.ok(rec.streams.length > 0, "the page opened its stream");
  const asked = new Set(rec.legal.filter((l) => !l.selected).map((l) => l.version));
  const missed = onTurn.filter((v) => !asked.has(v));
  assert.deepEqual(missed, [], `turns shown without GET /legal of their version (asked at ${[...asked]})`);
  assert.deepEqual(problems(), []);
  await context.close();
});

test("with its stream down the page still plays, asking /legal", { timeout: TEST_LIMIT }, async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
  const { page, context, problems } = await openPage(browser, env.server.url, DESKTOP, { locale: "en-US", routes: true });
  let tableID = "";
  const rec = record(page, () => tableID);
  await page.route(/\/v1\/tables\/[^/]+\/stream\?/, (route) => route.abort());
  const { onTurn } = await play(page, env.server.url, (id) => (tableID = id), 3);
  assert.ok(onTurn.length >= 3, `seat 0 was on turn ${onTurn.length} times`);
  const asked = new Set(rec.legal.filter((l) => !l.selected).map((l) => l.version));
  const missed = onTurn.filter((v) => !asked.has(v));
  assert.deepEqual(missed, [], `turns shown without GET /legal of their version (asked at ${[...asked]})`);
  assert.deepEqual(rec.unread, []);
  // The browser logs each refused stream; nothing else may go wrong.
  assert.deepEqual(
    problems().filter((p) => !/Failed to load resource: net::ERR_FAILED \(.*\/stream\?/.test(p)),
    [],
  );
  await context.close();
});
