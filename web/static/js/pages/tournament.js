// @ts-check
// One tournament (GET /v1/tournaments/{id}): its facts, registration and
// withdrawal (POST …/join, …/leave) while it registers, the
// caller's table while they play one, the standings, every round's tables
// and results (the bracket), and for a duplicate tournament, once it has
// ended, the comparison of the deals: the same deals played at every
// table, each seat (or side) set against the same seat of the other
// tables, with the matchpoints it took.
//
// It follows the tournament live over GET /v1/tournaments/{id}/stream,
// read with fetch (an EventSource cannot send the bearer token), and reads
// the tournament again after each burst of events; the stream is opened
// again after `after=<version>` when it drops, until the tournament ends.
//
// The root element carries data-status, data-version and data-live (the
// stream is open), which the browser tests read.

import { ApiError } from "../api.js";
import { kindName } from "../games.js";
import { register } from "../i18n.js";
import "./tournaments.js"; // the formats' labels

/** @typedef {import("../app.js").AppContext} AppContext */
/** @typedef {import("../types.js").Tournament} Tournament */
/** @typedef {Tournament["rounds"][number]} Round */
/** @typedef {Round["tables"][number]} RoundTable */

register({
  zh: {
    "tour.title": "锦标赛 · {kind}",
    "tour.facts": "{format} · 已报名 {n}/{of} · 每桌 {hands} 局 · 底注 {stake}",
    "tour.register": "报名",
    "tour.leave": "退出报名",
    "tour.registeredYou": "你已报名。",
    "tour.full": "报名已满。",
    "tour.waiting": "还差 {n} 人开赛。",
    "tour.yourTable": "去你的牌桌",
    "tour.yourStatus": "你的状态：{status}",
    "tour.live": "实时更新中",
    "tour.offline": "实时连接中断，正在重连…",
    "tour.ended": "比赛已结束。",
    "tour.winner": "冠军：{name}",
    "tour.standings": "排名",
    "tour.col.rank": "名次",
    "tour.col.player": "选手",
    "tour.col.status": "状态",
    "tour.col.round": "轮次",
    "tour.col.points": "得分",
    "tour.col.matchpoints": "比赛分",
    "tour.col.table": "牌桌",
    "tour.pstatus.registered": "已报名",
    "tour.pstatus.playing": "比赛中",
    "tour.pstatus.waiting": "等待本轮结束",
    "tour.pstatus.eliminated": "已淘汰",
    "tour.pstatus.finished": "已完赛",
    "tour.pstatus.winner": "冠军",
    "tour.rounds": "对阵",
    "tour.roundN": "第 {n} 轮",
    "tour.tableN": "第 {n} 桌",
    "tour.tablePlaying": "进行中",
    "tour.tableEnded": "已结束",
    "tour.watch": "观看",
    "tour.seatN": "{n} 号座",
    "tour.place": "第 {place} 名 · {total} 分 · 输 {lost} 局",
    "tour.advanced": "晋级：{names}",
    "tour.broughtBack": "补位晋级：{names}",
    "tour.eliminated": "淘汰：{names}",
    "tour.noRounds": "报满后抽签开赛。",
    "tour.sealed": "复式赛进行中，各桌牌局保密，比赛结束后公开对比。",
    "tour.compare": "复式对比",
    "tour.compareHelp": "同一副牌在各桌的结算：每行是同一座位（升级为同一方），每格是该桌的得分和这副牌拿到的比赛分（胜一桌得 1，平得 ½）。",
    "tour.handN": "第 {n} 副牌",
    "tour.unit": "座位",
    "tour.side": "{a} 与 {b} 号座",
    "tour.dealN": "第 {n} 次发牌",
    "tour.notCompared": "无同牌可比",
    "tour.mp": "{n} 比赛分",
    "tour.replay": "第 {table} 桌第 {hand} 副的回放",
    "tour.totals": "比赛分合计",
    "tour.seed": "种子",
    "tour.commitment": "种子承诺",
    "tour.notFound": "没有这场锦标赛。",
  },
  en: {
    "tour.title": "Tournament · {kind}",
    "tour.facts": "{format} · {n} of {of} registered · {hands} hands a table · stake {stake}",
    "tour.register": "Register",
    "tour.leave": "Withdraw",
    "tour.registeredYou": "You are registered.",
    "tour.full": "The field is full.",
    "tour.waiting": "{n} more to start.",
    "tour.yourTable": "Go to your table",
    "tour.yourStatus": "Your status: {status}",
    "tour.live": "Live",
    "tour.offline": "Live updates dropped; reconnecting…",
    "tour.ended": "The tournament has ended.",
    "tour.winner": "Winner: {name}",
    "tour.standings": "Standings",
    "tour.col.rank": "#",
    "tour.col.player": "Player",
    "tour.col.status": "Status",
    "tour.col.round": "Round",
    "tour.col.points": "Points",
    "tour.col.matchpoints": "Matchpoints",
    "tour.col.table": "Table",
    "tour.pstatus.registered": "registered",
    "tour.pstatus.playing": "playing",
    "tour.pstatus.waiting": "waiting for the round",
    "tour.pstatus.eliminated": "eliminated",
    "tour.pstatus.finished": "finished",
    "tour.pstatus.winner": "winner",
    "tour.rounds": "Rounds",
    "tour.roundN": "Round {n}",
    "tour.tableN": "Table {n}",
    "tour.tablePlaying": "playing",
    "tour.tableEnded": "ended",
    "tour.watch": "Watch",
    "tour.seatN": "seat {n}",
    "tour.place": "place {place} · {total} points · {lost} hands lost",
    "tour.advanced": "Advance: {names}",
    "tour.broughtBack": "Brought back: {names}",
    "tour.eliminated": "Out: {names}",
    "tour.noRounds": "The draw is made when the field is full.",
    "tour.sealed": "While a duplicate runs its tables' deals are sealed; the comparison is shown when it ends.",
    "tour.compare": "Duplicate comparison",
    "tour.compareHelp": "Each deal as every table settled it: a row is one seat (a side in 升级), a cell that table's score and the matchpoints it took on the deal (1 for each table beaten, ½ for each tie).",
    "tour.handN": "Deal {n}",
    "tour.unit": "Seat",
    "tour.side": "seats {a} & {b}",
    "tour.dealN": "deal #{n}",
    "tour.notCompared": "no table held the same cards",
    "tour.mp": "{n} MP",
    "tour.replay": "Replay of table {table}, hand {hand}",
    "tour.totals": "Matchpoints in all",
    "tour.seed": "Seed",
    "tour.commitment": "Seed commitment",
    "tour.notFound": "No such tournament.",
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

/** @param {number} n matchpoints, in halves */
function mpText(n) {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** @param {number} n */
function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/**
 * @typedef {Object} CompareCell
 * @property {string} tableID
 * @property {number} table 0-based index of the table in its round
 * @property {number} deal the deal the hand ended on (a redeal counts up)
 * @property {string[]} players the players of the seat or side
 * @property {number} score the seat's settlement, or the side's (both seats summed)
 * @property {number} mp matchpoints taken on the hand against the other tables that ended it on the same deal
 *
 * @typedef {Object} CompareRow
 * @property {number[]} seats the seat, or a side's two seats
 * @property {CompareCell[]} cells one per table
 *
 * @typedef {Object} CompareHand
 * @property {number} hand 1-based
 * @property {CompareRow[]} rows
 *
 * @typedef {Object} Comparison
 * @property {CompareHand[]} hands
 * @property {Map<string, number>} totals each player's matchpoints over every hand
 */

/**
 * The comparison of a duplicate tournament's deals, from the hands each
 * table recorded (present once it has ended), by the rule the API scores
 * with (domain/tournament, matchpoints): the seat s of a table against the
 * seat s of every other table that ended the hand on the same deal, 1 for
 * each outscored and ½ for each tie; with partnerships the side (seats s
 * and s+2, settlements summed) against the same side, both partners taking
 * its matchpoints. Null when there is nothing to compare yet.
 * @param {Tournament} tv
 * @returns {Comparison | null}
 */
export function compare(tv) {
  const round = tv.rounds[0];
  if (tv.format !== "duplicate" || !round) return null;
  const tables = round.tables;
  if (tables.length === 0 || tables.some((tb) => !tb.hands || tb.hands.length === 0)) return null;
  const seats = tv.seats_per_table;
  /** @type {number[][]} */
  const units = [];
  if (tv.partnerships) {
    for (let s = 0; s < seats / 2; s++) units.push([s, s + 2]);
  } else {
    for (let s = 0; s < seats; s++) units.push([s]);
  }
  /** @type {Map<string, number>} */
  const totals = new Map();
  for (const tb of tables) for (const p of tb.players) totals.set(p, 0);
  const count = Math.min(...tables.map((tb) => tb.hands?.length ?? 0));
  /** @type {CompareHand[]} */
  const hands = [];
  for (let h = 0; h < count; h++) {
    /** @param {RoundTable} tb @param {number[]} unit */
    const score = (tb, unit) => unit.reduce((sum, s) => sum + (tb.hands?.[h]?.deltas[s] ?? 0), 0);
    /** @param {RoundTable} tb */
    const deal = (tb) => tb.hands?.[h]?.deal ?? 0;
    const rows = units.map((unit) => ({
      seats: unit,
      cells: tables.map((tb, i) => {
        const mine = score(tb, unit);
        let mp = 0;
        for (const other of tables) {
          if (other === tb || deal(other) !== deal(tb)) continue;
          const theirs = score(other, unit);
          if (mine > theirs) mp += 1;
          else if (mine === theirs) mp += 0.5;
        }
        const players = unit.map((s) => tb.players[s] ?? "");
        for (const p of players) totals.set(p, (totals.get(p) ?? 0) + mp);
        return { tableID: tb.table_id, table: i, deal: deal(tb), players, score: mine, mp };
      }),
    }));
    hands.push({ hand: h + 1, rows });
  }
  return { hands, totals };
}

/**
 * @param {HTMLElement} root
 * @param {Record<string, string>} params
 * @param {AppContext} ctx
 * @returns {() => void}
 */
export function render(root, params, ctx) {
  const { t, api } = ctx;
  const id = params.id ?? "";
  const page = el("div", "tournament");
  page.dataset.tournamentId = id;
  const title = el("h1", undefined, t("page.tournaments"));
  const status = el("p", "status");
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  const facts = el("p", "tour-facts");
  const formatHelp = el("p", "muted format-help");
  const mine = el("div", "panel tour-me");
  const live = el("p", "muted tour-live");
  live.setAttribute("aria-live", "polite");

  const standings = el("section", "panel tour-standings");
  standings.setAttribute("aria-labelledby", "tour-standings-h");
  const sh = el("h2", undefined, t("tour.standings"));
  sh.id = "tour-standings-h";
  const table = el("table", "board standings");
  const thead = el("thead");
  const tbody = el("tbody");
  table.append(thead, tbody);
  const wrap = el("div", "board-wrap");
  wrap.append(table);
  standings.append(sh, wrap);

  const rounds = el("section", "panel tour-rounds");
  rounds.setAttribute("aria-labelledby", "tour-rounds-h");
  const rh = el("h2", undefined, t("tour.rounds"));
  rh.id = "tour-rounds-h";
  const roundList = el("div", "rounds");
  rounds.append(rh, roundList);

  const comparison = el("section", "panel tour-compare");
  comparison.setAttribute("aria-labelledby", "tour-compare-h");
  comparison.hidden = true;

  const audit = el("p", "muted seed");

  page.append(title, facts, formatHelp, status, mine, live, standings, rounds, comparison, audit);
  root.append(page);

  /** @type {Tournament | null} */
  let tv = null;
  let stopped = false;
  const abort = new AbortController();

  /** @param {unknown} err */
  const fail = (err) => {
    status.textContent = err instanceof ApiError && err.status === 404 ? t("tour.notFound") : ctx.describe(err);
    status.classList.add("error");
  };

  /** @param {string} playerID */
  const nameOf = (playerID) => tv?.entrants.find((e) => e.player_id === playerID)?.name ?? playerID;

  /**
   * A table may be read by anyone but while a duplicate runs (403
   * table_sealed to all but its own players).
   * @param {RoundTable} tb
   */
  const readable = (tb) => tv?.format !== "duplicate" || tv.status === "ended" || tb.players.includes(ctx.player.id);

  /** @param {Tournament} v */
  function draw(v) {
    tv = v;
    page.dataset.status = v.status;
    page.dataset.version = String(v.version);
    const kind = kindName(v.game, v.variant);
    title.textContent = t("tour.title", { kind });
    document.title = `${title.textContent} · ${t("app.title")}`;
    facts.textContent = t("tour.facts", { format: t(`tour.format.${v.format}`), n: v.entrants.length, of: v.players, hands: v.hands_per_table, stake: v.stake });
    formatHelp.textContent = t(`tour.format.${v.format}.help`);
    drawMine(v);
    drawStandings(v);
    drawRounds(v);
    drawComparison(v);
    audit.replaceChildren();
    audit.append(el("span", undefined, `${t("tour.commitment")}: `), el("code", undefined, v.commitment));
    if (v.seed) audit.append(el("br"), el("span", undefined, `${t("tour.seed")}: `), el("code", undefined, v.seed));
  }

  /** Registration, the caller's status and table, the winner. @param {Tournament} v */
  function drawMine(v) {
    mine.replaceChildren();
    const registered = v.entrants.some((e) => e.player_id === ctx.player.id);
    if (v.status === "registering") {
      /**
       * A button posting the registration or the withdrawal.
       * @param {string} className
       * @param {string} label
       * @param {(id: string) => Promise<Tournament>} command
       */
      const command = (className, label, command) => {
        const b = el("button", className, label);
        b.type = "button";
        b.addEventListener("click", () => {
          b.disabled = true;
          status.textContent = "";
          status.classList.remove("error");
          command(id)
            .then((nv) => {
              if (!stopped) draw(nv);
            })
            .catch((err) => {
              b.disabled = false;
              fail(err);
            });
        });
        return b;
      };
      if (registered) {
        mine.append(el("p", "registered", t("tour.registeredYou")), command("secondary leave", t("tour.leave"), (x) => api.leaveTournament(x)));
      } else {
        mine.append(command("primary register", t("tour.register"), (x) => api.joinTournament(x)));
      }
      mine.append(el("p", "muted", t("tour.waiting", { n: v.players - v.entrants.length })));
    }
    if (v.your_status) mine.append(el("p", "your-status", t("tour.yourStatus", { status: t(`tour.pstatus.${v.your_status}`) })));
    if (v.your_table) {
      const a = el("a", "your-table", t("tour.yourTable"));
      a.href = `/tables/${encodeURIComponent(v.your_table)}`;
      a.dataset.tableId = v.your_table;
      mine.append(a);
    }
    if (v.status === "ended") {
      mine.append(el("p", undefined, t("tour.ended")));
      if (v.winner) mine.append(el("p", "winner", t("tour.winner", { name: nameOf(v.winner) })));
    }
    if (v.format === "duplicate" && v.status === "running") mine.append(el("p", "muted", t("tour.sealed")));
  }

  /** @param {Tournament} v */
  function drawStandings(v) {
    const scored = v.scores !== null;
    /** @type {Map<string, number>} */
    const mp = new Map((v.scores ?? []).map((s) => [s.player_id, s.matchpoints]));
    const head = el("tr");
    // A duplicate plays one round: no round column.
    const rounds = v.format !== "duplicate";
    const cols = ["rank", "player", "status", ...(rounds ? ["round"] : []), "points", ...(scored ? ["matchpoints"] : []), "table"];
    const numeric = ["round", "points", "matchpoints"];
    for (const k of cols) {
      const th = el("th", numeric.includes(k) ? "num" : undefined, t(`tour.col.${k}`));
      th.scope = "col";
      head.append(th);
    }
    thead.replaceChildren(head);
    /** @type {Map<string, RoundTable>} */
    const tables = new Map();
    v.rounds.forEach((r) => r.tables.forEach((tb) => tables.set(tb.table_id, tb)));
    tbody.replaceChildren(...v.standings.map((s, i) => {
      const tr = el("tr");
      tr.dataset.playerId = s.player_id;
      tr.dataset.status = s.status;
      if (s.player_id === ctx.player.id) tr.classList.add("me");
      const th = el("th", undefined, String(i + 1));
      th.scope = "row";
      tr.append(th, el("td", undefined, s.name), el("td", "pstatus", t(`tour.pstatus.${s.status}`)));
      if (rounds) tr.append(el("td", "num", String(s.round)));
      tr.append(el("td", "num points", String(s.points)));
      if (scored) tr.append(el("td", "num matchpoints", mpText(mp.get(s.player_id) ?? 0)));
      const cell = el("td");
      const tb = s.table_id ? tables.get(s.table_id) : undefined;
      if (s.table_id && tb && readable(tb)) {
        const a = el("a", undefined, t("tour.watch"));
        a.href = `/tables/${encodeURIComponent(s.table_id)}`;
        a.setAttribute("aria-label", `${t("tour.watch")}: ${s.name}`);
        cell.append(a);
      }
      tr.append(cell);
      return tr;
    }));
  }

  /** @param {Tournament} v */
  function drawRounds(v) {
    if (v.rounds.length === 0) {
      roundList.replaceChildren(el("p", "muted", t("tour.noRounds")));
      return;
    }
    /** @param {string[]} ids */
    const names = (ids) => ids.map(nameOf).join(t("list.sep"));
    roundList.replaceChildren(...v.rounds.map((r) => {
      const sec = el("section", "round");
      sec.dataset.round = String(r.number);
      const h = el("h3", undefined, t("tour.roundN", { n: r.number }));
      const grid = el("ul", "round-tables");
      r.tables.forEach((tb, i) => {
        const li = el("li", "tour-table");
        li.dataset.tableId = tb.table_id;
        li.dataset.ended = String(tb.ended);
        const head = el("div", "tour-table-head");
        head.append(el("strong", undefined, t("tour.tableN", { n: i + 1 })), " ", el("span", "muted", tb.ended ? t("tour.tableEnded") : t("tour.tablePlaying")));
        if (readable(tb)) {
          const a = el("a", "watch", t("tour.watch"));
          a.href = `/tables/${encodeURIComponent(tb.table_id)}`;
          a.setAttribute("aria-label", `${t("tour.watch")}: ${t("tour.roundN", { n: r.number })} ${t("tour.tableN", { n: i + 1 })}`);
          head.append(" ", a);
        }
        const seats = el("ol", "tour-seats");
        seats.start = 0;
        tb.players.forEach((p, seat) => {
          const item = el("li");
          item.dataset.playerId = p;
          if (p === ctx.player.id) item.classList.add("me");
          item.append(el("span", "muted", `${t("tour.seatN", { n: seat })} `), el("span", "name", nameOf(p)));
          const st = tb.result?.standings.find((x) => x.seat === seat);
          if (st) {
            item.dataset.place = String(st.place);
            item.append(el("span", "muted result", ` · ${t("tour.place", { place: st.place, total: signed(st.total), lost: st.hands_lost })}`));
          }
          seats.append(item);
        });
        li.append(head, seats);
        grid.append(li);
      });
      sec.append(h, grid);
      const adv = r.advanced;
      if (adv) {
        const ul = el("ul", "advanced");
        if (adv.winners.length) ul.append(el("li", "winners", t("tour.advanced", { names: names(adv.winners) })));
        if (adv.brought_back.length) ul.append(el("li", "brought-back", t("tour.broughtBack", { names: names(adv.brought_back) })));
        if (adv.eliminated.length) ul.append(el("li", "out", t("tour.eliminated", { names: names(adv.eliminated) })));
        sec.append(ul);
      }
      return sec;
    }));
  }

  /** @param {Tournament} v */
  function drawComparison(v) {
    const c = v.status === "ended" ? compare(v) : null;
    comparison.hidden = c === null;
    if (!c) {
      comparison.replaceChildren();
      return;
    }
    const h = el("h2", undefined, t("tour.compare"));
    h.id = "tour-compare-h";
    comparison.replaceChildren(h, el("p", "muted", t("tour.compareHelp")));
    const round = v.rounds[0];
    const tableCount = round?.tables.length ?? 0;
    for (const hand of c.hands) {
      const tbl = el("table", "board compare");
      tbl.dataset.hand = String(hand.hand);
      tbl.append(el("caption", undefined, t("tour.handN", { n: hand.hand })));
      const tr = el("tr");
      const corner = el("th", undefined, t("tour.unit"));
      corner.scope = "col";
      tr.append(corner);
      for (let i = 0; i < tableCount; i++) {
        const th = el("th", undefined, t("tour.tableN", { n: i + 1 }));
        th.scope = "col";
        tr.append(th);
      }
      const head = el("thead");
      head.append(tr);
      const body = el("tbody");
      // The deal a hand ended on is the same everywhere unless a table dealt
      // it again (a voided deal): then the cell says so.
      const deals = new Set(hand.rows[0]?.cells.map((x) => x.deal));
      for (const row of hand.rows) {
        const r = el("tr");
        r.dataset.seats = row.seats.join(",");
        const [a = 0, b = 0] = row.seats;
        const th = el("th", undefined, row.seats.length > 1 ? t("tour.side", { a, b }) : t("tour.seatN", { n: a }));
        th.scope = "row";
        r.append(th);
        for (const cell of row.cells) {
          const td = el("td", "cmp");
          td.dataset.tableId = cell.tableID;
          td.dataset.score = String(cell.score);
          td.dataset.mp = String(cell.mp);
          td.append(el("span", "who", cell.players.map(nameOf).join(t("list.sep"))), " ");
          const score = el("a", cell.score > 0 ? "score win" : cell.score < 0 ? "score loss" : "score", signed(cell.score));
          score.href = `/hands/${encodeURIComponent(`${cell.tableID}-${hand.hand}`)}`;
          score.setAttribute("aria-label", `${signed(cell.score)} · ${t("tour.replay", { table: cell.table + 1, hand: hand.hand })}`);
          td.append(score, " ", el("span", "mp", t("tour.mp", { n: mpText(cell.mp) })));
          if (deals.size > 1) {
            const alone = row.cells.every((o) => o === cell || o.deal !== cell.deal);
            td.append(" ", el("span", "muted deal", alone ? `${t("tour.dealN", { n: cell.deal })} · ${t("tour.notCompared")}` : t("tour.dealN", { n: cell.deal })));
          }
          r.append(td);
        }
        body.append(r);
      }
      tbl.append(head, body);
      const w = el("div", "board-wrap");
      w.append(tbl);
      comparison.append(w);
    }
    // Each player's matchpoints over every deal, as the comparison adds
    // them up (the standings show the API's).
    const totals = el("table", "board compare-totals");
    totals.append(el("caption", undefined, t("tour.totals")));
    const th = el("thead");
    const htr = el("tr");
    for (const k of ["player", "matchpoints"]) {
      const c2 = el("th", k === "matchpoints" ? "num" : undefined, t(`tour.col.${k}`));
      c2.scope = "col";
      htr.append(c2);
    }
    th.append(htr);
    const tb = el("tbody");
    const order = v.standings.map((s) => s.player_id);
    for (const p of order) {
      const r = el("tr");
      r.dataset.playerId = p;
      const n = el("th", undefined, nameOf(p));
      n.scope = "row";
      r.append(n, el("td", "num", mpText(c.totals.get(p) ?? 0)));
      tb.append(r);
    }
    totals.append(th, tb);
    const w = el("div", "board-wrap");
    w.append(totals);
    comparison.append(w);
  }

  // Reading again: one request at a time; events that come meanwhile ask
  // for one more read when it is answered.
  let reading = false;
  let again = false;
  async function reload() {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const v = await api.tournament(id);
        if (stopped) return;
        if (!tv || v.version >= tv.version) draw(v);
      } while (again && !stopped);
    } catch (err) {
      if (!stopped) fail(err);
    } finally {
      reading = false;
    }
  }

  /** @param {number} ms */
  const pause = (ms) => new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    abort.signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve(undefined);
    }, { once: true });
  });

  /**
   * Follows the stream from the version shown, reading the tournament
   * again after each chunk of events, until the tournament ends or the
   * page is left.
   */
  async function follow() {
    /** @returns {boolean} */
    const ended = () => tv?.status === "ended";
    let failures = 0;
    while (!stopped && tv && !ended()) {
      let after = tv.version;
      try {
        const res = await api.send("GET", `/v1/tournaments/${encodeURIComponent(id)}/stream`, {
          query: { after }, headers: { Accept: "text/event-stream" }, signal: abort.signal,
        });
        if (!res.body) throw new Error("the stream has no body");
        page.dataset.live = "true";
        live.textContent = t("tour.live");
        failures = 0;
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buf = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done || stopped) break;
          buf += value.replace(/\r\n?/g, "\n");
          let got = false;
          for (let i = buf.indexOf("\n\n"); i >= 0; i = buf.indexOf("\n\n")) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            for (const line of block.split("\n")) {
              if (line.startsWith("id:")) {
                const n = Number(line.slice(3).trim());
                if (Number.isInteger(n) && n > after) after = n;
                got = true;
              }
            }
          }
          if (got) await reload();
        }
      } catch (err) {
        if (stopped) return;
        failures++;
        if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 429) {
          fail(err);
          return;
        }
      }
      page.dataset.live = "false";
      if (stopped) return;
      // The server ends the stream after TournamentEnded: read the end.
      await reload();
      if (stopped || ended()) break;
      live.textContent = t("tour.offline");
      await pause(Math.min(1000 * 2 ** failures, 15_000));
    }
    if (!stopped) live.textContent = "";
  }

  api.tournament(id)
    .then((v) => {
      if (stopped) return;
      draw(v);
      page.dataset.loaded = "true";
      void follow();
    })
    .catch((err) => {
      if (!stopped) fail(err);
    });

  return () => {
    stopped = true;
    abort.abort();
  };
}
