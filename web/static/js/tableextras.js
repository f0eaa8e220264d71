// @ts-check
// What the table page shows beside the play, kept out of pages/table.js:
// a private table's room code and share link (to its players), the
// export download (to its players), and, to a visitor refused a private
// table for want of its code, the form that joins by code.
//
// It reads the table's view once when the page opens: the code and who
// sits there do not change under a player's eyes in a way these controls
// depend on. It is [data-loaded="true"] once it has.

import { ApiError } from "./api.js";
import { exportControl } from "./exportfile.js";
import { problemText } from "./problems.js";
import { roomForm, sharePanel } from "./rooms.js";

/**
 * @param {string} id the table
 * @param {import("./app.js").AppContext} ctx
 * @returns {HTMLElement}
 */
export function tableExtras(id, ctx) {
  const box = document.createElement("div");
  box.className = "table-extras";
  ctx.api.table(id).then((v) => {
    if (v.room_code) box.append(sharePanel(v.room_code));
    if (v.seat !== null) box.append(exportControl(ctx, id));
  }, (err) => {
    if (err instanceof ApiError && (err.code === "room_code_required" || err.code === "room_code_wrong")) {
      box.append(roomForm(ctx, { message: problemText(err) ?? ctx.describe(err) }).element);
    }
    // Anything else the table page itself says.
  }).finally(() => (box.dataset.loaded = "true"));
  return box;
}
