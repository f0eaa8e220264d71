// @ts-check
// Leaderboards: one game's players by points, with their rank titles, or
// by skill rating (GET /v1/leaderboards/{game}?by=points|rating), for a
// period and optionally a variant; the caller's own row marked, and the
// caller's own ratings in the game (GET /v1/players/{id}/ratings). Server
// bots are on no board: the API leaves them out (openapi.yaml).

import { register } from "../i18n.js";
import { GAMES, gameName, variantName } from "../games.js";

/** @typedef {import("../app.js").AppContext} AppContext */
/** @typedef {import("../types.js").Leaderboard} Leaderboard */
/** @typedef {import("../types.js").RatingLeaderboard} RatingLeaderboard */

register({
  zh: {
    "lb.by": "排名依据",
    "lb.by.points": "积分",
    "lb.by.rating": "技术评分",
    "lb.variant": "玩法",
    "lb.rating": "评分",
    "lb.deviation": "误差",
    "lb.provisional": "暂定",
    "lb.you": "（你）",
    "lb.noBots": "机器人不上榜；托管时机器人代打的牌算在你名下。",
    "lb.ratingHelp": "评分按玩法分开计算，排名看“评分 − 3 × 误差”，所以新玩家要多打几手才会靠前；误差大于 4.5 时评分为暂定。",
    "lb.mine": "你的{game}评分",
    "lb.mineNone": "你还没有{game}评分：打完一手计分的牌局后就有。",
    "lb.mineRow": "{variant}：{rating} ± {deviation}，{hands} 手",
    "lb.notShown": "你不在这页的前 {n} 名里。",
    "lb.notOn": "你还没有上这张榜。",
  },
  en: {
    "lb.by": "Ranked by",
    "lb.by.points": "points",
    "lb.by.rating": "skill rating",
    "lb.variant": "Variant",
    "lb.rating": "Rating",
    "lb.deviation": "Deviation",
    "lb.provisional": "provisional",
    "lb.you": " (you)",
    "lb.noBots": "Bots are not ranked; the hands a bot plays for you while you are away (托管) count as yours.",
    "lb.ratingHelp": "Ratings are per variant and ranked by rating − 3 × deviation, so a new player rises as play confirms the rating; a rating is provisional while its deviation is above 4.5.",
    "lb.mine": "Your {game} ratings",
    "lb.mineNone": "You have no {game} rating yet: finish a scored hand to get one.",
    "lb.mineRow": "{variant}: {rating} ± {deviation}, {hands} hands",
    "lb.notShown": "You are not among the top {n} shown.",
    "lb.notOn": "You are not on this board yet.",
  },
});

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
const LIMIT = 100;

/** @param {number} x */
const fixed1 = (x) => x.toFixed(1);

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
  /**
   * @param {string} name
   * @param {string} label
   * @param {[string, string][]} options value, text
   */
  const select = (name, label, options) => {
    const s = el("select");
    s.name = name;
    for (const [value, text] of options) {
      const o = el("option", undefined, text);
      o.value = value;
      s.append(o);
    }
    const l = el("label", "field");
    l.append(el("span", undefined, label), s);
    form.append(l);
    return s;
  };
  const by = select("by", t("lb.by"), [["points", t("lb.by.points")], ["rating", t("lb.by.rating")]]);
  const variant = select("variant", t("lobby.variant"), [["", t("lb.allVariants")], ...(game?.variants ?? []).map((v) => /** @type {[string, string]} */ ([v, variantName(gameID, v)]))]);
  const period = select("period", t("lb.period"), PERIODS.map((p) => /** @type {[string, string]} */ ([p, t("lb.period." + p)])));
  form.addEventListener("submit", (e) => e.preventDefault());

  const note = el("p", "muted lb-note", t("lb.noBots"));
  const status = el("p", "status");
  status.setAttribute("role", "status");
  const table = el("table", "board");
  const cap = el("caption");
  const head = el("tr");
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  table.append(cap, thead, body);
  // The table may scroll sideways on a phone: the keyboard can reach and
  // scroll it, and it is named for who lands on it.
  const wrap = el("div", "board-wrap");
  wrap.tabIndex = 0;
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", t("lb.caption", { game: gameName(gameID) }));
  wrap.append(table);

  const mine = el("section", "my-ratings");
  mine.setAttribute("aria-labelledby", "my-ratings-title");
  const mineTitle = el("h2", undefined, t("lb.mine", { game: gameName(gameID) }));
  mineTitle.id = "my-ratings-title";
  const mineList = el("ul");
  mine.append(mineTitle, mineList);

  page.append(tabs, form, note, status, wrap, mine);
  root.append(page);

  /** @param {string[]} keys */
  const heads = (keys) =>
    head.replaceChildren(
      ...keys.map((k) => {
        const th = el("th", k === "lb.player" || k === "lb.variant" || k === "lb.title" ? undefined : "num", t(k));
        th.scope = "col";
        return th;
      }),
    );

  /**
   * A row with its rank as the row header; the caller's own row marked
   * in words and by aria-current, not by colour alone.
   * @param {number} rank
   * @param {string} playerID
   * @param {string} name
   * @param {HTMLElement[]} cells
   */
  const row = (rank, playerID, name, cells) => {
    const tr = el("tr");
    tr.dataset.playerId = playerID;
    const th = el("th", "num", String(rank));
    th.scope = "row";
    const who = el("td", "name", name);
    if (playerID === ctx.player.id) {
      tr.classList.add("me");
      tr.setAttribute("aria-current", "true");
      who.append(el("strong", "you", t("lb.you")));
    }
    tr.append(th, who, ...cells);
    return tr;
  };

  let seq = 0;
  async function load() {
    const mine = ++seq;
    status.textContent = t("loading");
    status.classList.remove("error");
    page.dataset.by = by.value;
    delete page.dataset.loaded;
    const q = { period: period.value, variant: variant.value || undefined, limit: LIMIT };
    try {
      /** @type {HTMLTableRowElement[]} */
      let rows;
      if (by.value === "rating") {
        const lb = await api.ratingBoard(gameID, q);
        if (mine !== seq) return;
        heads(["lb.rank", "lb.player", "lb.variant", "lb.rating", "lb.deviation", "lb.hands"]);
        rows = lb.rows.map((r) => {
          const dev = el("td", "num", fixed1(r.deviation));
          if (r.provisional) dev.append(el("span", "provisional", ` (${t("lb.provisional")})`));
          return row(r.rank, r.player_id, r.name, [el("td", undefined, variantName(gameID, r.variant)), el("td", "num", fixed1(r.rating)), dev, el("td", "num", String(r.hands))]);
        });
        cap.textContent = `${t("lb.caption", { game: gameName(gameID) })} · ${t("lb.by.rating")}`;
      } else {
        const lb = await api.leaderboard(gameID, q);
        if (mine !== seq) return;
        heads(["lb.rank", "lb.player", "lb.title", "lb.score", "lb.hands", "lb.wins"]);
        rows = lb.rows.map((r) => row(r.rank, r.player_id, r.name, [el("td", "title", r.title), el("td", "num", String(r.score)), el("td", "num", String(r.hands)), el("td", "num", String(r.wins))]));
        cap.textContent = `${t("lb.caption", { game: gameName(gameID) })} · ${t("lb.by.points")}`;
      }
      body.replaceChildren(...rows);
      const meShown = rows.some((r) => r.classList.contains("me"));
      // Not shown: below the page's rows when the page is full, else not on this board.
      status.textContent = rows.length === 0 ? t("lb.empty") : meShown ? "" : rows.length >= LIMIT ? t("lb.notShown", { n: LIMIT }) : t("lb.notOn");
      note.hidden = false;
      note.textContent = by.value === "rating" ? `${t("lb.noBots")} ${t("lb.ratingHelp")}` : t("lb.noBots");
      page.dataset.loaded = "true";
    } catch (err) {
      if (mine !== seq) return;
      status.textContent = ctx.describe(err);
      status.classList.add("error");
    }
  }

  async function loadMine() {
    try {
      const r = await api.ratings(ctx.player.id);
      const here = r.ratings.filter((x) => x.game === gameID);
      mineList.replaceChildren(
        ...here.map((x) => {
          const li = el("li", undefined, t("lb.mineRow", { variant: variantName(gameID, x.variant), rating: fixed1(x.rating), deviation: fixed1(x.deviation), hands: x.hands }));
          li.dataset.variant = x.variant;
          if (x.provisional) li.append(` (${t("lb.provisional")})`);
          return li;
        }),
      );
      if (here.length === 0) mineList.replaceChildren(el("li", "muted", t("lb.mineNone", { game: gameName(gameID) })));
    } catch (err) {
      mineList.replaceChildren(el("li", "error", ctx.describe(err)));
    }
    mine.dataset.loaded = "true";
  }

  by.addEventListener("change", () => void load());
  variant.addEventListener("change", () => void load());
  period.addEventListener("change", () => void load());
  void load();
  void loadMine();
}
