// @ts-check
// A button that copies a text to the clipboard and says so. Where the
// browser refuses (no permission, an insecure origin), it selects the text
// in its field instead and asks the user to copy it by hand.

import { register, t } from "./i18n.js";

register({
  zh: {
    "copy.done": "已复制。",
    "copy.byHand": "浏览器不让复制：文字已选中，请自己复制（Ctrl+C / 长按）。",
  },
  en: {
    "copy.done": "Copied.",
    "copy.byHand": "The browser would not copy: the text is selected, copy it yourself (Ctrl+C, or long-press).",
  },
});

/**
 * @param {string} label the button's text
 * @param {() => string} text what to copy, read at the click
 * @param {HTMLElement} said where the outcome is told (a live region)
 * @param {HTMLInputElement} [field] the field that shows the text, selected when copying fails
 * @returns {HTMLButtonElement}
 */
export function copyButton(label, text, said, field) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "secondary";
  b.textContent = label;
  b.addEventListener("click", () => {
    const value = text();
    const byHand = () => {
      said.textContent = t("copy.byHand");
      field?.focus();
      field?.select();
    };
    if (!navigator.clipboard) return byHand();
    navigator.clipboard.writeText(value).then(() => {
      said.textContent = t("copy.done");
    }, byHand);
  });
  return b;
}
