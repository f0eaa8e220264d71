// @ts-check
// The table options (house rules) of each game and variant, as the rules
// files list them (rules/<game>.md, "Table options (house rules)"), and how
// the app names them: the open form offers them (optionsform.js), the
// lobby and the table page show those a table plays away from the default.
//
// The server is the judge of every value (422 invalid_option naming the
// key); the catalog only says what to offer and what "default" is, so
// that the form sends the keys that differ and the pages hide the rest.
// A key at its default is left out of a table's recorded options, and the
// lobby and the view show it filled in: either way it is not "active".
//
// Labels: "opt.<game>.<key>" (the name), "opt.<game>.<key>.help" (one line
// of meaning), "opt.<game>.<key>.v.<value>" (an enum's values),
// "opt.<game>.<key>.e.<entry>" (an object option's entries),
// "opt.<game>.<key>.absent" (what an integer left empty means) and
// "opt.<game>.<key>.fmt" (a value with its unit, optional).

import { register, t } from "./i18n.js";

/** @typedef {boolean | number | string} Scalar */
/** A value of an option; null is the key absent (e.g. no cap). */
/** @typedef {Scalar | Record<string, number> | null} OptionValue */

/**
 * One entry of an object option (牛牛's multipliers): its default, null
 * when the entry is off unless given.
 * @typedef {Object} MapEntry
 * @property {string} name
 * @property {number | null} def
 */

/**
 * An option as the catalog lists it. Fields ending in By override the
 * plain one for the variants they name.
 * @typedef {Object} OptionSpec
 * @property {string} key
 * @property {"bool" | "int" | "enum" | "map"} type
 * @property {readonly string[]} [variants] the variants that take it; every variant when absent
 * @property {Scalar | null} [def] the default (null: the key absent); map options default each entry
 * @property {Record<string, Scalar>} [defBy]
 * @property {readonly Scalar[]} [values] an enum's values, the default's place kept as the rules file lists them
 * @property {Record<string, readonly Scalar[]>} [valuesBy]
 * @property {number} [min] an int's or each map entry's bounds
 * @property {number} [max]
 * @property {readonly MapEntry[]} [entries] a map option's entries
 * @property {boolean} [seat] an enum of seat numbers, shown 1-based like the table page's seats
 * @property {boolean} [shownOnly] never offered by the open form (a tournament's own option)
 */

/**
 * An option of one variant, defaults and values resolved.
 * @typedef {Object} VariantOption
 * @property {string} game
 * @property {string} key
 * @property {"bool" | "int" | "enum" | "map"} type
 * @property {Scalar | null} def
 * @property {readonly Scalar[]} values
 * @property {number | undefined} min
 * @property {number | undefined} max
 * @property {readonly MapEntry[]} entries
 * @property {boolean} seat
 * @property {boolean} shownOnly
 */

/** @type {Readonly<Record<string, readonly OptionSpec[]>>} */
export const CATALOG = {
  // doudizhu.md, Table options; `hands` from Match play.
  doudizhu: [
    { key: "hands", type: "int", def: null, min: 1, max: 1_000_000 },
    { key: "cap", type: "int", def: null, min: 3, max: 1_000_000 },
    { key: "bomb_double", type: "bool", def: false, variants: ["classic"] },
    { key: "spring", type: "int", def: 4, defBy: { classic: 2 }, min: 1, max: 4 },
    { key: "double", type: "bool", def: false },
    { key: "show_counts", type: "bool", def: true },
  ],
  // shengji.md, Table options; `match`, `kitty_deduction` and `duplicate`
  // from before them.
  shengji: [
    { key: "match", type: "bool", def: true },
    {
      key: "kitty_multiplier", type: "enum", def: "by_shape", defBy: { guafeng: "cards" },
      values: ["by_shape", "double", "linear", "cards"], valuesBy: { guafeng: ["cards", "linear", "double"] },
    },
    { key: "kitty_deduction", type: "bool", def: true, variants: ["guafeng"] },
    { key: "step", type: "enum", def: 40, values: [40, 30, 20], variants: ["ningyang", "guafeng"] },
    { key: "start_level", type: "enum", def: "A", values: ["A", "2"], variants: ["ningyang", "guafeng"] },
    { key: "must_defend", type: "enum", def: "none", values: ["none", "last", "points"], variants: ["ningyang", "guafeng"] },
    { key: "show_points", type: "bool", def: true },
    { key: "duplicate", type: "bool", def: false, shownOnly: true },
  ],
  // niuniu.md, Table options; `seats`, `banker`, `arrange_seconds` from
  // before them.
  niuniu: [
    { key: "seats", type: "enum", def: 4, values: [4, 3, 2] },
    { key: "banker_mode", type: "enum", def: "fixed", values: ["fixed", "rotate", "random"] },
    { key: "banker", type: "enum", def: 0, values: [0, 1, 2, 3], seat: true },
    { key: "arrange_seconds", type: "int", def: 0, min: 0, max: 3600 },
    {
      key: "multipliers", type: "map", min: 1, max: 20,
      entries: [{ name: "bull_7", def: 2 }, { name: "bull_8", def: 3 }, { name: "bull_9", def: 4 }, { name: "bull_bull", def: 5 }],
    },
    {
      key: "special_hands", type: "map", min: 1, max: 50,
      entries: [{ name: "five_small", def: null }, { name: "bomb", def: null }, { name: "five_face", def: null }],
    },
    { key: "jokers", type: "bool", def: true },
  ],
  // shuangkou.md, Table options.
  shuangkou: [
    { key: "hands", type: "int", def: null, min: 1, max: 1_000_000 },
    { key: "wild", type: "enum", def: "none", defBy: { baibian: "all" }, values: ["all", "big", "none"] },
    { key: "bomb_bonus", type: "bool", def: false },
    { key: "cap", type: "int", def: null, min: 3, max: 1_000_000 },
  ],
  // dadun.md, Table options.
  dadun: [
    { key: "bomb_order", type: "enum", def: "seed", values: ["seed", "high"] },
    { key: "pure_suits", type: "enum", def: "tie", values: ["tie", "suit"] },
    { key: "joker_bombs", type: "enum", def: 3, values: [3, 2] },
    { key: "dun_awards", type: "bool", def: true },
    { key: "lead_after_out", type: "enum", def: "next", values: ["next", "partner"] },
  ],
};

/**
 * The options a variant takes, in the catalog's order.
 * @param {string} game
 * @param {string} variant
 * @returns {VariantOption[]}
 */
export function optionsOf(game, variant) {
  return (CATALOG[game] ?? [])
    .filter((o) => !o.variants || o.variants.includes(variant))
    .map((o) => ({
      game,
      key: o.key,
      type: o.type,
      def: o.defBy?.[variant] ?? o.def ?? null,
      values: o.valuesBy?.[variant] ?? o.values ?? [],
      min: o.min,
      max: o.max,
      entries: o.entries ?? [],
      seat: o.seat ?? false,
      shownOnly: o.shownOnly ?? false,
    }));
}

/**
 * Whether v is opt's default. A map option is at its default when every
 * entry is (an absent entry takes its default, as the server reads it).
 * @param {VariantOption} opt
 * @param {unknown} v
 */
export function isDefault(opt, v) {
  if (opt.type === "map") {
    if (v === null || v === undefined) return true;
    if (typeof v !== "object") return false;
    const m = /** @type {Record<string, unknown>} */ (v);
    return Object.keys(m).every((k) => opt.entries.some((e) => e.name === k)) &&
      opt.entries.every((e) => (m[e.name] ?? null) === e.def);
  }
  return (v ?? null) === opt.def;
}

/**
 * A label of the catalog; "" when it has none (t shows a missing key as
 * itself).
 * @param {string} key
 * @param {Record<string, string | number>} [vars]
 */
function maybe(key, vars) {
  const s = t(key, vars);
  return s === key ? "" : s;
}

/** @param {VariantOption} opt */
export function optionLabel(opt) {
  return t(`opt.${opt.game}.${opt.key}`);
}

/** @param {VariantOption} opt */
export function optionHelp(opt) {
  return t(`opt.${opt.game}.${opt.key}.help`);
}

/**
 * What an option's value reads as: an enum's value by its label, a seat
 * 1-based, a number with its unit.
 * @param {VariantOption} opt
 * @param {Scalar | null} v
 * @returns {string}
 */
export function valueLabel(opt, v) {
  const base = `opt.${opt.game}.${opt.key}`;
  if (v === null) return maybe(base + ".absent") || t("opt.absent");
  if (typeof v === "boolean") return t(v ? "opt.on" : "opt.off");
  if (opt.seat && typeof v === "number") return t("table.seatN", { n: v + 1 });
  return maybe(`${base}.v.${v}`) || maybe(base + ".fmt", { v }) || String(v);
}

/**
 * A map option's entry name.
 * @param {VariantOption} opt
 * @param {string} entry
 */
export function entryLabel(opt, entry) {
  return maybe(`opt.${opt.game}.${opt.key}.e.${entry}`) || entry;
}

/**
 * One option as the pages show it: "封顶：×8", a true switch by its name
 * alone.
 * @param {VariantOption} opt
 * @param {unknown} v
 * @returns {string}
 */
function shown(opt, v) {
  const label = optionLabel(opt);
  if (opt.type === "bool" && v === true) return label;
  if (opt.type === "map" && typeof v === "object" && v !== null) {
    const m = /** @type {Record<string, unknown>} */ (v);
    const parts = opt.entries
      .filter((e) => (m[e.name] ?? null) !== e.def)
      .map((e) => `${entryLabel(opt, e.name)} ${m[e.name] === undefined || m[e.name] === null ? t("opt.off") : "×" + String(m[e.name])}`);
    return t("opt.pair", { label, value: parts.join(t("list.sep")) });
  }
  const s = typeof v === "boolean" || typeof v === "number" || typeof v === "string" || v === null ? valueLabel(opt, v) : JSON.stringify(v);
  return t("opt.pair", { label, value: s });
}

/**
 * The options a table plays away from its variant's defaults, each as
 * the pages show it, in the catalog's order; a key the catalog does not
 * know (a newer server's) is shown as it comes, rather than hidden.
 * @param {string} game
 * @param {string} variant
 * @param {unknown} options the table's options (recorded, or shown with the defaults filled in)
 * @returns {{key: string, text: string}[]}
 */
export function activeOptions(game, variant, options) {
  if (typeof options !== "object" || options === null) return [];
  const given = /** @type {Record<string, unknown>} */ (options);
  const known = optionsOf(game, variant);
  /** @type {{key: string, text: string}[]} */
  const out = [];
  for (const opt of known) {
    if (!(opt.key in given) || isDefault(opt, given[opt.key])) continue;
    out.push({ key: opt.key, text: shown(opt, given[opt.key]) });
  }
  for (const [k, v] of Object.entries(given)) {
    if (!known.some((o) => o.key === k)) out.push({ key: k, text: t("opt.pair", { label: k, value: JSON.stringify(v) }) });
  }
  return out;
}

register({
  zh: {
    "opt.title": "牌桌规则",
    "opt.changed": "改了 {n} 项",
    "opt.count": "（{s}）",
    "opt.defaults": "默认",
    "opt.active": "本桌规则",
    "opt.on": "开",
    "opt.off": "关",
    "opt.absent": "不限",
    "opt.pair": "{label}：{value}",
    "opt.default": "默认：{v}",
    "opt.refused": "这条牌桌规则不行：{label}",
    "opt.doudizhu.hands": "局数",
    "opt.doudizhu.hands.help": "打满这么多手结束比赛；空着一直打下去。",
    "opt.doudizhu.hands.absent": "不限",
    "opt.doudizhu.hands.fmt": "{v} 手",
    "opt.doudizhu.cap": "封顶",
    "opt.doudizhu.cap.help": "每个农民一手最多输赢 底注×这么多倍；空着不封顶。",
    "opt.doudizhu.cap.absent": "不封顶",
    "opt.doudizhu.cap.fmt": "{v} 倍",
    "opt.doudizhu.bomb_double": "炸弹翻倍",
    "opt.doudizhu.bomb_double.help": "每打出一个炸弹或王炸，倍数翻一番。",
    "opt.doudizhu.spring": "春天倍数",
    "opt.doudizhu.spring.help": "春天（经典玩法也含反春）时倍数乘几；1 为不加倍。",
    "opt.doudizhu.spring.fmt": "×{v}",
    "opt.doudizhu.double": "加倍",
    "opt.doudizhu.double.help": "定了地主后，农民各可加倍一次，地主可再反加倍。",
    "opt.doudizhu.show_counts": "显示剩余牌数",
    "opt.doudizhu.show_counts.help": "关掉后，别人的牌数只在剩两张及以下时报出。",
    "opt.shengji.match": "打整场",
    "opt.shengji.match.help": "打一整场（升级到一方打过最后一级，抢报打 5 手比分）；关掉只打一手。",
    "opt.shengji.kitty_multiplier": "抠底倍数",
    "opt.shengji.kitty_multiplier.help": "赢最后一墩的牌决定底分乘几倍。",
    "opt.shengji.kitty_multiplier.v.by_shape": "按牌型（单×2，对×4，拖拉机更多）",
    "opt.shengji.kitty_multiplier.v.double": "固定×2",
    "opt.shengji.kitty_multiplier.v.linear": "张数×2",
    "opt.shengji.kitty_multiplier.v.cards": "按张数",
    "opt.shengji.kitty_deduction": "扣底减分",
    "opt.shengji.kitty_deduction.help": "庄家方用主牌赢最后一墩时，底分乘倍数从守方得分里减去。",
    "opt.shengji.step": "每级分数",
    "opt.shengji.step.help": "差这么多分升一级；上台线仍是 80 分。",
    "opt.shengji.step.fmt": "{v} 分",
    "opt.shengji.start_level": "起始级",
    "opt.shengji.start_level.help": "从 A 打到 K，或从 2 打到 A。",
    "opt.shengji.start_level.v.A": "A（A 到 K）",
    "opt.shengji.start_level.v.2": "2（2 到 A）",
    "opt.shengji.must_defend": "必打",
    "opt.shengji.must_defend.help": "到了关口级，只有坐庄打赢才能升过去。",
    "opt.shengji.must_defend.v.none": "无",
    "opt.shengji.must_defend.v.last": "最后一级",
    "opt.shengji.must_defend.v.points": "5、10、K 和最后一级",
    "opt.shengji.show_points": "显示守方得分",
    "opt.shengji.show_points.help": "关掉后，守方得分到这手结束才公布。",
    "opt.shengji.duplicate": "复式",
    "opt.shengji.duplicate.help": "复式赛的牌桌：每手都按第一手打。",
    "opt.niuniu.seats": "座位数",
    "opt.niuniu.seats.help": "几个人一桌，2 到 4 人。",
    "opt.niuniu.seats.fmt": "{v} 人",
    "opt.niuniu.banker_mode": "坐庄方式",
    "opt.niuniu.banker_mode.help": "固定一个座位坐庄、轮流坐庄，或每手随机。",
    "opt.niuniu.banker_mode.v.fixed": "固定",
    "opt.niuniu.banker_mode.v.rotate": "轮流",
    "opt.niuniu.banker_mode.v.random": "随机",
    "opt.niuniu.banker": "庄位",
    "opt.niuniu.banker.help": "坐庄的座位（轮流坐庄时是第一手的庄）。",
    "opt.niuniu.arrange_seconds": "拼牌时限",
    "opt.niuniu.arrange_seconds.help": "发牌后多少秒任何人可叫开牌；0 等所有人拼完。",
    "opt.niuniu.arrange_seconds.fmt": "{v} 秒",
    "opt.niuniu.multipliers": "牌型倍数",
    "opt.niuniu.multipliers.help": "牛七到牛牛的倍数，各 1–20，不能越大越小；其余都是 ×1。",
    "opt.niuniu.multipliers.e.bull_7": "牛七",
    "opt.niuniu.multipliers.e.bull_8": "牛八",
    "opt.niuniu.multipliers.e.bull_9": "牛九",
    "opt.niuniu.multipliers.e.bull_bull": "牛牛",
    "opt.niuniu.special_hands": "特殊牌型",
    "opt.niuniu.special_hands.help": "填上倍数就启用（1–50，不低于牛牛的倍数）；空着不启用。",
    "opt.niuniu.special_hands.e.five_small": "五小牛",
    "opt.niuniu.special_hands.e.bomb": "炸弹牛",
    "opt.niuniu.special_hands.e.five_face": "五花牛",
    "opt.niuniu.jokers": "带大小王",
    "opt.niuniu.jokers.help": "关掉后用 52 张牌，不带王。",
    "opt.shuangkou.hands": "局数",
    "opt.shuangkou.hands.help": "打满这么多手后总分高的一方赢，平了再加一手；空着一直打。",
    "opt.shuangkou.hands.absent": "不限",
    "opt.shuangkou.hands.fmt": "{v} 手",
    "opt.shuangkou.wild": "百搭",
    "opt.shuangkou.wild.help": "哪些王可以当任意一张牌。",
    "opt.shuangkou.wild.v.all": "大小王都百搭",
    "opt.shuangkou.wild.v.big": "只有大王百搭",
    "opt.shuangkou.wild.v.none": "不百搭",
    "opt.shuangkou.bomb_bonus": "算相",
    "opt.shuangkou.bomb_bonus.help": "赢方最大的炸弹五相起，每多一相结果翻一倍。",
    "opt.shuangkou.cap": "封顶",
    "opt.shuangkou.cap.help": "每人一手最多输赢 底注×这么多；空着不封顶。",
    "opt.shuangkou.cap.absent": "不封顶",
    "opt.shuangkou.cap.fmt": "{v} 倍",
    "opt.dadun.bomb_order": "炸弹大小",
    "opt.dadun.bomb_order.help": "五十K 排在炸弹的哪里。",
    "opt.dadun.bomb_order.v.seed": "基本顺序",
    "opt.dadun.bomb_order.v.high": "五十K 大过普通炸弹",
    "opt.dadun.pure_suits": "正五十K 比花色",
    "opt.dadun.pure_suits.help": "正五十K 按花色 ♠ > ♥ > ♣ > ♦ 比大小。",
    "opt.dadun.pure_suits.v.tie": "一样大",
    "opt.dadun.pure_suits.v.suit": "按花色",
    "opt.dadun.joker_bombs": "王炸",
    "opt.dadun.joker_bombs.help": "几张王算一个炸弹。",
    "opt.dadun.joker_bombs.v.3": "3 张起",
    "opt.dadun.joker_bombs.v.2": "2 张起",
    "opt.dadun.dun_awards": "盾奖励",
    "opt.dadun.dun_awards.help": "关掉后不发盾，只按输赢结算。",
    "opt.dadun.lead_after_out": "接风",
    "opt.dadun.lead_after_out.help": "有人出完、别人都不要时由谁先出：下家，或（队友已公开时）队友。",
    "opt.dadun.lead_after_out.v.next": "下家",
    "opt.dadun.lead_after_out.v.partner": "队友",
  },
  en: {
    "opt.title": "House rules",
    "opt.changed": "{n} changed",
    "opt.count": " ({s})",
    "opt.defaults": "defaults",
    "opt.active": "House rules of this table",
    "opt.on": "on",
    "opt.off": "off",
    "opt.absent": "none",
    "opt.pair": "{label}: {value}",
    "opt.default": "default: {v}",
    "opt.refused": "A house rule was refused: {label}",
    "opt.doudizhu.hands": "Match length",
    "opt.doudizhu.hands.help": "Play a match of this many hands; empty plays on without end.",
    "opt.doudizhu.hands.absent": "no limit",
    "opt.doudizhu.hands.fmt": "{v} hands",
    "opt.doudizhu.cap": "Cap",
    "opt.doudizhu.cap.help": "Each farmer wins or loses at most stake × this in a hand; empty for no cap.",
    "opt.doudizhu.cap.absent": "no cap",
    "opt.doudizhu.cap.fmt": "×{v}",
    "opt.doudizhu.bomb_double": "Bombs double",
    "opt.doudizhu.bomb_double.help": "Every bomb and rocket played doubles the multiplier.",
    "opt.doudizhu.spring": "Spring factor",
    "opt.doudizhu.spring.help": "What a spring (in classic also an anti-spring) multiplies by; 1 for no bonus.",
    "opt.doudizhu.spring.fmt": "×{v}",
    "opt.doudizhu.double": "Doubling",
    "opt.doudizhu.double.help": "Once the landlord is chosen, each farmer may double, and the landlord double back.",
    "opt.doudizhu.show_counts": "Show cards left",
    "opt.doudizhu.show_counts.help": "Off: another seat's count shows only at 2 cards or fewer.",
    "opt.shengji.match": "Whole match",
    "opt.shengji.match.help": "Play a whole match (until a side passes the last level; qiangbao: 5 hands on points); off plays one hand.",
    "opt.shengji.kitty_multiplier": "Kitty multiplier",
    "opt.shengji.kitty_multiplier.help": "How the last trick's winning play multiplies the kitty's points.",
    "opt.shengji.kitty_multiplier.v.by_shape": "by shape (single ×2, pair ×4, tractors more)",
    "opt.shengji.kitty_multiplier.v.double": "always ×2",
    "opt.shengji.kitty_multiplier.v.linear": "2 × the cards",
    "opt.shengji.kitty_multiplier.v.cards": "× the cards",
    "opt.shengji.kitty_deduction": "Kitty deduction",
    "opt.shengji.kitty_deduction.help": "When the dealers win the last trick with trumps, the kitty's points × the multiplier come off the defenders'.",
    "opt.shengji.step": "Points per level",
    "opt.shengji.step.help": "Every this many points is one more level; going on stage stays at 80.",
    "opt.shengji.step.fmt": "{v} points",
    "opt.shengji.start_level": "First level",
    "opt.shengji.start_level.help": "Play from A up to K, or from 2 up to A.",
    "opt.shengji.start_level.v.A": "A (A to K)",
    "opt.shengji.start_level.v.2": "2 (2 to A)",
    "opt.shengji.must_defend": "Must defend",
    "opt.shengji.must_defend.help": "At a gate level a side rises only by winning as the dealers.",
    "opt.shengji.must_defend.v.none": "none",
    "opt.shengji.must_defend.v.last": "the last level",
    "opt.shengji.must_defend.v.points": "5, 10, K and the last level",
    "opt.shengji.show_points": "Show defenders' points",
    "opt.shengji.show_points.help": "Off: the defenders' points stay hidden until the hand ends.",
    "opt.shengji.duplicate": "Duplicate",
    "opt.shengji.duplicate.help": "A duplicate tournament's table: every hand is played as a match's first.",
    "opt.niuniu.seats": "Seats",
    "opt.niuniu.seats.help": "How many play at the table, 2 to 4.",
    "opt.niuniu.seats.fmt": "{v} seats",
    "opt.niuniu.banker_mode": "Banker",
    "opt.niuniu.banker_mode.help": "One seat banks every hand, the seats take turns, or a draw picks each hand's.",
    "opt.niuniu.banker_mode.v.fixed": "fixed",
    "opt.niuniu.banker_mode.v.rotate": "in turn",
    "opt.niuniu.banker_mode.v.random": "drawn",
    "opt.niuniu.banker": "Banker's seat",
    "opt.niuniu.banker.help": "The seat that banks (taking turns: the first hand's banker).",
    "opt.niuniu.arrange_seconds": "Arranging time",
    "opt.niuniu.arrange_seconds.help": "Seconds after the deal before anyone may call the reveal; 0 waits for everyone.",
    "opt.niuniu.arrange_seconds.fmt": "{v} s",
    "opt.niuniu.multipliers": "Multipliers",
    "opt.niuniu.multipliers.help": "Bull 7 to bull-bull, 1–20 each, never decreasing; the other hands pay ×1.",
    "opt.niuniu.multipliers.e.bull_7": "bull 7",
    "opt.niuniu.multipliers.e.bull_8": "bull 8",
    "opt.niuniu.multipliers.e.bull_9": "bull 9",
    "opt.niuniu.multipliers.e.bull_bull": "bull-bull",
    "opt.niuniu.special_hands": "Special hands",
    "opt.niuniu.special_hands.help": "A multiplier turns the hand on (1–50, at least bull-bull's); empty leaves it off.",
    "opt.niuniu.special_hands.e.five_small": "five small",
    "opt.niuniu.special_hands.e.bomb": "bomb",
    "opt.niuniu.special_hands.e.five_face": "five faces",
    "opt.niuniu.jokers": "Jokers",
    "opt.niuniu.jokers.help": "Off deals from 52 cards, without jokers.",
    "opt.shuangkou.hands": "Match length",
    "opt.shuangkou.hands.help": "After this many hands the side ahead wins, else one more hand at a time; empty plays on.",
    "opt.shuangkou.hands.absent": "no limit",
    "opt.shuangkou.hands.fmt": "{v} hands",
    "opt.shuangkou.wild": "Wild jokers",
    "opt.shuangkou.wild.help": "Which jokers may stand for any card.",
    "opt.shuangkou.wild.v.all": "all jokers",
    "opt.shuangkou.wild.v.big": "big jokers only",
    "opt.shuangkou.wild.v.none": "none",
    "opt.shuangkou.bomb_bonus": "Bomb bonus (相)",
    "opt.shuangkou.bomb_bonus.help": "The winners' biggest bomb doubles the result for each card past four.",
    "opt.shuangkou.cap": "Cap",
    "opt.shuangkou.cap.help": "Each seat wins or loses at most stake × this in a hand; empty for no cap.",
    "opt.shuangkou.cap.absent": "no cap",
    "opt.shuangkou.cap.fmt": "×{v}",
    "opt.dadun.bomb_order": "Bomb order",
    "opt.dadun.bomb_order.help": "Where 510Ks rank among the bombs.",
    "opt.dadun.bomb_order.v.seed": "standard",
    "opt.dadun.bomb_order.v.high": "510K above plain bombs",
    "opt.dadun.pure_suits": "Pure 510K suits",
    "opt.dadun.pure_suits.help": "Pure 510Ks rank by suit, ♠ > ♥ > ♣ > ♦.",
    "opt.dadun.pure_suits.v.tie": "all equal",
    "opt.dadun.pure_suits.v.suit": "by suit",
    "opt.dadun.joker_bombs": "Joker bombs",
    "opt.dadun.joker_bombs.help": "How many jokers make a bomb.",
    "opt.dadun.joker_bombs.v.3": "3 or more",
    "opt.dadun.joker_bombs.v.2": "2 or more",
    "opt.dadun.dun_awards": "盾 awards",
    "opt.dadun.dun_awards.help": "Off: no 盾 awards; only the result settles.",
    "opt.dadun.lead_after_out": "Lead after going out",
    "opt.dadun.lead_after_out.help": "Who leads when a player goes out and the rest pass: the next seat, or the partner once sides are known.",
    "opt.dadun.lead_after_out.v.next": "next seat",
    "opt.dadun.lead_after_out.v.partner": "partner",
  },
});
