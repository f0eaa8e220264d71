// @ts-check
// Table options (house rules) in the web app: the open form offers the
// options of the game and variant chosen, each with a one-line meaning, in
// Chinese and English; it sends only the options changed; a refused one
// (422 invalid_option naming it) shows next to its control; the lobby and
// the table page show the options a table plays away from the defaults.
//
// The expected keys are the rules files' (rules/<game>.md, "Table options
// (house rules)"), written out here rather than read from the app's
// catalog, so that a catalog that drifts from the rules fails.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { CATALOG } from "../static/js/options.js";
import { DESKTOP, openPage, PHONE, screenshot, serverAndBrowser, TEST_LIMIT } from "./helpers.mjs";

/** @typedef {import("playwright-core").Page} Page */

const env = serverAndBrowser();

/** Each variant's options, in the form's order. */
const OFFERED = {
  "doudizhu/classic": ["hands", "cap", "bomb_double", "spring", "double", "show_counts"],
  "doudizhu/hubei": ["hands", "cap", "spring", "double", "show_counts"],
  "doudizhu/fourplayer": ["hands", "cap", "spring", "double", "show_counts"],
  "shengji/ningyang": ["match", "kitty_multiplier", "step", "start_level", "must_defend", "show_points"],
  "shengji/guafeng": ["match", "kitty_multiplier", "kitty_deduction", "step", "start_level", "must_defend", "show_points"],
  "shengji/qiangbao": ["match", "kitty_multiplier", "show_points"],
  "niuniu/classic": ["seats", "banker_mode", "banker", "arrange_seconds", "multipliers", "special_hands", "jokers"],
  "shuangkou/classic": ["hands", "wild", "bomb_bonus", "cap"],
  "shuangkou/baibian": ["hands", "wild", "bomb_bonus", "cap"],
  "dadun/lean": ["bomb_order", "pure_suits", "joker_bombs", "dun_awards", "lead_after_out"],
};

/** Defaults that depend on the variant, as the form's controls hold them. */
const VARIANT_DEFAULTS = {
  "doudizhu/classic": { spring: "2" },
  "doudizhu/hubei": { spring: "4" },
  "shengji/ningyang": { kitty_multiplier: "by_shape" },
  "shengji/guafeng": { kitty_multiplier: "cards" },
  "shuangkou/classic": { wild: "none" },
  "shuangkou/baibian": { wild: "all" },
};

const CJK = /[\u4e00-\u9fff]/;

/**
 * Chooses game and variant in the open form and opens its house rules.
 * @param {Page} page
 * @param {string} game
 * @param {string} variant
 */
async function choose(page, game, variant) {
  await page.selectOption("#create-game", game);
  await page.selectOption("#create-variant", variant);
  const details = page.locator("form.create details.options");
  await page.waitForFunction(([g, v]) => {
    const d = document.querySelector("form.create details.options");
    return d instanceof HTMLElement && d.dataset.game === g && d.dataset.variant === v;
  }, [game, variant]);
  if ((await details.getAttribute("open")) === null) await details.locator("summary").click();
}

/**
 * The form's options as shown: key, label, help and the control's value.
 * @param {Page} page
 */
function offered(page) {
  return page.$$eval("form.create details.options .opt", (els) => els.map((e) => {
    const h = /** @type {HTMLElement} */ (e);
    const c = h.querySelector("input, select");
    return {
      key: h.dataset.option ?? "",
      label: h.querySelector(".opt-label, legend")?.textContent ?? "",
      help: h.querySelector(".opt-help")?.textContent ?? "",
      value: c instanceof HTMLInputElement && c.type === "checkbox" ? String(c.checked) : c instanceof HTMLInputElement || c instanceof HTMLSelectElement ? c.value : "",
      visible: h.getClientRects().length > 0,
    };
  }));
}

test("every option of the catalog is named and explained in both languages", () => {
  // The labels options.js registers, by language: a key missing in one
  // would show the other language's text (t falls back to English).
  const src = readFileSync(new URL("../static/js/options.js", import.meta.url), "utf8");
  const block = (/** @type {string} */ lang) => {
    const m = new RegExp(`\\n  ${lang}: \\{\\n([\\s\\S]*?)\\n  \\},`).exec(src);
    assert.ok(m?.[1], `options.js registers ${lang} labels`);
    return new Set([...m[1].matchAll(/^ {4}"([^"]+)":/gm)].map((k) => k[1]));
  };
  const zh = block("zh");
  const en = block("en");
  assert.deepEqual([...zh].filter((k) => !en.has(k)), [], "zh keys without en");
  assert.deepEqual([...en].filter((k) => !zh.has(k)), [], "en keys without zh");
  for (const [game, opts] of Object.entries(CATALOG)) {
    for (const o of opts) {
      const base = `opt.${game}.${o.key}`;
      /** @type {string[]} */
      const want = [base, base + ".help"];
      const values = [...(o.values ?? []), ...Object.values(o.valuesBy ?? {}).flat()];
      // Words name an enum's values; numbers may go by a unit instead.
      for (const v of values) if (typeof v === "string") want.push(`${base}.v.${v}`);
      if (values.some((v) => typeof v === "number") && !o.seat && !values.every((v) => zh.has(`${base}.v.${v}`))) want.push(base + ".fmt");
      for (const e of o.entries ?? []) want.push(`${base}.e.${e.name}`);
      for (const k of want) assert.ok(zh.has(k), `${k} is labelled`);
    }
  }
});

for (const locale of ["zh-CN", "en-US"]) {
  test(`the open form offers each variant's house rules with their meaning (${locale})`, { timeout: TEST_LIMIT }, async (t) => {
    const browser = env.browser;
    if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
    const { page, context, problems } = await openPage(browser, env.server.url, locale === "zh-CN" ? PHONE : DESKTOP, { locale });
    for (const [kind, keys] of Object.entries(OFFERED)) {
      const [game = "", variant = ""] = kind.split("/");
      await choose(page, game, variant);
      const opts = await offered(page);
      assert.deepEqual(opts.map((o) => o.key), keys, kind);
      for (const o of opts) {
        assert.ok(o.visible, `${kind} ${o.key} is shown`);
        assert.ok(o.label && !o.label.startsWith("opt."), `${kind} ${o.key} has a label: ${o.label}`);
        assert.ok(o.help && !o.help.startsWith("opt."), `${kind} ${o.key} has a meaning: ${o.help}`);
        if (locale === "zh-CN") assert.match(o.help, CJK, `${kind} ${o.key} explained in Chinese`);
        else assert.match(o.help, /[a-z]{3} [a-z]/, `${kind} ${o.key} explained in English`);
      }
      for (const [key, want] of Object.entries(VARIANT_DEFAULTS[/** @type {keyof typeof VARIANT_DEFAULTS} */ (kind)] ?? {})) {
        assert.equal(opts.find((o) => o.key === key)?.value, want, `${kind} ${key}'s default`);
      }
      // Nothing changed yet: the summary says the defaults hold.
      assert.match(await page.locator("form.create details.options summary").innerText(), locale === "zh-CN" ? /默认/ : /defaults/);
    }
    // 升级 guafeng's kitty multipliers are its own three.
    await choose(page, "shengji", "guafeng");
    assert.deepEqual(await page.$$eval('form.create [data-option="kitty_multiplier"] option', (os) => os.map((o) => /** @type {HTMLOptionElement} */ (o).value)), ["cards", "linear", "double"]);
    await screenshot(page, `options-form-${locale}`);
    assert.deepEqual(problems(), []);
    await context.close();
  });
}

test("the form sends only the changed options, and a refused one shows at its control", { timeout: TEST_LIMIT }, async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
  const { page, context, problems } = await openPage(browser, env.server.url, DESKTOP, { locale: "en-US", routes: true });
  /** @type {unknown[]} */
  const bodies = [];
  // The server answers every open here as if it refused `refuse`: the
  // body is what the form sent; the problem is what the form shows.
  let refuse = "cap";
  await page.route("**/v1/tables", async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    bodies.push(route.request().postDataJSON());
    await route.fulfill({
      status: 422,
      contentType: "application/problem+json",
      body: JSON.stringify({ type: "about:blank", title: "Unprocessable Entity", status: 422, code: "invalid_option", option: refuse, detail: `option "${refuse}" is out of range` }),
    });
  });
  const submit = async () => {
    const n = bodies.length;
    await page.locator("form.create button[type=submit]").click();
    try {
      await page.waitForFunction(() => document.querySelector("form.create button[type=submit]")?.hasAttribute("disabled") === false);
    } catch (err) {
      // Say what the page showed instead: where it is, the button, the
      // status line, and how many opens the route answered.
      const seen = await page.evaluate(() => ({
        url: location.href,
        button: document.querySelector("form.create button[type=submit]")?.outerHTML ?? null,
        status: document.querySelector(".lobby > p.status")?.textContent ?? null,
        serviceWorker: !!navigator.serviceWorker?.controller,
      }));
      throw new Error(`the open never ended: ${JSON.stringify(seen)}, ${bodies.length - n} open(s) answered by the route; problems: ${JSON.stringify(problems())}`, { cause: err });
    }
    assert.equal(bodies.length, n + 1, "one open sent");
    return /** @type {{game: string, variant: string, options?: Record<string, unknown>}} */ (bodies[n]);
  };

  // All at their defaults: no options at all, as before options existed.
  await choose(page, "doudizhu", "classic");
  assert.equal((await submit()).options, undefined);

  await page.fill('form.create input[name="cap"]', "8");
  await page.check('form.create input[name="bomb_double"]');
  await page.fill('form.create input[name="spring"]', "3");
  await page.check('form.create input[name="double"]');
  await page.uncheck('form.create input[name="double"]'); // back to its default
  assert.match(await page.locator("form.create details.options summary").innerText(), /3 changed/);
  const sent = await submit();
  assert.deepEqual(sent.options, { cap: 8, bomb_double: true, spring: 3 });
  assert.equal(sent.game, "doudizhu");

  // The refusal of cap stands at cap, which is marked and focused; the
  // status names it.
  const cap = page.locator('form.create .opt[data-option="cap"]');
  assert.equal(await cap.locator(".opt-error").innerText(), 'option "cap" is out of range');
  assert.equal(await cap.locator("input").getAttribute("aria-invalid"), "true");
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("name")), "cap");
  assert.match(await page.locator(".lobby > p.status").innerText(), /refused: Cap/);
  await screenshot(page, "options-refused");

  // A refusal of another key moves the mark; one the form does not offer
  // is told in the status.
  refuse = "spring";
  await submit();
  assert.equal(await cap.locator(".opt-error").innerText(), "");
  assert.equal(await cap.locator("input").getAttribute("aria-invalid"), null);
  assert.match(await page.locator('form.create .opt[data-option="spring"] .opt-error').innerText(), /spring/);
  refuse = "colour";
  await submit();
  assert.match(await page.locator(".lobby > p.status").innerText(), /invalid_option/);

  // Variant defaults: 双扣 baibian's wild is "all", so "none" is sent there
  // and nothing for classic's "none".
  await choose(page, "shuangkou", "baibian");
  await page.selectOption('form.create select[name="wild"]', "none");
  assert.deepEqual((await submit()).options, { wild: "none" });
  await choose(page, "shuangkou", "classic");
  assert.equal((await submit()).options, undefined);

  // 牛牛's objects: only the entries changed; an emptied special stays off.
  await choose(page, "niuniu", "classic");
  await page.fill('form.create input[name="multipliers.bull_7"]', "1");
  await page.fill('form.create input[name="special_hands.five_small"]', "8");
  await page.selectOption('form.create select[name="banker_mode"]', "rotate");
  await page.selectOption('form.create select[name="seats"]', "3");
  assert.deepEqual((await submit()).options, { seats: 3, banker_mode: "rotate", multipliers: { bull_7: 1 }, special_hands: { five_small: 8 } });

  // 升级: enums of numbers go as numbers, of letters as strings; qiangbao
  // takes no step.
  await choose(page, "shengji", "ningyang");
  await page.selectOption('form.create select[name="step"]', "20");
  await page.selectOption('form.create select[name="start_level"]', "2");
  await page.uncheck('form.create input[name="show_points"]');
  assert.deepEqual((await submit()).options, { step: 20, start_level: "2", show_points: false });

  await page.unroute("**/v1/tables");

  // Quick play offers them too, and sends them likewise.
  /** @type {unknown[]} */
  const quick = [];
  await page.route("**/v1/tables/quick", async (route) => {
    quick.push(route.request().postDataJSON());
    await route.fulfill({
      status: 422,
      contentType: "application/problem+json",
      body: JSON.stringify({ type: "about:blank", title: "Unprocessable Entity", status: 422, code: "invalid_option", option: "joker_bombs", detail: "joker_bombs refused" }),
    });
  });
  await page.selectOption("#quick-game", "dadun");
  await page.locator("form.quick details.options summary").click();
  await page.selectOption('form.quick select[name="joker_bombs"]', "2");
  await page.uncheck('form.quick input[name="dun_awards"]');
  await page.locator("form.quick button[type=submit]").click();
  await page.locator('form.quick .opt[data-option="joker_bombs"] .opt-error:not(:empty)').waitFor();
  assert.deepEqual(quick, [{ game: "dadun", variant: "lean", wait_between_hands: true, options: { joker_bombs: 2, dun_awards: false } }]);
  assert.equal(await page.locator('form.create .opt-error:not(:empty)').count(), 0, "the other form is untouched");
  assert.deepEqual(problems().filter((p) => !p.includes("422")), []);
  await context.close();
});

test("a table opened with an option shows it on the table page and in the lobby", { timeout: TEST_LIMIT }, async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
  for (const locale of ["zh-CN", "en-US"]) {
    const { page, context, problems } = await openPage(browser, env.server.url, DESKTOP, { locale });
    await choose(page, "doudizhu", "classic");
    await page.fill('form.create input[name="hands"]', "3");
    await page.selectOption("form.create select[name=turn_seconds]", "300");
    await page.selectOption("form.create select[name=bots]", "2");
    await page.locator("form.create button[type=submit]").click();
    await page.waitForURL(/\/tables\/[^/]+$/);
    const id = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
    const item = page.locator('ul.table-options li[data-option="hands"]');
    await item.waitFor();
    assert.equal(await item.innerText(), locale === "zh-CN" ? "局数：3 手" : "Match length: 3 hands");
    assert.equal(await page.locator("ul.table-options li").count(), 1, "only the option changed is shown");
    await page.waitForFunction(() => document.querySelector("section.table-page")?.getAttribute("data-ready") === "true");
    await screenshot(page, `options-table-${locale}`);

    await page.locator("a.brand, nav a").first().click();
    const listing = page.locator(`li.listing[data-table-id="${id}"] .meta`);
    await listing.waitFor();
    assert.match(await listing.innerText(), locale === "zh-CN" ? /局数：3 手/ : /Match length: 3 hands/);
    assert.deepEqual(problems(), []);
    await context.close();
  }
  // Quick play with an option finds or opens a table that plays it.
  const { page, context, problems } = await openPage(browser, env.server.url, PHONE, { locale: "en-US" });
  await page.selectOption("#quick-game", "doudizhu");
  await page.selectOption("#quick-variant", "hubei");
  await page.locator("form.quick details.options summary").click();
  await page.fill('form.quick input[name="hands"]', "2");
  await page.locator("form.quick button[type=submit]").click();
  await page.waitForURL(/\/tables\/[^/]+$/);
  assert.equal(await page.locator('ul.table-options li[data-option="hands"]').innerText(), "Match length: 2 hands");
  assert.deepEqual(problems(), []);
  await context.close();
});

test("the table page shows the options away from the defaults, whatever form the view gives them in", { timeout: TEST_LIMIT }, async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
  const { page, context, problems } = await openPage(browser, env.server.url, PHONE, { locale: "zh-CN", routes: true });
  // The view as a server that plays the options shows it: every option,
  // the defaults filled in. Only the view is changed; the table is real.
  await page.route(/\/v1\/tables\/[^/?]+$/, async (route) => {
    if (route.request().method() !== "GET") return route.fallback();
    const res = await route.fetch();
    if (res.status() !== 200) return route.fulfill({ response: res });
    const view = await res.json();
    view.options = { hands: null, cap: 8, bomb_double: true, spring: 2, double: false, show_counts: false, house: "x" };
    await route.fulfill({ response: res, json: view });
  });
  await choose(page, "doudizhu", "classic");
  await page.selectOption("form.create select[name=turn_seconds]", "0");
  await page.selectOption("form.create select[name=bots]", "2");
  await page.locator("form.create button[type=submit]").click();
  await page.waitForURL(/\/tables\/[^/]+$/);
  await page.locator('ul.table-options li[data-option="cap"]').waitFor();
  const items = await page.$$eval("ul.table-options li", (ls) => ls.map((l) => [/** @type {HTMLElement} */ (l).dataset.option, l.textContent]));
  // A key the app does not know is shown as it comes, not hidden.
  assert.deepEqual(items, [["cap", "封顶：8 倍"], ["bomb_double", "炸弹翻倍"], ["show_counts", "显示剩余牌数：关"], ["house", 'house："x"']]);
  assert.equal(await page.locator("ul.table-options").getAttribute("aria-label"), "本桌规则");
  await screenshot(page, "options-table-shown");
  assert.deepEqual(problems(), []);
  await context.close();
});

test("the server's refusal of a 牛牛 option reaches the form", { timeout: TEST_LIMIT }, async (t) => {
  const browser = env.browser;
  if (!browser) return t.skip("no chromium: set PAIJU_CHROMIUM");
  // Over the API: seats 9 is refused; where the server names the key, it
  // is "seats".
  const me = await (await fetch(env.server.url + "/v1/players", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "规则" }) })).json();
  const res = await fetch(env.server.url + "/v1/tables", {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${me.token}` },
    body: JSON.stringify({ game: "niuniu", variant: "classic", options: { seats: 9 } }),
  });
  const problem = await res.json();
  assert.equal(res.status, 422);
  assert.equal(problem.code, "invalid_option");
  if (problem.option !== undefined) assert.equal(problem.option, "seats");

  // In the browser: two seats and the banker at seat 4, which the form
  // offers and the server refuses.
  const { page, context, problems } = await openPage(browser, env.server.url, DESKTOP, { locale: "zh-CN" });
  await choose(page, "niuniu", "classic");
  await page.selectOption('form.create select[name="seats"]', "2");
  await page.selectOption('form.create select[name="banker"]', "3");
  await page.locator("form.create button[type=submit]").click();
  const status = page.locator(".lobby > p.status");
  await page.waitForFunction(() => (document.querySelector(".lobby > p.status")?.textContent ?? "") !== "");
  const at = await page.locator('form.create .opt[data-option="banker"] .opt-error').innerText();
  if (at) {
    // The server names the key: the detail stands at the banker's seat.
    assert.match(await status.innerText(), /庄位/);
  } else {
    assert.match(await status.innerText(), /invalid_option/);
  }
  assert.equal(new URL(page.url()).pathname, "/", "no table was opened");
  assert.deepEqual(problems().filter((p) => !p.includes("422")), []);
  await context.close();
});
