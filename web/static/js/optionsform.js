// @ts-check
// The open form's table options (house rules): a disclosure holding one
// control per option of the chosen game and variant (options.js), each
// with its one-line meaning and a place for the server's refusal.
//
//   const ed = optionsEditor("create");
//   ed.show("doudizhu", "classic");   // on every change of game or variant
//   body.options = ed.values();       // only the keys away from the default
//   ed.refuse("cap", "…")             // a 422 invalid_option naming "cap"
//
// Each option is <div class="opt" data-option="KEY"> holding its control
// (name KEY; a map option's entries are named KEY.ENTRY), its help and its
// error (.opt-error, empty unless refused).

import { entryLabel, isDefault, optionHelp, optionLabel, optionsOf, valueLabel } from "./options.js";
import { t } from "./i18n.js";

/** @typedef {import("./options.js").VariantOption} VariantOption */
/** @typedef {import("./options.js").OptionValue} OptionValue */

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
 * A number input for an int or a map entry; empty stands for the key
 * absent.
 * @param {string} id
 * @param {string} name
 * @param {number | undefined} min
 * @param {number | undefined} max
 * @param {number | null} value
 * @param {string} placeholder
 */
function numberInput(id, name, min, max, value, placeholder) {
  const i = el("input");
  i.type = "number";
  i.id = id;
  i.name = name;
  i.step = "1";
  if (min !== undefined) i.min = String(min);
  if (max !== undefined) i.max = String(max);
  i.value = value === null ? "" : String(value);
  i.placeholder = placeholder;
  return i;
}

/** @param {string} s @returns {number | null} empty as null; anything else as the number the server is to judge */
function numberOf(s) {
  return s.trim() === "" ? null : Number(s);
}

/**
 * One option's control and how to read it back.
 * @typedef {Object} Control
 * @property {VariantOption} opt
 * @property {HTMLElement} box the .opt element
 * @property {HTMLElement} error
 * @property {HTMLElement} focus what a refusal focuses
 * @property {(HTMLInputElement | HTMLSelectElement)[]} inputs
 * @property {() => OptionValue} read
 */

/**
 * @param {string} prefix id prefix, unique on the page
 * @param {VariantOption} opt
 * @returns {Control}
 */
function control(prefix, opt) {
  const id = `${prefix}-opt-${opt.key}`;
  const help = el("p", "opt-help muted", optionHelp(opt));
  help.id = id + "-help";
  const error = el("p", "opt-error error");
  error.id = id + "-error";
  error.setAttribute("aria-live", "assertive");
  const described = `${help.id} ${error.id}`;

  if (opt.type === "map") {
    const box = el("fieldset", "opt opt-map");
    box.setAttribute("aria-describedby", described);
    box.append(el("legend", undefined, optionLabel(opt)));
    const row = el("div", "opt-entries");
    const inputs = opt.entries.map((e) => {
      const i = numberInput(`${id}-${e.name}`, `${opt.key}.${e.name}`, opt.min, opt.max, e.def, e.def === null ? t("opt.off") : String(e.def));
      const l = el("label", "opt-entry");
      l.append(el("span", undefined, entryLabel(opt, e.name)), i);
      row.append(l);
      return i;
    });
    box.dataset.option = opt.key;
    box.append(row, help, error);
    const read = () => {
      /** @type {Record<string, number>} */
      const m = {};
      opt.entries.forEach((e, k) => {
        const v = numberOf(inputs[k]?.value ?? "");
        if (v !== e.def && v !== null) m[e.name] = v;
        // An entry emptied whose default is a value: the server's default
        // stands (an absent entry takes it), so it is not sent.
      });
      return Object.keys(m).length > 0 ? m : null;
    };
    return { opt, box, error, focus: inputs[0] ?? box, inputs, read };
  }

  const box = el("div", "opt");
  box.dataset.option = opt.key;
  /** @type {HTMLInputElement | HTMLSelectElement} */
  let input;
  /** @type {() => OptionValue} */
  let read;
  if (opt.type === "bool") {
    const c = el("input");
    c.type = "checkbox";
    c.checked = opt.def === true;
    read = () => c.checked;
    input = c;
  } else if (opt.type === "enum") {
    const s = el("select");
    for (const v of opt.values) {
      const o = el("option", undefined, valueLabel(opt, v));
      o.value = String(v);
      s.append(o);
    }
    s.value = String(opt.def);
    read = () => (typeof opt.def === "number" ? Number(s.value) : s.value);
    input = s;
  } else {
    const def = typeof opt.def === "number" ? opt.def : null;
    const i = numberInput(id, opt.key, opt.min, opt.max, def, valueLabel(opt, def));
    // Emptied, it is the default again (for hands and cap: the key absent).
    read = () => numberOf(i.value) ?? def;
    input = i;
  }
  input.id = id;
  input.name = opt.key;
  input.setAttribute("aria-describedby", described);
  const label = el("label", "opt-label", optionLabel(opt));
  label.htmlFor = id;
  if (opt.type === "bool") {
    box.classList.add("opt-bool");
    box.append(input, label);
  } else {
    box.append(label, input);
  }
  box.append(help, error);
  return { opt, box, error, focus: input, inputs: [input], read };
}

/**
 * The table options of an open form.
 * @param {string} prefix id prefix, unique on the page
 */
export function optionsEditor(prefix) {
  const details = el("details", "options");
  const summary = el("summary", undefined, t("opt.title"));
  const count = el("span", "opt-count muted");
  summary.append(count);
  const list = el("div", "opt-list");
  details.append(summary, list);
  /** @type {Control[]} */
  let controls = [];

  const recount = () => {
    const n = controls.filter((c) => !isDefault(c.opt, c.read())).length;
    count.textContent = t("opt.count", { s: n === 0 ? t("opt.defaults") : t("opt.changed", { n }) });
  };
  list.addEventListener("input", recount);
  list.addEventListener("change", recount);

  /** Clears every refusal. */
  const clear = () => {
    for (const c of controls) {
      c.error.textContent = "";
      for (const i of c.inputs) i.removeAttribute("aria-invalid");
      c.box.classList.remove("invalid");
    }
  };

  return {
    element: details,
    /**
     * Offers the options of game and variant, each at its default.
     * @param {string} game
     * @param {string} variant
     */
    show(game, variant) {
      controls = optionsOf(game, variant).filter((o) => !o.shownOnly).map((o) => control(prefix, o));
      list.replaceChildren(...controls.map((c) => c.box));
      details.hidden = controls.length === 0;
      details.dataset.game = game;
      details.dataset.variant = variant;
      recount();
    },
    /**
     * The options away from their defaults, as the open body's `options`;
     * undefined when every option is at its default.
     * @returns {Record<string, OptionValue> | undefined}
     */
    values() {
      /** @type {Record<string, OptionValue>} */
      const out = {};
      for (const c of controls) {
        const v = c.read();
        if (!isDefault(c.opt, v)) out[c.opt.key] = v;
      }
      return Object.keys(out).length > 0 ? out : undefined;
    },
    clear,
    /**
     * Shows a refusal next to the option named by the problem; null when
     * the form offers no such option (the caller shows it elsewhere).
     * @param {string} key
     * @param {string} detail
     * @returns {string | null} the option's label when shown
     */
    refuse(key, detail) {
      clear();
      const c = controls.find((x) => x.opt.key === key);
      if (!c) return null;
      details.open = true;
      c.error.textContent = detail;
      c.box.classList.add("invalid");
      for (const i of c.inputs) i.setAttribute("aria-invalid", "true");
      c.focus.focus();
      return optionLabel(c.opt);
    },
  };
}
