// @ts-check
// Reading an export and checking its hash chain (docs/AUDIT.md, Export
// format and The hash chain), as audit.ReadExport does in Go.

import { rawMembers } from "./jsonraw.js";
import { sha256, toHex, utf8 } from "./sha256.js";

/**
 * One event line of an export. data is the raw text of the event's JSON,
 * exactly as the line holds it.
 * @typedef {{
 *   line: number, position: number, stream: string, version: number,
 *   versionText: string, type: string, recordedAt: string, data: string,
 *   prevHash: string, hash: string
 * }} ExportEvent
 */

/**
 * The trailing line of an export: the store's chain head when it was taken.
 * @typedef {{line: number, position: number, hash: string, stream: string, events: number, exportedAt: string}} ExportHead
 */

/**
 * The first fault found. event is the event's version in its table, which
 * is its line in a well-formed export (paiju verify says "event N (line
 * N)"); 0 when the fault is in no event (the chain head line, a line that
 * does not parse). check names the check that failed.
 * @typedef {{event: number, line: number, check: string, detail: string}} Fault
 */

export class FaultError extends Error {
  /** @param {Fault} fault */
  constructor(fault) {
    super(fault.event > 0 ? `event ${fault.event} (line ${fault.line}): ${fault.detail}` : `line ${fault.line}: ${fault.detail}`);
    this.fault = fault;
  }
}

const eventKeys = ["position", "stream", "version", "type", "recorded_at", "data", "prev_hash", "hash"];
const headKeys = ["chain_head", "stream", "events", "exported_at"];

/**
 * hash = hex SHA-256( F(prev_hash) ‖ F(stream) ‖ F(version) ‖ F(type) ‖ F(data) ),
 * F(x) being x's byte length as 4 bytes big-endian, then x.
 * @param {string} prevHash
 * @param {string} stream
 * @param {string} version decimal text
 * @param {string} type
 * @param {string} data raw JSON text
 */
export async function eventHash(prevHash, stream, version, type, data) {
  const parts = [prevHash, stream, version, type, data].map(utf8);
  let n = 0;
  for (const p of parts) n += 4 + p.length;
  const buf = new Uint8Array(n);
  const dv = new DataView(buf.buffer);
  let at = 0;
  for (const p of parts) {
    dv.setUint32(at, p.length);
    buf.set(p, at + 4);
    at += 4 + p.length;
  }
  return toHex(await sha256(buf));
}

/**
 * Parses an export and checks what needs no rules: each line's fields, each
 * event's hash against its fields, one stream with versions 1, 2, 3, …,
 * rising positions, the prev_hash links between lines of consecutive
 * positions, and the trailing chain head line. Throws FaultError at the first
 * fault, in the order paiju verify finds it.
 * @param {string} text the export, JSON Lines
 * @returns {Promise<{events: ExportEvent[], head: ExportHead | null}>}
 */
export async function readExport(text) {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  /** @type {ExportEvent[]} */
  const events = [];
  /** @type {ExportHead | null} */
  let head = null;
  for (const [i, text] of lines.entries()) {
    const n = i + 1;
    const raw = text.trim();
    /** @param {number} event @param {string} check @param {string} detail */
    const fail = (event, check, detail) => new FaultError({ event, line: n, check, detail });
    if (raw === "") throw fail(0, "format", "empty line");
    if (head) throw fail(0, "head", "a line follows the chain head line, which must be last");
    /** @type {Map<string, string>} */
    const m = new Map();
    try {
      for (const { key, raw: v } of rawMembers(raw)) m.set(key, v);
    } catch (err) {
      throw fail(0, "format", `not a JSON export line: ${errText(err)}`);
    }
    const unknown = [...m.keys()].filter((k) => !eventKeys.includes(k) && !headKeys.includes(k));
    if (unknown.length > 0) throw fail(0, "format", `not a JSON export line: unknown field ${JSON.stringify(unknown[0])}`);
    if (m.has("chain_head")) {
      head = parseHead(m, n, events);
      continue;
    }
    const e = parseEvent(m, n);
    await checkLine(e, events.at(-1) ?? null);
    events.push(e);
  }
  if (events.length === 0) throw new FaultError({ event: 0, line: lines.length, check: "format", detail: "the export holds no event" });
  return { events, head };
}

/** @param {unknown} err */
export function errText(err) {
  return err instanceof Error ? err.message : String(err);
}

/**
 * @param {Map<string, string>} m
 * @param {number} line
 * @returns {ExportEvent}
 */
function parseEvent(m, line) {
  const vt = m.get("version");
  const version = vt !== undefined && /^-?\d+$/.test(vt) ? Number(vt) : 0;
  /** @param {string} detail */
  const fail = (detail) => new FaultError({ event: version, line, check: "format", detail });
  for (const k of eventKeys) {
    if (!m.has(k)) throw fail("an event line needs position, stream, version, type, recorded_at, data, prev_hash and hash");
  }
  if (m.has("events") || m.has("exported_at")) throw fail("an event line with fields of the chain head line");
  /** @param {string} k */
  const str = (k) => {
    const v = JSON.parse(/** @type {string} */ (m.get(k)));
    if (typeof v !== "string") throw fail(`${k} is not a string`);
    return v;
  };
  /** @param {string} k */
  const int = (k) => {
    const v = /** @type {string} */ (m.get(k));
    if (!/^-?\d+$/.test(v)) throw fail(`${k} is not an integer`);
    return v;
  };
  const data = /** @type {string} */ (m.get("data"));
  return {
    line,
    position: Number(int("position")),
    stream: str("stream"),
    version: Number(int("version")),
    versionText: int("version"),
    type: str("type"),
    recordedAt: str("recorded_at"),
    data,
    prevHash: str("prev_hash"),
    hash: str("hash"),
  };
}

/**
 * @param {Map<string, string>} m
 * @param {number} line
 * @param {ExportEvent[]} events
 * @returns {ExportHead}
 */
function parseHead(m, line, events) {
  /** @param {string} detail */
  const fail = (detail) => new FaultError({ event: 0, line, check: "head", detail: `chain head line: ${detail}` });
  for (const k of headKeys) if (!m.has(k)) throw fail("needs chain_head, stream, events and exported_at");
  if (eventKeys.some((k) => k !== "stream" && m.has(k))) throw fail("fields of an event line in the chain head line");
  /** @type {unknown} */
  const ch = JSON.parse(/** @type {string} */ (m.get("chain_head")));
  const stream = JSON.parse(/** @type {string} */ (m.get("stream")));
  const count = JSON.parse(/** @type {string} */ (m.get("events")));
  const exportedAt = JSON.parse(/** @type {string} */ (m.get("exported_at")));
  if (typeof ch !== "object" || ch === null || Array.isArray(ch)) throw fail("chain_head is not an object");
  const pos = /** @type {{position?: unknown, hash?: unknown}} */ (ch).position;
  const hash = /** @type {{position?: unknown, hash?: unknown}} */ (ch).hash;
  if (typeof pos !== "number" || typeof hash !== "string" || typeof stream !== "string" || typeof count !== "number" || typeof exportedAt !== "string") {
    throw fail("a field has the wrong type");
  }
  const h = { line, position: pos, hash, stream, events: count, exportedAt };
  const last = events.at(-1);
  if (!last) throw fail("chain head line before the first event");
  if (h.stream !== last.stream || h.events !== events.length) {
    throw fail(`chain head line names ${h.events} events of ${h.stream}, the export holds ${events.length} of ${last.stream}`);
  }
  if (h.position < last.position) throw fail(`chain head at position ${h.position} is before the last event's position ${last.position}`);
  if (h.position === last.position && h.hash !== last.hash) {
    throw fail(`chain head at position ${h.position} has hash ${h.hash}, the event there has ${last.hash}`);
  }
  return h;
}

/**
 * One event against itself and the line before it (audit checkLine).
 * @param {ExportEvent} e
 * @param {ExportEvent | null} prev
 */
async function checkLine(e, prev) {
  /** @param {number} event @param {string} check @param {string} detail */
  const fail = (event, check, detail) => new FaultError({ event, line: e.line, check, detail });
  const want = await eventHash(e.prevHash, e.stream, e.versionText, e.type, e.data);
  if (e.hash !== want) {
    throw fail(e.version, "hash", `hash ${e.hash}, but the event's fields hash to ${want}: the event was changed after it was recorded`);
  }
  if (e.position < 1) throw fail(e.version, "chain", `position ${e.position} is not ≥ 1`);
  if ((e.position === 1) !== (e.prevHash === "")) {
    throw fail(e.version, "chain", `position ${e.position} with previous hash ${JSON.stringify(e.prevHash)}: only the first event of the log has none`);
  }
  /** @param {number} v */
  const missing = (v) => fail(v, "missing", `event ${v} is missing: the line holding it is not there (the next line holds a later event)`);
  if (prev === null) {
    if (e.version !== 1) throw missing(1);
    return;
  }
  if (e.stream !== prev.stream) throw fail(e.version, "chain", `stream ${e.stream} in an export of ${prev.stream}`);
  if (e.version > prev.version + 1) throw missing(prev.version + 1);
  if (e.version !== prev.version + 1) throw fail(e.version, "chain", `version ${e.version} follows version ${prev.version}: the event is out of place`);
  if (e.position <= prev.position) throw fail(e.version, "chain", `position ${e.position} does not follow position ${prev.position}`);
  if (e.position === prev.position + 1 && e.prevHash !== prev.hash) {
    throw fail(e.version, "chain", `previous hash ${e.prevHash}, but the event at position ${prev.position} (the line before) has hash ${prev.hash}`);
  }
}
