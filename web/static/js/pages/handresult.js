// @ts-check
// Between hands at a table opened with wait_between_hands: the hand that
// ended, as card apps show it before the next deal — every seat's cards
// left at the end (from the table's events, which show an ended deal in
// full to its seats), who is ready, and the 继续 / Continue button with
// the caller's clock. The settlement in words (winners, multipliers,
// deltas) is the table page's settlement section, shown beside it. The
// next hand is dealt by the server once every seat is ready (SeatReady);
// the panel hides as soon as the view says the table waits no more.
//
//   <section class="hand-result" data-hand="N" hidden?>
//     <ul class="remaining"><li data-seat="i">name, delta, cards left</li>…</ul>
//     <p class="ready-list">…</p>
//     <button data-action="continue">继续</button> <span class="countdown">

import { renderHand } from "../cards.js";
import { lang, register, t } from "../i18n.js";
import { snapshots } from "./replay.js";

/** @typedef {import("../types.js").Table} Table */
/** @typedef {import("../types.js").EventPage} EventPage */
/** @typedef {import("./replay.js").PlainEvent} PlainEvent */

register({
  zh: {
    "result.title": "第 {n} 手结果",
    "result.remaining": "剩余手牌",
    "result.none": "（无）",
    "result.hidden": "（未公开）",
    "result.delta": "得分 {d}",
    "result.ready": "已准备：{names}",
    "result.waiting": "等待：{names}",
    "result.continue": "继续",
    "result.countdown": "{n} 秒后自动继续",
    "result.readySelf": "你已准备，等待其他玩家",
  },
  en: {
    "result.title": "Hand {n}: result",
    "result.remaining": "Cards left",
    "result.none": "(none)",
    "result.hidden": "(not shown)",
    "result.delta": "score {d}",
    "result.ready": "Ready: {names}",
    "result.waiting": "Waiting for: {names}",
    "result.continue": "Continue",
    "result.countdown": "continues by itself in {n} s",
    "result.readySelf": "You are ready; waiting for the others",
  },
});

/**
 * @param {string} tag
 * @param {string} [className]
 * @param {string} [text]
 */
function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/**
 * The between-hands panel of the table page.
 * @param {{events: (id: string, q?: {after?: number, limit?: number}) => Promise<EventPage>}} api
 * @param {string} id the table
 * @param {(a: {type: "continue"}) => void} post posts the caller's continue
 */
export function handResult(api, id, post) {
  const root = el("section", "hand-result");
  root.hidden = true;
  const title = el("h2");
  const remaining = el("ul", "remaining");
  remaining.setAttribute("aria-label", t("result.remaining"));
  const readyList = el("p", "ready-list");
  const button = /** @type {HTMLButtonElement} */ (el("button", "primary", t("result.continue")));
  button.type = "button";
  button.dataset.action = "continue";
  button.addEventListener("click", () => post({ type: "continue" }));
  const countdown = el("span", "countdown muted");
  countdown.setAttribute("aria-live", "off");
  const row = el("p", "continue-row");
  row.append(button, " ", countdown);
  root.append(title, remaining, readyList, row);

  /** The hand whose cards are shown (0: none yet). */
  let shownHand = 0;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let tick;

  /**
   * The version the last read of the events reached: each hand's deal
   * comes after the hand before it ended, so the next read starts there.
   */
  let cursor = 0;

  /**
   * The table's events after version after, as the caller may see them.
   * @param {number} after
   * @returns {Promise<PlainEvent[]>}
   */
  async function eventsAfter(after) {
    /** @type {PlainEvent[]} */
    const out = [];
    for (;;) {
      const page = await api.events(id, { after });
      for (const e of page.events) out.push(/** @type {PlainEvent} */ (/** @type {unknown} */ (e)));
      after = page.next;
      if (!page.more) {
        cursor = after;
        return out;
      }
    }
  }

  /**
   * Shows each seat's cards left at the end of hand n.
   * @param {Table} v
   * @param {number} n
   */
  async function drawRemaining(v, n) {
    /** @param {PlainEvent[]} evs */
    const dealOf = (evs) => {
      let at = -1;
      evs.forEach((e, i) => {
        if (e.type === "HandDealt" && e.data.hand === n) at = i; // the hand's last deal
      });
      return at;
    };
    let evs = await eventsAfter(cursor);
    let start = dealOf(evs);
    if (start < 0) {
      evs = await eventsAfter(0); // the page came in later than the deal
      start = dealOf(evs);
    }
    if (start < 0 || shownHand !== n) return;
    // A hand the caller may not see (a spectator of a public table) stays hidden.
    const dealt = evs[start]?.data.hands;
    /** @param {number} seat */
    const seen = (seat) => Array.isArray(dealt) && Array.isArray(dealt[seat]) && dealt[seat].length > 0;
    const end = evs.findIndex((e, i) => i > start && e.type === "HandSettled");
    const snaps = snapshots(evs.slice(start, end < 0 ? undefined : end + 1), v.seats.length);
    const last = snaps[snaps.length - 1];
    remaining.replaceChildren();
    v.seats.forEach((s, seat) => {
      const li = el("li");
      li.dataset.seat = String(seat);
      const name = s.name ?? t("table.seatN", { n: seat + 1 });
      const cards = last?.hands[seat] ?? [];
      const d = v.last_settlement?.deltas[seat] ?? 0;
      li.append(el("span", "who", name), el("span", d > 0 ? "delta win" : d < 0 ? "delta loss" : "delta", t("result.delta", { d: d > 0 ? `+${d}` : String(d) })));
      if (!seen(seat)) li.append(el("span", "muted", t("result.hidden")));
      else if (cards.length === 0) li.append(el("span", "muted", t("result.none")));
      else li.append(renderHand(cards, { label: `${name}: ${t("result.remaining")}` }).el);
      remaining.append(li);
    });
  }

  /**
   * Draws the panel for the view v: shown only while the table waits
   * between hands.
   * @param {Table} v
   */
  function update(v) {
    clearInterval(tick);
    const s = v.last_settlement;
    if (!v.between_hands || !s) {
      root.hidden = true;
      shownHand = 0;
      return;
    }
    root.hidden = false;
    root.dataset.hand = String(s.hand);
    title.textContent = t("result.title", { n: s.hand });
    if (shownHand !== s.hand) {
      shownHand = s.hand;
      remaining.replaceChildren();
      drawRemaining(v, s.hand).catch(() => {
        // The result's cards are a courtesy: the settlement stays shown.
      });
    }
    /** @param {(typeof v.seats)[number]} x @param {number} i */
    const who = (x, i) => x.name ?? t("table.seatN", { n: i + 1 });
    const ready = v.seats.flatMap((x, i) => (x.player_id !== null && x.ready ? [who(x, i)] : []));
    const waiting = v.seats.flatMap((x, i) => (x.player_id !== null && !x.ready ? [who(x, i)] : []));
    const sep = lang === "zh" ? "、" : ", ";
    readyList.textContent = [ready.length ? t("result.ready", { names: ready.join(sep) }) : "", waiting.length ? t("result.waiting", { names: waiting.join(sep) }) : ""]
      .filter(Boolean)
      .join(" · ");
    const mine = v.seat === null ? undefined : v.seats[v.seat];
    const mustPress = !!mine && !mine.ready;
    button.hidden = !mine;
    button.disabled = !mustPress;
    countdown.textContent = mine && mine.ready ? t("result.readySelf") : "";
    const deadline = mine?.deadline ? Date.parse(mine.deadline) : NaN;
    if (mustPress && !Number.isNaN(deadline)) {
      const show = () => {
        countdown.textContent = t("result.countdown", { n: Math.max(0, Math.ceil((deadline - Date.now()) / 1000)) });
      };
      show();
      tick = setInterval(show, 1000);
    }
  }

  return {
    element: root,
    update,
    /** Stops the countdown (the page is left). */
    stop() {
      clearInterval(tick);
    },
  };
}
