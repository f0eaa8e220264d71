// @ts-check
// Verifies a table's export (GET /v1/tables/{id}/export) with no server:
// the hash chain, every deal against its revealed seed and commitment, and
// every settlement's balance. It mirrors the checks of paiju verify FILE
// (audit.VerifyExport) that need no rules engine, in the same order, so that
// the first fault it reports is at the event paiju verify names.

import { FaultError, readExport, errText } from "./chain.js";
import { rawMembers, rawElements } from "./jsonraw.js";
import { commitment, parseSeed } from "./shuffle.js";
import { sha256, toHex } from "./sha256.js";
import { dealerFor } from "./deal.js";

export { FaultError } from "./chain.js";

/**
 * @typedef {import("./chain.js").Fault} Fault
 * @typedef {import("./chain.js").ExportEvent} ExportEvent
 */

/**
 * The outcome. events counts the event lines; deals the deals recomputed
 * from their seeds; settlements the settlements balanced; running is true
 * when the last deal had not ended (its seed is still secret).
 * @typedef {{
 *   ok: boolean, events: number, deals: number, settlements: number,
 *   running: boolean, stream: string, game: string, variant: string,
 *   head: {position: number, hash: string} | null, fault?: Fault,
 *   dealt: {hand: number, deal: number, commitment: string}[]
 * }} Result
 * dealt lists every HandDealt in order (up to the first fault).
 */

/** table.MaxStake */
export const maxStake = 1_000_000n;
/** table.MaxMultiplier: the most a game multiplies a stake by in one hand. */
export const maxMultiplier = 1n << 40n;
const int64Max = (1n << 63n) - 1n;
const int64Min = -(1n << 63n);

/**
 * Verifies an export given as text.
 * @param {string} text
 * @returns {Promise<Result>}
 */
export async function verifyExport(text) {
  /** @type {Result} */
  const res = { ok: false, events: 0, deals: 0, settlements: 0, running: false, stream: "", game: "", variant: "", head: null, dealt: [] };
  try {
    const { events, head } = await readExport(text);
    res.events = events.length;
    res.stream = events[0]?.stream ?? "";
    res.head = head ? { position: head.position, hash: head.hash } : null;
    await verifyEvents(events, res);
    res.ok = true;
  } catch (err) {
    if (!(err instanceof FaultError)) throw err;
    res.fault = err.fault;
  }
  return res;
}

/**
 * @param {ExportEvent} e
 * @param {string} check
 * @param {string} detail
 */
function fault(e, check, detail) {
  return new FaultError({ event: e.version, line: e.line, check, detail });
}

/**
 * An event's data as an object, with its members' raw text.
 * @param {ExportEvent} e
 */
function decode(e) {
  try {
    /** @type {unknown} */
    const v = JSON.parse(e.data);
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error("not an object");
    /** @type {Map<string, string>} */
    const raw = new Map();
    for (const m of rawMembers(e.data)) raw.set(m.key, m.raw);
    return { v: /** @type {Record<string, unknown>} */ (v), raw };
  } catch (err) {
    throw fault(e, "format", `${e.type} does not decode: ${errText(err)}`);
  }
}

/**
 * @param {unknown} x
 * @returns {string[]}
 */
function cardList(x) {
  return Array.isArray(x) ? x.map(String) : [];
}

/** @param {string[]} a @param {string[]} b */
function sameCards(a, b) {
  return a.length === b.length && a.every((c, i) => c === b[i]);
}

/**
 * The rules-level checks after the chain: the opening, the seeds against
 * their commitments (every one, before anything else, as audit's
 * revealedSeeds does), then each deal and settlement in order.
 * @param {ExportEvent[]} events
 * @param {Result} res
 */
async function verifyEvents(events, res) {
  const first = events[0];
  if (!first) return;
  if (first.type !== "TableOpened") throw fault(first, "opening", `stream starts with ${first.type}, not TableOpened`);
  const opened = decode(first);
  const stakeRaw = opened.raw.get("stake") ?? "";
  if (!/^-?\d+$/.test(stakeRaw)) throw fault(first, "opening", "TableOpened has no integer stake");
  const stake = BigInt(stakeRaw);
  if (stake < 1n || stake > maxStake) throw fault(first, "opening", `stake ${stake} is out of bounds: a stake is 1..${maxStake}`);
  const game = String(opened.v.game ?? "");
  const variant = String(opened.v.variant ?? "");
  res.game = game;
  res.variant = variant;
  const options = /** @type {Record<string, unknown>} */ (typeof opened.v.options === "object" && opened.v.options !== null ? opened.v.options : {});
  const dealer = dealerFor(game, variant, options);
  if (!dealer) throw fault(first, "opening", `no game ${game} with variant ${variant}`);

  // A table of fixed deals (a duplicate tournament's) opens with the secret
  // its deals derive from, to which TableOpened commits (docs/AUDIT.md,
  // Tournaments). A player's export leaves the secret out: then each deal
  // is checked against its own commitment only.
  /** @type {Uint8Array | null} */
  let fixed = null;
  const second = events[1];
  if (second && second.type === "DealsSecret") {
    const secret = String(decode(second).v.seed ?? "");
    fixed = parseSeed(secret);
    if (!fixed) throw fault(second, "opening", "DealsSecret holds no seed: cards: seed must be 64 hex digits");
    const c = await commitment(secret);
    if (c !== opened.v.fixed_deals) {
      throw fault(first, "opening", `TableOpened commits to fixed deals ${JSON.stringify(opened.v.fixed_deals ?? "")}, the DealsSecret hashes to ${c}`);
    }
  }

  // Every ended deal's revealed seed against the deal's commitment.
  /** @type {Map<string, string>} deal key "hand.deal" → revealed seed */
  const seeds = new Map();
  /** @type {{hand: number, deal: number, commitment: string} | null} */
  let open = null;
  for (const e of events) {
    if (e.type === "HandDealt") {
      const d = decode(e).v;
      if (open) throw fault(e, "sequence", `deal ${d.hand}.${d.deal} begins before deal ${open.hand}.${open.deal} ended`);
      open = { hand: Number(d.hand), deal: Number(d.deal), commitment: String(d.commitment ?? "") };
      continue;
    }
    if (e.type !== "HandSettled" && e.type !== "DealVoided") continue;
    if (!open) throw fault(e, "sequence", `${e.type} ends no deal`);
    const seed = String(decode(e).v.seed ?? "");
    const c = await commitment(seed);
    if (c === null) throw fault(e, "commitment", "revealed seed: cards: seed must be 64 hex digits");
    if (c !== open.commitment) throw fault(e, "commitment", `revealed seed does not match the commitment of deal ${open.hand}.${open.deal}`);
    seeds.set(`${open.hand}.${open.deal}`, seed);
    open = null;
  }

  const seats = dealer.seats;
  /** @type {bigint[]} */
  const totals = Array.from({ length: seats }, () => 0n);
  let hand = 1;
  let dealNo = 1;
  /** @type {{hand: number, deal: number, seed: string | null, dealt: import("./deal.js").Dealt | null} | null} */
  let cur = null;
  res.running = false;
  for (const e of events) {
    switch (e.type) {
      case "HandDealt": {
        const d = decode(e).v;
        if (d.hand !== hand || d.deal !== dealNo) {
          throw fault(e, "deal", `deal ${d.hand}.${d.deal} where ${hand}.${dealNo} was due`);
        }
        const seed = seeds.get(`${hand}.${dealNo}`) ?? null;
        cur = { hand, deal: dealNo, seed, dealt: null };
        res.dealt.push({ hand, deal: dealNo, commitment: String(d.commitment ?? "") });
        if (seed === null) {
          // Still running: its seed is secret, so the deal is taken as recorded.
          if (String(d.commitment ?? "").length !== 64) throw fault(e, "deal", `deal commitment ${JSON.stringify(d.commitment)} is not a SHA-256`);
          res.running = true;
          dealer.dealt({ hand, deal: dealNo, first_seat: Number(d.first_seat) });
          break;
        }
        if (fixed) {
          const derived = await fixedDealSeed(fixed, hand, dealNo);
          if (seed !== derived) throw fault(e, "deal", `deal ${hand}.${dealNo} revealed seed ${seed}, the table's fixed deals derive ${derived}`);
        }
        const want = await dealer.deal(/** @type {Uint8Array} */ (parseSeed(seed)), dealNo);
        cur.dealt = want;
        const got = cardListOfHands(d.hands);
        for (let s = 0; s < Math.max(got.length, want.hands.length); s++) {
          const g = got[s] ?? [];
          const w = want.hands[s] ?? [];
          if (!sameCards(g, w)) {
            throw fault(e, "deal", `seat ${s}'s hand of deal ${hand}.${dealNo} is ${g.join(" ") || "(none)"}, the seed deals ${w.join(" ") || "(none)"}`);
          }
        }
        const kitty = cardList(d.kitty);
        if (!sameCards(kitty, want.kitty)) {
          throw fault(e, "deal", `the kitty of deal ${hand}.${dealNo} is ${kitty.join(" ") || "(none)"}, the seed deals ${want.kitty.join(" ") || "(none)"}`);
        }
        if (want.firstSeat !== null && d.first_seat !== want.firstSeat) {
          throw fault(e, "deal", `first seat ${d.first_seat} of deal ${hand}.${dealNo}, the seed and the rules give ${want.firstSeat}`);
        }
        res.deals++;
        dealer.dealt({ hand, deal: dealNo, first_seat: Number(d.first_seat) });
        break;
      }
      case "DealSecret": {
        const d = decode(e).v;
        if (!cur || d.hand !== cur.hand || d.deal !== cur.deal) {
          throw fault(e, "deal", `DealSecret of deal ${d.hand}.${d.deal} outside that deal`);
        }
        if (cur.seed !== null && d.seed !== cur.seed) {
          throw fault(e, "commitment", `DealSecret holds seed ${d.seed}, deal ${cur.hand}.${cur.deal} revealed ${cur.seed}`);
        }
        break;
      }
      case "CardTurned": {
        const d = decode(e).v;
        const t = cur?.dealt?.turned;
        if (cur && t && (d.hand !== cur.hand || d.deal !== cur.deal || d.card !== t.card || d.banker !== t.banker)) {
          throw fault(e, "deal", `turned card ${d.card} (banker ${d.banker}) in deal ${d.hand}.${d.deal}, the seed turns ${t.card} (banker ${t.banker}) in ${cur.hand}.${cur.deal}`);
        }
        break;
      }
      case "DealVoided":
        dealNo++;
        cur = null;
        break;
      case "HandSettled": {
        const d = decode(e);
        checkSettled(e, d.raw, stake, totals);
        res.settlements++;
        dealer.settled(d.v.result);
        hand++;
        dealNo = 1;
        cur = null;
        res.running = false;
        break;
      }
    }
  }
}

/**
 * The seed of deal d of hand h of a table of fixed deals:
 * SHA-256(secret ‖ C(h) ‖ C(d)), C(n) being n as 8 bytes big-endian
 * (table.FixedDealSeed).
 * @param {Uint8Array} secret
 * @param {number} hand
 * @param {number} deal
 */
async function fixedDealSeed(secret, hand, deal) {
  const input = new Uint8Array(48);
  input.set(secret, 0);
  const dv = new DataView(input.buffer);
  dv.setBigUint64(32, BigInt(hand));
  dv.setBigUint64(40, BigInt(deal));
  return toHex(await sha256(input));
}

/**
 * @param {unknown} x
 * @returns {string[][]}
 */
function cardListOfHands(x) {
  return Array.isArray(x) ? x.map(cardList) : [];
}

/**
 * A settlement's bounds and balance (audit checkSettled and
 * table.CheckSettlement): each delta and the house's share within ±stake ×
 * 2^40, their sum zero, every running total within a signed 64-bit integer.
 * Integers are read from the raw text as BigInt: they may exceed 2^53.
 * @param {ExportEvent} e
 * @param {Map<string, string>} raw
 * @param {bigint} stake
 * @param {bigint[]} totals updated with the deltas
 */
function checkSettled(e, raw, stake, totals) {
  const hand = raw.get("hand") ?? "?";
  /** @param {string} detail */
  const fail = (detail) => fault(e, "settlement", `settlement of hand ${hand}: ${detail}`);
  /** @param {string} t */
  const int = (t) => {
    if (!/^-?\d+$/.test(t)) throw fail(`${t} is not an integer`);
    return BigInt(t);
  };
  const house = int(raw.get("house") ?? "0");
  const deltas = rawElements(raw.get("deltas") ?? "[]").map(int);
  const limit = stake * maxMultiplier;
  if (house > limit || house < -limit) throw fail(`house share ${house} is beyond ±${limit} (stake ${stake} × ${maxMultiplier})`);
  deltas.forEach((d, seat) => {
    if (d > limit || d < -limit) throw fail(`seat ${seat}'s delta ${d} is beyond ±${limit} (stake ${stake} × ${maxMultiplier})`);
  });
  let sum = house;
  deltas.forEach((d, seat) => {
    sum += d;
    const total = totals[seat];
    if (total !== undefined && (total + d > int64Max || total + d < int64Min)) {
      throw fail(`deltas and house share: seat ${seat}'s total ${total} + ${d} overflows`);
    }
  });
  if (sum !== 0n) throw fail(`deltas and house share: the deltas and the house's share sum to ${sum}, not 0`);
  deltas.forEach((d, seat) => {
    const total = totals[seat];
    if (total !== undefined) totals[seat] = total + d;
  });
}
