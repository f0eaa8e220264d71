// @ts-check
// Private tables (私人房间) in the browser: the room code and share link a
// table's players pass on, and the form that joins by code (the lobby, the
// share link's page /join, a private table's page for a visitor without
// the code).
//
// The share link is /join#<code>: the code rides in the fragment, which the
// browser never sends to the server (openapi.yaml: the room code is never in
// a URL the server sees and logs), and /join takes it out of the address
// bar once read. The API gets the code only in the join body (and GET
// /v1/rooms/{code}, which finds the table).

import { ApiError } from "./api.js";
import { copyButton } from "./copy.js";
import { kindName } from "./games.js";
import { register, t } from "./i18n.js";
import { problemText } from "./problems.js";

/** @typedef {import("./app.js").AppContext} AppContext */

register({
  zh: {
    "room.title": "私人牌桌",
    "room.code": "房间号",
    "room.link": "邀请链接",
    "room.share": "把房间号或链接发给朋友：打开链接就能入座，也可以在大厅输入房间号。",
    "room.copyCode": "复制房间号",
    "room.copyLink": "复制链接",
    "room.join": "用房间号入座",
    "room.joinHelp": "朋友开的私人牌桌不在大厅列出：输入他给你的六位房间号。",
    "room.joinSubmit": "入座",
    "room.joining": "正在加入房间 {code}…",
    "room.found": "找到了：{kind}，底注 {stake}，空位 {free}",
    "room.sixDigits": "房间号是六位数字。",
    "room.missing": "这个链接没有带房间号：请输入朋友给你的房间号。",
    "room.private": "私人牌桌（只能用房间号加入）",
    "room.page": "加入私人牌桌",
  },
  en: {
    "room.title": "Private table",
    "room.code": "Room code",
    "room.link": "Invitation link",
    "room.share": "Send the code or the link to your friends: the link seats them, or they enter the code in the lobby.",
    "room.copyCode": "Copy the code",
    "room.copyLink": "Copy the link",
    "room.join": "Join by room code",
    "room.joinHelp": "A friend's private table is not listed in the lobby: enter the six-digit room code they gave you.",
    "room.joinSubmit": "Sit down",
    "room.joining": "Joining room {code}…",
    "room.found": "Found: {kind}, stake {stake}, {free} free",
    "room.sixDigits": "A room code is six digits.",
    "room.missing": "This link carries no room code: enter the one your friend gave you.",
    "room.private": "Private (joined by room code only)",
    "room.page": "Join a private table",
  },
});

/** @param {string} code */
export function validCode(code) {
  return /^[0-9]{6}$/.test(code);
}

/**
 * The link that seats a friend at the private table with this code.
 * @param {string} code
 */
export function shareLink(code) {
  return `${location.origin}/join#${code}`;
}

/**
 * Finds the table of code and sits down at it; returns its id. Sitting
 * there already is no failure: the caller goes to the table all the same.
 * @param {AppContext} ctx
 * @param {string} code
 * @param {(text: string) => void} [progress] told what was found
 * @returns {Promise<string>}
 */
export async function joinRoom(ctx, code, progress) {
  const room = await ctx.api.room(code);
  progress?.(t("room.found", { kind: kindName(room.game, room.variant), stake: room.stake, free: room.free_seats.length }));
  try {
    await ctx.api.join(room.table_id, undefined, code);
  } catch (err) {
    if (!(err instanceof ApiError && err.code === "already_seated")) throw err;
  }
  return room.table_id;
}

let forms = 0;

/**
 * The form that joins a private table by its code, then opens the table.
 * @param {AppContext} ctx
 * @param {{code?: string, message?: string, heading?: "h1" | "h2"}} [opts] a code to fill in, a message to show first
 * @returns {{element: HTMLFormElement, submit: () => void, fail: (err: unknown) => void}}
 */
export function roomForm(ctx, opts = {}) {
  const n = ++forms;
  const form = document.createElement("form");
  form.className = "panel room-form";
  form.noValidate = true;
  const h = document.createElement(opts.heading ?? "h2");
  h.id = `room-h-${n}`;
  h.textContent = opts.heading === "h1" ? t("room.page") : t("room.join");
  form.setAttribute("aria-labelledby", h.id);
  const help = document.createElement("p");
  help.className = "muted";
  help.textContent = t("room.joinHelp");
  const label = document.createElement("label");
  label.className = "field";
  const span = document.createElement("span");
  span.textContent = t("room.code");
  const input = document.createElement("input");
  input.name = "room_code";
  input.className = "room-code-input";
  input.inputMode = "numeric";
  input.autocomplete = "off";
  input.maxLength = 6;
  input.pattern = "[0-9]{6}";
  input.value = opts.code ?? "";
  const msgID = `room-msg-${n}`;
  input.setAttribute("aria-describedby", msgID);
  label.append(span, input);
  const submit = document.createElement("button");
  submit.type = "submit";
  submit.className = "primary";
  submit.textContent = t("room.joinSubmit");
  const msg = document.createElement("p");
  msg.id = msgID;
  msg.className = "status room-message";
  msg.setAttribute("role", "status");
  msg.setAttribute("aria-live", "polite");
  form.append(h, help, label, submit, msg);

  /** @param {string} text @param {boolean} bad */
  const say = (text, bad) => {
    msg.textContent = text;
    msg.classList.toggle("error", bad);
    if (bad) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  };
  /** @param {unknown} err */
  const fail = (err) => {
    const told = problemText(err);
    say(told ?? ctx.describe(err), true);
    if (err instanceof ApiError) msg.dataset.code = err.code;
    input.focus();
  };
  if (opts.message) say(opts.message, true);

  const go = () => {
    const code = input.value.replace(/\s+/g, "");
    delete msg.dataset.code; // set again with the next refusal's code
    if (!validCode(code)) {
      say(t("room.sixDigits"), true);
      input.focus();
      return;
    }
    submit.disabled = true;
    say(t("room.joining", { code }), false);
    joinRoom(ctx, code, (found) => say(found, false))
      .then((id) => ctx.navigate(`/tables/${encodeURIComponent(id)}`))
      .catch(fail)
      .finally(() => (submit.disabled = false));
  };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    go();
  });
  return { element: form, submit: go, fail };
}

/**
 * What a private table's players see: its code and share link, each with
 * a copy button.
 * @param {string} code
 * @returns {HTMLElement}
 */
export function sharePanel(code) {
  const box = document.createElement("section");
  box.className = "room-share";
  box.setAttribute("aria-labelledby", "room-share-h");
  const h = document.createElement("h2");
  h.id = "room-share-h";
  h.textContent = t("room.title");
  const said = document.createElement("p");
  said.className = "muted copy-said";
  said.setAttribute("aria-live", "polite");

  const codeRow = document.createElement("p");
  codeRow.className = "room-code-row";
  const codeLabel = document.createElement("span");
  codeLabel.textContent = t("room.code") + " ";
  const codeEl = document.createElement("strong");
  codeEl.className = "room-code";
  codeEl.dataset.roomCode = code;
  codeEl.textContent = code;
  codeRow.append(codeLabel, codeEl, " ", copyButton(t("room.copyCode"), () => code, said));

  const linkLabel = document.createElement("label");
  linkLabel.className = "field";
  const ls = document.createElement("span");
  ls.textContent = t("room.link");
  const link = document.createElement("input");
  link.readOnly = true;
  link.className = "room-link";
  link.value = shareLink(code);
  linkLabel.append(ls, link);
  const linkRow = document.createElement("p");
  linkRow.append(copyButton(t("room.copyLink"), () => link.value, said, link));

  const help = document.createElement("p");
  help.className = "muted";
  help.textContent = t("room.share");
  box.append(h, codeRow, linkLabel, linkRow, help, said);
  return box;
}
