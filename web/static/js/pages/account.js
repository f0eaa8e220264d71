// @ts-check
// /me: the browser's player and its tokens. A player exists wherever its
// token is: this page shows the browser's token on request (to copy and
// keep, or to sign in elsewhere), signs the browser in with a pasted token
// (checked with GET /v1/me first, then it replaces the stored identity),
// renames the player (PATCH /v1/me), lists its tokens (GET /v1/me/tokens),
// issues one for another device (POST, its secret shown this once) and
// revokes one (DELETE /v1/me/tokens/{id}).
//
// A token is a secret: it is shown only when asked, never logged, never
// put in a URL, and the sign-in field is a password field.

import { Api, ApiError } from "../api.js";
import { copyButton } from "../copy.js";
import { register } from "../i18n.js";
import { problemText } from "../problems.js";

/** @typedef {import("../app.js").AppContext} AppContext */
/** @typedef {import("../types.js").Token} Token */

register({
  zh: {
    "page.account": "我的账号",
    "account.who": "你是谁",
    "account.name": "名字",
    "account.id": "玩家编号",
    "account.rename": "改名",
    "account.renamed": "已改名为 {name}。",
    "account.tokenTitle": "这个浏览器的令牌",
    "account.tokenHelp": "你的身份只存在这个浏览器里，令牌就是钥匙：把它存好，就能在别的浏览器或设备上用同一个身份登录。谁拿到它，谁就能以你的名义打牌，不要给别人。",
    "account.show": "显示令牌",
    "account.hide": "隐藏令牌",
    "account.token": "令牌",
    "account.copy": "复制令牌",
    "account.signInTitle": "用令牌登录",
    "account.signInHelp": "粘贴另一个浏览器或设备的令牌：这个浏览器就换成那个玩家。现在的身份会被替换——想留着它，先把它的令牌存好。",
    "account.signIn": "登录",
    "account.signInEmpty": "请先粘贴一个令牌。",
    "account.signedIn": "已登录为 {name}。",
    "account.refused": "登录失败：{why}",
    "account.tokensTitle": "你的令牌",
    "account.tokensHelp": "每个设备一个令牌。吊销一个令牌，用它的设备就立刻退出。",
    "account.label": "用途",
    "account.created": "创建于",
    "account.lastUsed": "上次使用",
    "account.state": "状态",
    "account.never": "从未",
    "account.current": "这个浏览器",
    "account.live": "可用",
    "account.revoked": "已吊销",
    "account.expired": "已过期",
    "account.revoke": "吊销",
    "account.revokeLabel": "吊销令牌 {label}",
    "account.revokedDone": "令牌 {label} 已吊销。",
    "account.issueTitle": "给另一台设备一个令牌",
    "account.issueLabel": "设备名称（如：手机）",
    "account.issue": "生成令牌",
    "account.issued": "新令牌（只显示这一次，现在就复制）",
    "account.issuedFor": "“{label}”的令牌",
    "account.registration": "注册时发的令牌",
  },
  en: {
    "page.account": "Your account",
    "account.who": "Who you are",
    "account.name": "Name",
    "account.id": "Player id",
    "account.rename": "Rename",
    "account.renamed": "Renamed to {name}.",
    "account.tokenTitle": "This browser's token",
    "account.tokenHelp": "Your identity lives in this browser only, and the token is its key: keep it, and you can sign in as the same player in another browser or device. Whoever has it plays as you: give it to nobody.",
    "account.show": "Show the token",
    "account.hide": "Hide the token",
    "account.token": "Token",
    "account.copy": "Copy the token",
    "account.signInTitle": "Sign in with a token",
    "account.signInHelp": "Paste a token from another browser or device: this browser then plays as that player. The current identity is replaced: keep its token first if you want it back.",
    "account.signIn": "Sign in",
    "account.signInEmpty": "Paste a token first.",
    "account.signedIn": "Signed in as {name}.",
    "account.refused": "Sign-in failed: {why}",
    "account.tokensTitle": "Your tokens",
    "account.tokensHelp": "One token per device. Revoking a token signs its device out at once.",
    "account.label": "For",
    "account.created": "Created",
    "account.lastUsed": "Last used",
    "account.state": "State",
    "account.never": "never",
    "account.current": "this browser",
    "account.live": "works",
    "account.revoked": "revoked",
    "account.expired": "expired",
    "account.revoke": "Revoke",
    "account.revokeLabel": "Revoke the token {label}",
    "account.revokedDone": "The token {label} is revoked.",
    "account.issueTitle": "A token for another device",
    "account.issueLabel": "Device (e.g. phone)",
    "account.issue": "Issue a token",
    "account.issued": "The new token (shown this once only: copy it now)",
    "account.issuedFor": "Token for “{label}”",
    "account.registration": "issued at registration",
  },
});

/** Said on the page drawn after a sign-in (which draws the page again). */
let flash = "";

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [className]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/**
 * A labelled input.
 * @param {string} label
 * @param {HTMLInputElement} input
 */
function field(label, input) {
  const l = el("label", "field");
  l.append(el("span", undefined, label), input);
  return l;
}

/**
 * A section with its heading.
 * @param {string} id
 * @param {string} title
 */
function section(id, title) {
  const s = el("section", "panel " + id);
  const h = el("h2", undefined, title);
  h.id = id + "-h";
  s.setAttribute("aria-labelledby", h.id);
  s.append(h);
  return s;
}

/** A status line (a live region). */
function statusLine() {
  const p = el("p", "status");
  p.setAttribute("role", "status");
  p.setAttribute("aria-live", "polite");
  return p;
}

/**
 * @param {HTMLElement} line
 * @param {string} text
 * @param {boolean} [bad]
 */
function say(line, text, bad = false) {
  line.textContent = text;
  line.classList.toggle("error", bad);
}

/**
 * @param {HTMLElement} root
 * @param {Record<string, string>} _params
 * @param {AppContext} ctx
 * @returns {() => void}
 */
export function render(root, _params, ctx) {
  const { t, api } = ctx;
  let gone = false;
  /** @param {unknown} err */
  const told = (err) => problemText(err) ?? ctx.describe(err);
  /** @param {string | null} s */
  const when = (s) => (s ? new Date(s).toLocaleString(ctx.lang === "zh" ? "zh-CN" : "en") : t("account.never"));

  const page = el("div", "account");
  const status = statusLine();
  page.append(el("h1", undefined, t("page.account")), status);
  if (flash) {
    say(status, flash);
    flash = "";
  }

  // Who you are, and renaming.
  const who = section("account-who", t("account.who"));
  const idLine = el("p");
  idLine.append(el("span", undefined, t("account.id") + " "), el("code", "player-id", ctx.player.id));
  const rename = el("form", "rename");
  const name = el("input");
  name.name = "name";
  name.value = ctx.player.name;
  name.maxLength = 40;
  name.autocomplete = "off";
  const renameBtn = el("button", "primary", t("account.rename"));
  renameBtn.type = "submit";
  const renameSaid = statusLine();
  rename.append(field(t("account.name"), name), renameBtn, renameSaid);
  rename.addEventListener("submit", (e) => {
    e.preventDefault();
    renameBtn.disabled = true;
    api.rename(name.value)
      .then((me) => {
        ctx.setPlayer({ ...ctx.player, name: me.name });
        name.value = me.name;
        name.removeAttribute("aria-invalid");
        say(renameSaid, t("account.renamed", { name: me.name }));
      })
      .catch((err) => {
        name.setAttribute("aria-invalid", "true");
        say(renameSaid, told(err), true);
        name.focus();
      })
      .finally(() => (renameBtn.disabled = false));
  });
  who.append(idLine, rename);

  // This browser's token: shown on request only.
  const mine = section("account-token", t("account.tokenTitle"));
  const reveal = el("button", "secondary show-token", t("account.show"));
  reveal.type = "button";
  reveal.setAttribute("aria-expanded", "false");
  reveal.setAttribute("aria-controls", "account-token-box");
  const tokenBox = el("div", "token-box");
  tokenBox.id = "account-token-box";
  tokenBox.hidden = true;
  const tokenSaid = el("p", "muted copy-said");
  tokenSaid.setAttribute("aria-live", "polite");
  reveal.addEventListener("click", () => {
    const open = tokenBox.hidden;
    tokenBox.hidden = !open;
    reveal.setAttribute("aria-expanded", String(open));
    reveal.textContent = open ? t("account.hide") : t("account.show");
    if (open) {
      // Put in the page only while shown.
      const input = el("input", "token-value");
      input.readOnly = true;
      input.value = ctx.player.token;
      input.autocomplete = "off";
      input.spellcheck = false;
      tokenBox.replaceChildren(field(t("account.token"), input), copyButton(t("account.copy"), () => ctx.player.token, tokenSaid, input), tokenSaid);
    } else {
      tokenBox.replaceChildren();
      tokenSaid.textContent = "";
    }
  });
  mine.append(el("p", "muted", t("account.tokenHelp")), reveal, tokenBox);

  // Signing in with a pasted token.
  const signIn = section("account-signin", t("account.signInTitle"));
  const signForm = el("form", "sign-in");
  const pasted = el("input");
  pasted.type = "password";
  pasted.name = "token";
  pasted.autocomplete = "off";
  pasted.spellcheck = false;
  const signBtn = el("button", "primary", t("account.signIn"));
  signBtn.type = "submit";
  const signSaid = statusLine();
  signForm.append(field(t("account.token"), pasted), signBtn, signSaid);
  signForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const token = pasted.value.trim();
    if (!token) {
      say(signSaid, t("account.signInEmpty"), true);
      pasted.focus();
      return;
    }
    signBtn.disabled = true;
    new Api(token).me()
      .then((me) => {
        pasted.value = "";
        ctx.setPlayer({ id: me.id, name: me.name, token });
        flash = t("account.signedIn", { name: me.name });
        ctx.navigate("/me");
      })
      .catch((err) => {
        pasted.setAttribute("aria-invalid", "true");
        say(signSaid, t("account.refused", { why: told(err) }), true);
        if (err instanceof ApiError) signSaid.dataset.code = err.code;
        pasted.focus();
      })
      .finally(() => (signBtn.disabled = false));
  });
  signIn.append(el("p", "muted", t("account.signInHelp")), signForm);

  // The player's tokens.
  const tokens = section("account-tokens", t("account.tokensTitle"));
  const tokensSaid = statusLine();
  const list = el("ul", "token-list");
  list.setAttribute("aria-label", t("account.tokensTitle"));
  const issue = el("form", "issue-token");
  const label = el("input");
  label.name = "label";
  label.maxLength = 40;
  const issueBtn = el("button", "secondary", t("account.issue"));
  issueBtn.type = "submit";
  const issued = el("div", "issued");
  issued.setAttribute("aria-live", "polite");
  const issueTitle = el("h3", undefined, t("account.issueTitle"));
  issue.append(issueTitle, field(t("account.issueLabel"), label), issueBtn);
  tokens.append(el("p", "muted", t("account.tokensHelp")), tokensSaid, list, issue, issued);

  /** @param {Token} tk */
  function row(tk) {
    const li = el("li", "token");
    li.dataset.tokenId = tk.id;
    const expired = tk.expires_at !== null && new Date(tk.expires_at).getTime() <= Date.now();
    const state = tk.revoked_at ? "revoked" : expired ? "expired" : tk.current ? "current" : "live";
    li.dataset.state = state;
    li.append(
      // POST /v1/players labels the token it issues "registration".
      el("strong", "token-label", tk.label === "registration" ? t("account.registration") : tk.label),
      el("span", "token-state" + (state === "current" ? "" : " muted"), t("account." + state)),
      el("span", "muted", `${t("account.created")} ${when(tk.created_at)} · ${t("account.lastUsed")} ${when(tk.last_used_at)}`),
    );
    if (state === "live") {
      const b = el("button", "secondary revoke", t("account.revoke"));
      b.type = "button";
      b.setAttribute("aria-label", t("account.revokeLabel", { label: tk.label }));
      b.addEventListener("click", () => {
        b.disabled = true;
        api.revokeToken(tk.id)
          .then(() => {
            say(tokensSaid, t("account.revokedDone", { label: tk.label }));
            return load();
          })
          .catch((err) => {
            b.disabled = false;
            say(tokensSaid, told(err), true);
          });
      });
      li.append(b);
    }
    return li;
  }

  async function load() {
    try {
      const got = await api.tokens();
      if (gone) return;
      list.replaceChildren(...got.tokens.map(row));
      list.dataset.loaded = "true";
    } catch (err) {
      if (!gone) say(tokensSaid, told(err), true);
    }
  }

  issue.addEventListener("submit", (e) => {
    e.preventDefault();
    issueBtn.disabled = true;
    api.createToken(label.value)
      .then((tk) => {
        label.value = "";
        label.removeAttribute("aria-invalid");
        const secret = el("input", "issued-token");
        secret.readOnly = true;
        secret.value = tk.token;
        secret.autocomplete = "off";
        secret.spellcheck = false;
        secret.dataset.tokenId = tk.id;
        const said = el("p", "muted copy-said");
        said.setAttribute("aria-live", "polite");
        issued.replaceChildren(
          el("p", undefined, t("account.issued")),
          field(t("account.issuedFor", { label: tk.label }), secret),
          copyButton(t("account.copy"), () => secret.value, said, secret),
          said,
        );
        return load();
      })
      .catch((err) => {
        label.setAttribute("aria-invalid", "true");
        say(tokensSaid, told(err), true);
        label.focus();
      })
      .finally(() => (issueBtn.disabled = false));
  });

  page.append(who, mine, signIn, tokens);
  root.append(page);
  void load();
  return () => {
    gone = true;
  };
}
