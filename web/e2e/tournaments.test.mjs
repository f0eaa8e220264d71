// @ts-check
// Tournaments in a real browser. An elimination tournament of six is
// opened from the tournaments page and joined by the browser's player (who
// withdraws once and registers again) and five players over the API; its
// page follows the registrations, the start (the browser's table linked),
// both rounds and the end live, without a reload, and shows the standings
// and rounds the API gives. A duplicate
// tournament of six plays its two tables one after the other; while the
// second plays, the first shows ended, and at the end the comparison of
// the deals shows each table's score and matchpoints per deal, as
// recomputed here from the API's hands, and totals equal to the API's
// scores. Every seat is handed to the bot (托管) to play the tables out.
// Screenshots at phone and desktop size.

import assert from "node:assert/strict";
import { test } from "node:test";
import { callAPI, DESKTOP, openPage, PHONE, screenshot, serverAndBrowser, TEST_LIMIT, WAIT } from "./helpers.mjs";

/** @typedef {import("./helpers.mjs").Player} Player */
/** @typedef {import("../../clients/typescript/src/schema").components["schemas"]} Schemas */
/** @typedef {Schemas["Tournament"]} Tournament */
/** @typedef {import("playwright-core").Page} Page */

const env = serverAndBrowser();

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Registers n players over the API.
 * @param {string} prefix
 * @param {number} n
 * @returns {Promise<Player[]>}
 */
async function players(prefix, n) {
  /** @type {Player[]} */
  const out = [];
  for (let i = 0; i < n; i++) {
    /** @type {Schemas["CreatedPlayer"]} */
    const p = await callAPI(env.server.url, "POST", "/v1/players", undefined, { name: `${prefix}${i}` });
    out.push({ id: p.id, name: p.name, token: p.token });
  }
  return out;
}

/**
 * @param {string} id
 * @param {Player} p
 * @returns {Promise<Tournament>}
 */
function tournament(id, p) {
  return callAPI(env.server.url, "GET", `/v1/tournaments/${id}`, p.token);
}

/**
 * Hands the seat of each of the players at the tables of the round being
 * played to the bot (托管; a seat may be handed over only during a hand, so
 * a refusal is tried again), until until(tournament) holds.
 * @param {string} id
 * @param {Player[]} everyone by whom the tournament's tables are seated
 * @param {(p: Player) => boolean} which whose seats to hand over
 * @param {(tv: Tournament) => boolean} until
 * @returns {Promise<Tournament>}
 */
async function playOut(id, everyone, which, until) {
  const byID = new Map(everyone.map((p) => [p.id, p]));
  const done = new Set();
  const first = everyone[0];
  assert.ok(first);
  // Bounded by time, not by looks: how many looks the bots' hands take depends on the machine's speed.
  for (const deadline = Date.now() + TEST_LIMIT; Date.now() < deadline; ) {
    const tv = await tournament(id, first);
    if (until(tv)) return tv;
    for (const tb of tv.rounds.at(-1)?.tables ?? []) {
      if (tb.ended) continue;
      for (const pid of tb.players) {
        const p = byID.get(pid);
        const key = `${tb.table_id}/${pid}`;
        if (!p || !which(p) || done.has(key)) continue;
        const res = await fetch(`${env.server.url}/v1/tables/${tb.table_id}/actions`, {
          method: "POST",
          headers: { Authorization: `Bearer ${p.token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ type: "delegate" }),
        });
        await res.text();
        if (res.ok) done.add(key);
      }
    }
    await sleep(100);
  }
  throw new Error(`tournament ${id} did not get there`);
}

/**
 * Plays hand 1 of a 斗地主 table by a plain rule instead of the bot's: the
 * first bidder bids 3, then each seat plays a single or passes (as
 * helpers.mjs playHand does), the first card `extend` lists or the last,
 * so that two tables given different ends likely score the same deal
 * differently.
 * @param {string} tableID
 * @param {Player[]} bySeat
 * @param {"first" | "last"} end
 */
async function playFirstHand(tableID, bySeat, end) {
  const base = env.server.url;
  const first = bySeat[0];
  assert.ok(first);
  for (let step = 0; step < 300; step++) {
    /** @type {Schemas["Table"]} */
    const v = await callAPI(base, "GET", `/v1/tables/${tableID}`, first.token);
    if (v.last_settlement && v.last_settlement.hand >= 1) return;
    if (v.turn === null) {
      await sleep(50);
      continue;
    }
    const p = bySeat[v.turn];
    assert.ok(p, `a player at seat ${v.turn}`);
    /** @type {Schemas["LegalActions"]} */
    const legal = await callAPI(base, "GET", `/v1/tables/${tableID}/legal`, p.token);
    let action = legal.actions.find((a) => a.type === "bid" && a.bid === 3);
    const card = end === "first" ? legal.extend[0] : legal.extend.at(-1);
    if (!action && card) {
      /** @type {Schemas["LegalActions"]} */
      const narrowed = await callAPI(base, "GET", `/v1/tables/${tableID}/legal?selected=${encodeURIComponent(card)}`, p.token);
      action = narrowed.actions.find((a) => a.type === "play" && a.cards.length === 1);
    }
    action ??= legal.actions.find((a) => a.type === "pass");
    assert.ok(action, `seat ${v.turn} has no bid, single or pass`);
    await callAPI(base, "POST", `/v1/tables/${tableID}/actions`, p.token, action);
  }
  throw new Error(`hand 1 of ${tableID} did not end`);
}

/**
 * Fails when the page is wider than its viewport (wide tables scroll in
 * their own box).
 * @param {Page} page
 * @param {string} what
 */
async function assertFits(page, what) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(scroll <= width, `${what}: the page is ${scroll}px wide in a ${width}px viewport`);
}

/**
 * The page's standings: player id, status and points, row by row.
 * @param {Page} page
 */
function shownStandings(page) {
  return page.$$eval("table.standings tbody tr", (rows) => rows.map((r) => ({
    id: r.getAttribute("data-player-id"),
    status: r.getAttribute("data-status"),
    points: Number(r.querySelector("td.points")?.textContent),
  })));
}

test("an elimination tournament opened, joined and followed live", { timeout: TEST_LIMIT }, async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
  const [me, ...others] = await players("淘汰", 6);
  assert.ok(me);
  const everyone = [me, ...others];
  const { page, context, problems } = await openPage(browser, env.server.url, DESKTOP, { player: me, path: "/" });
  // From the header to the tournaments page, without a reload.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  await page.getByRole("navigation").getByRole("link", { name: "锦标赛" }).click();
  await page.waitForURL(/\/tournaments$/);
  await page.locator(".tournament-list ul.listings[data-loaded]").waitFor();
  assert.equal(await page.locator("main h1").textContent(), "锦标赛");
  // Both formats offered, each explained in a line.
  const formats = page.locator("fieldset.formats .format");
  assert.equal(await formats.count(), 2);
  assert.match(await page.locator('.format[data-format="elimination"] .format-help').innerText(), /第一名晋级/);
  assert.match(await page.locator('.format[data-format="duplicate"] .format-help').innerText(), /同样的几副牌/);
  // 升级 plays duplicate only, four to a table.
  await page.selectOption("#tour-kind", "shengji/ningyang");
  assert.equal(await page.isDisabled("#tour-format-elimination"), true);
  assert.equal(await page.isChecked("#tour-format-duplicate"), true);
  assert.equal(await page.inputValue("input[name=players]"), "8");
  await page.selectOption("#tour-kind", "doudizhu/classic");
  await page.check("#tour-format-elimination");
  await page.fill("input[name=players]", "6");
  await page.fill("input[name=hands_per_table]", "1");
  await screenshot(page, "tournaments-desktop");
  await page.setViewportSize(PHONE);
  await assertFits(page, "the tournaments page");
  await screenshot(page, "tournaments-phone");
  await page.setViewportSize(DESKTOP);
  await page.getByRole("button", { name: "开赛" }).click();
  await page.waitForURL(/\/tournaments\/[^/]+$/);
  const id = decodeURIComponent(new URL(page.url()).pathname.split("/").at(-1) ?? "");
  const root = page.locator(`.tournament[data-tournament-id="${id}"]`);
  await page.locator(".tournament[data-live=true]").waitFor();
  assert.equal(await root.getAttribute("data-status"), "registering");
  assert.match(await page.locator("main h1").innerText(), /斗地主/);
  assert.match(await page.locator(".tour-facts").innerText(), /淘汰赛 · 已报名 0\/6 · 每桌 1 局/);

  // The browser registers, withdraws and registers again; the API
  // players' registrations show live.
  await page.getByRole("button", { name: "报名", exact: true }).click();
  await page.locator(".tour-me .registered").waitFor();
  assert.match(await page.locator(".tour-facts").innerText(), /已报名 1\/6/);
  await page.getByRole("button", { name: "退出报名" }).click();
  await page.getByRole("button", { name: "报名", exact: true }).waitFor();
  assert.match(await page.locator(".tour-facts").innerText(), /已报名 0\/6/);
  assert.equal((await tournament(id, me)).entrants.length, 0);
  await page.getByRole("button", { name: "报名", exact: true }).click();
  await page.locator(".tour-me .registered").waitFor();
  for (const p of others.slice(0, 4)) await callAPI(env.server.url, "POST", `/v1/tournaments/${id}/join`, p.token, {});
  await page.waitForFunction(() => /已报名 5\/6/.test(document.querySelector(".tour-facts")?.textContent ?? ""));
  assert.equal(await page.locator("table.standings tbody tr").count(), 5);
  const last = others[4];
  assert.ok(last);
  await callAPI(env.server.url, "POST", `/v1/tournaments/${id}/join`, last.token, {});
  await page.locator('.tournament[data-status="running"]').waitFor();
  // The browser's table is linked, and is the one the API names.
  const mine = await tournament(id, me);
  assert.ok(mine.your_table);
  const link = page.locator("a.your-table");
  assert.equal(await link.getAttribute("href"), `/tables/${mine.your_table}`);
  assert.equal(await page.locator(".round[data-round='1'] li.tour-table").count(), 2);
  assert.equal(await page.locator("table.standings tr.me").getAttribute("data-status"), "playing");
  await screenshot(page, "tournament-running-desktop");
  // Its table opens from the link; back, the tournament is followed again.
  await link.click();
  await page.waitForURL(new RegExp(`/tables/${mine.your_table}$`));
  await page.waitForFunction(() => document.querySelector("section.table-page")?.getAttribute("data-ready") === "true");
  await page.goBack();
  await page.locator(".tournament[data-live=true]").waitFor();

  // Every seat to the bot, round after round, until the final ends.
  const ended = await playOut(id, everyone, () => true, (tv) => tv.status === "ended");
  await page.locator('.tournament[data-status="ended"]').waitFor({ timeout: WAIT });
  assert.equal(await page.evaluate(() => "sameDocument" in window), true, "followed without a reload");
  // What the page shows is what the API says.
  const final = await tournament(id, me);
  assert.equal(final.version, ended.version);
  assert.ok(final.winner);
  const winner = everyone.find((p) => p.id === final.winner);
  assert.ok(winner);
  assert.equal(await page.locator(".tour-me .winner").innerText(), `冠军：${winner.name}`);
  assert.deepEqual(await shownStandings(page), final.standings.map((s) => ({ id: s.player_id, status: s.status, points: s.points })));
  assert.equal(await page.locator(".round").count(), final.rounds.length);
  assert.equal(final.rounds.length, 2, "six players: two tables, then a final of three");
  const r1 = final.rounds[0]?.advanced;
  assert.ok(r1);
  for (const [cls, ids] of /** @type {const} */ ([["winners", r1.winners], ["brought-back", r1.brought_back], ["out", r1.eliminated]])) {
    const text = await page.locator(`.round[data-round='1'] .advanced .${cls}`).innerText();
    for (const pid of ids) assert.ok(text.includes(everyone.find((p) => p.id === pid)?.name ?? "?"), `${cls}: ${text} lacks ${pid}`);
  }
  // The final table's places, as recorded.
  const finalTable = final.rounds[1]?.tables[0];
  assert.ok(finalTable?.result);
  for (const st of finalTable.result.standings) {
    const place = await page.locator(`li.tour-table[data-table-id="${finalTable.table_id}"] li[data-player-id="${st.player_id}"]`).getAttribute("data-place");
    assert.equal(place, String(st.place));
  }
  assert.equal(await page.locator("a.your-table").count(), 0, "no table once it has ended");
  assert.ok(await page.locator(".seed code").count() >= 2, "the seed is revealed");
  await screenshot(page, "tournament-ended-desktop");
  await page.setViewportSize(PHONE);
  await assertFits(page, "an elimination tournament");
  await screenshot(page, "tournament-ended-phone");

  // The list shows it ended.
  await page.getByRole("navigation").getByRole("link", { name: "锦标赛" }).click();
  await page.locator(`li.listing[data-tournament-id="${id}"][data-status="ended"]`).waitFor({ timeout: WAIT });
  assert.deepEqual(problems(), []);
  await context.close();
});

test("a duplicate tournament's comparison of the deals", { timeout: TEST_LIMIT }, async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
  const [me, ...others] = await players("dup", 6);
  assert.ok(me);
  const everyone = [me, ...others];
  const { page, context, problems } = await openPage(browser, env.server.url, DESKTOP, { player: me, path: "/tournaments", locale: "en-US" });
  await page.check("#tour-format-duplicate");
  assert.equal(await page.inputValue("input[name=players]"), "6", "duplicate needs six");
  assert.match(await page.locator("#tour-players-help").innerText(), /at least 6/);
  await page.fill("input[name=hands_per_table]", "2");
  await page.getByRole("button", { name: "Open", exact: true }).click();
  await page.waitForURL(/\/tournaments\/[^/]+$/);
  const id = decodeURIComponent(new URL(page.url()).pathname.split("/").at(-1) ?? "");
  await page.locator(".tournament[data-live=true]").waitFor();
  assert.match(await page.locator(".tour-facts").innerText(), /^Duplicate · 0 of 6 registered · 2 hands a table/);
  await page.getByRole("button", { name: "Register" }).click();
  await page.locator(".tour-me .registered").waitFor();
  for (const p of others) await callAPI(env.server.url, "POST", `/v1/tournaments/${id}/join`, p.token, {});
  await page.locator('.tournament[data-status="running"]').waitFor();
  const started = await tournament(id, me);
  const round = started.rounds[0];
  assert.ok(round && round.tables.length === 2 && started.your_table);
  assert.equal(await page.locator("a.your-table").getAttribute("href"), `/tables/${started.your_table}`);
  assert.match(await page.locator(".tour-me").innerText(), /sealed/);
  // While it runs only the browser's own table may be watched.
  const [tabA, tabB] = round.tables;
  assert.ok(tabA && tabB);
  for (const tb of [tabA, tabB]) {
    const watch = await page.locator(`li.tour-table[data-table-id="${tb.table_id}"] a.watch`).count();
    assert.equal(watch, tb.players.includes(me.id) ? 1 : 0, `watch link of ${tb.table_id}`);
  }
  assert.equal(await page.locator("section.tour-compare").isHidden(), true);

  // Table A plays first, its first deal by a rule of the test's, its
  // second by the bot: the page shows it ended (its players waiting)
  // while B still plays.
  const atA = new Set(tabA.players);
  /** @param {string[]} ids */
  const seated = (ids) => ids.map((pid) => everyone.find((p) => p.id === pid) ?? me);
  await playFirstHand(tabA.table_id, seated(tabA.players), "first");
  await playOut(id, everyone, (p) => atA.has(p.id), (tv) => tv.rounds[0]?.tables[0]?.ended === true);
  await page.locator(`li.tour-table[data-table-id="${tabA.table_id}"][data-ended="true"]`).waitFor({ timeout: WAIT });
  assert.equal(await page.locator(".tournament").getAttribute("data-status"), "running");
  for (const pid of tabA.players) {
    assert.equal(await page.locator(`table.standings tr[data-player-id="${pid}"]`).getAttribute("data-status"), "waiting");
  }
  assert.equal(await page.locator("section.tour-compare").isHidden(), true, "no comparison while a table has deals to play");
  await screenshot(page, "tournament-duplicate-running-desktop");

  // B plays the first deal the other way, then the bot plays.
  await playFirstHand(tabB.table_id, seated(tabB.players), "last");
  await playOut(id, everyone, () => true, (tv) => tv.status === "ended");
  await page.locator('.tournament[data-status="ended"]').waitFor({ timeout: WAIT });
  await page.locator("section.tour-compare table.compare").first().waitFor();
  const tv = await tournament(id, me);
  const tables = tv.rounds[0]?.tables ?? [];
  assert.equal(tables.length, 2);
  assert.ok(tv.scores);

  // The comparison, recomputed from the API's hands: seat s of one table
  // against seat s of the other, deal by deal.
  /** @type {Map<string, number>} */
  const want = new Map();
  for (let h = 0; h < 2; h++) {
    const caption = await page.locator(`table.compare[data-hand="${h + 1}"] caption`).innerText();
    assert.equal(caption, `Deal ${h + 1}`);
    for (let seat = 0; seat < 3; seat++) {
      for (const [i, tb] of tables.entries()) {
        const other = tables[1 - i];
        const hand = tb.hands?.[h];
        const theirs = other?.hands?.[h];
        assert.ok(hand && theirs && other, `hand ${h + 1} recorded at both tables`);
        const score = hand.deltas[seat] ?? NaN;
        const against = theirs.deltas[seat] ?? NaN;
        const mp = hand.deal !== theirs.deal ? 0 : score > against ? 1 : score === against ? 0.5 : 0;
        const pid = tb.players[seat] ?? "";
        want.set(pid, (want.get(pid) ?? 0) + mp);
        const cell = page.locator(`table.compare[data-hand="${h + 1}"] tr[data-seats="${seat}"] td[data-table-id="${tb.table_id}"]`);
        assert.equal(await cell.getAttribute("data-score"), String(score));
        assert.equal(await cell.getAttribute("data-mp"), String(mp));
        const name = everyone.find((p) => p.id === pid)?.name ?? "?";
        const text = await cell.innerText();
        assert.ok(text.includes(name) && text.includes(`${score > 0 ? "+" : ""}${score}`) && text.includes(`${Number.isInteger(mp) ? mp : mp.toFixed(1)} MP`), `hand ${h + 1} seat ${seat} at ${tb.table_id}: ${text}`);
      }
    }
  }
  for (const sc of tv.scores) {
    assert.equal(want.get(sc.player_id), sc.matchpoints, `${sc.player_id}: recomputed ${want.get(sc.player_id)}, the API scored ${sc.matchpoints}`);
    const total = await page.locator(`table.compare-totals tr[data-player-id="${sc.player_id}"] td`).innerText();
    assert.equal(Number(total), sc.matchpoints, `the page's total for ${sc.player_id}`);
    const col = await page.locator(`table.standings tr[data-player-id="${sc.player_id}"] td.matchpoints`).innerText();
    assert.equal(Number(col), sc.matchpoints);
  }
  assert.deepEqual(await shownStandings(page), tv.standings.map((s) => ({ id: s.player_id, status: s.status, points: s.points })));
  // Each score links the hand's replay.
  const firstCell = tables[0];
  assert.ok(firstCell);
  assert.equal(await page.locator(`table.compare[data-hand="1"] tr[data-seats="0"] td[data-table-id="${firstCell.table_id}"] a.score`).getAttribute("href"), `/hands/${firstCell.table_id}-1`);
  await screenshot(page, "tournament-duplicate-desktop");
  await page.setViewportSize(PHONE);
  await assertFits(page, "a duplicate tournament");
  await screenshot(page, "tournament-duplicate-phone");
  assert.deepEqual(problems(), []);
  await context.close();
});
