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

/** @param {string} game @param {string} variant @returns {string} */
export function kindName(game, variant) {
  return `${gameName(game)} · ${variantName(game, variant)}`;
}
