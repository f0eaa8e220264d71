// @ts-check
// Placeholder until the page is written.

/**
 * @param {HTMLElement} root
 * @param {Record<string, string>} params
 * @param {import("../app.js").AppContext} ctx
 */
export function render(root, params, ctx) {
  const h = document.createElement("h1");
  h.textContent = ctx.t("page.replay");
  root.append(h);
  void params;
}
