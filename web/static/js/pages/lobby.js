// @ts-check
// The lobby: quick play, opening a table, and the open and running tables
// (GET /v1/tables), refreshed every few seconds.
//
// Each listed table is <li class="listing" data-table-id="..."> with a
// Join button (open tables) and a Watch link; its facts name the house
// rules it plays away from the defaults. Quick play and the open form
// offer the house rules of the game and variant chosen (optionsform.js)
// and send those changed; a refused one is shown next to its control.
// The open form may open a private table (its room code is shown on the
// table page), and a form joins one by its room code (rooms.js).

import { ApiError } from "../api.js";
import { GAMES, gameName, kindName, variantName } from "../games.js";
import { activeOptions } from "../options.js";
import { optionsEditor } from "../optionsform.js";
import { roomForm } from "../rooms.js";

/** @typedef {import("../app.js").AppContext} AppContext */
/** @typedef {import("../types.js").TableListing} TableListing */
/** @typedef {import("../types.js").OpenTable} OpenTable */
/** @typedef {ReturnType<typeof optionsEditor>} OptionsEditor */

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
 * A labelled control.
 * @param {string} label
 * @param {HTMLElement} control
 */
function field(label, control) {
  const l = el("label", "field");
  l.append(el("span", undefined, label), control);
  return l;
}

/**
 * A game select and a variant select that follows it.
 * @param {(key: string) => string} t
 * @param {string} prefix id prefix
 */
function kindPicker(t, prefix) {
  const game = el("select");
  game.name = "game";
  game.id = prefix + "-game";
  for (const g of GAMES) {
    const o = el("option", undefined, gameName(g.game));
    o.value = g.game;
    game.append(o);
  }
  const variant = el("select");
  variant.name = "variant";
  variant.id = prefix + "-variant";
  const fill = () => {
    const g = GAMES.find((x) => x.game === game.value) ?? GAMES[0];
    variant.replaceChildren(
      ...(g?.variants ?? []).map((v) => {
        const o = el("option", undefined, variantName(g?.game ?? "", v));
        o.value = v;
        return o;
      }),
    );
  };
  game.addEventListener("change", fill);
  fill();
  return { game, variant, fields: [field(t("lobby.game"), game), field(t("lobby.variant"), variant)] };
}

/**
 * The house rules of a form's game and variant, offered again whenever
 * either changes.
 * @param {{game: HTMLSelectElement, variant: HTMLSelectElement}} kind
 * @param {string} prefix id prefix
 * @returns {OptionsEditor}
 */
function withOptions(kind, prefix) {
  const editor = optionsEditor(prefix);
  const offer = () => editor.show(kind.game.value, kind.variant.value);
  // kindPicker's own listener has filled the variants by now.
  kind.game.addEventListener("change", offer);
  kind.variant.addEventListener("change", offer);
  offer();
  return editor;
}

/**
 * @param {HTMLElement} root
 * @param {Record<string, string>} _params
 * @param {AppContext} ctx
 * @returns {() => void}
 */
export function render(root, _params, ctx) {
  const { t, api } = ctx;
  const status = el("p", "status");
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  /** @param {unknown} err */
  const fail = (err) => {
    status.textContent = ctx.describe(err);
    status.classList.add("error");
  };

  /**
   * A refused option is told next to its control; the status says which,
   * for those who read the page from the top. Other errors go to the
   * status alone.
   * @param {OptionsEditor} editor
   * @param {unknown} err
   */
  const refused = (editor, err) => {
    const label = err instanceof ApiError && err.code === "invalid_option" && err.option ? editor.refuse(err.option, err.detail) : null;
    if (label === null) return fail(err);
    status.textContent = t("opt.refused", { label });
    status.classList.add("error");
  };

  const page = el("div", "lobby");
  page.append(el("h1", undefined, t("page.lobby")), status);

  // Quick play.
  const quick = el("form", "panel quick");
  quick.setAttribute("aria-labelledby", "quick-h");
  const qh = el("h2", undefined, t("lobby.quick"));
  qh.id = "quick-h";
  const qk = kindPicker(t, "quick");
  // Quick play matches tables by their options too (openapi.yaml, quickPlay).
  const qrules = withOptions(qk, "quick");
  const qb = el("button", "primary", t("lobby.quickPlay"));
  qb.type = "submit";
  quick.append(qh, el("p", "muted", t("lobby.quickHelp")), ...qk.fields, qrules.element, qb);
  quick.addEventListener("submit", (e) => {
    e.preventDefault();
    qb.disabled = true;
    qrules.clear();
    const options = qrules.values();
    // The web app's tables wait between hands: the players see each result
    // and press 继续 (openapi.yaml, OpenWaitBetweenHands).
    api.quickPlay({ game: qk.game.value, variant: qk.variant.value, wait_between_hands: true, ...(options ? { options } : {}) })
      .then((tbl) => ctx.navigate(`/tables/${encodeURIComponent(tbl.id)}`))
      .catch((err) => refused(qrules, err))
      .finally(() => (qb.disabled = false));
  });

  // Open a table.
  const create = el("form", "panel create");
  create.setAttribute("aria-labelledby", "create-h");
  const ch = el("h2", undefined, t("lobby.create"));
  ch.id = "create-h";
  const ck = kindPicker(t, "create");
  const stake = el("input");
  stake.type = "number";
  stake.name = "stake";
  stake.min = "1";
  stake.max = "1000000";
  stake.value = "1";
  stake.required = true;
  const clock = el("select");
  clock.name = "turn_seconds";
  for (const s of [30, 15, 60, 300, 0]) {
    const o = el("option", undefined, s === 0 ? t("table.noClock") : t("table.clock", { n: s }));
    o.value = String(s);
    clock.append(o);
  }
  const bots = el("select");
  bots.name = "bots";
  for (const n of [0, 1, 2, 3]) {
    const o = el("option", undefined, String(n));
    o.value = String(n);
    bots.append(o);
  }
  const rules = withOptions(ck, "create");
  const priv = el("input");
  priv.type = "checkbox";
  priv.name = "private";
  const privLabel = el("label", "check");
  privLabel.append(priv, el("span", undefined, t("room.private")));
  const cb = el("button", "primary", t("lobby.createSubmit"));
  cb.type = "submit";
  create.append(ch, ...ck.fields, field(t("lobby.stake"), stake), field(t("lobby.clock"), clock), field(t("lobby.bots"), bots), privLabel, rules.element, cb);
  create.addEventListener("submit", (e) => {
    e.preventDefault();
    cb.disabled = true;
    rules.clear();
    const options = rules.values();
    const body = /** @type {OpenTable} */ ({
      game: ck.game.value,
      variant: ck.variant.value,
      stake: Number(stake.value),
      clock: { turn_seconds: Number(clock.value) },
      bots: Number(bots.value),
      wait_between_hands: true,
      ...(options ? { options } : {}),
      ...(priv.checked ? { private: true } : {}),
    });
    api.openTable(body)
      .then(async (tbl) => {
        // A private table's answer carries its room code, which its join needs.
        await api.join(tbl.id, undefined, tbl.room_code);
        ctx.navigate(`/tables/${encodeURIComponent(tbl.id)}`);
      })
      .catch((err) => refused(rules, err))
      .finally(() => (cb.disabled = false));
  });

  // The tables.
  const lists = el("section", "panel tables");
  lists.setAttribute("aria-labelledby", "tables-h");
  const th = el("h2", undefined, t("lobby.tables"));
  th.id = "tables-h";
  const refresh = el("button", "secondary", t("lobby.refresh"));
  refresh.type = "button";
  const list = el("ul", "listings");
  list.setAttribute("aria-live", "polite");
  lists.append(th, refresh, list);

  const links = el("p", "links");
  const lb = el("a", undefined, t("nav.leaderboards"));
  lb.href = "/leaderboards";
  const tn = el("a", undefined, t("nav.tournaments"));
  tn.href = "/tournaments";
  const vf = el("a", undefined, t("nav.verify"));
  vf.href = "/verify";
  links.append(lb, " · ", tn, " · ", vf);

  const forms = el("div", "lobby-forms");
  forms.append(quick, create, roomForm(ctx).element);
  page.append(forms, lists, links);
  root.append(page);

  /** @param {TableListing} l */
  function listing(l) {
    const li = el("li", "listing");
    li.dataset.tableId = l.id;
    li.dataset.status = l.status;
    const kind = el("span", "kind", kindName(l.game, l.variant));
    const who = el("span", "who", l.players.map((p) => p.name).join(t("list.sep")) || t("lobby.nobody"));
    const facts = [t("lobby.free", { n: l.free_seats }), t("table.stake", { n: l.stake }), t("lobby.played", { n: l.hands_played })];
    if (l.spectators === "after_deal") facts.push(t("lobby.afterDeal")); // spectators see each deal once it has ended
    facts.push(...activeOptions(l.game, l.variant, l.options).map((o) => o.text));
    const meta = el("span", "meta muted", facts.join(" · "));
    li.append(kind, who, meta);
    const seated = l.players.some((p) => p.player_id === ctx.player.id);
    if (l.status === "open" && !seated) {
      const join = el("button", "primary", t("lobby.join"));
      join.type = "button";
      join.setAttribute("aria-label", `${t("lobby.join")}: ${kindName(l.game, l.variant)} ${l.id}`);
      join.addEventListener("click", () => {
        join.disabled = true;
        api.join(l.id)
          .then(() => ctx.navigate(`/tables/${encodeURIComponent(l.id)}`))
          .catch((err) => {
            join.disabled = false;
            fail(err);
          });
      });
      li.append(join);
    }
    const watch = el("a", "watch", seated ? t("lobby.back") : t("lobby.watch"));
    watch.href = `/tables/${encodeURIComponent(l.id)}`;
    li.append(watch);
    return li;
  }

  let stopped = false;
  let shown = "";
  async function load() {
    try {
      const page = await api.tables({ limit: 50 });
      if (stopped) return;
      // Redraw only what changed, so that a keyboard user's focus on a
      // Join button survives the periodic refresh.
      const now = JSON.stringify(page.tables.map((l) => [l.id, l.status, l.players, l.free_seats, l.hands_played]));
      if (now === shown) return;
      shown = now;
      const focused = document.activeElement instanceof HTMLElement && list.contains(document.activeElement)
        ? document.activeElement.closest("li")?.dataset.tableId : undefined;
      list.replaceChildren(...page.tables.map(listing));
      if (focused) {
        const again = list.querySelector(`li[data-table-id="${CSS.escape(focused)}"]`)?.querySelector("button, a");
        if (again instanceof HTMLElement) again.focus();
      }
      if (page.tables.length === 0) list.append(el("li", "muted", t("lobby.none")));
      list.dataset.loaded = "true";
    } catch (err) {
      if (!stopped) fail(err);
    }
  }
  refresh.addEventListener("click", () => void load());
  void load();
  const timer = setInterval(() => void load(), 3000);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
