// The replay page's model (web/static/js/pages/replay.js) on every frozen
// stream, every game and variant: each hand's record, built from the
// stream as GET /v1/hands/{id} serves it, verifies in the browser's terms
// (seed against commitment, the deal re-run from the seed), a changed card
// does not, and the cards the replay shows in a seat's hand at each step
// hold every card that seat plays or buries next.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

import { snapshots, verifyHand } from "../static/js/pages/replay.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const frozen = path.join(here, "..", "..", "e2e", "testdata", "frozen");

/** @param {string} key @param {Record<string, string | number>} [vars] */
const t = (key, vars) => `${key} ${JSON.stringify(vars ?? {})}`;

/**
 * The hand records of an export, shaped as GET /v1/hands/{id} answers.
 * @param {string} text
 */
function records(text) {
  const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l)).filter((l) => "version" in l);
  const opened = lines[0].data;
  const recs = [];
  let cur = null;
  for (const l of lines) {
    const e = { version: l.version, type: l.type, data: l.data };
    if (l.type === "HandDealt" && (!cur || cur.hand !== l.data.hand)) {
      cur = { hand: l.data.hand, game: opened.game, variant: opened.variant, seats: [], deals: [], events: [], seed: "", commitment: "", deltas: [] };
    }
    if (!cur) continue;
    cur.events.push(e);
    if (l.type === "HandDealt") {
      cur.deals.push({ deal: l.data.deal, commitment: l.data.commitment, hands: l.data.hands, kitty: l.data.kitty ?? [], first_seat: l.data.first_seat, seed: "" });
    }
    if (l.type === "DealVoided" || l.type === "HandSettled") {
      const d = cur.deals.at(-1);
      d.seed = l.data.seed;
      cur.seed = l.data.seed;
      cur.commitment = d.commitment;
    }
    if (l.type === "HandSettled") {
      cur.deltas = l.data.deltas;
      recs.push(cur);
      cur = null;
    }
  }
  return recs;
}

const files = readdirSync(frozen).filter((f) => f.endsWith(".jsonl"));

test("every hand of every frozen stream verifies on the replay page, and a changed card does not", async () => {
  assert.ok(files.length >= 10);
  for (const f of files) {
    const recs = records(readFileSync(path.join(frozen, f), "utf8"));
    assert.ok(recs.length >= 2, `${f}: ${recs.length} hands`);
    for (const rec of recs) {
      const res = await verifyHand(rec, rec.events, t);
      assert.equal(res.ok, true, `${f} hand ${rec.hand}: ${res.lines[0]}`);
      assert.equal(res.lines.length, rec.deals.length);
    }
    const rec = recs[0];
    const hands = rec.deals[0].hands;
    const other = hands[1].find((c) => c !== hands[0][0]);
    hands[0][0] = other;
    const res = await verifyHand(rec, rec.events, t);
    assert.equal(res.ok, false, `${f}: a changed card verifies`);
    assert.match(res.lines[0], /^replay\.whyCards/);
    rec.deals[0].seed = rec.deals[0].seed.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    assert.match((await verifyHand(rec, rec.events, t)).lines[0], /^replay\.whyCommit/);
  }
});

test("the replay's hands hold every card a seat plays, buries or gives, at the step before", () => {
  for (const f of files) {
    let moved = 0;
    for (const rec of records(readFileSync(path.join(frozen, f), "utf8"))) {
      const seats = rec.deals[0].hands.length;
      const snaps = snapshots(rec.events, seats);
      assert.equal(snaps.length, rec.events.length + 1);
      rec.events.forEach((e, k) => {
        if (!["CardsPlayed", "KittyBuried", "CardGiven"].includes(e.type) || !Array.isArray(e.data.cards)) return;
        const hand = [...snaps[k].hands[e.data.seat]];
        for (const c of e.data.cards) {
          const i = hand.indexOf(c);
          assert.ok(i >= 0, `${f} hand ${rec.hand} event ${e.version} ${e.type}: seat ${e.data.seat} ${c} is not in the replay's hand ${hand.join(" ")}`);
          hand.splice(i, 1);
        }
        moved++;
        assert.deepEqual(snaps[k + 1].hands[e.data.seat], hand, `${f} event ${e.version}: the cards leave the hand`);
      });
    }
    if (!f.startsWith("niuniu")) assert.ok(moved > 10, `${f}: ${moved} cards moved`);
  }
});

// The cases TestWebVerifierAgreesWithGo writes hold tables opened with
// house rules (a 牛牛 table dealing 52 cards among them), whose hand
// records hold no options.
const casesFile = process.env.PAIJU_VERIFY_CASES;
test("every hand of the tables with house rules verifies on the replay page", { skip: casesFile ? false : "PAIJU_VERIFY_CASES is not set (the Go test TestWebVerifierAgreesWithGo sets it)" }, async () => {
  const cases = JSON.parse(readFileSync(/** @type {string} */ (casesFile), "utf8")).filter((/** @type {{ok: boolean, name: string}} */ c) => c.ok && c.name.startsWith("options_"));
  assert.ok(cases.length > 0, "no export of a table with options among the cases");
  for (const c of cases) {
    for (const rec of records(readFileSync(c.file, "utf8"))) {
      const res = await verifyHand(rec, rec.events, t);
      assert.equal(res.ok, true, `${c.name} hand ${rec.hand}: ${res.lines[0]}`);
    }
  }
});
