// @ts-check
// Downloading a table's export (GET /v1/tables/{id}/export, docs/AUDIT.md)
// from the table and replay pages. The export is read only by the table's
// players and the auditor, so a plain link (which sends no bearer token)
// cannot fetch it: the page fetches it with the token and saves the bytes
// through an object URL (blob: is same-origin; no inline script, no
// request off the origin). The file can then be dropped on /verify.

import { register, t } from "./i18n.js";
import { problemText } from "./problems.js";

register({
  zh: {
    "export.download": "下载牌桌导出",
    "export.downloading": "正在下载导出…",
    "export.saved": "已保存 {name}：把它拖到“验证”页检查。",
    "export.help": "导出是这张牌桌全部已结束牌局的哈希链记录（JSON Lines），可以在“验证”页或用 paiju verify 检查。",
  },
  en: {
    "export.download": "Download the table's export",
    "export.downloading": "Downloading the export…",
    "export.saved": "Saved {name}: drop it on the Verify page to check it.",
    "export.help": "The export is the table's hash-chained log of every ended deal (JSON Lines), to check on the Verify page or with paiju verify.",
  },
});

/**
 * Saves blob as a file named name, through a temporary object URL.
 * @param {Blob} blob
 * @param {string} name
 */
export function saveFile(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has taken the bytes once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * A button that downloads the table's export, and a line saying how it went.
 * @param {import("./app.js").AppContext} ctx
 * @param {string} tableID
 * @returns {HTMLElement}
 */
export function exportControl(ctx, tableID) {
  const box = document.createElement("div");
  box.className = "export-control";
  const b = document.createElement("button");
  b.type = "button";
  b.className = "secondary export-download";
  b.textContent = t("export.download");
  const said = document.createElement("p");
  said.className = "status export-status";
  said.setAttribute("role", "status");
  said.setAttribute("aria-live", "polite");
  const help = document.createElement("p");
  help.className = "muted";
  help.textContent = t("export.help");
  b.addEventListener("click", () => {
    b.disabled = true;
    said.classList.remove("error");
    said.textContent = t("export.downloading");
    ctx.api.exportFile(tableID)
      .then(({ blob, name }) => {
        saveFile(blob, name);
        said.textContent = t("export.saved", { name });
      })
      .catch((err) => {
        said.textContent = problemText(err) ?? ctx.describe(err);
        said.classList.add("error");
      })
      .finally(() => (b.disabled = false));
  });
  box.append(b, help, said);
  return box;
}
