// @ts-check
// The tournaments: the form that opens one (game, variant, format, field,
// hands per table, stake) and the list (GET /v1/tournaments), by status,
// refreshed every few seconds. Each listed tournament is
// <li class="listing" data-tournament-id="..."> with a link to its page
// (pages/tournament.js).
//
// The formats the API offers (openapi.yaml, openTournament) are explained
// here in one line each; pages/tournament.js uses the same labels.

import { gameName, kindName } from "../games.js";
import { register } from "../i18n.js";

/** @typedef {import("../app.js").AppContext} AppContext */
/** @typedef {import("../types.js").TournamentListing} TournamentListing */
/** @typedef {import("../types.js").OpenTournament} OpenTournament */

/**
 * The games a tournament plays: 斗地主's three-seat variants in either
 * format, 升级 (tables of four, sides compared) in duplicate only.
 * @type {ReadonlyArray<{game: string, variants: readonly string[], formats: readonly ("elimination" | "duplicate")[]}>}
 */
export const TOURNAMENT_GAMES = [
  { game: "doudizhu", variants: ["classic", "hubei"], formats: ["elimination", "duplicate"] },
  { game: "shengji", variants: ["ningyang", "guafeng", "qiangbao"], formats: ["duplicate"] },
];

/** The formats, in the order the form offers them. */
export const FORMATS = /** @type {const} */ (["elimination", "duplicate"]);

register({
  zh: {
    "page.tournaments": "锦标赛",
    "tour.open": "开一场锦标赛",
    "tour.openHelp": "开赛的人不自动参赛：开好后在锦标赛页面报名。",
    "tour.format": "赛制",
    "tour.format.elimination": "淘汰赛",
    "tour.format.elimination.help": "三人一桌，每桌打满设定局数后第一名晋级，其余按得分补足三的倍数，直到决赛桌决出冠军。",
    "tour.format.duplicate": "复式赛",
    "tour.format.duplicate.help": "各桌打同样的几副牌，每副牌与别桌拿同样牌的选手比较：胜一人得 1 比赛分，平一人得 ½。",
    "tour.players": "人数",
    "tour.players.help.elimination": "3 的倍数，3 到 729。",
    "tour.players.help.duplicate": "3 的倍数，至少 6。",
    "tour.players.help.partnerships": "4 的倍数，至少 8（四人一桌，比较同一方）。",
    "tour.hands": "每桌局数",
    "tour.submit": "开赛",
    "tour.opened": "锦标赛已开：{id}",
    "tour.list": "锦标赛列表",
    "tour.filter": "状态",
    "tour.filter.all": "全部",
    "tour.status.registering": "报名中",
    "tour.status.running": "进行中",
    "tour.status.ended": "已结束",
    "tour.registered": "已报名 {n}/{of}",
    "tour.handsPer": "每桌 {n} 局",
    "tour.round": "第 {n} 轮",
    "tour.none": "还没有锦标赛。",
    "tour.view": "查看",
    "tour.refresh": "刷新",
  },
  en: {
    "page.tournaments": "Tournaments",
    "tour.open": "Open a tournament",
    "tour.openHelp": "Opening one does not enter you: register on its page.",
    "tour.format": "Format",
    "tour.format.elimination": "Elimination",
    "tour.format.elimination.help": "Three to a table; after the set hands each table's first advances, the best of the others make up a multiple of three, down to a final table and its winner.",
    "tour.format.duplicate": "Duplicate",
    "tour.format.duplicate.help": "Every table plays the same deals; each player is compared deal by deal with those who held the same cards elsewhere: 1 matchpoint for each beaten, ½ for each tie.",
    "tour.players": "Players",
    "tour.players.help.elimination": "A multiple of 3, from 3 to 729.",
    "tour.players.help.duplicate": "A multiple of 3, at least 6.",
    "tour.players.help.partnerships": "A multiple of 4, at least 8 (four to a table, sides compared).",
    "tour.hands": "Hands per table",
    "tour.submit": "Open",
    "tour.opened": "Tournament opened: {id}",
    "tour.list": "Tournaments",
    "tour.filter": "Status",
    "tour.filter.all": "All",
    "tour.status.registering": "registering",
    "tour.status.running": "running",
    "tour.status.ended": "ended",
    "tour.registered": "{n} of {of} registered",
    "tour.handsPer": "{n} hands a table",
    "tour.round": "round {n}",
    "tour.none": "No tournaments yet.",
    "tour.view": "Open",
    "tour.refresh": "Refresh",
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

/**
 * A labelled control with an optional line of help under it.
 * @param {string} label
 * @param {HTMLInputElement | HTMLSelectElement} control
 * @param {HTMLElement} [help]
 */
function field(label, control, help) {
  const l = el("label", "field");
  l.append(el("span", undefined, label), control);
  if (help) {
    control.setAttribute("aria-describedby", help.id);
    l.append(help);
  }
  return l;
}

/**
 * The smallest field and the step of its size for a tournament of game in
 * format (openapi.yaml, openTournament: players).
 * @param {string} game
 * @param {string} format
 */
export function fieldBounds(game, format) {
  if (game === "shengji") return { min: 8, step: 4, help: "tour.players.help.partnerships" };
  if (format === "duplicate") return { min: 6, step: 3, help: "tour.players.help.duplicate" };
  return { min: 3, step: 3, help: "tour.players.help.elimination" };
}

/**
 * @param {HTMLElement} root
 * @param {Record<string, string>} _params
 * @param {AppContext} ctx
 * @returns {() => void}
 */
export function render(root, _params, ctx) {
  const { t, api } = ctx;
  const page = el("div", "tournaments");
  const status = el("p", "status");
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  page.append(el("h1", undefined, t("page.tournaments")), status);

  // The form.
  const form = el("form", "panel open-tournament");
  form.setAttribute("aria-labelledby", "open-tour-h");
  const fh = el("h2", undefined, t("tour.open"));
  fh.id = "open-tour-h";
  const kind = el("select");
  kind.name = "kind";
  kind.id = "tour-kind";
  for (const g of TOURNAMENT_GAMES) {
    const group = el("optgroup");
    group.label = gameName(g.game);
    for (const v of g.variants) {
      const o = el("option", undefined, kindName(g.game, v));
      o.value = `${g.game}/${v}`;
      group.append(o);
    }
    kind.append(group);
  }
  const formats = el("fieldset", "formats");
  formats.append(el("legend", undefined, t("tour.format")));
  /** @type {Record<string, HTMLInputElement>} */
  const radios = {};
  for (const f of FORMATS) {
    const id = `tour-format-${f}`;
    const r = el("input");
    r.type = "radio";
    r.name = "format";
    r.value = f;
    r.id = id;
    r.checked = f === "elimination";
    const help = el("span", "muted format-help", t(`tour.format.${f}.help`));
    help.id = id + "-help";
    r.setAttribute("aria-describedby", help.id);
    const lab = el("label", "format-name", t(`tour.format.${f}`));
    lab.htmlFor = id;
    const row = el("div", "format");
    row.dataset.format = f;
    row.append(r, lab, help);
    formats.append(row);
    radios[f] = r;
  }
  const players = el("input");
  players.type = "number";
  players.name = "players";
  players.required = true;
  players.max = "729";
  const playersHelp = el("span", "muted");
  playersHelp.id = "tour-players-help";
  const hands = el("input");
  hands.type = "number";
  hands.name = "hands_per_table";
  hands.min = "1";
  hands.max = "100";
  hands.value = "5";
  hands.required = true;
  const stake = el("input");
  stake.type = "number";
  stake.name = "stake";
  stake.min = "1";
  stake.value = "1";
  stake.required = true;
  const submit = el("button", "primary", t("tour.submit"));
  submit.type = "submit";
  form.append(fh, el("p", "muted", t("tour.openHelp")), field(t("lobby.game"), kind), formats,
    field(t("tour.players"), players, playersHelp), field(t("tour.hands"), hands), field(t("lobby.stake"), stake), submit);

  const chosen = () => {
    const [game = "doudizhu", variant = "classic"] = kind.value.split("/");
    const format = radios.duplicate?.checked ? "duplicate" : "elimination";
    return { game, variant, format };
  };
  // The formats and the field's bounds follow the game chosen.
  const follow = () => {
    const { game } = chosen();
    const g = TOURNAMENT_GAMES.find((x) => x.game === game);
    for (const f of FORMATS) {
      const r = radios[f];
      if (!r) continue;
      r.disabled = !g?.formats.includes(f);
      if (r.disabled && r.checked) {
        r.checked = false;
        const first = g?.formats[0];
        const other = first ? radios[first] : undefined;
        if (other) other.checked = true;
      }
    }
    const { format } = chosen();
    const b = fieldBounds(game, format);
    players.min = String(b.min);
    players.step = String(b.step);
    const n = Number(players.value);
    if (!players.value || n < b.min || n % b.step !== 0) players.value = String(b.min);
    playersHelp.textContent = t(b.help);
  };
  kind.addEventListener("change", follow);
  for (const r of Object.values(radios)) r.addEventListener("change", follow);
  follow();

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    submit.disabled = true;
    status.classList.remove("error");
    const { game, variant, format } = chosen();
    /** @type {OpenTournament} */
    const body = {
      game,
      variant,
      format: format === "duplicate" ? "duplicate" : "elimination",
      players: Number(players.value),
      hands_per_table: Number(hands.value),
      stake: Number(stake.value),
    };
    api.openTournament(body)
      .then((tv) => ctx.navigate(`/tournaments/${encodeURIComponent(tv.id)}`))
      .catch((err) => {
        status.textContent = ctx.describe(err);
        status.classList.add("error");
      })
      .finally(() => (submit.disabled = false));
  });

  // The list.
  const lists = el("section", "panel tournament-list");
  lists.setAttribute("aria-labelledby", "tour-list-h");
  const lh = el("h2", undefined, t("tour.list"));
  lh.id = "tour-list-h";
  const filter = el("select");
  filter.name = "status";
  for (const s of ["", "registering", "running", "ended"]) {
    const o = el("option", undefined, s ? t(`tour.status.${s}`) : t("tour.filter.all"));
    o.value = s;
    filter.append(o);
  }
  const refresh = el("button", "secondary", t("tour.refresh"));
  refresh.type = "button";
  const bar = el("div", "filters");
  bar.append(field(t("tour.filter"), filter), refresh);
  const list = el("ul", "listings");
  list.setAttribute("aria-live", "polite");
  lists.append(lh, bar, list);

  const forms = el("div", "lobby-forms");
  forms.append(form, lists);
  page.append(forms);
  root.append(page);

  /** @param {TournamentListing} l */
  function listing(l) {
    const li = el("li", "listing");
    li.dataset.tournamentId = l.id;
    li.dataset.status = l.status;
    const name = `${kindName(l.game, l.variant)} · ${t(`tour.format.${l.format}`)}`;
    const facts = [t(`tour.status.${l.status}`), t("tour.registered", { n: l.registered, of: l.players }), t("tour.handsPer", { n: l.hands_per_table }), t("table.stake", { n: l.stake })];
    if (l.round > 0) facts.push(t("tour.round", { n: l.round }));
    li.append(el("span", "kind", name), el("span", "meta muted", facts.join(" · ")));
    const a = el("a", "watch", t("tour.view"));
    a.href = `/tournaments/${encodeURIComponent(l.id)}`;
    a.setAttribute("aria-label", `${t("tour.view")}: ${name} ${l.id}`);
    li.append(a);
    return li;
  }

  let stopped = false;
  let shown = "";
  let seq = 0;
  async function load() {
    const mine = ++seq;
    try {
      const s = filter.value;
      const got = await api.tournaments({ limit: 50, status: s === "registering" || s === "running" || s === "ended" ? s : undefined });
      if (stopped || mine !== seq) return;
      // Redraw only what changed, so that focus on a link survives.
      const now = JSON.stringify([s, got.tournaments.map((l) => [l.id, l.status, l.registered, l.round])]);
      if (now === shown) return;
      shown = now;
      list.replaceChildren(...got.tournaments.map(listing));
      if (got.tournaments.length === 0) list.append(el("li", "muted", t("tour.none")));
      list.dataset.loaded = "true";
    } catch (err) {
      if (stopped || mine !== seq) return;
      status.textContent = ctx.describe(err);
      status.classList.add("error");
    }
  }
  filter.addEventListener("change", () => void load());
  refresh.addEventListener("click", () => void load());
  void load();
  const timer = setInterval(() => void load(), 5000);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
