// @ts-check
// Leaderboards: one game's players by score, with their rank titles
// (GET /v1/leaderboards/{game}), for a period and optionally a variant.

import { GAMES, gameName, variantName } from "../games.js";

/** @typedef {import("../app.js").AppContext} AppContext */

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [className]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

const PERIODS = /** @type {const} */ (["all", "month", "week", "day"]);

/**
 * @param {HTMLElement} root
 * @param {Record<string, string>} params
 * @param {AppContext} ctx
 */
export function render(root, params, ctx) {
  const { t, api } = ctx;
  const game = GAMES.find((g) => g.game === params.game) ?? GAMES[0];
  const gameID = game?.game ?? "doudizhu";
  const page = el("div", "leaderboards");
  page.append(el("h1", undefined, `${t("page.leaderboards")} · ${gameName(gameID)}`));

  const tabs = el("nav", "tabs");
  tabs.setAttribute("aria-label", t("lb.games"));
  for (const g of GAMES) {
    const a = el("a", undefined, gameName(g.game));
    a.href = `/leaderboards/${g.game}`;
    if (g.game === gameID) a.setAttribute("aria-current", "page");
    tabs.append(a);
  }

  const form = el("form", "filters");
  const variant = el("select");
  variant.name = "variant";
  const every = el("option", undefined, t("lb.allVariants"));
  every.value = "";
  variant.append(every);
  for (const v of game?.variants ?? []) {
    const o = el("option", undefined, variantName(gameID, v));
    o.value = v;
    variant.append(o);
  }
  const period = el("select");
  period.name = "period";
  for (const p of PERIODS) {
    const o = el("option", undefined, t("lb.period." + p));
    o.value = p;
    period.append(o);
  }
  const lv = el("label", "field");
  lv.append(el("span", undefined, t("lobby.variant")), variant);
  const lp = el("label", "field");
  lp.append(el("span", undefined, t("lb.period")), period);
  form.append(lv, lp);

  const status = el("p", "status");
  status.setAttribute("role", "status");
  const table = el("table", "board");
  const cap = el("caption", undefined, t("lb.caption", { game: gameName(gameID) }));
  const head = el("tr");
  for (const k of ["lb.rank", "lb.player", "lb.title", "lb.score", "lb.hands", "lb.wins"]) {
    const th = el("th", undefined, t(k));
    th.scope = "col";
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  table.append(cap, thead, body);
  const wrap = el("div", "board-wrap");
  wrap.append(table);
  page.append(tabs, form, status, wrap);
  root.append(page);

  let seq = 0;
  async function load() {
    const mine = ++seq;
    status.textContent = t("loading");
    status.classList.remove("error");
    try {
      const lb = await api.leaderboard(gameID, { period: period.value, variant: variant.value || undefined, limit: 100 });
      if (mine !== seq) return;
      body.replaceChildren(
        ...lb.rows.map((r) => {
          const tr = el("tr");
          tr.dataset.playerId = r.player_id;
          if (r.player_id === ctx.player.id) tr.classList.add("me");
          const th = el("th", undefined, String(r.rank));
          th.scope = "row";
          tr.append(th, el("td", undefined, r.name), el("td", "title", r.title), el("td", "num", String(r.score)), el("td", "num", String(r.hands)), el("td", "num", String(r.wins)));
          return tr;
        }),
      );
      status.textContent = lb.rows.length === 0 ? t("lb.empty") : "";
      page.dataset.loaded = "true";
    } catch (err) {
      if (mine !== seq) return;
      status.textContent = ctx.describe(err);
      status.classList.add("error");
    }
  }
  variant.addEventListener("change", () => void load());
  period.addEventListener("change", () => void load());
  void load();
}
