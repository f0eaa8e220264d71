// @ts-check
// Cards as accessible elements, for every game. The notation is the
// API's (domain/cards, openapi.yaml Card): a suit letter S H C D and a
// rank 2..10 J Q K A ("S10", "HA"), or BJ (the small, black joker) and RJ
// (the big, red joker). Games with two decks hold a card twice; each
// copy is its own element.
//
// Markup of one card (renderCard):
//   <button type="button" class="card suit-H trump" data-card="HA"
//           aria-pressed="false" aria-label="红桃 A，主牌">
//     <span class="rank">A</span><span class="suit" aria-hidden="true">♥</span>
//   </button>
// A card that cannot be picked is a <span role="img"> with the same
// classes and data-card; a face-down card is data-card="back" with the
// class "back". Selected cards have aria-pressed="true" and the class
// "selected". Buttons take clicks, Space and Enter.

import { t } from "./i18n.js";

/** @typedef {"S" | "H" | "C" | "D"} Suit */
/** @typedef {{notation: string, suit: Suit | null, rank: string, joker: "small" | "big" | null}} ParsedCard */

const SYMBOL = /** @type {const} */ ({ S: "♠", H: "♥", C: "♣", D: "♦" });
const CARD_RE = /^(?:([SHCD])(10|[2-9JQKA])|(BJ|RJ))$/;

/**
 * Reads a card in canonical notation; null if it is not one.
 * @param {string} notation
 * @returns {ParsedCard | null}
 */
export function parseCard(notation) {
  const m = CARD_RE.exec(notation);
  if (!m) return null;
  if (m[3]) return { notation, suit: null, rank: m[3], joker: m[3] === "BJ" ? "small" : "big" };
  return { notation, suit: /** @type {Suit} */ (m[1]), rank: m[2] ?? "", joker: null };
}

/**
 * The card's spoken name ("红桃 A" / "hearts A", "大王" / "big joker").
 * @param {string} notation
 * @returns {string}
 */
export function cardName(notation) {
  const c = parseCard(notation);
  if (!c) return notation;
  if (c.joker) return t(c.joker === "small" ? "card.smallJoker" : "card.bigJoker");
  return `${t("suit." + c.suit)} ${c.rank}`;
}

/**
 * The cards of a 升级 hand that are trumps, from the view's trump_order
 * (null while the caller may not know the trump: then nothing is marked).
 * @param {string[][] | null | undefined} trumpOrder
 * @returns {Set<string>}
 */
export function trumpSet(trumpOrder) {
  return new Set((trumpOrder ?? []).flat());
}

/**
 * @typedef {Object} CardOptions
 * @property {boolean} [selectable] a button that toggles its selection
 * @property {boolean} [selected]
 * @property {boolean} [trump] marked as a trump (升级)
 * @property {(el: HTMLElement, selected: boolean) => void} [onToggle]
 */

/**
 * One card element (see the markup at the top of this file).
 * @param {string} notation
 * @param {CardOptions} [opts]
 * @returns {HTMLElement}
 */
export function renderCard(notation, opts = {}) {
  const c = parseCard(notation);
  const el = document.createElement(opts.selectable ? "button" : "span");
  el.dataset.card = notation;
  el.classList.add("card");
  let label = cardName(notation);
  if (c?.joker) {
    el.classList.add(c.joker === "small" ? "joker-small" : "joker-big");
    const r = document.createElement("span");
    r.className = "rank";
    r.textContent = t(c.joker === "small" ? "card.smallJokerFace" : "card.bigJokerFace");
    const s = document.createElement("span");
    s.className = "suit";
    s.setAttribute("aria-hidden", "true");
    s.textContent = "★";
    el.append(r, s);
  } else if (c?.suit) {
    el.classList.add("suit-" + c.suit);
    const r = document.createElement("span");
    r.className = "rank";
    r.textContent = c.rank;
    const s = document.createElement("span");
    s.className = "suit";
    s.setAttribute("aria-hidden", "true");
    s.textContent = SYMBOL[c.suit];
    el.append(r, s);
  } else {
    el.textContent = notation;
  }
  if (opts.trump) {
    el.classList.add("trump");
    label += t("card.labelJoin") + t("card.trump");
    const m = document.createElement("span");
    m.className = "trump-mark";
    m.setAttribute("aria-hidden", "true");
    m.textContent = t("card.trumpMark");
    el.append(m);
  }
  el.setAttribute("aria-label", label);
  el.title = label;
  if (el instanceof HTMLButtonElement) {
    el.type = "button";
    setSelected(el, !!opts.selected);
    el.addEventListener("click", () => {
      const now = el.getAttribute("aria-pressed") !== "true";
      setSelected(el, now);
      opts.onToggle?.(el, now);
    });
  } else {
    el.setAttribute("role", "img");
  }
  return el;
}

/**
 * @param {HTMLElement} el
 * @param {boolean} on
 */
function setSelected(el, on) {
  el.setAttribute("aria-pressed", on ? "true" : "false");
  el.classList.toggle("selected", on);
}

/**
 * A face-down card: a seat's hidden card, the kitty's.
 * @returns {HTMLElement}
 */
export function renderBack() {
  const el = document.createElement("span");
  el.className = "card back";
  el.dataset.card = "back";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", t("card.back"));
  return el;
}

/**
 * @typedef {Object} HandOptions
 * @property {boolean} [selectable]
 * @property {Set<string>} [trumps] cards to mark as trumps
 * @property {string} [label] the group's accessible name
 * @property {(selected: string[]) => void} [onChange] after each toggle
 */

/**
 * @typedef {Object} HandElement
 * @property {HTMLElement} el the group (role="group", class "cards")
 * @property {() => string[]} selected the selected cards, in hand order (a card held twice may be selected twice)
 * @property {(cards: string[]) => void} select selects exactly these cards (as a multiset), the first copies first
 * @property {() => void} clear
 */

/**
 * A row of cards: a hand, a play, the kitty.
 * @param {string[]} cards
 * @param {HandOptions} [opts]
 * @returns {HandElement}
 */
export function renderHand(cards, opts = {}) {
  const el = document.createElement("div");
  el.className = "cards";
  el.setAttribute("role", "group");
  if (opts.label) el.setAttribute("aria-label", opts.label);
  /** @type {HTMLElement[]} */
  const els = cards.map((c) =>
    renderCard(c, {
      selectable: !!opts.selectable,
      trump: opts.trumps?.has(c) ?? false,
      onToggle: () => opts.onChange?.(selected()),
    }),
  );
  el.append(...els);
  function selected() {
    return els.filter((e) => e.getAttribute("aria-pressed") === "true").map((e) => e.dataset.card ?? "");
  }
  return {
    el,
    selected,
    select(want) {
      const left = [...want];
      for (const e of els) {
        const i = left.indexOf(e.dataset.card ?? "");
        setSelected(e, i >= 0);
        if (i >= 0) left.splice(i, 1);
      }
    },
    clear() {
      for (const e of els) setSelected(e, false);
    },
  };
}

/**
 * A row of face-down cards (another seat's hand, by count).
 * @param {number} n
 * @param {string} [label]
 * @returns {HTMLElement}
 */
export function renderBacks(n, label) {
  const el = document.createElement("div");
  el.className = "cards backs";
  el.setAttribute("role", "group");
  if (label) el.setAttribute("aria-label", label);
  for (let i = 0; i < n; i++) el.append(renderBack());
  return el;
}

/**
 * A 牛牛 hand as arranged: the three cards that make the bull, then the
 * other two; with no bull (bull null), the five cards in one row.
 * @param {string[]} cards the five cards
 * @param {string[] | null | undefined} bull the three of them that make ten's multiple
 * @returns {HTMLElement}
 */
export function renderNiuniu(cards, bull) {
  const el = document.createElement("div");
  el.className = "niuniu";
  if (!bull || bull.length !== 3) {
    el.append(renderHand(cards).el);
    return el;
  }
  const rest = [...cards];
  for (const b of bull) {
    const i = rest.indexOf(b);
    if (i >= 0) rest.splice(i, 1);
  }
  const three = renderHand(bull, { label: t("niuniu.three") }).el;
  three.classList.add("niuniu-three");
  const two = renderHand(rest, { label: t("niuniu.two") }).el;
  two.classList.add("niuniu-two");
  el.append(three, two);
  return el;
}

/** The climbing games' rank order, lowest first (斗地主, 双扣, 打盾: 2 above A, the jokers on top). */
const CLIMB_RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "RJ"];
/** Suits in display order. */
const SUIT_ORDER = ["S", "H", "C", "D"];

/**
 * @typedef {Object} SortOrder
 * @property {string} game the game's name
 * @property {string[][] | null} [trumpOrder] 升级: every trump, highest first, in classes (the view's trump_order; null while the caller may not know the trump)
 * @property {string[] | null} [sideOrder] 升级: a side suit's ranks, highest first (the view's side_order)
 */

/**
 * The cards in the game's own display order: the climbing games from 3 up
 * to 2 and the jokers, then ♠ ♥ ♣ ♦ within a rank; 升级 its trumps first,
 * highest first, then each side suit (♠ ♥ ♣ ♦) highest first. A 升级 hand
 * whose trump the caller may not know yet keeps the order it came in (the
 * server's, which does not depend on the trump). Other games keep theirs.
 * @param {readonly string[]} cards
 * @param {SortOrder} order
 * @returns {string[]}
 */
export function sortCards(cards, order) {
  const out = [...cards];
  /** @type {(c: string) => number} */
  let key;
  switch (order.game) {
    case "doudizhu":
    case "shuangkou":
    case "dadun":
      key = (c) => {
        const p = parseCard(c);
        if (!p) return 1000;
        return CLIMB_RANKS.indexOf(p.rank) * 4 + (p.suit ? SUIT_ORDER.indexOf(p.suit) : 0);
      };
      break;
    case "shengji": {
      if (!order.trumpOrder || !order.sideOrder) return out;
      /** @type {Map<string, number>} */
      const trump = new Map();
      order.trumpOrder.forEach((cls, i) => cls.forEach((c) => trump.set(c, i)));
      const side = order.sideOrder;
      key = (c) => {
        const t = trump.get(c);
        if (t !== undefined) return t * 4 + SUIT_ORDER.indexOf(parseCard(c)?.suit ?? "S");
        const p = parseCard(c);
        if (!p || !p.suit) return 100000;
        return 1000 + SUIT_ORDER.indexOf(p.suit) * 100 + Math.max(0, side.indexOf(p.rank));
      };
      break;
    }
    default:
      return out;
  }
  // A stable sort: equal cards (two decks) keep their order.
  return out.map((c, i) => ({ c, i, k: key(c) })).sort((a, b) => a.k - b.k || a.i - b.i).map((x) => x.c);
}
