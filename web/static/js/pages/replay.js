// @ts-check
// /hands/:handID: a finished hand replayed event by event, every seat's
// cards shown at each step (cards leave a hand as they are played), and the
// hand verified in the browser: SHA-256 of each deal's revealed seed against
// its commitment, and the seed shuffled and dealt again by the game's rules
// against the recorded cards. It ends in [data-verified="true" | "false"].
// A hand the viewer may not read (only the table's players may) is said so
// plainly, with no verdict: nothing was checked. The table's export can be
// downloaded from here, to check on /verify.

import { renderCard, renderHand, renderNiuniu } from "../cards.js";
import { kindName } from "../games.js";
import { commitment, parseSeed } from "../verify/shuffle.js";
import { dealerFor } from "../verify/deal.js";
import { verifyExport } from "../verify/verify.js";
import { checkLabel, showVerdict, useStyles } from "../verifyui.js";
import { ApiError } from "../api.js";
import { exportControl } from "../exportfile.js";
import { problemText } from "../problems.js";

/** @typedef {import("../types.js").HandRecord} HandRecord */
/** @typedef {{type: string, version: number, data: Record<string, unknown>}} PlainEvent */

/**
 * The table at one step of the replay.
 * bulls[seat] is a 牛牛 seat's arranged bull (three cards), once arranged.
 * @typedef {{hands: string[][], kitty: string[], last: (string[] | null)[], bulls: (string[] | null)[], acting: number | null}} Snapshot
 */

/**
 * @param {unknown} x
 * @returns {string[]}
 */
function cardsOf(x) {
  return Array.isArray(x) ? x.filter((c) => typeof c === "string") : [];
}

/** @param {unknown} x */
function seatOf(x) {
  return typeof x === "number" && Number.isInteger(x) ? x : null;
}

/**
 * Removes one copy of each of cards from hand (a multiset).
 * @param {string[]} hand
 * @param {string[]} cards
 */
function take(hand, cards) {
  const out = [...hand];
  for (const c of cards) {
    const i = out.indexOf(c);
    if (i >= 0) out.splice(i, 1);
  }
  return out;
}

/**
 * The snapshot after each event: snapshots[0] is before the first event,
 * snapshots[k] after event k.
 * @param {PlainEvent[]} events
 * @param {number} seats
 * @returns {Snapshot[]}
 */
export function snapshots(events, seats) {
  const progressive = events.some((e) => e.type === "CardsDrawn");
  /** @type {Snapshot} */
  let s = { hands: Array.from({ length: seats }, () => []), kitty: [], last: Array.from({ length: seats }, () => null), bulls: Array.from({ length: seats }, () => null), acting: null };
  const out = [s];
  for (const e of events) {
    const d = e.data;
    const seat = seatOf(d.seat);
    /** @type {Snapshot} */
    const n = { hands: s.hands.map((h) => [...h]), kitty: [...s.kitty], last: [...s.last], bulls: [...s.bulls], acting: seat };
    /** @param {number | null} at @param {string[]} cards */
    const give = (at, cards) => {
      const h = at === null ? undefined : n.hands[at];
      if (h && at !== null) n.hands[at] = [...h, ...cards];
    };
    /** @param {number | null} at @param {string[]} cards */
    const remove = (at, cards) => {
      const h = at === null ? undefined : n.hands[at];
      if (h && at !== null) n.hands[at] = take(h, cards);
    };
    switch (e.type) {
      case "HandDealt": {
        const hands = Array.isArray(d.hands) ? d.hands.map(cardsOf) : [];
        n.hands = Array.from({ length: seats }, (_, i) => (progressive ? [] : [...(hands[i] ?? [])]));
        n.kitty = cardsOf(d.kitty);
        n.last = n.last.map(() => null);
        n.bulls = n.bulls.map(() => null);
        n.acting = null;
        break;
      }
      case "HandArranged":
        if (seat !== null) n.bulls[seat] = cardsOf(d.cards).length === 3 ? cardsOf(d.cards) : null;
        break;
      case "HandsRevealed":
        if (Array.isArray(d.hands)) {
          for (const r of d.hands) {
            const rs = typeof r === "object" && r !== null ? /** @type {Record<string, unknown>} */ (r) : {};
            const at = seatOf(rs.seat);
            if (at !== null && at < seats) n.bulls[at] = cardsOf(rs.bull).length === 3 ? cardsOf(rs.bull) : null;
          }
        }
        break;
      case "CardsDrawn": {
        const drawn = Array.isArray(d.cards) ? d.cards.map(cardsOf) : [];
        drawn.forEach((cs, i) => give(i, cs));
        break;
      }
      case "LandlordChosen":
        give(seat, cardsOf(d.kitty).length > 0 ? cardsOf(d.kitty) : n.kitty);
        n.kitty = [];
        break;
      case "KittyTaken": {
        const to = seatOf(d.burier) ?? seat;
        give(to, cardsOf(d.cards).length > 0 ? cardsOf(d.cards) : n.kitty);
        n.kitty = [];
        n.acting = to;
        break;
      }
      case "KittyBuried":
        remove(seat, cardsOf(d.cards));
        n.kitty = [...n.kitty, ...cardsOf(d.cards)];
        break;
      case "KittySwapped": {
        const [fromKitty, fromHand] = cardsOf(d.cards);
        if (fromKitty && fromHand) {
          give(seat, [fromKitty]);
          remove(seat, [fromHand]);
          n.kitty = [...take(n.kitty, [fromKitty]), fromHand];
        }
        break;
      }
      case "DeclarationTaken":
        remove(seatOf(d.from), cardsOf(d.cards));
        give(seat, cardsOf(d.cards));
        break;
      case "CardGiven":
        remove(seat, cardsOf(d.cards));
        give(seatOf(d.to), cardsOf(d.cards));
        break;
      case "CardsPlayed":
        remove(seat, cardsOf(d.cards));
        if (seat !== null) n.last[seat] = cardsOf(d.cards);
        break;
      case "PlayPassed":
        if (seat !== null) n.last[seat] = [];
        break;
      case "TrickWon":
      case "TrickEnded":
        n.last = n.last.map(() => null);
        break;
      case "DealVoided":
        n.hands = n.hands.map(() => []);
        n.kitty = [];
        n.last = n.last.map(() => null);
        break;
    }
    out.push(n);
    s = n;
  }
  return out;
}

/**
 * Whether two deals hold the same cards in the same seats and order.
 * @param {string[][]} a
 * @param {string[][]} b
 */
function sameHands(a, b) {
  return a.length === b.length && a.every((h, s) => h.length === (b[s] ?? []).length && h.every((c, i) => c === b[s]?.[i]));
}

/**
 * Verifies the hand's deals: each seed's SHA-256 against the commitment,
 * and the seed's deal against the recorded cards (and 打盾's turned card).
 * Returns the lines to show and the first reason it fails, if it does.
 * @param {Pick<HandRecord, "game" | "variant" | "deals">} rec
 * @param {PlainEvent[]} events
 * @param {(key: string, vars?: Record<string, string | number>) => string} t
 * @returns {Promise<{ok: boolean, lines: string[]}>}
 */
export async function verifyHand(rec, events, t) {
  /** @type {string[]} */
  const lines = [];
  /** @param {string} why */
  const fail = (why) => ({ ok: false, lines: [why, ...lines] });
  /** @param {string[]} cs */
  const show = (cs) => (cs.length > 0 ? cs.join(" ") : "—");
  for (const deal of rec.deals) {
    const dealNo = deal.deal;
    const c = await commitment(deal.seed);
    if (c === null || c !== deal.commitment) {
      return fail(t("replay.whyCommit", { deal: dealNo, got: c ?? deal.seed, want: deal.commitment }));
    }
    const hands = deal.hands.map((h) => [...h]);
    const dealer = dealerFor(rec.game, rec.variant, { seats: hands.length, banker: deal.first_seat });
    const seed = parseSeed(deal.seed);
    if (!dealer || !seed) return fail(t("replay.whyGame", { game: rec.game, variant: rec.variant }));
    let want = await dealer.deal(seed, dealNo);
    if (rec.game === "niuniu" && !sameHands(hands, want.hands)) {
      // The record holds no table options, and a 牛牛 table may deal from
      // the 52 cards without jokers (niuniu.md, Table options, jokers): the
      // table's export, checked below, ties the deal to its options.
      const d52 = dealerFor(rec.game, rec.variant, { seats: hands.length, banker: deal.first_seat, jokers: false });
      const w = d52 ? await d52.deal(seed, dealNo) : null;
      if (w && sameHands(hands, w.hands)) want = w;
    }
    for (let s = 0; s < Math.max(hands.length, want.hands.length); s++) {
      const got = hands[s] ?? [];
      const w = want.hands[s] ?? [];
      if (got.length !== w.length || got.some((x, i) => x !== w[i])) {
        return fail(t("replay.whyCards", { deal: dealNo, seat: s, got: show(got), want: show(w) }));
      }
    }
    const kitty = [...(deal.kitty ?? [])];
    if (kitty.length !== want.kitty.length || kitty.some((x, i) => x !== want.kitty[i])) {
      return fail(t("replay.whyKitty", { deal: dealNo, got: show(kitty), want: show(want.kitty) }));
    }
    let line = `${t("replay.dealCommit", { deal: dealNo })}; ${t("replay.dealCards")}`;
    if (want.turned) {
      const ev = events.find((e) => e.type === "CardTurned" && e.data.deal === dealNo);
      const got = ev ? `${String(ev.data.card)} / ${String(ev.data.banker)}` : "—";
      const w = `${want.turned.card} / ${want.turned.banker}`;
      if (got !== w) return fail(t("replay.whyTurned", { deal: dealNo, got, want: w }));
      line += `; ${t("replay.dealTurned")}`;
    }
    lines.push(line);
  }
  return { ok: true, lines };
}

/**
 * Ties the hand record to the table's hash-chained log: the table's export
 * (which whoever may read the hand may read) must verify, and hold this
 * hand's deals with the same commitments. An export that cannot be had is
 * said, not counted against the hand.
 * @param {HandRecord} rec
 * @param {import("../app.js").AppContext} ctx
 * @returns {Promise<{ok: boolean, lines: string[]}>}
 */
async function checkTable(rec, ctx) {
  const { t } = ctx;
  let text;
  try {
    text = await ctx.api.exportText(rec.table_id);
  } catch (err) {
    return { ok: true, lines: [t("replay.exportUnavailable", { why: ctx.describe(err) })] };
  }
  const x = await verifyExport(text);
  if (!x.ok) {
    const f = x.fault;
    return { ok: false, lines: [t("replay.exportBad", { event: f?.event ?? 0, line: f?.line ?? 0, check: checkLabel(f?.check ?? "format"), detail: f?.detail ?? "" })] };
  }
  const inLog = x.dealt.filter((d) => d.hand === rec.hand).map((d) => `${d.deal}:${d.commitment}`);
  const inRecord = rec.deals.map((d) => `${d.deal}:${d.commitment}`);
  if (inLog.join(",") !== inRecord.join(",")) {
    return { ok: false, lines: [t("replay.exportDiffers", { hand: rec.hand })] };
  }
  return { ok: true, lines: [t("replay.exportOk", { events: x.events, settlements: x.settlements })] };
}

/**
 * The cards of an event as card elements in a row (a step names its
 * cards as the table shows them, not in the API's notation).
 * @param {string[]} cards
 * @returns {HTMLElement}
 */
function inlineCards(cards) {
  const row = document.createElement("span");
  row.className = "cards inline";
  row.append(...cards.map((c) => renderCard(c)));
  return row;
}

/**
 * An event in words, its cards as card elements: the label's {cards} and
 * {card} placeholders become a row of cards.
 * @param {PlainEvent} e
 * @param {(seat: number) => string} who
 * @param {(key: string, vars?: Record<string, string | number>) => string} t
 * @returns {(string | HTMLElement)[]}
 */
export function describeEvent(e, who, t) {
  const d = e.data;
  const seat = seatOf(d.seat);
  const cards = cardsOf(d.cards ?? d.kitty);
  const card = typeof d.card === "string" ? [d.card] : [];
  /** @type {Record<string, string | number>} */
  const vars = {
    type: e.type,
    who: seat === null ? "" : who(seat),
    cards: "\u0000cards\u0000",
    card: "\u0000card\u0000",
    bid: typeof d.bid === "number" ? d.bid : "",
    round: typeof d.round === "number" ? d.round : "",
    deal: typeof d.deal === "number" ? d.deal : "",
    reason: typeof d.reason === "string" ? d.reason : "",
    commitment: typeof d.commitment === "string" ? d.commitment.slice(0, 16) : "",
    banker: seatOf(d.banker) === null ? "" : who(/** @type {number} */ (d.banker)),
    deltas: Array.isArray(d.deltas) ? d.deltas.map((x, i) => `${who(i)} ${Number(x) > 0 ? "+" : ""}${String(x)}`).join(", ") : "",
  };
  const key = "ev." + e.type;
  let text = t(key, vars);
  if (text === key) text = t("ev.other", vars);
  return text
    .split(/\u0000(cards?)\u0000/)
    .filter((part) => part !== "")
    .map((part) => (part === "cards" ? inlineCards(cards) : part === "card" ? inlineCards(card) : part));
}

/**
 * @param {HTMLElement} root
 * @param {Record<string, string>} params
 * @param {import("../app.js").AppContext} ctx
 */
export function render(root, params, ctx) {
  useStyles();
  const { t } = ctx;
  const handID = params.handID ?? "";
  const h = document.createElement("h1");
  h.textContent = t("page.replay");
  const status = document.createElement("p");
  status.textContent = t("replay.loading");
  root.append(h, status);
  let gone = false;
  /** @type {(() => void) | null} */
  let stop = null;

  void (async () => {
    /** @type {HandRecord} */
    let rec;
    try {
      // A link from a table page names the position it had seen, so that a
      // hand settled a moment ago is not refused as still in progress.
      const min = Number(new URLSearchParams(location.search).get("min_position") ?? "");
      rec = await ctx.api.hand(handID, Number.isSafeInteger(min) && min > 0 ? min : undefined);
    } catch (err) {
      if (err instanceof ApiError && err.code === "history_not_seated") {
        // Not a failed check: there is nothing this viewer may check.
        status.textContent = problemText(err) ?? ctx.describe(err);
        status.className = "notice";
        status.dataset.code = err.code;
        return;
      }
      status.textContent = ctx.describe(err);
      status.className = "error";
      const v = document.createElement("div");
      showVerdict(v, { ok: false, title: t("verify.bad"), lines: [ctx.describe(err)] });
      root.append(v);
      return;
    }
    if (gone) return;
    status.remove();
    const r = rec;
    /** @type {PlainEvent[]} */
    const events = r.events.map((e) => {
      const data = /** @type {unknown} */ (e.data);
      return { type: e.type, version: e.version, data: typeof data === "object" && data !== null ? /** @type {Record<string, unknown>} */ (data) : {} };
    });
    stop = showReplay(root, h, { ...r, events }, t, () => checkTable(r, ctx), exportControl(ctx, r.table_id));
  })();

  return () => {
    gone = true;
    stop?.();
  };
}

/**
 * What a replay needs of a hand: the hand's record from the server, or
 * one read from a table's export (verify/hands.js).
 * @typedef {Pick<HandRecord, "hand" | "game" | "variant" | "seats" | "deals" | "deltas" | "seed" | "commitment">} ReplayFacts
 * @typedef {ReplayFacts & {events: PlainEvent[]}} Replayable
 */

/**
 * Shows a hand's replay in root under its heading h: the verdict, the
 * controls (buttons, and ← → Home End), each step's event and every
 * seat's cards; then verifies the deals and, if they hold, asks
 * tableCheck about the table's log. Returns the function that ends it.
 * @param {HTMLElement} root
 * @param {HTMLElement} h
 * @param {Replayable} rec
 * @param {(key: string, vars?: Record<string, string | number>) => string} t
 * @param {() => Promise<{ok: boolean, lines: string[]}>} tableCheck
 * @param {HTMLElement} [extra] shown after the facts (the replay page's
 *   export download; a replay read from a file has the file already)
 * @returns {() => void}
 */
export function showReplay(root, h, rec, t, tableCheck, extra) {
  let gone = false;
  /** @type {((e: KeyboardEvent) => void) | null} */
  let onKey = null;
  const events = rec.events;
  void (async () => {
    const seats = Math.max(rec.seats.length, rec.deals[0]?.hands.length ?? 0);
    /** @param {number} seat */
    const who = (seat) => t("replay.seat", { seat, name: rec.seats.find((s) => s.seat === seat)?.name ?? "—" });
    h.textContent = t("replay.title", { hand: rec.hand, kind: kindName(rec.game, rec.variant) });

    const verdict = document.createElement("div");
    verdict.id = "replay-verdict";
    verdict.setAttribute("aria-live", "polite");
    showVerdict(verdict, { ok: null, title: t("verify.pending"), lines: [] });

    const controls = document.createElement("div");
    controls.className = "replay-controls";
    /** @param {string} key @param {string} id */
    const button = (key, id) => {
      const b = document.createElement("button");
      b.type = "button";
      b.id = id;
      b.className = "secondary";
      b.textContent = t(key);
      controls.append(b);
      return b;
    };
    const first = button("replay.first", "replay-first");
    const prev = button("replay.prev", "replay-prev");
    const next = button("replay.next", "replay-next");
    const last = button("replay.last", "replay-last");
    const pos = document.createElement("output");
    pos.id = "replay-position";
    pos.setAttribute("aria-live", "polite");
    controls.append(pos);
    const keys = document.createElement("p");
    keys.className = "muted";
    keys.textContent = t("replay.keys");

    const step = document.createElement("p");
    step.className = "replay-step";
    step.id = "replay-event";
    const table = document.createElement("div");
    table.className = "replay-seats";
    const kittyBox = document.createElement("div");
    kittyBox.className = "replay-kitty";

    const facts = document.createElement("p");
    facts.className = "mono";
    facts.textContent = `${t("replay.commitment")}: ${rec.commitment} · ${t("replay.seed")}: ${rec.seed} · ${t("replay.deltas")}: ${rec.deltas.join(", ")}`;
    const more = document.createElement("p");
    const link = document.createElement("a");
    link.href = "/verify";
    link.textContent = t("replay.verifyTable");
    more.append(link);
    root.append(verdict, controls, keys, step, kittyBox, table, facts, more);
    if (extra) root.append(extra);

    const snaps = snapshots(events, seats);
    // Open on the cards as dealt: the step right after the first HandDealt.
    let at = Math.max(0, events.findIndex((e) => e.type === "HandDealt") + 1);
    function draw() {
      const s = snaps[at];
      if (!s) return;
      pos.textContent = at === 0 ? t("replay.stepStart", { total: events.length }) : t("replay.step", { n: at, total: events.length });
      pos.dataset.step = String(at);
      first.disabled = prev.disabled = at === 0;
      next.disabled = last.disabled = at === events.length;
      const e = events[at - 1];
      if (e) step.replaceChildren(`#${e.version} · `, ...describeEvent(e, who, t));
      else step.textContent = t("replay.start");
      step.dataset.type = e?.type ?? "";
      table.replaceChildren(
        ...s.hands.map((hand, seat) => {
          const box = document.createElement("section");
          box.className = "replay-seat" + (s.acting === seat ? " acting" : "");
          box.dataset.seat = String(seat);
          const title = document.createElement("h3");
          title.textContent = who(seat) + " ";
          const count = document.createElement("span");
          count.className = "count";
          count.textContent = t("replay.cardsLeft", { n: hand.length });
          title.append(count);
          const bull = s.bulls[seat];
          box.append(title, bull ? renderNiuniu(hand, bull) : renderHand(hand, { label: who(seat) }).el);
          const played = s.last[seat];
          if (played) {
            const p = document.createElement("div");
            p.className = "played";
            const label = document.createElement("span");
            label.className = "muted";
            label.textContent = `${t("replay.lastPlay")}: ` + (played.length === 0 ? t("ev.PlayPassed", { who: "" }).trim() : "");
            p.append(label);
            if (played.length > 0) p.append(renderHand(played, { label: t("replay.lastPlay") }).el);
            box.append(p);
          }
          return box;
        }),
      );
      kittyBox.replaceChildren();
      if (s.kitty.length > 0) {
        const kh = document.createElement("h3");
        kh.textContent = t("replay.kitty");
        kittyBox.append(kh, renderHand(s.kitty, { label: t("replay.kitty") }).el);
      }
    }
    /** @param {number} to */
    const go = (to) => {
      at = Math.max(0, Math.min(events.length, to));
      draw();
    };
    first.addEventListener("click", () => go(0));
    prev.addEventListener("click", () => go(at - 1));
    next.addEventListener("click", () => go(at + 1));
    last.addEventListener("click", () => go(events.length));
    onKey = (e) => {
      const target = e.target;
      if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: events.length };
      if (e.key in moves) {
        e.preventDefault();
        go(moves[/** @type {keyof typeof moves} */ (e.key)]);
      }
    };
    document.addEventListener("keydown", onKey);
    draw();

    const res = await verifyHand(rec, events, t);
    if (gone) return;
    if (res.ok) {
      const table = await tableCheck();
      if (gone) return;
      res.lines.push(...table.lines);
      if (!table.ok) res.ok = false;
    }
    showVerdict(verdict, { ok: res.ok, title: res.ok ? t("verify.ok") : t("verify.bad"), lines: res.lines });
  })();
  return () => {
    gone = true;
    if (onKey) document.removeEventListener("keydown", onKey);
  };
}
