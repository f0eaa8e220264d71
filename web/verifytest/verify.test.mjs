// The browser's export verifier (web/static/js/verify) under Node's test
// runner. Alone it checks docs/AUDIT.md's worked examples and that every
// frozen stream (e2e/testdata/frozen) verifies; run by the Go test
// TestWebVerifierAgreesWithGo it also checks, for each export and tampered
// copy the Go side wrote, that the verdict and the event of the first fault
// are the ones audit.VerifyExport gives (PAIJU_VERIFY_CASES names the list).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

import { verifyExport } from "../static/js/verify/verify.js";
import { eventHash } from "../static/js/verify/chain.js";
import { Stream, commitment, parseSeed, shuffled } from "../static/js/verify/shuffle.js";
import { dealerFor } from "../static/js/verify/deal.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const frozen = path.join(here, "..", "..", "e2e", "testdata", "frozen");

const exampleSeed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

test("docs/AUDIT.md, The hash chain: the worked example's hash", async () => {
  assert.equal(await eventHash("", "table-T1", "1", "TableOpened", '{"a":1}'), "f629cf4e248497086e6574e9ba41247a8934de81a8adb9bddec20802de6d3000");
});

test("docs/AUDIT.md, The shuffle: commitment, stream values, shuffled deck and 斗地主 deal of the worked example", async () => {
  assert.equal(await commitment(exampleSeed), "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd");
  const seed = /** @type {Uint8Array} */ (parseSeed(exampleSeed));
  const st = new Stream(seed);
  const values = [];
  for (let i = 0; i < 5; i++) values.push((await st.uint64()).toString());
  assert.deepEqual(values, ["12238220826280364221", "4092613261126186783", "10138206965701487105", "13686936297923933392", "6945047847015946120"]);
  const { deck } = await shuffled(seed, 1);
  assert.equal(deck.join(" "),
    "D9 RJ HJ S2 C6 H3 BJ C3 C8 D5 H8 C5 S9 S6 D10 CA S4 H4 DQ DJ D4 SA H7 H5 HA DK HK " +
    "D2 S5 SJ D3 C9 S10 SK D8 DA D6 CJ CK H2 D7 C4 S7 SQ CQ C2 C10 HQ S8 H9 C7 H6 H10 S3");
  const dealer = dealerFor("doudizhu", "classic", {});
  assert.ok(dealer);
  const dealt = await dealer.deal(seed, 1);
  assert.equal(dealt.firstSeat, 2, "the first bidder of a table's first deal");
  assert.deepEqual([...dealt.kitty].sort(), ["H10", "H6", "S3"]);
  assert.deepEqual([...dealt.hands[0]].sort(), "D9 S2 BJ D5 S9 CA DQ SA HA D2 D3 SK D6 H2 S7 C2 S8".split(" ").sort());
  assert.equal(await commitment("00"), null, "a seed of one byte has no commitment");
});

test("every frozen stream verifies", async () => {
  const files = readdirSync(frozen).filter((f) => f.endsWith(".jsonl"));
  assert.ok(files.length >= 10, `only ${files.length} frozen streams in ${frozen}`);
  for (const f of files) {
    const res = await verifyExport(readFileSync(path.join(frozen, f), "utf8"));
    assert.equal(res.ok, true, `${f}: ${JSON.stringify(res.fault)}`);
    assert.ok(res.deals >= 3 && res.settlements >= 2, `${f}: ${res.deals} deals, ${res.settlements} settlements`);
  }
});

test("a changed hash and a removed line fail at their event", async () => {
  const text = readFileSync(path.join(frozen, "doudizhu_classic_1.jsonl"), "utf8");
  const lines = text.trimEnd().split("\n");
  const changed = [...lines];
  changed[9] = changed[9].replace(/"hash":"(.)/, (_, c) => `"hash":"${c === "0" ? "1" : "0"}`);
  let res = await verifyExport(changed.join("\n") + "\n");
  assert.deepEqual([res.ok, res.fault?.event, res.fault?.check], [false, 10, "hash"]);
  const removed = lines.filter((_, i) => i !== 20);
  res = await verifyExport(removed.join("\n") + "\n");
  assert.deepEqual([res.ok, res.fault?.event, res.fault?.line, res.fault?.check], [false, 21, 21, "missing"]);
  res = await verifyExport("not json\n");
  assert.deepEqual([res.ok, res.fault?.event, res.fault?.line, res.fault?.check], [false, 0, 1, "format"]);
});

/**
 * @typedef {{file: string, name: string, ok: boolean, event: number, check: string, go: string}} Case
 */

const casesFile = process.env.PAIJU_VERIFY_CASES;
test("the verdict of audit.VerifyExport on each export the Go test wrote", { skip: casesFile ? false : "PAIJU_VERIFY_CASES is not set (the Go test TestWebVerifierAgreesWithGo sets it)" }, async (t) => {
  /** @type {Case[]} */
  const cases = JSON.parse(readFileSync(/** @type {string} */ (casesFile), "utf8"));
  assert.ok(cases.length > 0);
  for (const c of cases) {
    await t.test(c.name, async () => {
      const res = await verifyExport(readFileSync(c.file, "utf8"));
      if (c.ok) {
        assert.equal(res.ok, true, `${c.name}: paiju verify passes it, the browser finds ${JSON.stringify(res.fault)}`);
        return;
      }
      assert.equal(res.ok, false, `${c.name}: paiju verify fails it (${c.go}), the browser passes it`);
      assert.equal(res.fault?.event, c.event, `${c.name}: paiju verify: ${c.go}; the browser: ${JSON.stringify(res.fault)}`);
      assert.equal(res.fault?.check, c.check, `${c.name}: paiju verify: ${c.go}; the browser: ${JSON.stringify(res.fault)}`);
    });
  }
});
