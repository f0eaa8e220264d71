// @ts-check
// The games and variants a server plays (openapi.yaml, OpenTable), and
// what the pages need to say about them.

import { t } from "./i18n.js";

/** @type {ReadonlyArray<{game: string, variants: readonly string[]}>} */
export const GAMES = [
  { game: "doudizhu", variants: ["classic", "hubei", "fourplayer"] },
  { game: "shengji", variants: ["ningyang", "guafeng", "qiangbao"] },
  { game: "niuniu", variants: ["classic"] },
  { game: "shuangkou", variants: ["classic", "baibian"] },
  { game: "dadun", variants: ["lean"] },
];

/** @param {string} game @returns {string} */
export function gameName(game) {
  return t("game." + game);
}

/** @param {string} game @param {string} variant @returns {string} */
export function variantName(game, variant) {
  return t(`variant.${game}.${variant}`);
}

/**
 * The game and variant in words: 斗地主 · 湖北. A variant already named by
 * its game's name (乐安打盾's only variant, 乐安) is not said twice.
 * @param {string} game @param {string} variant @returns {string}
 */
export function kindName(game, variant) {
  const g = gameName(game);
  const v = variantName(game, variant);
  return g.includes(v) ? g : `${g} · ${v}`;
}

/**
 * A table's phase in words; a game may name a phase its own way (打盾's
 * declaring round is the choice to go alone, 升级's is 亮主).
 * @param {string} game @param {string} phase @returns {string}
 */
export function phaseName(game, phase) {
  const own = `table.phase.${game}.${phase}`;
  const text = t(own);
  return text !== own ? text : t(`table.phase.${phase}`);
}
