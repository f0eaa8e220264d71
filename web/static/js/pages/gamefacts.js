// @ts-check
// What the table page tells beyond the hand and the plays, game by game:
// 升级's levels, declarations, trump and kitty; 打盾's turned card,
// banker, friend card and whether the friend is known, the points taken;
// 双扣's partnerships and finish order; 牛牛's arranged seats; 斗地主's
// grab phase. Everything here comes from the caller's own view, so it
// shows only what that seat may see.

import { cardName, renderHand, trumpSet } from "../cards.js";
import { t } from "../i18n.js";

/** @typedef {import("../types.js").Table} Table */

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
 * A labelled row of cards.
 * @param {string} className
 * @param {string} label
 * @param {string[]} cards
 * @param {Set<string>} [trumps]
 */
function cardRow(className, label, cards, trumps) {
  const d = el("div", className);
  d.append(el("span", "label", label), renderHand(cards, { label, ...(trumps ? { trumps } : {}) }).el);
  return d;
}

/**
 * A list of facts, one per line.
 * @param {string} className
 * @param {string[]} lines
 */
function list(className, lines) {
  const ul = el("ul", className);
  for (const l of lines) ul.append(el("li", undefined, l));
  return ul;
}

/**
 * The game's facts for the public area.
 * @param {Table} v
 * @param {(seat: number) => string} name a seat's player name
 * @returns {HTMLElement[]}
 */
export function gameFacts(v, name) {
  switch (v.game) {
    case "shengji":
      return shengji(v, name);
    case "dadun":
      return dadun(v, name);
    case "shuangkou":
      return shuangkou(v, name);
    case "niuniu":
      return niuniu(v, name);
    case "doudizhu":
      return doudizhu(v, name);
  }
}

/**
 * @param {Extract<Table, {game: "doudizhu"}>} v
 * @param {(seat: number) => string} name
 */
function doudizhu(v, name) {
  const gs = v.game_state;
  /** @type {HTMLElement[]} */
  const out = [];
  if (gs.provisional !== null && gs.provisional !== undefined && gs.landlord === null) {
    out.push(el("p", "grab", t("doudizhu.provisional", { name: name(gs.provisional) })));
  }
  if (gs.grabs && gs.grabs.length > 0 && gs.landlord === null) {
    out.push(list("grabs", gs.grabs.map((g) => `${name(g.seat)}: ${t(g.grab ? "action.grab" : "doudizhu.noGrab")}`)));
  }
  if (gs.open) out.push(el("p", "open", t("doudizhu.open")));
  return out;
}

/**
 * @param {Extract<Table, {game: "shengji"}>} v
 * @param {(seat: number) => string} name
 */
function shengji(v, name) {
  const gs = v.game_state;
  /** @type {HTMLElement[]} */
  const out = [];
  const trumps = trumpSet(gs.trump_order);
  // Each side: its seats, level, role this hand and points taken.
  out.push(
    list(
      "sides",
      gs.sides.map((s, i) => {
        const bits = [t("shengji.side", { n: i + 1, a: name(s.seats[0] ?? 0), b: name(s.seats[1] ?? 0) }), t("shengji.level", { r: s.level === "won" ? t("shengji.won") : s.level })];
        if (s.role) bits.push(t("shengji.role." + s.role));
        if (typeof s.points === "number") bits.push(t("shengji.sidePoints", { n: s.points })); // null: show_points false
        return bits.join(" · ");
      }),
    ),
  );
  if (gs.dealer !== null) out.push(el("p", "dealer", t("shengji.dealer", { name: name(gs.dealer) })));
  // The declarations so far, what of them the caller may see.
  if (gs.declarations && gs.declarations.length > 0) {
    const ul = el("ul", "declarations");
    ul.setAttribute("aria-label", t("shengji.declarations"));
    for (const d of gs.declarations) {
      const li = el("li");
      li.dataset.seat = String(d.seat);
      /** @type {string[]} */
      const bits = [name(d.seat)];
      if (d.kind) bits.push(t("shengji.kind." + d.kind));
      if (d.suit) bits.push(t("suit." + d.suit));
      if (d.jokers > 0) bits.push(t("shengji.jokers", { n: d.jokers }));
      if (d.pairs > 0) bits.push(t("shengji.pairs", { n: d.pairs }));
      if (d.stuck && d.stuck.length > 0) bits.push(t("shengji.stuck", { names: d.stuck.map(name).join(", ") }));
      li.append(el("span", undefined, bits.join(" · ")));
      if (d.cards && d.cards.length > 0) li.append(renderHand(d.cards, { label: t("shengji.declaredBy", { name: name(d.seat) }) }).el);
      ul.append(li);
    }
    const h = el("div", "declared");
    h.append(el("span", "label", t("shengji.declarations")), ul);
    out.push(h);
  }
  if (gs.declarer !== null) out.push(el("p", "declarer", t("shengji.declarer", { name: name(gs.declarer) })));
  if (gs.flipped && gs.flipped.length > 0) out.push(cardRow("flipped", t("shengji.flipped"), gs.flipped, trumps));
  if (gs.kitty && gs.kitty.length > 0) out.push(cardRow("kitty", t("table.kitty"), gs.kitty, trumps));
  if (gs.trick_winner !== null && gs.trick && gs.trick.length > 0) out.push(el("p", "trick-winner", t("shengji.trickWinner", { name: name(gs.trick_winner) })));
  return out;
}

/**
 * @param {Extract<Table, {game: "dadun"}>} v
 * @param {(seat: number) => string} name
 */
function dadun(v, name) {
  const gs = v.game_state;
  /** @type {string[]} */
  const lines = [];
  if (gs.turned) lines.push(t("dadun.turned", { c: cardName(gs.turned) }));
  if (gs.banker !== null) lines.push(t("dadun.banker", { name: name(gs.banker) }));
  if (gs.soloist !== null) lines.push(t("dadun.soloist", { name: name(gs.soloist) }));
  else if (gs.friend_card) {
    lines.push(t("dadun.friendCard", { c: cardName(gs.friend_card) }));
    lines.push(gs.friend !== null ? t("dadun.friend", { name: name(gs.friend) }) : t("dadun.friendHidden"));
  } else if (gs.banker !== null) lines.push(t("dadun.friendUncalled"));
  if (gs.role) lines.push(t("dadun.role." + gs.role));
  if (gs.partners && gs.partners.length > 0) lines.push(t("dadun.partners", { names: gs.partners.map(name).join(", ") }));
  if (gs.sides && gs.side_points) {
    const pts = gs.side_points;
    gs.sides.forEach((s, i) => lines.push(t("dadun.sidePoints", { names: s.map(name).join(", "), n: pts[i] ?? 0 })));
  }
  lines.push(t("dadun.trickPoints", { n: gs.trick_points }));
  if (gs.captured) lines.push(t("dadun.captured", { list: gs.captured.map((n, i) => `${name(i)} ${n}`).join(", ") }));
  if (gs.finish.length > 0) lines.push(t("table.finish", { names: gs.finish.map(name).join(" → ") }));
  if (gs.awards.length > 0) lines.push(t("dadun.awards", { list: gs.awards.map((a) => `${name(a.seat)} ×${a.awards}`).join(", ") }));
  /** @type {HTMLElement[]} */
  const out = [list("dadun-facts", lines)];
  if (gs.last_play) out.push(el("p", "reading", t("table.reading", { r: readingOf(gs.last_play.reading) })));
  return out;
}

/**
 * @param {{type: string, main: string, length: number, wild?: string[]}} r
 */
function readingOf(r) {
  const base = `${t("combo." + r.type)} ${r.main}${r.length > 1 ? ` ×${r.length}` : ""}`;
  return r.wild && r.wild.length > 0 ? `${base} (${t("shuangkou.wildAs", { ranks: r.wild.join(" ") })})` : base;
}

/**
 * @param {Extract<Table, {game: "shuangkou"}>} v
 * @param {(seat: number) => string} name
 */
function shuangkou(v, name) {
  const gs = v.game_state;
  /** @type {string[]} */
  const lines = [];
  if (gs.wild) lines.push(t("shuangkou.wild"));
  if (gs.partner !== null) lines.push(t("shuangkou.partner", { name: name(gs.partner) }));
  if (gs.finish.length > 0) lines.push(t("table.finish", { names: gs.finish.map(name).join(" → ") }));
  /** @type {HTMLElement[]} */
  const out = [list("shuangkou-facts", lines)];
  if (gs.last_play) out.push(el("p", "reading", t("table.reading", { r: readingOf(gs.last_play.reading) })));
  return out;
}

/**
 * @param {Extract<Table, {game: "niuniu"}>} v
 * @param {(seat: number) => string} name
 */
function niuniu(v, name) {
  const gs = v.game_state;
  if (!gs.arranged || v.phase !== "arranging") return [];
  const arranged = gs.arranged;
  const lines = v.seats.map((s) => `${name(s.seat)}: ${t(arranged[s.seat] ? "niuniu.hasArranged" : "niuniu.notArranged")}`);
  // From the deadline on any seat may call the reveal (摊牌).
  if (gs.deadline) lines.push(t("niuniu.deadline", { at: new Date(gs.deadline).toLocaleTimeString() }));
  return [list("arranged", lines)];
}

/**
 * @param {Record<string, unknown>} r
 * @param {string} k
 * @returns {number[] | null}
 */
function seatsIn(r, k) {
  const x = r[k];
  return Array.isArray(x) && x.every((n) => typeof n === "number") ? /** @type {number[]} */ (x) : null;
}

/**
 * @param {Record<string, unknown>} r
 * @param {string} k
 * @returns {string[] | null}
 */
function cardsIn(r, k) {
  const x = r[k];
  return Array.isArray(x) && x.every((c) => typeof c === "string") ? /** @type {string[]} */ (x) : null;
}

/**
 * How the last hand ended, for the games other than 斗地主 (the table
 * page words that one itself): who won and why, and what the rules reveal
 * at the end (升级's kitty, 打盾's friend).
 * @param {Table} v
 * @param {(seat: number) => string} name
 * @returns {HTMLElement[]}
 */
export function settlementFacts(v, name) {
  const s = v.last_settlement;
  if (!s || v.game === "doudizhu") return [];
  const r = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (s.result));
  /** @type {string[]} */
  const lines = [];
  /** @type {HTMLElement[]} */
  const extra = [];
  if (r.end === "escape") lines.push(t("table.escaped"));
  const winners = seatsIn(r, "winners");
  if (winners && winners.length > 0) lines.push(t("table.winners", { names: winners.map(name).join(", ") }));
  const finish = seatsIn(r, "finish");
  if (finish && finish.length > 0) lines.push(t("table.finish", { names: finish.map(name).join(" → ") }));
  if (typeof r.outcome === "string") lines.push(t(`outcome.${v.game}.${r.outcome}`));
  switch (v.game) {
    case "shengji": {
      if (typeof r.winner === "string") lines.push(t("shengji.role." + (r.winner === "dealer" ? "dealer" : "defenders")) + " " + t("table.won"));
      if (typeof r.defender_points === "number") lines.push(t("shengji.points", { n: r.defender_points }));
      if (typeof r.kitty_points === "number") lines.push(t("shengji.kittyPoints", { n: r.kitty_points, m: typeof r.kitty_multiplier === "number" ? r.kitty_multiplier : 1 }));
      if (typeof r.level_steps === "number") lines.push(t("shengji.levelSteps", { n: r.level_steps }));
      const kitty = cardsIn(r, "kitty");
      if (kitty && kitty.length > 0) extra.push(cardRow("kitty", t("table.kitty"), kitty));
      break;
    }
    case "dadun": {
      if (typeof r.friend_card === "string") lines.push(t("dadun.friendCard", { c: cardName(r.friend_card) }));
      if (typeof r.friend === "number") lines.push(t("dadun.friend", { name: name(r.friend) }));
      if (typeof r.soloist === "number") lines.push(t("dadun.soloist", { name: name(r.soloist) }));
      const pts = seatsIn(r, "points");
      if (pts) lines.push(t("dadun.points", { list: pts.join(" : ") }));
      break;
    }
    case "niuniu": {
      const bouts = r.bouts;
      if (Array.isArray(bouts)) {
        for (const b of bouts) {
          if (b && typeof b === "object" && typeof b.seat === "number") lines.push(t("niuniu.bout", { name: name(b.seat), w: t(b.winner === "banker" ? "niuniu.bankerWins" : "niuniu.playerWins") }));
        }
      }
      break;
    }
  }
  if (typeof r.multiplier === "number") lines.push(t("doudizhu.multiplier", { n: r.multiplier }));
  return lines.length > 0 ? [list("result", lines), ...extra] : extra;
}
