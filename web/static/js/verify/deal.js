// @ts-check
// Each game's deal from a shuffled deck, as its domain/<game>/deal.go and
// doc.go (Dealing) specify, so that a recorded HandDealt can be recomputed
// from its revealed seed.

import { shuffled, shuffledWithout } from "./shuffle.js";

/**
 * What a deal recomputes. firstSeat is null where it depends on the table's
 * earlier hands and the dealer was not told them; turned is 打盾's turned card.
 * @typedef {{
 *   hands: string[][], kitty: string[], firstSeat: number | null,
 *   turned: {card: string, banker: number} | null
 * }} Dealt
 */

/**
 * The recorded fields of a HandDealt this module reads.
 * @typedef {{hand: number, deal: number, first_seat: number}} DealtRecord
 */

/**
 * The game's rules for dealing, with what it must remember between deals.
 * @typedef {{
 *   seats: number,
 *   decks: number,
 *   deal: (seed: Uint8Array, deal: number) => Promise<Dealt>,
 *   dealt: (d: DealtRecord) => void,
 *   settled: (result: unknown) => void
 * }} Dealer
 */

/** The game variants the server plays, by game. */
export const variants = {
  doudizhu: ["classic", "hubei", "fourplayer"],
  shengji: ["ningyang", "guafeng", "qiangbao"],
  niuniu: ["classic"],
  dadun: ["lean"],
  shuangkou: ["baibian", "classic"],
};

const suitIndex = { S: 0, H: 1, C: 2, D: 3 };

/**
 * The rank of a card: 2..14 (A), BJ 15, RJ 16; and its suit 0..3 (♠ ♥ ♣ ♦),
 * 4 for a joker.
 * @param {string} c
 */
export function rankSuit(c) {
  if (c === "BJ") return { rank: 15, suit: 4 };
  if (c === "RJ") return { rank: 16, suit: 4 };
  const s = /** @type {"S"|"H"|"C"|"D"} */ (c[0]);
  const r = c.slice(1);
  const rank = r === "J" ? 11 : r === "Q" ? 12 : r === "K" ? 13 : r === "A" ? 14 : Number(r);
  return { rank, suit: suitIndex[s] };
}

/**
 * The climbing games' display order (domain/climb, Sort): rank 3 … A, 2, BJ,
 * RJ, then suit ♠ ♥ ♣ ♦.
 * @param {string} a
 * @param {string} b
 */
export function climbOrder(a, b) {
  /** @param {string} c */
  const key = (c) => {
    const { rank, suit } = rankSuit(c);
    const r = rank === 15 ? 13 : rank === 16 ? 14 : rank === 2 ? 12 : rank - 3;
    return r * 8 + suit;
  };
  return key(a) - key(b);
}

/**
 * 牛牛's display order (domain/niuniu, Sort): A, 2 … K, BJ, RJ; within a
 * rank ♠ ♥ ♣ ♦.
 * @param {string} a
 * @param {string} b
 */
export function niuniuOrder(a, b) {
  /** @param {string} c */
  const strength = (c) => {
    const { rank, suit } = rankSuit(c);
    const order = rank === 14 ? 1 : rank >= 15 ? 14 + (rank - 15) : rank;
    return order * 4 + (suit === 4 ? 0 : 3 - suit);
  };
  return strength(a) - strength(b);
}

/**
 * Deals the first n × size cards of d round the seats, card i to seat i mod n.
 * @param {string[]} d
 * @param {number} n
 * @param {number} size
 */
function roundRobin(d, n, size) {
  /** @type {string[][]} */
  const hands = Array.from({ length: n }, () => []);
  d.slice(0, n * size).forEach((c, i) => hands[i % n]?.push(c));
  return hands;
}

/**
 * The dealer of a table's game and variant, or null for one the server does
 * not play. options are the table's options as TableOpened records them.
 * @param {string} game
 * @param {string} variant
 * @param {Record<string, unknown>} options
 * @returns {Dealer | null}
 */
export function dealerFor(game, variant, options) {
  switch (game) {
    case "doudizhu": {
      // domain/doudizhu/game.go, variantNamed.
      /** @type {Record<string, {decks: number, seats: number, kitty: number}>} */
      const vs = {
        classic: { decks: 1, seats: 3, kitty: 3 },
        hubei: { decks: 1, seats: 3, kitty: 3 },
        fourplayer: { decks: 2, seats: 4, kitty: 8 },
      };
      const v = vs[variant];
      if (!v) return null;
      const { decks, seats, kitty } = v;
      const size = (decks * 54 - kitty) / seats;
      let first = -1;
      return {
        seats,
        decks,
        async deal(seed, dealNo) {
          const { deck: d, stream } = await shuffled(seed, decks);
          const hands = roundRobin(d, seats, size).map((h) => h.sort(climbOrder));
          const k = d.slice(seats * size).sort(climbOrder);
          // doudizhu.md, Deal: the seed draws the first bidder of the first
          // hand; a re-deal keeps it; each new hand moves it on.
          let f = first;
          if (f < 0) f = await stream.below(seats);
          else if (dealNo <= 1) f = (f + 1) % seats;
          return { hands, kitty: k, firstSeat: f, turned: null };
        },
        dealt(d) {
          first = d.first_seat;
        },
        settled() {},
      };
    }
    case "shengji": {
      // Cards each seat draws: 26 (a kitty of 4), qiangbao 25 (a kitty of 8).
      /** @type {Record<string, number>} */
      const sizes = { ningyang: 26, guafeng: 26, qiangbao: 25 };
      const size = sizes[variant];
      if (size === undefined) return null;
      // The dealer of a later hand is the last played-out settlement's
      // next_dealer; until one names it the seed draws it.
      let matchDealer = -1;
      return {
        seats: 4,
        decks: 2,
        async deal(seed) {
          const { deck: d, stream } = await shuffled(seed, 2);
          // Hands in draw order, the kitty in flip order: no sorting.
          const hands = roundRobin(d, 4, size);
          const k = d.slice(4 * size);
          const f = matchDealer >= 0 ? matchDealer : await stream.below(4);
          return { hands, kitty: k, firstSeat: f, turned: null };
        },
        dealt() {},
        settled(result) {
          const r = /** @type {{end?: unknown, next_dealer?: unknown}} */ (result ?? {});
          if (r.end === "played_out" && typeof r.next_dealer === "number") matchDealer = r.next_dealer;
        },
      };
    }
    case "niuniu": {
      if (variant !== "classic") return null;
      const seats = typeof options.seats === "number" ? options.seats : 4;
      const banker = typeof options.banker === "number" ? options.banker : 0;
      // niuniu.md, Table options: banker_mode and jokers (doc.go, Dealing).
      const mode = typeof options.banker_mode === "string" ? options.banker_mode : "fixed";
      const jokers = options.jokers !== false;
      let previous = -1;
      return {
        seats,
        decks: 1,
        async deal(seed) {
          const { deck: d, stream } = jokers ? await shuffled(seed, 1) : await shuffledWithout(seed, ["BJ", "RJ"]);
          const hands = roundRobin(d, seats, 5).map((h) => h.sort(niuniuOrder));
          // rotate: hand 1 the banker seat, then the previous banker + 1;
          // random: the next draw after the shuffle.
          let f = banker;
          if (mode === "rotate" && previous >= 0) f = (previous + 1) % seats;
          if (mode === "random") f = await stream.below(seats);
          return { hands, kitty: [], firstSeat: f, turned: null };
        },
        dealt(d) {
          previous = d.first_seat;
        },
        settled() {},
      };
    }
    case "dadun": {
      if (variant !== "lean") return null;
      return {
        seats: 4,
        decks: 2,
        async deal(seed) {
          const { deck: d, stream } = await shuffled(seed, 2);
          const hands = roundRobin(d, 4, 27).map((h) => h.sort(climbOrder));
          // dadun.md, Deal: the turned card is a position of the shuffled
          // deck drawn after the shuffle; the seat dealt it is the banker.
          const at = await stream.below(108);
          const banker = at % 4;
          return { hands, kitty: [], firstSeat: banker, turned: { card: d[at] ?? "?", banker } };
        },
        dealt() {},
        settled() {},
      };
    }
    case "shuangkou": {
      if (variant !== "baibian" && variant !== "classic") return null;
      let first = -1;
      return {
        seats: 4,
        decks: 2,
        async deal(seed) {
          const { deck: d, stream } = await shuffled(seed, 2);
          const hands = roundRobin(d, 4, 27).map((h) => h.sort(climbOrder));
          const f = first < 0 ? await stream.below(4) : (first + 1) % 4;
          return { hands, kitty: [], firstSeat: f, turned: null };
        },
        dealt(d) {
          first = d.first_seat;
        },
        settled() {},
      };
    }
  }
  return null;
}
