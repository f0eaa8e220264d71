// @ts-check
// /verify: anyone drops a table's JSON Lines export (or chooses it with the
// file input) and the browser checks it with no server call: the hash
// chain, every deal against its revealed seed, every settlement's balance
// (js/verify). The result is [data-verified="true" | "false"], with the
// first fault's event number in data-fault-event. A verified export's
// finished hands can then be replayed here, from the file alone, offline
// too (verify/hands.js, pages/replay.js showReplay).

import { readExport } from "../verify/chain.js";
import { handsFromExport } from "../verify/hands.js";
import { verifyExport } from "../verify/verify.js";
import { checkLabel, showVerdict, useStyles } from "../verifyui.js";
import { kindName } from "../games.js";
import { showReplay } from "./replay.js";
import { register } from "../i18n.js";

register({
  zh: {
    "verify.howTitle": "导出文件从哪里来",
    "verify.how1": "在牌桌页或这手牌的回放页点“下载牌桌导出”（只有这张牌桌的玩家能下载）；",
    "verify.how2": "或者在命令行：paiju export（运营者）或 curl -H 'Authorization: Bearer 你的令牌' …/v1/tables/牌桌号/export；",
    "verify.how3": "然后把文件拖到下面，或选择它。也可以用 paiju verify 文件名 离线检查，它还会按规则重新裁决每一步。",
  },
  en: {
    "verify.howTitle": "Where an export comes from",
    "verify.how1": "on the table page or the hand's replay page, press “Download the table's export” (the table's players may);",
    "verify.how2": "or from a shell: paiju export (for operators), or curl -H 'Authorization: Bearer YOUR_TOKEN' …/v1/tables/TABLE_ID/export;",
    "verify.how3": "then drop the file below, or choose it. paiju verify FILE checks it offline too, and re-decides every move by the rules.",
  },
});

/**
 * @param {HTMLElement} root
 * @param {Record<string, string>} params
 * @param {import("../app.js").AppContext} ctx
 */
export function render(root, params, ctx) {
  void params;
  useStyles();
  const { t } = ctx;
  const h = document.createElement("h1");
  h.textContent = t("page.verify");
  const intro = document.createElement("p");
  intro.textContent = t("verify.intro");
  const how = document.createElement("section");
  how.className = "verify-how";
  how.setAttribute("aria-labelledby", "verify-how-h");
  const hh = document.createElement("h2");
  hh.id = "verify-how-h";
  hh.textContent = t("verify.howTitle");
  const steps = document.createElement("ol");
  for (const k of ["verify.how1", "verify.how2", "verify.how3"]) {
    const li = document.createElement("li");
    li.textContent = t(k);
    steps.append(li);
  }
  how.append(hh, steps);

  const zone = document.createElement("label");
  zone.className = "dropzone";
  zone.id = "verify-drop";
  const prompt = document.createElement("strong");
  prompt.textContent = t("verify.drop");
  const input = document.createElement("input");
  input.type = "file";
  input.id = "verify-file";
  input.accept = ".jsonl,.ndjson,.json,.txt,application/x-ndjson,application/json,text/plain";
  input.setAttribute("aria-label", t("verify.choose"));
  const br = document.createElement("br");
  zone.append(prompt, br, input);

  const verdict = document.createElement("div");
  verdict.id = "verify-result";
  verdict.setAttribute("aria-live", "polite");

  const checks = document.createElement("section");
  checks.className = "checks";
  const ch = document.createElement("h2");
  ch.textContent = t("verify.checksTitle");
  const ul = document.createElement("ul");
  for (const k of ["verify.check1", "verify.check2", "verify.check3", "verify.check4"]) {
    const li = document.createElement("li");
    li.textContent = t(k);
    ul.append(li);
  }
  const not = document.createElement("p");
  not.className = "muted";
  not.textContent = t("verify.notChecked");
  checks.append(ch, ul, not);

  // The export's hands, each a button that replays it below.
  const hands = document.createElement("section");
  hands.className = "export-hands";
  hands.hidden = true;
  const replay = document.createElement("section");
  replay.className = "export-replay";
  replay.setAttribute("aria-live", "polite");

  root.append(h, intro, how, zone, verdict, hands, replay, checks);

  /** @type {(() => void) | null} */
  let stopReplay = null;
  const clearReplay = () => {
    stopReplay?.();
    stopReplay = null;
    replay.replaceChildren();
  };

  /**
   * Lists the verified export's finished hands, each to be replayed from
   * the file.
   * @param {string} text
   */
  async function listHands(text) {
    const { events } = await readExport(text);
    const list = handsFromExport(events);
    hands.replaceChildren();
    hands.hidden = list.length === 0;
    if (list.length === 0) return;
    const title = document.createElement("h2");
    title.textContent = t("verify.hands");
    const row = document.createElement("div");
    row.className = "replay-controls";
    for (const rec of list) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "secondary";
      b.dataset.hand = String(rec.hand);
      b.textContent = t("verify.replayHand", { hand: rec.hand });
      b.addEventListener("click", () => {
        clearReplay();
        const rh = document.createElement("h2");
        replay.append(rh);
        stopReplay = showReplay(replay, rh, rec, t, async () => ({ ok: true, lines: [t("verify.fromFile")] }));
        rh.tabIndex = -1;
        rh.focus();
      });
      row.append(b);
    }
    hands.append(title, row);
  }

  let run = 0;
  /** @param {File} file */
  async function check(file) {
    const mine = ++run;
    clearReplay();
    hands.hidden = true;
    hands.replaceChildren();
    showVerdict(verdict, { ok: null, title: t("verify.pending"), lines: [t("verify.reading", { name: file.name })] });
    let text;
    try {
      text = await file.text();
    } catch (err) {
      showVerdict(verdict, { ok: false, title: t("verify.bad"), lines: [ctx.describe(err)] });
      return;
    }
    const res = await verifyExport(text);
    if (mine !== run) return;
    /** @type {string[]} */
    const lines = [];
    if (res.game) lines.push(t("verify.game", { kind: kindName(res.game, res.variant), stream: res.stream }));
    if (res.ok) {
      lines.push(t("verify.summary", { events: res.events, deals: res.deals, settlements: res.settlements }));
      lines.push(res.head ? t("verify.head", { position: res.head.position, hash: res.head.hash }) : t("verify.noHead"));
      if (res.running) lines.push(t("verify.running"));
      showVerdict(verdict, { ok: true, title: `${t("verify.ok")}: ${file.name}`, lines });
      if (mine === run) await listHands(text);
      return;
    }
    const f = res.fault;
    if (!f) return;
    const where = f.event > 0
      ? t("verify.faultAt", { event: f.event, line: f.line, check: checkLabel(f.check) })
      : t("verify.faultLine", { line: f.line, check: checkLabel(f.check) });
    /** @type {import("../verifyui.js").Verdict} */
    const v = { ok: false, title: `${t("verify.bad")}: ${file.name}`, lines: [where, f.detail, ...lines] };
    if (f.event > 0) v.faultEvent = f.event;
    showVerdict(verdict, v);
    verdict.dataset.faultLine = String(f.line);
    verdict.dataset.faultCheck = f.check;
  }

  input.addEventListener("change", () => {
    const f = input.files?.[0];
    if (f) void check(f);
  });
  zone.addEventListener("dragover", (e) => {
    e.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    const f = e.dataTransfer?.files?.[0];
    if (f) void check(f);
  });
  return clearReplay;
}
