// @ts-check
// The seeded shuffle every deal is drawn from (docs/AUDIT.md, The shuffle;
// domain/cards/shuffle.go): a SHA-256 counter stream, rejection sampling and
// Fisher–Yates over the canonical deck. Cards are in the wire notation
// ("S10", "HA", "BJ", "RJ").

import { sha256, fromHex, toHex } from "./sha256.js";

const suits = ["S", "H", "C", "D"];
const ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

/** Cards in one deck. */
export const deckSize = 54;

/**
 * The card at index 0..53 of the canonical deck: spades 2..A, hearts, clubs,
 * diamonds, then BJ, RJ.
 * @param {number} i
 */
export function cardAt(i) {
  if (i === 52) return "BJ";
  if (i === 53) return "RJ";
  return `${suits[Math.floor(i / 13)] ?? "?"}${ranks[i % 13] ?? "?"}`;
}

/**
 * k canonical decks one after another.
 * @param {number} k
 * @returns {string[]}
 */
export function deck(k) {
  /** @type {string[]} */
  const d = [];
  for (let n = 0; n < k; n++) for (let i = 0; i < deckSize; i++) d.push(cardAt(i));
  return d;
}

/**
 * SHA-256 of the seed's bytes in lower-case hex: the commitment a HandDealt
 * publishes. null when seedHex is not 64 hex digits.
 * @param {string} seedHex
 */
export async function commitment(seedHex) {
  const seed = parseSeed(seedHex);
  return seed ? toHex(await sha256(seed)) : null;
}

/**
 * The seed's 32 bytes, or null when it is not 64 hex digits.
 * @param {string} seedHex
 */
export function parseSeed(seedHex) {
  const b = fromHex(seedHex);
  return b && b.length === 32 ? b : null;
}

const two64 = 1n << 64n;

/**
 * The deterministic stream of a seed: SHA-256(seed ‖ C(0)) ‖ SHA-256(seed ‖
 * C(1)) ‖ …, C(k) the counter as 8 bytes big-endian, read 8 bytes at a time
 * as big-endian unsigned 64-bit integers.
 */
export class Stream {
  /** @param {Uint8Array} seed 32 bytes */
  constructor(seed) {
    this.input = new Uint8Array(40);
    this.input.set(seed, 0);
    this.counter = 0n;
    /** @type {Uint8Array} */
    this.block = new Uint8Array(32);
    this.used = 32;
  }

  /** The next value. */
  async uint64() {
    if (this.used === 32) {
      new DataView(this.input.buffer).setBigUint64(32, this.counter);
      this.block = await sha256(this.input);
      this.counter++;
      this.used = 0;
    }
    const v = new DataView(this.block.buffer, this.block.byteOffset).getBigUint64(this.used);
    this.used += 8;
    return v;
  }

  /**
   * A uniform integer in [0, n): draw x; while x ≥ 2^64 − (2^64 mod n), draw
   * again; return x mod n.
   * @param {number} n
   */
  async below(n) {
    const bn = BigInt(n);
    const limit = two64 - (two64 % bn);
    for (;;) {
      const x = await this.uint64();
      if (x < limit) return Number(x % bn);
    }
  }
}

/**
 * k decks in canonical order shuffled from the seed by Fisher–Yates (for i
 * from len−1 down to 1, j = below(i+1), swap i and j), with the stream left
 * after the shuffle, from which a game draws further choices.
 * @param {Uint8Array} seed
 * @param {number} k
 */
export async function shuffled(seed, k) {
  return shuffleFrom(seed, deck(k));
}

/**
 * One deck in canonical order without the cards left out (牛牛's jokers
 * false leaves out BJ and RJ), shuffled from the seed by the same
 * Fisher–Yates, with the stream left after the shuffle.
 * @param {Uint8Array} seed
 * @param {string[]} leftOut
 */
export async function shuffledWithout(seed, leftOut) {
  return shuffleFrom(seed, deck(1).filter((c) => !leftOut.includes(c)));
}

/**
 * Fisher–Yates over d in place, driven by the seed's stream.
 * @param {Uint8Array} seed
 * @param {string[]} d
 */
async function shuffleFrom(seed, d) {
  const st = new Stream(seed);
  for (let i = d.length - 1; i > 0; i--) {
    const j = await st.below(i + 1);
    [d[i], d[j]] = [/** @type {string} */ (d[j]), /** @type {string} */ (d[i])];
  }
  return { deck: d, stream: st };
}
