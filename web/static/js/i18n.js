// @ts-check
// Chinese and English labels. The language is the first of the browser's
// languages (navigator.languages) that is Chinese or English; English
// when none is. Every label the app shows goes through t(key).
//
// A page module may keep its own labels next to it and add them with
// register({zh: {...}, en: {...}}) when it loads, so that pages do not
// all edit this file.

/** @typedef {"zh" | "en"} Lang */
/** @typedef {Record<string, string>} Messages */

/** @type {{zh: Messages, en: Messages}} */
const messages = {
  zh: {
    "app.title": "牌局",
    "app.skip": "跳到正文",
    "nav.lobby": "大厅",
    "nav.leaderboards": "排行榜",
    "nav.verify": "验证",
    "nav.main": "主导航",
    "player.you": "你是 {name}",
    "player.registering": "正在注册…",
    "player.defaultName": "玩家{n}",
    "error.prefix": "出错了",
    "error.notFound": "找不到这个页面。",
    "loading": "加载中…",
    "page.lobby": "大厅",
    "page.table": "牌桌",
    "page.replay": "牌局回放",
    "page.verify": "验证导出",
    "page.leaderboards": "排行榜",
    "game.doudizhu": "斗地主",
    "game.shengji": "升级",
    "game.niuniu": "牛牛",
    "game.shuangkou": "双扣",
    "game.dadun": "打墩",
    "card.back": "牌背",
    "card.trump": "主牌",
    "card.smallJoker": "小王",
    "card.bigJoker": "大王",
    "suit.S": "黑桃",
    "suit.H": "红桃",
    "suit.C": "梅花",
    "suit.D": "方块",
    "niuniu.three": "三张",
    "niuniu.two": "两张",
  },
  en: {
    "app.title": "Paiju",
    "app.skip": "Skip to content",
    "nav.lobby": "Lobby",
    "nav.leaderboards": "Leaderboards",
    "nav.verify": "Verify",
    "nav.main": "Main",
    "player.you": "You are {name}",
    "player.registering": "Registering…",
    "player.defaultName": "Player {n}",
    "error.prefix": "Error",
    "error.notFound": "No such page.",
    "loading": "Loading…",
    "page.lobby": "Lobby",
    "page.table": "Table",
    "page.replay": "Hand replay",
    "page.verify": "Verify an export",
    "page.leaderboards": "Leaderboards",
    "game.doudizhu": "Dou Dizhu",
    "game.shengji": "Shengji",
    "game.niuniu": "Niu Niu",
    "game.shuangkou": "Shuang Kou",
    "game.dadun": "Da Dun",
    "card.back": "face down",
    "card.trump": "trump",
    "card.smallJoker": "small joker",
    "card.bigJoker": "big joker",
    "suit.S": "spades",
    "suit.H": "hearts",
    "suit.C": "clubs",
    "suit.D": "diamonds",
    "niuniu.three": "three",
    "niuniu.two": "two",
  },
};

/**
 * The language the browser prefers among those the app speaks.
 * @param {readonly string[]} langs
 * @returns {Lang}
 */
export function chooseLang(langs) {
  for (const l of langs) {
    const p = l.toLowerCase();
    if (p.startsWith("zh")) return "zh";
    if (p.startsWith("en")) return "en";
  }
  return "en";
}

/** @type {Lang} */
export const lang = chooseLang(typeof navigator === "undefined" ? [] : navigator.languages ?? [navigator.language]);

/**
 * Adds a page's labels. A key already present keeps its first text.
 * @param {{zh: Messages, en: Messages}} more
 */
export function register(more) {
  for (const l of /** @type {Lang[]} */ (["zh", "en"])) {
    for (const [k, v] of Object.entries(more[l])) {
      if (!(k in messages[l])) messages[l][k] = v;
    }
  }
}

/**
 * The label of key in the chosen language, with {name} placeholders
 * filled from vars. An unknown key shows as itself, so that a missing
 * label is visible rather than blank.
 * @param {string} key
 * @param {Record<string, string | number>} [vars]
 * @returns {string}
 */
export function t(key, vars) {
  const text = messages[lang][key] ?? messages.en[key] ?? key;
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}
