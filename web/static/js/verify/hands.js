// @ts-check
// The finished hands of a table's export, each as the replay page shows a
// hand (pages/replay.js, Replayable), read from the export's events alone:
// the verify page replays them with no server. A hand is its events from
// its first HandDealt to its HandSettled; its deals are the HandDealt
// events with the seed each HandSettled or DealVoided revealed; its seats
// are who sat where when it was dealt. A hand still running (no
// HandSettled yet: its seed is secret) is left out.

/** @typedef {import("./chain.js").ExportEvent} ExportEvent */
/** @typedef {import("../pages/replay.js").Replayable} Replayable */
/** @typedef {Replayable["deals"][number]} Deal */

/** @param {unknown} x @returns {string[]} */
function cards(x) {
  return Array.isArray(x) ? x.filter((c) => typeof c === "string") : [];
}

/** @param {unknown} x */
function int(x) {
  return typeof x === "number" && Number.isInteger(x) ? x : 0;
}

/**
 * @param {ExportEvent[]} events an export's events, as readExport gives them (verified first)
 * @returns {Replayable[]} the settled hands, in order
 */
export function handsFromExport(events) {
  let game = "";
  let variant = "";
  /** @type {Map<number, {seat: number, player_id: string, name: string}>} */
  const seated = new Map();
  /** @type {Replayable[]} */
  const out = [];
  /** @type {Replayable | null} */
  let cur = null;
  for (const e of events) {
    /** @type {Record<string, unknown>} */
    let d;
    try {
      const v = /** @type {unknown} */ (JSON.parse(e.data));
      d = typeof v === "object" && v !== null ? /** @type {Record<string, unknown>} */ (v) : {};
    } catch {
      d = {};
    }
    switch (e.type) {
      case "TableOpened":
        game = String(d.game ?? "");
        variant = String(d.variant ?? "");
        break;
      case "PlayerSeated":
        seated.set(int(d.seat), { seat: int(d.seat), player_id: String(d.player_id ?? ""), name: String(d.name ?? "") });
        break;
      case "PlayerLeft":
        if (!cur) seated.delete(int(d.seat));
        break;
    }
    if (e.type === "HandDealt" && (!cur || cur.hand !== int(d.hand))) {
      cur = { hand: int(d.hand), game, variant, seats: [...seated.values()].sort((a, b) => a.seat - b.seat), deals: [], deltas: [], seed: "", commitment: "", events: [] };
    }
    if (!cur) continue;
    cur.events.push({ type: e.type, version: e.version, data: d });
    const last = cur.deals[cur.deals.length - 1];
    switch (e.type) {
      case "HandDealt": {
        /** @type {Deal} */
        const deal = { deal: int(d.deal), commitment: String(d.commitment ?? ""), hands: Array.isArray(d.hands) ? d.hands.map(cards) : [], kitty: cards(d.kitty), first_seat: int(d.first_seat), seed: "" };
        cur.deals.push(deal);
        cur.commitment = deal.commitment;
        break;
      }
      case "DealVoided":
        if (last) {
          last.seed = String(d.seed ?? "");
          last.voided = String(d.reason ?? "");
        }
        break;
      case "HandSettled":
        if (last) last.seed = String(d.seed ?? "");
        cur.seed = last?.seed ?? "";
        cur.deltas = Array.isArray(d.deltas) ? d.deltas.map(int) : [];
        out.push(cur);
        cur = null;
        break;
    }
  }
  return out;
}
