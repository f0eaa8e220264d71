// @ts-check
// Every page of the app, in Chinese and in English, at phone (390×844) and
// desktop (1280×800) size: each is checked by axe-core (no serious or
// critical violation), shows no label key in place of its words, and is
// kept as a screenshot (artifacts/page-<page>-<lang>-<size>.png). The
// pages: the lobby, a table of each game mid-hand, a hand's replay, the
// verify page with an export checked and its hand replayed, the
// leaderboards by points and by rating, the account page, a share link
// without its code, the tournaments and a tournament. The words the games
// use (乐安打盾, its variant, cards shown as cards in the replay) and the
// leaderboards (no bot, the caller's row marked) are checked where they
// show.

import assert from "node:assert/strict";
import { test } from "node:test";
import { axeViolations, callAPI, DESKTOP, openPage, PHONE, playHand, screenshot, serverAndBrowser, TEST_LIMIT, WAIT } from "./helpers.mjs";

/** @typedef {import("playwright-core").Page} Page */
/** @typedef {import("./helpers.mjs").Player} Player */
/** @typedef {import("./helpers.mjs").Schemas} Schemas */

const env = serverAndBrowser();

/** One table of each game, the player seated among bots. */
const GAMES = [
  { game: "doudizhu", variant: "classic", bots: 2 },
  { game: "shengji", variant: "ningyang", bots: 3 },
  { game: "niuniu", variant: "classic", bots: 3 },
  { game: "shuangkou", variant: "classic", bots: 3 },
  { game: "dadun", variant: "lean", bots: 3 },
];

/**
 * @typedef {Object} Fixture
 * @property {Player} me the player every page is seen as
 * @property {string} handID a finished 斗地主 hand of theirs
 * @property {string} exportText its table's export
 * @property {Record<string, string>} tables a table id per game, the player seated
 * @property {string} tournamentID a tournament the player registered for
 */

/** @type {Promise<Fixture> | undefined} */
let fixture;

/**
 * Opens a table of the kind with bots and seats the player.
 * @param {string} base
 * @param {Player} p
 * @param {{game: string, variant: string, bots: number}} kind
 * @returns {Promise<string>} the table's id
 */
async function seatAmongBots(base, p, kind) {
  /** @type {Schemas["Table"]} */
  const tbl = await callAPI(base, "POST", "/v1/tables", p.token, { ...kind, clock: { turn_seconds: 0 } });
  await callAPI(base, "POST", `/v1/tables/${tbl.id}/join`, p.token, {});
  return tbl.id;
}

/**
 * Plays the player's seat at a table of bots to the end of hand 1 over the
 * API, taking the first legal action (a bid, a single, else pass), the bots
 * moving in between.
 * @param {string} base
 * @param {Player} p
 * @param {string} id
 */
async function playAmongBots(base, p, id) {
  // Bounded by time, not by looks: how many looks the bots' moves take depends on the machine's speed.
  for (const deadline = Date.now() + WAIT; Date.now() < deadline; ) {
    /** @type {Schemas["Table"]} */
    const v = await callAPI(base, "GET", `/v1/tables/${id}`, p.token);
    if (v.last_settlement && v.last_settlement.hand === 1) return;
    if (v.turn === null || v.turn !== v.seat) {
      await new Promise((r) => setTimeout(r, 20)); // the bots' move: look again
      continue;
    }
    /** @type {Schemas["LegalActions"]} */
    const legal = await callAPI(base, "GET", `/v1/tables/${id}/legal`, p.token);
    /** @type {Schemas["Action"] | undefined} */
    let action = legal.actions.find((a) => a.type === "bid") ?? legal.actions.find((a) => a.type !== "pass" && a.type !== "escape" && a.type !== "leave" && a.type !== "delegate");
    const card = legal.extend[0];
    if (!action && card) {
      /** @type {Schemas["LegalActions"]} */
      const narrowed = await callAPI(base, "GET", `/v1/tables/${id}/legal?selected=${encodeURIComponent(card)}`, p.token);
      action = narrowed.actions.find((a) => a.type === "play" && a.cards.length === 1);
    }
    action ??= legal.actions.find((a) => a.type === "pass");
    if (!action) throw new Error(`no action for ${JSON.stringify(legal)}`);
    await callAPI(base, "POST", `/v1/tables/${id}/actions`, p.token, action);
  }
  throw new Error(`hand 1 of ${id} did not end`);
}

/**
 * The hands, tables and export the pages show, made once over the API by
 * the first test that needs them.
 * @returns {Promise<Fixture>}
 */
function setUp() {
  fixture ??= makeFixture();
  return fixture;
}

/** @returns {Promise<Fixture>} */
async function makeFixture() {
  const base = env.server.url;
  const t0 = Date.now();
  const { tableID, handID, players } = await playHand(base);
  if (process.env.PAIJU_E2E_TIMES) console.log(`playHand ${Date.now() - t0} ms`);
  const me = players[0];
  if (!me) throw new Error("no player");
  // A hand against two bots: the player is ranked and rated, the bots not.
  const botTable = await seatAmongBots(base, me, { game: "doudizhu", variant: "classic", bots: 2 });
  await playAmongBots(base, me, botTable);
  if (process.env.PAIJU_E2E_TIMES) console.log(`bot hand ${Date.now() - t0} ms`);
  /** @type {Record<string, string>} */
  const tables = {};
  for (const kind of GAMES) tables[kind.game] = await seatAmongBots(base, me, kind);
  /** @type {Schemas["Tournament"]} */
  const tour = await callAPI(base, "POST", "/v1/tournaments", me.token, { game: "doudizhu", variant: "classic", format: "elimination", players: 6, hands_per_table: 2 });
  await callAPI(base, "POST", `/v1/tournaments/${tour.id}/join`, me.token, {});
  const res = await fetch(`${base}/v1/tables/${tableID}/export`, { headers: { Authorization: `Bearer ${me.token}` } });
  assert.equal(res.status, 200);
  return { me, handID, exportText: await res.text(), tables, tournamentID: tour.id };
}

/**
 * The page's main text must not show a label key (a label missing in the
 * language shows as its key).
 * @param {Page} page
 * @param {string} what
 */
async function assertWords(page, what) {
  const text = await page.locator("body").innerText();
  const keys = text.match(/\b(?:app|nav|player|page|lobby|lb|table|action|card|suit|game|variant|replay|verify|check|ev|opt|combo|outcome|doudizhu|shengji|dadun|shuangkou|niuniu|tour|account|room|error|list|export|problem|copy)\.(?!jsonl\b)[A-Za-z_][A-Za-z_.]*\b/g);
  assert.equal(keys, null, `${what}: label keys shown: ${keys}`);
}

/**
 * @typedef {Object} PageCase
 * @property {string} name
 * @property {string} path
 * @property {(page: Page, lang: "zh" | "en") => Promise<void>} ready waits until the page shows what it is for, and checks it
 */

/** @param {Fixture} f @returns {PageCase[]} */
function cases(f) {
  /** @type {PageCase[]} */
  const list = [
    {
      name: "lobby",
      path: "/",
      ready: async (page) => {
        await page.locator("ul.listings[data-loaded]").waitFor();
      },
    },
  ];
  for (const { game } of GAMES) {
    list.push({
      name: `table-${game}`,
      path: `/tables/${f.tables[game]}`,
      ready: async (page, lang) => {
        // Seated, the view and the legal actions shown (升级's hand is drawn
        // card by card, so it may still be empty).
        await page.waitForFunction(() => {
          const e = document.querySelector("section.table-page");
          return e instanceof HTMLElement && e.dataset.ready === "true" && e.dataset.seat !== "";
        }, undefined, { timeout: WAIT });
        if (game === "dadun") {
          const h1 = await page.locator("main h1").innerText();
          assert.match(h1, lang === "zh" ? /^乐安打盾 · / : /^Le’an Dadun · /, "打盾 is named 乐安打盾, its variant not said twice");
          assert.doesNotMatch(await page.locator("main").innerText(), /打墩|简版|\blean\b/, "打盾's old names");
        }
      },
    });
  }
  list.push(
    {
      name: "replay",
      path: `/hands/${f.handID}`,
      ready: async (page, lang) => {
        const v = page.locator('#replay-verdict[data-verified="true"], #replay-verdict[data-verified="false"]');
        await v.waitFor({ timeout: WAIT });
        assert.equal(await v.getAttribute("data-verified"), "true", await v.innerText());
        assert.match(await page.locator("main h1").innerText(), lang === "zh" ? /斗地主 · 经典/ : /Dou Dizhu · classic/, "the variant by name, not its id");
        // Step to the first play: its cards are card elements, named for the ear.
        for (let i = 0; i < 60; i++) {
          if ((await page.locator("#replay-event").getAttribute("data-type")) === "CardsPlayed") break;
          await page.locator("#replay-next").click();
        }
        const played = page.locator("#replay-event .card[data-card]");
        assert.ok((await played.count()) > 0, "the step's cards are shown as cards");
        const label = (await played.first().getAttribute("aria-label")) ?? "";
        assert.match(label, lang === "zh" ? /黑桃|红桃|梅花|方块|王/ : /spades|hearts|clubs|diamonds|joker/);
      },
    },
    {
      name: "verify",
      path: "/verify",
      ready: async (page) => {
        await page.setInputFiles("#verify-file", { name: "export.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(f.exportText) });
        const v = page.locator('#verify-result[data-verified="true"], #verify-result[data-verified="false"]');
        await v.waitFor({ timeout: WAIT });
        assert.equal(await v.getAttribute("data-verified"), "true", await v.innerText());
        // The export's hand, replayed from the file below the verdict.
        await page.locator('.export-hands button[data-hand="1"]').click();
        const r = page.locator('#replay-verdict[data-verified="true"], #replay-verdict[data-verified="false"]');
        await r.waitFor({ timeout: WAIT });
        assert.equal(await r.getAttribute("data-verified"), "true", await r.innerText());
      },
    },
    {
      name: "leaderboards",
      path: "/leaderboards/doudizhu",
      ready: async (page) => {
        await page.locator('.leaderboards[data-loaded][data-by="points"]').waitFor();
        await page.locator(".my-ratings[data-loaded]").waitFor();
        await boardChecks(page, f.me);
        assert.equal(await page.locator('.my-ratings li[data-variant="classic"]').count(), 1, "the player's own 斗地主 rating");
      },
    },
    {
      name: "account",
      path: "/me",
      ready: async (page) => {
        await page.locator("ul.token-list[data-loaded]").waitFor();
      },
    },
    {
      name: "join",
      path: "/join",
      ready: async (page) => {
        // A share link without its code: the form asks for it, saying why.
        await page.locator("form.room-form .room-message.error").waitFor();
      },
    },
    {
      name: "tournaments",
      path: "/tournaments",
      ready: async (page) => {
        await page.locator(".tournament-list ul.listings[data-loaded]").waitFor();
      },
    },
    {
      name: "tournament",
      path: `/tournaments/${f.tournamentID}`,
      ready: async (page) => {
        await page.locator(".tournament[data-loaded]").waitFor();
      },
    },
    {
      name: "ratings",
      path: "/leaderboards/doudizhu",
      ready: async (page) => {
        await page.locator(".leaderboards[data-loaded]").waitFor();
        await page.selectOption(".filters select[name=by]", "rating");
        await page.locator('.leaderboards[data-loaded][data-by="rating"]').waitFor();
        await boardChecks(page, f.me);
      },
    },
  );
  return list;
}

/**
 * A board holds the humans of the hands played and no bot, the caller's
 * row marked in words and for assistive technology.
 * @param {Page} page
 * @param {Player} me
 */
async function boardChecks(page, me) {
  const rows = page.locator(".board tbody tr");
  assert.equal(await rows.count(), 3, "the three players of the hands, no bot");
  const ids = await rows.evaluateAll((trs) => trs.map((tr) => (tr instanceof HTMLElement ? tr.dataset.playerId ?? "" : "")));
  assert.ok(ids.every((id) => id !== "" && !id.startsWith("bot-")), `rows ${ids}: a bot is ranked`);
  const mine = page.locator(`.board tbody tr.me[aria-current="true"][data-player-id="${me.id}"]`);
  assert.equal(await mine.count(), 1, "the caller's own row is marked");
  assert.match(await mine.innerText(), /（你）|\(you\)/);
  assert.equal(await page.locator(".board tbody tr.me").count(), 1, "only the caller's row is marked");
}

// A test for each language and viewport, each visiting every page once:
// a failure names the language and the size it was found at.
for (const locale of ["zh-CN", "en-US"]) {
  const lang = locale === "zh-CN" ? "zh" : "en";
  for (const [size, viewport] of /** @type {const} */ ([["phone", PHONE], ["desktop", DESKTOP]])) {
    test(`every page in ${lang}, ${size}: axe finds nothing serious`, { timeout: TEST_LIMIT }, async (t) => {
      const browser = env.browser;
      if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
      const f = await setUp();
      const { page, context, problems } = await openPage(browser, env.server.url, viewport, { locale, player: f.me, bypassCSP: true });
      /** @type {string[]} */
      const found = [];
      for (const c of cases(f)) {
        const started = Date.now();
        await page.goto(env.server.url + c.path);
        await page.locator("#player[data-player-id]").waitFor();
        await c.ready(page, lang).catch((err) => {
          throw new Error(`${c.name} ${lang} ${size}: ${err instanceof Error ? err.message : err}`);
        });
        await assertWords(page, `${c.name} ${lang} ${size}`);
        const took = Date.now() - started;
        const v = await axeViolations(page);
        if (process.env.PAIJU_E2E_TIMES) console.log(`${c.name} ${lang} ${size}: ${took} ms, axe ${Date.now() - started - took} ms`);
        found.push(...v.map((x) => `${c.name} ${lang} ${size}: ${x}`));
        await screenshot(page, `page-${c.name}-${lang}-${size}`);
      }
      assert.deepEqual(found, [], "axe-core: serious or critical violations");
      assert.deepEqual(problems(), []);
      await context.close();
    });
  }
}
