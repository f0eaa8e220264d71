// @ts-check
// /join#<room code>: where a private table's share link lands. The code is
// read from the fragment (never sent to the server in a URL), taken out of
// the address bar at once, and the visitor is seated at its table and taken
// there. Without a code, or with one that finds no table or is refused, the
// page asks for the code in a form saying why.

import { roomForm, validCode } from "../rooms.js";

/**
 * @param {HTMLElement} root
 * @param {Record<string, string>} _params
 * @param {import("../app.js").AppContext} ctx
 */
export function render(root, _params, ctx) {
  let code = location.hash.replace(/^#/, "");
  try {
    code = decodeURIComponent(code).trim();
  } catch {
    // not percent-encoded text: the form says a code is six digits
  }
  if (location.hash) history.replaceState(history.state, "", location.pathname + location.search);
  const page = document.createElement("div");
  page.className = "join-page";
  const form = roomForm(ctx, {
    code: validCode(code) ? code : "",
    heading: "h1",
    ...(code === "" ? { message: ctx.t("room.missing") } : validCode(code) ? {} : { message: ctx.t("room.sixDigits") }),
  });
  page.append(form.element);
  root.append(page);
  if (validCode(code)) form.submit();
}
