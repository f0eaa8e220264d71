// @ts-check
// The problems a person meets in the browser told in their language, not
// as the API's English detail: private rooms, tokens, who may read or
// export a table. describe() (app.js) uses them; a code not listed here is
// shown with the server's detail as before (docs/ERRORS.md lists them all).

import { ApiError } from "./api.js";
import { register, t } from "./i18n.js";

register({
  zh: {
    "problem.room_code_required": "这是一张私人牌桌：要有房间号才能加入。",
    "problem.room_code_wrong": "房间号不对：这不是这张牌桌的房间号。请向牌桌上的朋友再要一次。",
    "problem.room_not_found": "没有开着的牌桌用这个房间号：请检查这六位数字，或者这张牌桌已经结束。",
    "problem.room_attempts_limited": "房间号输错太多次了，请{wait}再试。",
    "problem.room_attempts_throttled": "服务器上输错房间号的人太多，请{wait}再试。",
    "problem.rooms_unavailable": "这个服务器不支持私人牌桌。",
    "problem.unauthorized": "这个令牌不能用：它不存在、已被吊销或已过期。",
    "problem.history_not_seated": "只有这张牌桌的玩家才能回放这一手牌。",
    "problem.export_not_seated": "只有这张牌桌的玩家才能下载它的导出。",
    "problem.export_hidden_information": "这个游戏在牌局结束后仍有隐藏的信息：只有审计员能导出这张牌桌。",
    "problem.name_taken": "这个名字已经有人用了，换一个吧。",
    "problem.invalid_name": "名字要有 1 到 40 个可见字符，至少一个字母或数字。",
    "problem.invalid_label": "标签要有 1 到 40 个可见字符。",
    "problem.too_many_tokens": "你已经有 20 个可用的令牌了：先吊销一个。",
    "problem.token_not_found": "你没有这个令牌。",
    "problem.table_full": "这张牌桌已经坐满了。",
    "problem.already_seated": "你已经坐在这张牌桌上了。",
    "problem.waitSeconds": " {n} 秒后",
    "problem.waitLater": "稍后",
  },
  en: {
    "problem.room_code_required": "This table is private: it takes its room code to join.",
    "problem.room_code_wrong": "Wrong room code: that is not this table's code. Ask a friend at the table for it again.",
    "problem.room_not_found": "No open table has that room code: check the six digits, or the table has ended.",
    "problem.room_attempts_limited": "Too many wrong room codes: try again {wait}.",
    "problem.room_attempts_throttled": "Too many wrong room codes on this server: try again {wait}.",
    "problem.rooms_unavailable": "This server has no private tables.",
    "problem.unauthorized": "This token does not work: it is unknown, revoked or expired.",
    "problem.history_not_seated": "Only the table's players can replay this hand.",
    "problem.export_not_seated": "Only the table's players can download its export.",
    "problem.export_hidden_information": "This game keeps some information hidden after each deal: only the auditor may export this table.",
    "problem.name_taken": "Someone already has that name: pick another.",
    "problem.invalid_name": "A name is 1 to 40 visible characters, with a letter or a digit.",
    "problem.invalid_label": "A label is 1 to 40 visible characters.",
    "problem.too_many_tokens": "You hold 20 working tokens already: revoke one first.",
    "problem.token_not_found": "You hold no such token.",
    "problem.table_full": "Every seat at this table is taken.",
    "problem.already_seated": "You already sit at this table.",
    "problem.waitSeconds": "in {n} s",
    "problem.waitLater": "later",
  },
});

/**
 * The problem err carries as the user reads it; null when it is not an
 * ApiError with a code this module tells.
 * @param {unknown} err
 * @returns {string | null}
 */
export function problemText(err) {
  if (!(err instanceof ApiError)) return null;
  const key = "problem." + err.code;
  const wait = err.retryAfter === undefined ? t("problem.waitLater") : t("problem.waitSeconds", { n: Math.ceil(err.retryAfter) });
  const text = t(key, { wait });
  return text === key ? null : text;
}
