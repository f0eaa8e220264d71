// @ts-check
// The table page: the seats around the table (the caller at the bottom;
// name, cards left, who is on turn and the turn clock), each seat's move
// in the trick in front of it, the public facts, the caller's hand sorted
// in the game's order with the legal actions as buttons kept on screen
// (the dock), card plays by selection, 提示 (the bot's choice, selected by
// one /legal?hint=true), 升级's draw-all and last trick, 托管, the last
// settlement and its replay link. It follows the table live: each burst of events on
// the stream (/stream?legal=true with a ticket) fetches the view again.
// The legal actions for the empty selection come from the stream's legal
// message of the view's version when it brought one (it does for a seat
// the game awaits), else from /legal; a selection is always narrowed by
// /legal. Legal actions of another version than the view's are never
// shown.
//
// Under the title, the house rules the table plays away from the
// defaults (options.js), one item each in <ul class="table-options">.
//
// The root element carries what a test or an assistive tool reads:
//   <section class="table-page" data-table-id data-seat data-turn
//            data-phase data-version data-ready="true|false">
// data-ready is true once the view and the legal actions of data-version
// are shown.

import { ApiError } from "../api.js";
import { cardName, renderHand, renderNiuniu, sortCards, trumpSet } from "../cards.js";
import { kindName, phaseName } from "../games.js";
import { activeOptions } from "../options.js";
import { gameFacts, settlementFacts } from "./gamefacts.js";
import { handResult } from "./handresult.js";
import { register, t as tr } from "../i18n.js";

/** A selection's question dropped unasked: a command of the page began after the selection was read. */
class Superseded extends Error {
  constructor() {
    super("the selection was read before a command of this page");
    this.name = "Superseded";
  }
}

register({
  zh: {
    "table.felt": "牌桌",
    "table.trick": "本轮出牌",
    "table.lastTrick": "上一轮",
    "table.showLastTrick": "看上一轮",
    "table.passed": "不出",
    "table.hint": "提示",
    "table.noHint": "没有可以提示的出法。",
    "table.drawAll": "一键摸牌",
    "table.drawStop": "停止摸牌",
    "table.canDeclare": "可以亮主了：现在选牌亮主，或再点“一键摸牌”接着摸。",
  },
  en: {
    "table.felt": "The table",
    "table.trick": "This trick",
    "table.lastTrick": "Last trick",
    "table.showLastTrick": "Show the last trick",
    "table.passed": "Pass",
    "table.hint": "Hint",
    "table.noHint": "No play to suggest.",
    "table.drawAll": "Draw all",
    "table.drawStop": "Stop drawing",
    "table.canDeclare": "You can declare now: pick the cards to declare, or press “Draw all” again to go on.",
  },
});

/** @typedef {import("../app.js").AppContext} AppContext */
/** @typedef {import("../types.js").Table} Table */
/** @typedef {import("../types.js").LegalActions} LegalActions */
/** @typedef {import("../types.js").Action} Action */
/** @typedef {import("../types.js").Event} Event */
/** @typedef {import("../types.js").StreamTurn} StreamTurn */
/** @typedef {import("../cards.js").HandElement} HandElement */

/**
 * Every event type, so that the stream's named events all reach us
 * (an EventSource hands `event: <type>` messages only to listeners of
 * that name).
 * @type {Event["type"][]}
 */
const EVENT_TYPES = [
  "AloneDeclared", "AloneDeclined", "BidMade", "BidPassed", "BoutForfeited", "CallWon", "CardGiven", "CardTurned",
  "CardsDrawn", "CardsPlayed", "DealSecret", "DealsSecret", "DealVoided", "DeclarationTaken", "DeclarePassed",
  "FriendCalled", "FriendRevealed", "GrabDeclined", "GrabMade", "HandArranged", "HandDealt", "HandOpened",
  "HandSettled", "HandsRevealed", "KittyBuried", "KittyFlipped", "KittySwapClosed", "KittySwapOpened",
  "KittySwapped", "KittyTaken", "LandlordChosen", "LevelDropped", "MatchEnded", "PlayPassed", "PlayerEscaped",
  "PlayerLeft", "PlayerOut", "PlayerSeated", "RevealCalled", "SeatDelegated", "SeatReady", "SeatResumed", "TableClosed",
  "TableOpened", "TrickEnded", "TrickWon", "TrumpDeclared", "TrumpReinforced", "TrumpRevealed", "TurnTimedOut",
  "WatcherAdded", "WatcherRemoved",
];

/**
 * How long a load whose view is ahead of the stream waits for the stream to
 * tell that version's legal actions before it asks /legal instead. The
 * stream writes a version's events, turn and legal message together, so it
 * is only a bound for a stream that stalled without closing.
 */
const STREAM_WAIT_MS = 2000;

/** Actions that carry cards: posted from the selection. */
const CARD_TYPES = new Set(["play", "declare", "bury", "arrange", "call", "reinforce", "stick", "exchange", "swap"]);

/** Actions whose cards may lie outside the hand (guafeng's swap names a kitty card). */
const OFF_HAND_TYPES = new Set(["swap"]);

/** Actions that the 托管 toggle and the leave/escape row post, not the action bar. */
const TABLE_TYPES = new Set(["delegate", "resume", "escape", "leave", "continue"]);

/** The kind of card action a phase asks for, to name the button before the selection makes one. */
/** @type {Record<string, string>} */
const PHASE_KIND = { burying: "bury", arranging: "arrange", exchanging: "exchange" };

/**
 * A play's `as` reading in words: "straight:9" reads "straight 9".
 * @param {string} as
 */
function readingLabel(as) {
  return as
    .split(":")
    .map((p, i) => {
      if (i > 0) return p;
      const k = "combo." + p;
      return tr(k) === k ? p : tr(k);
    })
    .join(" ");
}

/**
 * @param {Action} a
 * @returns {string[] | null} the action's cards, or null for an action without cards
 */
function cardsOf(a) {
  return "cards" in a ? a.cards : null;
}

/**
 * Whether two card lists hold the same cards (as multisets).
 * @param {readonly string[]} a
 * @param {readonly string[]} b
 */
function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((c, i) => c === y[i]);
}

/**
 * Whether sel may still be part of a legal action, as far as the answer
 * for the empty selection tells: contained in a listed action's cards when
 * the list is complete, else each of its cards offered.
 * @param {LegalActions} l
 * @param {readonly string[]} sel
 */
function stillLegal(l, sel) {
  if (!sel.every((c) => l.extend.includes(c))) return false;
  if (!l.complete) return true;
  return l.actions.some((a) => {
    const left = [...(cardsOf(a) ?? [])];
    return sel.every((c) => {
      const i = left.indexOf(c);
      if (i < 0) return false;
      left.splice(i, 1);
      return true;
    });
  });
}

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
 * One seat's move in the trick shown: the cards it played, or a pass.
 * @typedef {{seat: number, cards: string[] | null, pass: boolean}} Move
 */

/**
 * The moves on the table that everyone sees, one per seat that has moved:
 * in the climbing games each seat's move in the current trick (its play or
 * its pass; the play to beat alone from a server whose view does not carry
 * them); in 升级 the running trick, or the last trick won while none runs or
 * when last asks for it.
 * @param {Table} v
 * @param {boolean} last 升级: show the last trick won
 * @returns {Move[]}
 */
function tableMoves(v, last) {
  switch (v.game) {
    case "doudizhu":
    case "shuangkou":
    case "dadun": {
      const gs = v.game_state;
      const moves = gs.trick_moves;
      if (!moves) {
        const lp = gs.last_play;
        return lp && lp.cards ? [{ seat: lp.seat, cards: lp.cards, pass: false }] : [];
      }
      /** @type {Move[]} */
      const out = [];
      moves.forEach((m, seat) => {
        if (!m) return;
        out.push("cards" in m ? { seat, cards: m.cards, pass: false } : { seat, cards: null, pass: true });
      });
      return out;
    }
    case "shengji": {
      const running = v.game_state.trick && v.game_state.trick.length > 0;
      const trick = running && !last ? v.game_state.trick : v.game_state.last_trick;
      return (trick ?? []).map((p) => ({ seat: p.seat, cards: p.cards, pass: false }));
    }
    case "niuniu":
      return [];
  }
}

/**
 * Where each seat sits around the table, seen from viewer's seat (at the
 * bottom; seat 0 for one who holds none): the next seat in turn to its
 * right, as at a real table. Null when the game seats more than four (牛牛),
 * whose seats are listed instead.
 * @param {number} n seats
 * @param {number} viewer
 * @returns {((seat: number) => string) | null}
 */
function placeSeats(n, viewer) {
  /** @type {Record<number, string[]>} */
  const ring = { 2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"] };
  const pos = ring[n];
  if (!pos) return null;
  return (seat) => pos[(seat - viewer + n) % n] ?? "top";
}

/**
 * The game's display order for cards (sortCards) as the view tells it.
 * @param {Table} v
 * @returns {import("../cards.js").SortOrder}
 */
function orderOf(v) {
  if (v.game === "shengji") return { game: v.game, trumpOrder: v.game_state.trump_order, sideOrder: v.game_state.side_order };
  return { game: v.game };
}

/**
 * Cards left per seat, where the game tells them.
 * @param {Table} v
 * @returns {(number | null)[]}
 */
function cardsLeft(v) {
  if (v.game === "niuniu") return v.seats.map(() => null);
  const left = v.game_state.cards_left;
  return v.seats.map((_, i) => (left ? left[i] ?? null : null));
}

/**
 * A stream message's JSON, or null when it is not JSON.
 * @param {unknown} data
 * @returns {unknown}
 */
function parseData(data) {
  if (typeof data !== "string") return null;
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}

/**
 * The data of an `event: legal` message: what /legal answers for the
 * empty selection at its version. Null for anything else.
 * @param {unknown} data
 * @returns {LegalActions | null}
 */
function legalMessage(data) {
  const v = parseData(data);
  if (!v || typeof v !== "object") return null;
  if (!("version" in v) || typeof v.version !== "number") return null;
  if (!("actions" in v) || !Array.isArray(v.actions) || !("extend" in v) || !Array.isArray(v.extend)) return null;
  if (!("complete" in v) || typeof v.complete !== "boolean" || !("selected" in v) || !Array.isArray(v.selected)) return null;
  return /** @type {LegalActions} */ (v);
}

/**
 * The data of an `event: turn` message, or null.
 * @param {unknown} data
 * @returns {StreamTurn | null}
 */
function turnMessage(data) {
  const v = parseData(data);
  if (!v || typeof v !== "object") return null;
  if (!("version" in v) || typeof v.version !== "number" || !("awaited_seats" in v) || !Array.isArray(v.awaited_seats)) return null;
  return /** @type {StreamTurn} */ (v);
}

/**
 * @param {HTMLElement} root
 * @param {Record<string, string>} params
 * @param {AppContext} ctx
 * @returns {() => void}
 */
export function render(root, params, ctx) {
  const { t, api } = ctx;
  const id = params.id ?? "";
  const page = el("section", "table-page");
  page.dataset.tableId = id;
  page.dataset.ready = "false";
  const title = el("h1", undefined, t("page.table"));
  const info = el("p", "table-info muted");
  const rulesEl = el("ul", "table-options");
  rulesEl.setAttribute("aria-label", t("opt.active"));
  const status = el("p", "status");
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  // Tells a screen reader once when the turn comes to the caller.
  const announce = el("p", "announce");
  announce.setAttribute("aria-live", "assertive");
  let myTurn = false;
  const seatsEl = el("ol", "seats");
  seatsEl.setAttribute("aria-label", t("table.seats"));
  const publicEl = el("section", "public");
  publicEl.setAttribute("aria-label", t("table.public"));
  const handBox = el("section", "my-hand");
  handBox.setAttribute("aria-label", t("table.yourHand"));
  const actionsEl = el("div", "actions");
  actionsEl.setAttribute("role", "toolbar");
  actionsEl.setAttribute("aria-label", t("table.actions"));
  const tableRow = el("div", "table-actions");
  const settleEl = el("section", "settlement");
  const arrangeEl = el("div", "arrangement");
  // The table: the seats around it (the caller at the bottom), the moves
  // of the trick in front of each seat, the public facts in the middle.
  const felt = el("div", "felt");
  felt.setAttribute("role", "group");
  felt.setAttribute("aria-label", t("table.felt"));
  felt.append(seatsEl, publicEl);
  // The caller's hand and its actions: kept on screen (sticky at the
  // bottom of a small screen) however long the table above.
  const dock = el("div", "dock");
  dock.append(handBox, actionsEl);
  // Between hands at a table that waits: the hand's result and 继续.
  const result = handResult(api, id, (a) => void post(a));
  page.append(title, info, rulesEl, status, announce, felt, dock, tableRow, result.element, settleEl);
  root.append(page);

  // --- Share and export (js/tableextras.js), apart from the play: a private
  // table's room code and share link, the export download, and the room code
  // form for a visitor refused for want of the code.
  void import("../tableextras.js").then((m) => page.append(m.tableExtras(id, ctx)));
  // ---

  /** @type {Table | null} */
  let view = null;
  /** The legal actions shown: for the selection, at the view's version. */
  /** @type {LegalActions | null} */
  let legal = null;
  /** The legal actions for the empty selection at the view's version. */
  /** @type {LegalActions | null} */
  let legalEmpty = null;
  /** @type {HandElement | null} */
  let hand = null;
  /** @type {string[]} */
  let selection = [];
  /** What the shown hand was drawn from (its cards, order and trump marks): redrawn when it changes. */
  let handKey = "";
  /** 升级: the last trick is shown instead of the running one. */
  let showLast = false;
  /** The hint shown (提示), until the selection or the table changes. */
  /** @type {Action | null} */
  let hinted = null;
  /** 升级: drawing every card in turn (一键摸牌), and the declarations possible when it last looked. */
  let drawingAll = false;
  /** @type {Set<string>} */
  let declarable = new Set();
  let drawPending = false;
  let closed = false;
  let busy = false;
  /** @type {EventSource | null} */
  let source = null;
  let lastVersion = 0;
  /** The highest global position of an event the stream has brought. */
  let lastPosition = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let retry;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let reload;
  let loadSeq = 0;
  /** The version of the view the current load fetched (0: none yet). */
  let loadingVersion = 0;

  // What the open stream has told: the highest version it reached (an
  // event's id, a turn message's version), its last turn message, and
  // whether it brings legal messages at all (a server that ignores
  // ?legal=true sends none). `pushed` is the latest legal message, from
  // whichever stream brought it: it is the answer for its version, and
  // only for that version is it used.
  let streamVersion = 0;
  /** @type {StreamTurn | null} */
  let streamTurn = null;
  let streamLegal = false;
  /** @type {LegalActions | null} */
  let pushed = null;
  /** Loads waiting for the stream to reach a version: resolved when it does, or stops. */
  /** @type {{version: number, seat: number, done: () => void}[]} */
  let waiters = [];

  // /legal is a costly read the server lets a caller run only a few of at
  // once (quota-costly-reads): the page asks one at a time. The page's own
  // commands (act) take their turn in the same queue, and `posted` counts
  // those begun: a selection read from the table before a command began
  // is not asked about after it, since the command may have played its
  // cards and the server would refuse the selection.
  /** @type {Promise<unknown>} */
  let legalQueue = Promise.resolve();
  let posted = 0;
  /**
   * Runs fn once everything queued before it has ended.
   * @template T
   * @param {() => Promise<T>} fn
   * @returns {Promise<T>}
   */
  function inTurn(fn) {
    const p = legalQueue.then(fn);
    legalQueue = p.catch(() => undefined);
    return p;
  }
  /**
   * @param {string[]} [sel]
   * @param {number} [basis] `posted` when the table sel is of was read
   * @returns {Promise<LegalActions>}
   */
  function legalFor(sel, basis = posted) {
    return inTurn(() => {
      if (sel && sel.length > 0 && posted !== basis) throw new Superseded();
      return api.legal(id, sel);
    });
  }

  /** @param {unknown} err */
  function showError(err) {
    status.textContent = ctx.describe(err);
    status.classList.add("error");
  }

  function clearStatus() {
    status.textContent = "";
    status.classList.remove("error");
  }

  /**
   * Whether the stream has told all it will of version for seat: its legal
   * message (or a later one), a turn message of that version without the
   * seat, a later version; or it is no longer open.
   * @param {number} version
   * @param {number} seat
   */
  function streamTold(version, seat) {
    if (!source || source.readyState !== EventSource.OPEN) return true;
    if ((pushed !== null && pushed.version >= version) || streamVersion > version) return true;
    return streamTurn !== null && streamTurn.version === version && !streamTurn.awaited_seats.includes(seat);
  }

  /** Resolves the loads waiting on what the stream has now told. */
  function wakeWaiters() {
    for (const w of [...waiters]) {
      if (streamTold(w.version, w.seat)) w.done();
    }
  }

  /**
   * Waits until the stream has told all it will of version for seat
   * (streamTold), for STREAM_WAIT_MS at most.
   * @param {number} version
   * @param {number} seat
   * @returns {Promise<void>}
   */
  function untilStream(version, seat) {
    return new Promise((resolve) => {
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let timer;
      const done = () => {
        clearTimeout(timer);
        waiters = waiters.filter((w) => w.done !== done);
        resolve();
      };
      timer = setTimeout(done, STREAM_WAIT_MS);
      waiters.push({ version, seat, done });
    });
  }

  /**
   * The legal actions for the empty selection at view v's version: the
   * stream's legal message of that version, waiting for it while the
   * stream owes it, else /legal's answer (which may name a later version
   * when the table moved meanwhile: the caller checks). Null when the
   * stream has already gone past v (its events will bring a newer view,
   * maybe with its legal message) and retry allows reading the view again.
   * @param {Table} v
   * @param {() => boolean} stale
   * @param {boolean} retry
   * @returns {Promise<LegalActions | null>}
   */
  async function emptyLegal(v, stale, retry) {
    if (pushed?.version === v.version) return pushed;
    if (v.seat !== null && streamLegal && source && source.readyState === EventSource.OPEN) {
      // A stream that brings legal messages and has yet to tell this
      // version is behind the view by a moment: it writes a version's
      // events, turn and legal message together.
      if (!streamTold(v.version, v.seat)) await untilStream(v.version, v.seat);
      if (stale()) return null;
      // Read again: the wait may have brought it.
      const got = /** @type {LegalActions | null} */ (pushed);
      if (got?.version === v.version) return got;
      if (retry && streamVersion > v.version) return null;
    }
    return legalFor();
  }

  /**
   * Loads the view and the legal actions for the empty selection (and for
   * the selection, if it still holds), all of one version, and draws them.
   */
  async function load() {
    const seq = ++loadSeq;
    const stale = () => seq !== loadSeq || closed;
    loadingVersion = 0;
    try {
      // The table may move between the reads; a few tries get one version
      // of everything, and a table that keeps moving is loaded again soon.
      for (let tries = 1; ; tries++) {
        const basis = posted;
        const v = await api.table(id);
        if (stale()) return;
        loadingVersion = v.version;
        const seated = v.seat !== null && !v.closed;
        /** @type {LegalActions | null} */
        let empty = null;
        if (seated) {
          empty = await emptyLegal(v, stale, tries < 3);
          if (stale()) return;
          if (!empty) continue;
        }
        const handChanged = !view || view.hand_number !== v.hand_number || !sameCards(view.hand, v.hand);
        let sel = handChanged ? [] : selection;
        let l = empty;
        if (seated && empty && sel.length > 0) {
          // The same hand: keep the selection if it is still part of a legal
          // action. What the empty selection's answer already tells is checked
          // here, so that a selection the table moved past is dropped without
          // a request the server must refuse.
          if (!stillLegal(empty, sel)) sel = [];
          else {
            try {
              l = await legalFor(sel, basis);
            } catch {
              sel = [];
            }
            if (stale()) return;
          }
        }
        if ((empty && empty.version !== v.version) || (l && l.version !== v.version)) {
          if (tries < 3) continue;
          loadingVersion = 0;
          clearTimeout(reload);
          reload = setTimeout(() => {
            if (!closed && seq === loadSeq) void load();
          }, 500);
          return;
        }
        if (sel.length === 0 && selection.length > 0 && !handChanged) hand?.clear();
        if (view && view.version !== v.version) hinted = null;
        view = v;
        legalEmpty = empty;
        legal = sel.length > 0 ? l : empty;
        selection = sel;
        lastVersion = Math.max(lastVersion, v.version);
        draw(handChanged);
        page.dataset.ready = "true";
        autoDraw();
        return;
      }
    } catch (err) {
      if (seq !== loadSeq) return;
      // Nothing of this load is shown: the stream's next burst loads again.
      loadingVersion = 0;
      showError(err);
      // The stream brings nothing more while the table waits on this seat,
      // so a load lost to a passing fault (the network, a busy server) is
      // tried again rather than leaving the page on a turn it has not shown.
      if (transient(err)) {
        clearTimeout(reload);
        reload = setTimeout(() => {
          if (!closed && seq === loadSeq) void load();
        }, 2000);
      }
    }
  }

  /**
   * @param {unknown} err
   * @returns {boolean}
   */
  function transient(err) {
    if (!(err instanceof ApiError)) return true;
    return err.status === 429 || err.status >= 500;
  }

  /** @param {boolean} redrawHand */
  function draw(redrawHand) {
    const v = view;
    if (!v) return;
    keepFocus(() => drawAll(v, redrawHand));
    const mine = v.seat !== null && v.turn === v.seat;
    if (mine && !myTurn) announce.textContent = t("table.yourTurn");
    if (!mine) announce.textContent = "";
    myTurn = mine;
  }

  /**
   * Redraws while keeping the keyboard where it was: on the same action
   * or card if it is still there, else on the first card of the hand.
   * @param {() => void} fn
   */
  function keepFocus(fn) {
    const f = document.activeElement;
    const inside = f instanceof HTMLElement && page.contains(f);
    const action = inside ? f.dataset.action : undefined;
    const card = inside ? f.dataset.card : undefined;
    fn();
    if (!inside || (document.activeElement instanceof HTMLElement && page.contains(document.activeElement))) return;
    /** @type {HTMLElement | null} */
    let next = null;
    if (action) next = page.querySelector(`button[data-action="${CSS.escape(action)}"]:not([disabled])`);
    if (!next && card) next = page.querySelector(`.my-hand button[data-card="${CSS.escape(card)}"]:not([disabled])`);
    next ??= page.querySelector(".my-hand button.card:not([disabled]), .actions button:not([disabled])");
    next?.focus();
  }

  /**
   * @param {Table} v
   * @param {boolean} redrawHand
   */
  function drawAll(v, redrawHand) {
    page.dataset.seat = v.seat === null ? "" : String(v.seat);
    page.dataset.turn = v.turn === null ? "" : String(v.turn);
    page.dataset.phase = v.phase;
    page.dataset.version = String(v.version);
    // Hand 0 is no hand: the table waits for its first.
    title.textContent = `${kindName(v.game, v.variant)} · ${v.hand_number > 0 ? t("table.handN", { n: v.hand_number }) : t("table.firstHand")}`;
    document.title = `${title.textContent} · ${t("app.title")}`;
    info.textContent = [
      phaseName(v.game, v.phase),
      t("table.stake", { n: v.stake }),
      v.clock && v.clock.turn_seconds > 0 ? t("table.clock", { n: v.clock.turn_seconds }) : t("table.noClock"),
      v.closed ? t("table.closed") : "",
    ].filter(Boolean).join(" · ");
    drawRules(v);
    drawSeats(v);
    drawPublic(v);
    if (redrawHand || !hand || handKeyOf(v) !== handKey) drawHand(v);
    drawArrangement(v);
    drawActions(v);
    drawSettlement(v);
    result.update(v);
  }

  /** @param {Table} v */
  function drawRules(v) {
    const items = activeOptions(v.game, v.variant, v.options);
    const now = JSON.stringify(items);
    if (rulesEl.dataset.shown === now) return; // fixed for the table's life: drawn once
    rulesEl.dataset.shown = now;
    rulesEl.replaceChildren(...items.map((o) => {
      const li = el("li", undefined, o.text);
      li.dataset.option = o.key;
      return li;
    }));
  }

  /** @param {Table} v */
  function drawSeats(v) {
    const left = cardsLeft(v);
    const landlord = v.game === "doudizhu" ? v.game_state.landlord : null;
    const place = placeSeats(v.seats.length, v.seat ?? 0);
    felt.classList.toggle("ring", place !== null);
    seatsEl.replaceChildren(
      ...v.seats.map((s, i) => {
        const li = el("li", "seat");
        li.dataset.seat = String(s.seat);
        if (place) li.dataset.pos = place(s.seat);
        const onTurn = v.turn === s.seat;
        li.dataset.turn = onTurn ? "true" : "false";
        if (onTurn) li.setAttribute("aria-current", "true");
        if (s.seat === v.seat) li.classList.add("me");
        const name = el("span", "name", s.name ?? t("table.emptySeat"));
        const meta = el("span", "meta");
        /** @type {string[]} */
        const bits = [];
        if (s.seat === v.seat) bits.push(t("table.you"));
        if (landlord !== null && landlord !== undefined) bits.push(landlord === s.seat ? t("doudizhu.landlord") : t("doudizhu.farmer"));
        const n = left[i];
        if (n !== null && n !== undefined) bits.push(t("table.cardsLeft", { n }));
        bits.push(t("table.total", { n: s.total }));
        if (s.bot) bits.push(t("table.bot"));
        if (s.delegated) bits.push(t("table.delegated"));
        meta.textContent = bits.join(" · ");
        li.append(name, meta);
        if (onTurn) {
          const turn = el("span", "turn-mark", t("table.onTurn"));
          li.append(turn);
        }
        if (s.deadline) {
          const clock = el("span", "clock");
          clock.dataset.deadline = s.deadline;
          clock.setAttribute("role", "timer");
          li.append(clock);
        }
        return li;
      }),
    );
    tick();
  }

  /** Counts every shown turn clock down from its deadline. */
  function tick() {
    for (const c of seatsEl.querySelectorAll(".clock")) {
      if (!(c instanceof HTMLElement) || !c.dataset.deadline) continue;
      const ms = Date.parse(c.dataset.deadline) - Date.now();
      const s = Math.max(0, Math.ceil(ms / 1000));
      c.textContent = t("table.secondsLeft", { n: s });
      c.classList.toggle("urgent", s <= 5);
    }
  }
  const ticker = setInterval(tick, 250);

  /** @param {Table} v */
  function drawPublic(v) {
    publicEl.replaceChildren();
    const name = (/** @type {number} */ seat) => v.seats[seat]?.name ?? t("table.seatN", { n: seat + 1 });
    const h = el("h2", undefined, t("table.public"));
    publicEl.append(h);
    if (v.game === "doudizhu") {
      const gs = v.game_state;
      /** @type {string[]} */
      const facts = [t("doudizhu.multiplier", { n: gs.multiplier })];
      if (gs.bid > 0) facts.push(t("doudizhu.bid", { n: gs.bid }));
      publicEl.append(el("p", "facts", facts.join(" · ")));
      if (gs.bids && gs.bids.length > 0 && gs.landlord === null) {
        const ul = el("ul", "bids");
        for (const b of gs.bids) ul.append(el("li", undefined, `${name(b.seat)}: ${b.pass ? t("action.pass") : t("action.bid", { n: b.bid ?? 0 })}`));
        publicEl.append(ul);
      }
      if (gs.kitty) {
        const k = el("div", "kitty");
        k.append(el("span", "label", t("table.kitty")), renderHand(gs.kitty, { label: t("table.kitty") }).el);
        publicEl.append(k);
      }
      if (gs.open && gs.open_hand && gs.landlord !== null) {
        const o = el("div", "open-hand");
        o.append(el("span", "label", t("doudizhu.openHand")), renderHand(gs.open_hand, { label: t("doudizhu.openHand") }).el);
        publicEl.append(o);
      }
    }
    if (v.game === "shengji") {
      const gs = v.game_state;
      /** @type {string[]} */
      const facts = [];
      if (gs.level) facts.push(t("shengji.level", { r: gs.level }));
      facts.push(gs.trump ? t("shengji.trump", { s: gs.trump === "none" ? t("shengji.noTrump") : t("suit." + gs.trump) }) : t("shengji.trumpUnknown"));
      // Null while the hand runs at a table with show_points false.
      if (typeof gs.defender_points === "number") facts.push(t("shengji.points", { n: gs.defender_points }));
      publicEl.append(el("p", "facts", facts.join(" · ")));
    }
    if (v.game === "niuniu") {
      const gs = v.game_state;
      if (gs.banker !== null) publicEl.append(el("p", "facts", t("niuniu.banker", { name: name(gs.banker) })));
      // The reveal of the hand before is cleared once a new hand is dealt.
      if (gs.last_reveal && gs.last_reveal.hands && v.phase !== "arranging") {
        const ul = el("ul", "reveal");
        for (const rh of gs.last_reveal.hands) {
          const li = el("li");
          li.append(el("span", "who", `${name(rh.seat)}: ${t("niuniu.reading." + rh.reading)}`), renderNiuniu(rh.cards ?? [], rh.bull));
          ul.append(li);
        }
        publicEl.append(ul);
      }
    }
    publicEl.append(...gameFacts(v, name));
    drawTrick(v, name);
  }

  /**
   * The moves of the trick, each in front of its seat: the cards played (the
   * one winning so far starred), or the word for a pass. 升级 can show the
   * last trick won instead of the running one (a toggle).
   * @param {Table} v
   * @param {(seat: number) => string} name
   */
  function drawTrick(v, name) {
    if (v.game === "niuniu") return;
    const gs = v.game_state;
    const running = v.game === "shengji" && !!v.game_state.trick && v.game_state.trick.length > 0;
    const hasLast = v.game === "shengji" && !!v.game_state.last_trick && v.game_state.last_trick.length > 0;
    if (!running || !hasLast) showLast = false;
    const moves = tableMoves(v, showLast);
    const place = placeSeats(v.seats.length, v.seat ?? 0);
    const trick = el("div", "trick");
    trick.setAttribute("role", "group");
    const lastShown = v.game === "shengji" && (showLast || (!running && hasLast));
    trick.classList.toggle("last", lastShown);
    trick.setAttribute("aria-label", lastShown ? t("table.lastTrick") : t("table.trick"));
    if (running && hasLast) {
      const tg = el("button", "toggle last-trick secondary", t("table.showLastTrick"));
      tg.type = "button";
      tg.dataset.action = "last-trick";
      tg.setAttribute("aria-pressed", showLast ? "true" : "false");
      tg.addEventListener("click", () => {
        showLast = !showLast;
        const cur = view;
        if (cur) keepFocus(() => drawPublic(cur));
      });
      publicEl.append(tg);
    }
    if (lastShown) trick.append(el("p", "trick-label", t("table.lastTrick")));
    if (moves.length === 0) {
      publicEl.append(el("p", "muted", t("table.noPlays")));
      return;
    }
    // The play to beat (climbing games) or winning the trick so far (升级).
    const best = v.game === "shengji" ? (lastShown ? null : v.game_state.trick_winner) : "last_play" in gs ? gs.last_play?.seat ?? null : null;
    const trumps = v.game === "shengji" ? trumpSet(v.game_state.trump_order) : new Set();
    const order = orderOf(v);
    for (const m of moves) {
      const row = el("div", "play");
      row.dataset.seat = String(m.seat);
      if (place) row.dataset.pos = place(m.seat);
      if (m.seat === best) row.classList.add("winning");
      row.append(el("span", "who", name(m.seat)));
      if (m.pass || !m.cards) {
        row.classList.add("pass");
        row.append(el("span", "pass-word", t("table.passed")));
      } else {
        row.append(renderHand(sortCards(m.cards, order), { trumps, label: t("table.playOf", { name: name(m.seat) }) }).el);
      }
      trick.append(row);
    }
    publicEl.append(trick);
  }

  /**
   * What the hand is drawn from: its cards in display order and the trumps
   * marked.
   * @param {Table} v
   */
  function handKeyOf(v) {
    const trumps = v.game === "shengji" ? [...trumpSet(v.game_state.trump_order)].join(",") : "";
    return `${v.seat}|${sortCards(v.hand, orderOf(v)).join(",")}|${trumps}`;
  }

  /** @param {Table} v */
  function drawHand(v) {
    handKey = handKeyOf(v);
    handBox.replaceChildren(el("h2", undefined, v.seat === null ? t("table.watching") : t("table.yourHand")));
    hand = null;
    if (v.seat === null) {
      const free = v.seats.some((s) => s.player_id === null);
      if (free && !v.closed) {
        const join = el("button", "join", t("lobby.join"));
        join.type = "button";
        join.addEventListener("click", () => void act(() => api.join(id)));
        handBox.append(join);
      }
      return;
    }
    const trumps = v.game === "shengji" ? trumpSet(v.game_state.trump_order) : undefined;
    hand = renderHand(sortCards(v.hand, orderOf(v)), {
      selectable: true,
      label: t("table.yourHand"),
      ...(trumps ? { trumps } : {}),
      onChange: (sel) => void select(sel),
    });
    hand.select(selection);
    handBox.append(hand.el);
    handBox.append(arrangeEl);
  }

  /**
   * 牛牛: the caller's standing arrangement, the bull's three cards apart
   * from the other two.
   * @param {Table} v
   */
  function drawArrangement(v) {
    arrangeEl.replaceChildren();
    if (v.game !== "niuniu" || !v.game_state.arrangement) return;
    const arr = v.game_state.arrangement;
    arrangeEl.append(el("p", "muted", t("niuniu.arranged", { r: t("niuniu.reading." + arr.reading) })), renderNiuniu(v.hand, arr.cards));
  }

  /**
   * The selection changed: ask /legal what it allows. The empty selection's
   * answer of the shown version is at hand already.
   * @param {string[]} sel
   */
  async function select(sel) {
    const basis = posted;
    selection = sel;
    if (hinted && !sameCards(cardsOf(hinted) ?? [], sel)) hinted = null;
    page.dataset.ready = "false";
    const seq = ++loadSeq;
    loadingVersion = 0;
    try {
      const l = sel.length === 0 && legalEmpty && legalEmpty.version === view?.version ? legalEmpty : await legalFor(sel, basis);
      if (seq !== loadSeq || closed || !view) return;
      if (l.version !== view.version) {
        // The table moved on: show it, and the selection's actions at its new version.
        await load();
        return;
      }
      legal = l;
      clearStatus();
      const v = view;
      keepFocus(() => drawActions(v));
      page.dataset.ready = "true";
    } catch (err) {
      // A command began since the card was picked: the load that follows
      // it shows the table as the command left it.
      if (seq !== loadSeq || err instanceof Superseded) return;
      if (err instanceof ApiError && err.code === "selection_not_legal") {
        // The last card picked makes no legal play: take it back.
        selection = sel.slice(0, -1);
        hand?.select(selection);
        status.textContent = t("table.notLegal");
        await select(selection);
        return;
      }
      showError(err);
    }
  }

  /**
   * A label for an action button.
   * @param {Action} a
   */
  function actionLabel(a) {
    switch (a.type) {
      case "bid":
        return t("action.bid", { n: a.bid });
      case "pass": {
        // What passing gives up: a bid, a grab, a declaration, going alone, the kitty swap, a play.
        if (legal?.actions.some((x) => x.type === "alone")) return t("action.passAlone");
        const k = view ? `action.pass.${view.game}.${view.phase}` : "";
        return k && t(k) !== k ? t(k) : t("action.pass");
      }
      case "play":
        return a.as ? t("action.playAs", { r: readingLabel(a.as) }) : t("action.play");
      default:
        return t("action." + a.type);
    }
  }

  /** @param {Table} v */
  function drawActions(v) {
    actionsEl.replaceChildren();
    tableRow.replaceChildren();
    const l = legal;
    if (!l || v.seat === null) return;
    const extend = new Set(l.extend);
    // Cards that no legal action would take with the selection are shown dimmed and cannot be picked.
    if (hand) {
      // Not the caller's turn to play cards: the hand stays readable, not dimmed.
      const cardsNow = l.extend.length > 0 || selection.length > 0 || l.actions.some((a) => CARD_TYPES.has(a.type));
      hand.el.classList.toggle("idle", !cardsNow);
      for (const c of hand.el.querySelectorAll("button.card")) {
        if (!(c instanceof HTMLButtonElement)) continue;
        const picked = c.getAttribute("aria-pressed") === "true";
        c.disabled = !picked && !extend.has(c.dataset.card ?? "");
      }
    }
    // Card-less game actions: bids, pass, grab, draw, ...
    for (const a of l.actions) {
      if (CARD_TYPES.has(a.type) || TABLE_TYPES.has(a.type)) continue;
      actionsEl.append(actionButton(a, actionLabel(a)));
    }
    // Actions with cards: one button per kind the game allows now, enabled
    // when the selection is exactly one of them.
    // An action with cards the hand does not hold (升级 guafeng's kitty
    // swap names a kitty card) cannot be picked from the hand: it gets a
    // button of its own, its cards written out.
    const inHand = (/** @type {Action} */ a) => {
      const left = [...v.hand];
      return (cardsOf(a) ?? []).every((c) => {
        const i = left.indexOf(c);
        if (i < 0) return false;
        left.splice(i, 1);
        return true;
      });
    };
    for (const a of l.actions) {
      if (!OFF_HAND_TYPES.has(a.type) || inHand(a)) continue;
      const b = actionButton(a, `${t("action." + a.type)}: ${(cardsOf(a) ?? []).map(cardName).join(" → ")}`);
      b.classList.add("direct");
      actionsEl.append(b);
    }
    const withCards = l.actions.filter((a) => CARD_TYPES.has(a.type) && (!OFF_HAND_TYPES.has(a.type) || inHand(a)));
    /** @type {Set<string>} */
    const kinds = new Set(withCards.map((a) => a.type));
    if (kinds.size === 0 && (l.extend.length > 0 || selection.length > 0)) kinds.add(PHASE_KIND[v.phase] ?? "play");
    for (const kind of kinds) {
      const exact = withCards.filter((a) => a.type === kind && sameCards(cardsOf(a) ?? [], selection));
      if (exact.length === 0) {
        const b = el("button", "primary", t("action." + kind));
        b.type = "button";
        b.disabled = true;
        b.dataset.action = kind;
        actionsEl.append(b);
      } else {
        for (const a of exact) {
          const b = actionButton(a, actionLabel(a));
          b.classList.add("primary");
          actionsEl.append(b);
        }
      }
    }
    // 提示: the bot's choice for the seat (one /legal request), shown selected.
    const empty = legalEmpty ?? l;
    const gameTurn = empty.extend.length > 0 || empty.actions.some((a) => !TABLE_TYPES.has(a.type));
    if (gameTurn && v.phase !== "drawing" && v.game !== "niuniu") {
      const b = el("button", "secondary hint", t("table.hint"));
      b.type = "button";
      b.dataset.action = "hint";
      b.addEventListener("click", () => void showHint());
      actionsEl.append(b);
    }
    // 升级's draw: one click draws every card in turn (autoDraw), until a
    // new declaration becomes possible or the caller stops it.
    if (v.game === "shengji" && v.phase === "drawing") {
      const b = el("button", "secondary toggle draw-all", drawingAll ? t("table.drawStop") : t("table.drawAll"));
      b.type = "button";
      b.dataset.action = "draw-all";
      b.setAttribute("aria-pressed", drawingAll ? "true" : "false");
      b.addEventListener("click", () => {
        drawingAll = !drawingAll;
        declarable = declarations(legalEmpty);
        if (drawingAll) clearStatus();
        const cur = view;
        if (cur) keepFocus(() => drawActions(cur));
        autoDraw();
      });
      actionsEl.append(b);
    }
    // 牛牛: every bull of a hand leaves the same two cards' points, so the
    // first the server lists is as good as any: one click arranges it.
    const firstBull = v.game === "niuniu" && selection.length === 0 ? l.actions.find((a) => a.type === "arrange") : undefined;
    if (firstBull) {
      const b = actionButton(firstBull, t("niuniu.auto"));
      b.classList.add("auto");
      b.dataset.action = "arrange-auto";
      actionsEl.append(b);
    }
    if (selection.length > 0) {
      const c = el("button", "secondary", t("table.clear"));
      c.type = "button";
      c.dataset.action = "clear";
      c.addEventListener("click", () => {
        hand?.clear();
        void select([]);
      });
      actionsEl.append(c);
    }
    // 托管 and leaving.
    const me = v.seats.find((s) => s.seat === v.seat);
    const canDelegate = l.actions.some((a) => a.type === "delegate");
    const canResume = l.actions.some((a) => a.type === "resume");
    if (canDelegate || canResume || me?.delegated) {
      const tg = el("button", "toggle delegate", t("action.delegate"));
      tg.type = "button";
      tg.setAttribute("aria-pressed", me?.delegated ? "true" : "false");
      tg.dataset.action = me?.delegated ? "resume" : "delegate";
      tg.disabled = me?.delegated ? !canResume : !canDelegate;
      tg.addEventListener("click", () => void post(me?.delegated ? { type: "resume" } : { type: "delegate" }));
      tableRow.append(tg);
    }
    for (const a of l.actions) {
      if (a.type === "leave") {
        const b = actionButton(a, t("action.leave"));
        b.classList.add("secondary");
        tableRow.append(b);
      }
      if (a.type === "escape") {
        // Escaping costs a penalty: the first click only asks, the second (within 5 s) escapes.
        const b = el("button", "secondary escape", t("action.escape"));
        b.type = "button";
        b.dataset.action = "escape";
        /** @type {ReturnType<typeof setTimeout> | undefined} */
        let disarm;
        b.addEventListener("click", () => {
          if (b.dataset.armed === "true") {
            clearTimeout(disarm);
            void post(a);
            return;
          }
          b.dataset.armed = "true";
          b.textContent = t("action.escapeConfirm");
          disarm = setTimeout(() => {
            b.dataset.armed = "false";
            b.textContent = t("action.escape");
          }, 5000);
        });
        tableRow.append(b);
      }
    }
  }

  /**
   * @param {Action} a
   * @param {string} label
   */
  function actionButton(a, label) {
    const b = el("button", undefined, label);
    b.type = "button";
    b.dataset.action = a.type;
    if (hinted && sameAction(a, hinted)) b.classList.add("hinted");
    b.addEventListener("click", () => void post(a));
    return b;
  }

  /**
   * 提示: asks /legal for the hint (the bot's choice for the caller's seat),
   * which comes narrowed to the hint's cards: the hint is shown selected,
   * its action ready to post, for one request.
   */
  async function showHint() {
    const v = view;
    if (!v || busy) return;
    const seq = ++loadSeq;
    loadingVersion = 0;
    page.dataset.ready = "false";
    try {
      const l = await inTurn(
        () => /** @type {Promise<LegalActions>} */ (api.json("GET", `/v1/tables/${encodeURIComponent(id)}/legal`, { query: { hint: "true" } })),
      );
      if (seq !== loadSeq || closed || view !== v) return;
      if (l.version !== v.version) {
        await load();
        return;
      }
      if (!l.hint) {
        status.textContent = t("table.noHint");
        page.dataset.ready = "true";
        return;
      }
      hinted = l.hint;
      selection = [...l.selected];
      hand?.select(selection);
      legal = l;
      clearStatus();
      keepFocus(() => drawActions(v));
      const b = page.querySelector(".actions button.hinted:not([disabled])");
      if (b instanceof HTMLElement) b.focus();
      page.dataset.ready = "true";
    } catch (err) {
      if (seq !== loadSeq) return;
      showError(err);
      page.dataset.ready = "true";
    }
  }

  /**
   * The declarations (and reinforcements, sticks) an answer offers, as keys.
   * @param {LegalActions | null} l
   * @returns {Set<string>}
   */
  function declarations(l) {
    const keys = (l?.actions ?? [])
      .filter((a) => a.type === "declare" || a.type === "reinforce" || a.type === "stick")
      .map((a) => `${a.type}:${[...(cardsOf(a) ?? [])].sort().join(",")}`);
    return new Set(keys);
  }

  /**
   * 一键摸牌: while drawingAll, posts a draw whenever the shown version lets
   * the caller draw. It stops when the phase ends or a declaration the
   * caller could not make before becomes possible (said in the status, so
   * that the caller may declare at that card); every declaration stays
   * offered at each card meanwhile.
   */
  function autoDraw() {
    const v = view;
    if (!drawingAll || !v || busy || drawPending || closed) return;
    const l = legalEmpty;
    if (v.phase !== "drawing" || v.seat === null) {
      drawingAll = false;
      return;
    }
    if (!l || l.version !== v.version) return;
    const now = declarations(l);
    const fresh = [...now].some((k) => !declarable.has(k));
    declarable = now;
    if (fresh) {
      drawingAll = false;
      status.textContent = t("table.canDeclare");
      announce.textContent = t("table.canDeclare");
      keepFocus(() => drawActions(v));
      return;
    }
    const d = l.actions.find((a) => a.type === "draw");
    if (!d || selection.length > 0) return; // not the caller's draw: the stream's next burst loads again
    drawPending = true;
    setTimeout(() => {
      drawPending = false;
      // Any seat may draw the next round, the bots too: a draw that comes
      // after the last round (wrong_phase) lost that race, nothing more,
      // and the table is loaded again without an error shown.
      if (drawingAll && view === v && !busy && !closed) {
        void act(() => api.act(id, d), (err) => err instanceof ApiError && err.status === 409 && err.code === "wrong_phase");
      }
    }, 0);
  }

  /**
   * Whether two actions are the same action.
   * @param {Action} a
   * @param {Action} b
   */
  function sameAction(a, b) {
    return (
      a.type === b.type &&
      ("bid" in a ? a.bid : undefined) === ("bid" in b ? b.bid : undefined) &&
      ("as" in a ? a.as ?? "" : "") === ("as" in b ? b.as ?? "" : "") &&
      sameCards(cardsOf(a) ?? [], cardsOf(b) ?? [])
    );
  }

  /** @param {Action} a */
  function post(a) {
    return act(() => api.act(id, a));
  }

  /**
   * Runs one command, then shows the table as it left it.
   * @param {() => Promise<unknown>} fn
   * @param {(err: unknown) => boolean} [expected] a refusal not shown as an error
   */
  async function act(fn, expected) {
    if (busy) return;
    busy = true;
    page.dataset.ready = "false";
    for (const b of page.querySelectorAll(".actions button, .table-actions button")) {
      if (b instanceof HTMLButtonElement) b.disabled = true;
    }
    hinted = null;
    try {
      await inTurn(() => {
        posted++;
        return fn();
      });
      clearStatus();
      selection = [];
    } catch (err) {
      if (!expected?.(err)) showError(err);
    } finally {
      busy = false;
    }
    await load();
  }

  /** @param {Table} v */
  function drawSettlement(v) {
    settleEl.replaceChildren();
    const s = v.last_settlement;
    if (!s) return;
    settleEl.dataset.hand = String(s.hand);
    settleEl.append(el("h2", undefined, t("table.settlement", { n: s.hand })));
    const res = s.result;
    if (v.game === "doudizhu" && "winner" in res && "spring" in res) {
      /** @type {string[]} */
      const bits = [];
      if (res.winner) bits.push(t(res.winner === "landlord" ? "doudizhu.landlordWins" : "doudizhu.farmersWin"));
      if (res.end === "escape") bits.push(t("table.escaped"));
      bits.push(t("doudizhu.multiplier", { n: res.multiplier }));
      if (res.spring) bits.push(t("doudizhu.spring"));
      if (res.anti_spring) bits.push(t("doudizhu.antiSpring"));
      settleEl.append(el("p", "result", bits.join(" · ")));
    }
    settleEl.append(...settlementFacts(v, (seat) => v.seats[seat]?.name ?? t("table.seatN", { n: seat + 1 })));
    const tbl = el("table", "deltas");
    const head = el("tr");
    head.append(el("th", undefined, t("table.player")), el("th", undefined, t("table.delta")));
    const thead = el("thead");
    thead.append(head);
    const body = el("tbody");
    s.deltas.forEach((d, i) => {
      const tr = el("tr");
      tr.dataset.seat = String(i);
      const name = v.seats[i]?.name ?? t("table.seatN", { n: i + 1 });
      const cell = el("td", d > 0 ? "win" : d < 0 ? "loss" : "", d > 0 ? `+${d}` : String(d));
      tr.append(el("td", undefined, name), cell);
      body.append(tr);
    });
    tbl.append(thead, body);
    settleEl.append(tbl);
    if (s.seed) {
      const seed = el("p", "seed muted");
      seed.append(el("span", undefined, t("table.seed") + " "), el("code", undefined, s.seed));
      settleEl.append(seed);
    }
    const a = el("a", "replay-link", t("table.replay"));
    // The hand history may trail the stream by a moment: the link asks the
    // replay page to wait until it has applied what this page has seen.
    a.href = `/hands/${encodeURIComponent(v.id)}-${s.hand}` + (lastPosition > 0 ? `?min_position=${lastPosition}` : "");
    settleEl.append(a);
  }

  /** Opens the live stream; on an error (a ticket is single use) opens it again with a new ticket. */
  /**
   * The global position of a stream message's event, or 0.
   * @param {unknown} data
   */
  function eventPosition(data) {
    if (typeof data !== "string") return 0;
    try {
      /** @type {unknown} */
      const ev = JSON.parse(data);
      if (ev && typeof ev === "object" && "position" in ev && typeof ev.position === "number") return ev.position;
    } catch {
      // not an event's JSON: nothing to learn
    }
    return 0;
  }

  async function listen() {
    if (closed) return;
    try {
      const ticket = await api.streamTicket(id);
      if (closed) return;
      const url = `/v1/tables/${encodeURIComponent(id)}/stream?ticket=${encodeURIComponent(ticket.ticket)}&after=${lastVersion}&legal=true`;
      const es = new EventSource(url);
      source = es;
      streamVersion = 0;
      streamTurn = null;
      streamLegal = false;
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let pending;
      /** @param {MessageEvent} e */
      const onEvent = (e) => {
        if (source !== es) return;
        const v = Number(e.lastEventId);
        if (Number.isFinite(v) && v > lastVersion) lastVersion = v;
        if (Number.isFinite(v) && v > streamVersion) streamVersion = v;
        const pos = eventPosition(e.data);
        if (pos > lastPosition) lastPosition = pos;
        // Events come in bursts (a play, then the next deal): load once per
        // burst, unless a seat's page already shows or loads a version the
        // burst does not pass (its own move, loaded when its post was
        // answered). A spectator's view may run ahead of its delayed events,
        // so its page loads again at each burst.
        clearTimeout(pending);
        pending = setTimeout(() => {
          const seen = Math.max(view?.version ?? 0, loadingVersion);
          if (view && view.seat !== null && seen >= streamVersion) return;
          void load();
        }, 50);
      };
      for (const type of EVENT_TYPES) es.addEventListener(type, onEvent);
      es.addEventListener("turn", (e) => {
        const turn = turnMessage(e.data);
        if (source !== es || !turn) return;
        streamTurn = turn;
        if (turn.version > streamVersion) streamVersion = turn.version;
        wakeWaiters();
      });
      es.addEventListener("legal", (e) => {
        const l = legalMessage(e.data);
        if (source !== es || !l) return;
        streamLegal = true;
        if (!pushed || l.version >= pushed.version) pushed = l;
        wakeWaiters();
      });
      es.onerror = () => {
        es.close();
        if (source === es) source = null;
        wakeWaiters();
        clearTimeout(retry);
        if (!closed) retry = setTimeout(() => void listen().then(load), 1000);
      };
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 403 || err.status === 401)) {
        showError(err);
        return;
      }
      clearTimeout(retry);
      if (!closed) retry = setTimeout(() => void listen(), 3000);
    }
  }

  void load().then(listen);

  return () => {
    closed = true;
    result.stop();
    clearInterval(ticker);
    clearTimeout(retry);
    clearTimeout(reload);
    source?.close();
  };
}
